"""assertion-free-test for Python, driven through the real engine on real git repositories.

Each scenario commits a base and a head in a temporary repository and runs the
engine in-process (``build_change`` + ``analyze``), so diff parsing, snapshots,
suppressions and the analyzer are all the real ones; a few tests run the CLI.
"""

from __future__ import annotations

import ast
import json
import re
import warnings
from pathlib import Path

import pytest

from tests.engine_helpers import Files, run_range, src
from tests.gitrepo import GitRepo
from tribunal.engine.registry import BUILTINS
from tribunal.findings import Finding, Verdict
from tribunal.lang.python.asserts import misspelled_mock_assert
from tribunal.lang.python.consts import Raises, Unknown, evaluate
from tribunal.lang.python.judge import judge_test
from tribunal.lang.python.pytest_naming import PytestNaming, is_test_file, naming_from_config
from tribunal.lang.python.testcases import ModuleIndex, discover_tests, parse_module, parse_source

ID = "assertion-free-test"
C, U, P = "CONTRADICTED", "UNVERIFIED", "PASS"


def judged(repo: GitRepo, base: Files, head: Files, config: str | None = None) -> list[Finding]:
    """Commit ``base`` then ``head`` and return the analyzer's findings for the range."""
    return run_range(repo, base, head, ID, config=config)


def by_test(findings: list[Finding]) -> dict[str, str]:
    """``{qualified test name: verdict name}`` from the findings' titles."""
    out = {}
    for finding in findings:
        match = re.search(r"`([^`]+)`", finding.title)
        assert match is not None, finding.title
        out[match[1]] = finding.verdict.name
    return out


# --- the rules, one file of tests judged at once -------------------------------------------

RULES = src(
    '''
    import unittest
    from unittest import mock
    import numpy as np
    import pytest
    from pytest import raises as expect_raises
    from hypothesis import given, strategies as st

    def test_empty():
        pass

    def test_ellipsis():
        ...

    def test_docstring_only():
        """Checks the parser."""

    def test_doctest_docstring():
        """
        >>> parse("1")
        1
        """

    def test_literals_only():
        x = 1 + 1
        y = x * 2
        label = "a" if y > 3 else "b"

    def test_literal_assert():
        assert True

    def test_tautology_on_locals():
        total = 2 + 2
        assert total == 4

    def test_division_by_zero_can_fail():
        ratio = 1 / 0

    def test_modulo_zero_can_fail():
        x = 0
        y = 5 % x

    def test_subscript_can_fail():
        x = (1, 2)[5]

    def test_unpack_mismatch_can_fail():
        a, b = (1, 2, 3)

    def test_smoke_call():
        build_app()

    def test_smoke_import():
        import mypackage.module

    def test_smoke_iterates():
        for item in range(3):
            pass

    def test_helper_defined_later():
        check_result(compute())

    def test_noop_helper_only():
        nothing_here()

    def test_helper_that_calls_code():
        calls_code()

    def test_recursive_helpers():
        ping()

    def test_pytest_raises_context():
        with pytest.raises(ValueError):
            int("x")

    def test_pytest_raises_alias():
        with expect_raises(KeyError):
            {}["x"]

    def test_pytest_warns():
        with pytest.warns(UserWarning):
            emit()

    def test_pytest_fail():
        if broken():
            pytest.fail("broken")

    def test_mock_assert():
        m = mock.Mock()
        run(m)
        m.assert_called_once_with(1)

    def test_misspelled_mock():
        m = mock.Mock()
        run(m)
        m.called_once_with(1)

    def test_misspelled_mock_assert_prefix():
        m = mock.Mock()
        run(m)
        m.assert_called_once_wiht(1)

    def test_numpy_assert():
        np.testing.assert_allclose(compute(), 1.0)

    def test_raise_check():
        if compute() != 1:
            raise AssertionError("bad")

    def test_fixture_param(tmp_path):
        pass

    def test_request_param(request):
        pass

    @pytest.mark.usefixtures("db")
    def test_usefixtures():
        pass

    @pytest.mark.parametrize("value", [1, 2])
    def test_parametrized_empty(value):
        pass

    @pytest.mark.parametrize("value", [1, 2])
    def test_parametrized_asserts(value):
        assert value > 0

    @given(st.integers())
    def test_given_empty(n):
        pass

    @pytest.mark.slow
    def test_marked_empty():
        pass

    @pytest.mark.xfail(strict=True)
    def test_xfail_empty():
        pass

    @mock.patch("os.getcwd")
    def test_patched(getcwd):
        pass

    @some_decorator
    def test_unknown_decorator():
        pass

    @pytest.mark.skip(reason="later")
    def test_skipped():
        pass

    @pytest.mark.skipif(True, reason="never")
    def test_skipif_true():
        pass

    @pytest.mark.skipif(False, reason="always runs")
    def test_skipif_false():
        pass

    @unittest.skipIf(True, "never")
    def test_unittest_skipif_true():
        pass

    def test_skips_in_body():
        pytest.skip("not yet")

    async def test_async_empty():
        pass

    async def test_async_awaits():
        await fetch()

    async def test_async_asserts():
        assert await fetch() == 1

    def test_returns_first():
        return
        assert compute() == 1

    def test_dead_branch():
        if False:
            assert compute() == 1

    def test_nested_helper_called():
        def inner():
            assert compute()
        inner()

    def test_nested_helper_never_called():
        def inner():
            assert compute()

    def test_lambda_callback():
        run(lambda: check_result(1))

    def test_generator():
        yield 1

    def test_shadowed():
        pass

    def test_shadowed():
        assert compute()

    def test_returns_a_value():
        return {"a": 1}

    def test_marked_not_a_test():
        pass

    test_marked_not_a_test.__test__ = False

    if False:
        def test_never_defined():
            pass

    if sys.version_info >= (3, 99):
        def maybe_helper():
            pass

    def test_conditional_helper():
        maybe_helper()

    def check_result(value):
        assert value == 1

    def nothing_here():
        x = 1

    def calls_code():
        build_app()

    def ping():
        pong()

    def pong():
        ping()

    class TestPlain:
        def test_method_empty(self):
            pass

        def test_method_helper(self):
            self.verify(3)

        def test_method_noop_helper(self):
            self.noop()

        def verify(self, value):
            assert value

        def noop(self):
            pass

        @staticmethod
        def test_static_empty():
            pass

        class TestNested:
            def test_nested_class_empty(self):
                pass

    class TestRebound:
        def test_rebound_helper(self):
            self.check()

        def check(self):
            pass

        check = staticmethod(external_check)

    class TestWithSetup:
        def setup_method(self):
            self.x = connect()

        def test_empty_with_setup(self):
            pass

    class TestAutouse:
        @pytest.fixture(autouse=True)
        def _prepare(self):
            yield

        def test_empty_with_autouse(self):
            pass

    @pytest.mark.skip
    class TestSkippedClass:
        def test_inside_skipped_class(self):
            pass

    class TestHasInit:
        def __init__(self):
            self.x = 1

        def test_not_collected(self):
            pass

    class Helpers:
        def test_not_a_test_class(self):
            pass

    class TestFromElsewhere(SomeBase):
        def test_inherits_foreign_base(self):
            pass

    class MyCase(unittest.TestCase):
        def test_unittest_asserts(self):
            self.assertEqual(compute(), 1)

        def test_unittest_fail(self):
            if compute():
                self.fail("no")

        def test_unittest_empty(self):
            pass

        def test_subtest_empty(self):
            for i in range(3):
                with self.subTest(i=i):
                    pass

        def test_subtest_asserts(self):
            for i in range(3):
                with self.subTest(i=i):
                    self.assertTrue(i >= 0)

        def helper_not_a_test(self):
            pass

    class DerivedCase(MyCase):
        def test_derived_empty(self):
            pass

    class AsyncCase(unittest.IsolatedAsyncioTestCase):
        async def test_native_async_empty(self):
            pass

    class TestNoSelf:
        def test_without_self():
            pass

    class WithSetUp(unittest.TestCase):
        def setUp(self):
            self.client = make_client()

        def test_empty_with_setup(self):
            pass

    @unittest.skip("later")
    class SkippedCase(unittest.TestCase):
        def test_skipped_case(self):
            pass
    '''
)

EXPECTED = {
    "test_empty": C,
    "test_ellipsis": C,
    "test_docstring_only": C,
    "test_doctest_docstring": U,
    "test_literals_only": C,
    "test_literal_assert": C,
    "test_tautology_on_locals": C,
    "test_division_by_zero_can_fail": U,
    "test_modulo_zero_can_fail": U,
    "test_subscript_can_fail": U,
    "test_unpack_mismatch_can_fail": U,
    "test_smoke_call": U,
    "test_smoke_import": U,
    "test_smoke_iterates": U,
    "test_helper_defined_later": P,
    "test_noop_helper_only": C,
    "test_helper_that_calls_code": U,
    "test_recursive_helpers": U,
    "test_pytest_raises_context": P,
    "test_pytest_raises_alias": P,
    "test_pytest_warns": P,
    "test_pytest_fail": P,
    "test_mock_assert": P,
    "test_misspelled_mock": U,
    "test_misspelled_mock_assert_prefix": U,
    "test_numpy_assert": P,
    "test_raise_check": P,
    "test_fixture_param": U,
    "test_request_param": U,
    "test_usefixtures": U,
    "test_parametrized_empty": C,
    "test_parametrized_asserts": P,
    "test_given_empty": U,
    "test_marked_empty": C,
    "test_xfail_empty": U,
    "test_patched": U,
    "test_unknown_decorator": U,
    "test_skipif_false": C,
    "test_async_empty": U,
    "test_async_awaits": U,
    "test_async_asserts": P,
    "test_returns_first": C,
    "test_dead_branch": C,
    "test_nested_helper_called": P,
    "test_nested_helper_never_called": C,
    "test_lambda_callback": P,
    "test_generator": U,
    "test_shadowed": P,  # the second definition; the first is shadowed (see below)
    "test_returns_a_value": U,
    "test_conditional_helper": U,
    "TestRebound.test_rebound_helper": U,
    "TestPlain.test_method_empty": C,
    "TestPlain.test_method_helper": C,  # verify(3) asserts a literal: it can never fail
    "TestPlain.test_method_noop_helper": C,
    "TestPlain.test_static_empty": C,
    "TestPlain.TestNested.test_nested_class_empty": C,
    "TestWithSetup.test_empty_with_setup": U,
    "TestAutouse.test_empty_with_autouse": U,
    "TestFromElsewhere.test_inherits_foreign_base": U,
    "MyCase.test_unittest_asserts": P,
    "MyCase.test_unittest_fail": P,
    "MyCase.test_unittest_empty": C,
    "MyCase.test_subtest_empty": U,
    "MyCase.test_subtest_asserts": P,
    "DerivedCase.test_derived_empty": C,
    "WithSetUp.test_empty_with_setup": U,
    "AsyncCase.test_native_async_empty": C,
    "TestNoSelf.test_without_self": U,
}


@pytest.fixture(scope="module")
def rule_findings(tmp_path_factory: pytest.TempPathFactory) -> list[Finding]:
    repo = GitRepo.init(tmp_path_factory.mktemp("rules") / "repo")
    return judged(repo, {}, {"tests/test_rules.py": RULES})


def test_every_rule_case_gets_its_verdict(rule_findings: list[Finding]) -> None:
    got = by_test(rule_findings)
    wrong = {
        name: (got.get(name), want) for name, want in EXPECTED.items() if got.get(name) != want
    }
    assert wrong == {}


def test_skipped_and_uncollected_tests_get_no_finding(rule_findings: list[Finding]) -> None:
    got = by_test(rule_findings)
    never = {
        "test_skipped",
        "test_skipif_true",
        "test_unittest_skipif_true",
        "test_skips_in_body",
        "TestSkippedClass.test_inside_skipped_class",
        "TestHasInit.test_not_collected",
        "Helpers.test_not_a_test_class",
        "MyCase.helper_not_a_test",
        "SkippedCase.test_skipped_case",
        "test_marked_not_a_test",
        "test_never_defined",
    }
    assert never & set(got) == set()
    assert set(got) == set(EXPECTED)


def test_both_definitions_of_a_shadowed_name_are_judged(rule_findings: list[Finding]) -> None:
    shadowed = [f for f in rule_findings if "`test_shadowed`" in f.title]
    assert [f.verdict for f in shadowed] == [Verdict.UNVERIFIED, Verdict.PASS]
    assert "bound again at line" in shadowed[0].detail


def test_findings_carry_span_title_and_evidence(rule_findings: list[Finding]) -> None:
    lines = RULES.splitlines()
    empty = next(f for f in rule_findings if "`test_empty`" in f.title)
    assert (empty.line, empty.end_line) == (8, 9)
    assert lines[8 - 1] == "def test_empty():"
    assert empty.title == "test `test_empty` asserts nothing and can never fail"
    assert "its body is empty" in empty.detail
    assert empty.language == "python"
    helper = next(f for f in rule_findings if "`test_helper_defined_later`" in f.title)
    assert "via `check_result`" in helper.detail
    smoke = next(f for f in rule_findings if "`test_smoke_call`" in f.title)
    assert "calls `build_app()`" in smoke.detail


def test_misspelled_mock_assertion_is_named_in_the_detail(rule_findings: list[Finding]) -> None:
    slip = next(f for f in rule_findings if "`test_misspelled_mock`" in f.title)
    assert "`m.called_once_with(...)` at line" in slip.detail
    assert "did you mean `assert_called_once_with`?" in slip.detail
    prefixed = next(f for f in rule_findings if "test_misspelled_mock_assert_prefix" in f.title)
    assert "`m.assert_called_once_wiht(...)`" in prefixed.detail


def test_setup_reasons_are_given(rule_findings: list[Finding]) -> None:
    details = {by_test([f]).popitem()[0]: f.detail for f in rule_findings}
    assert "`tmp_path`" in details["test_fixture_param"]
    assert "usefixtures" in details["test_usefixtures"]
    assert "hypothesis" in details["test_given_empty"]
    assert "setup_method" in details["TestWithSetup.test_empty_with_setup"]
    assert "autouse fixture `_prepare`" in details["TestAutouse.test_empty_with_autouse"]
    assert "`SomeBase`" in details["TestFromElsewhere.test_inherits_foreign_base"]


# --- what "touched" means ------------------------------------------------------------------

TWO_TESTS = src(
    """
    def test_old_empty():
        pass


    def test_kept():
        value = compute()
        assert value == 1
    """
)


def test_only_touched_tests_are_judged(repo: GitRepo) -> None:
    head = TWO_TESTS + "\n\ndef test_new():\n    assert compute() == 2\n"
    found = judged(repo, {"test_a.py": TWO_TESTS}, {"test_a.py": head})
    assert by_test(found) == {"test_new": P}


def test_a_deleted_assertion_alone_makes_the_test_touched(repo: GitRepo) -> None:
    head = TWO_TESTS.replace("    assert value == 1\n", "")
    found = judged(repo, {"test_a.py": TWO_TESTS}, {"test_a.py": head})
    assert by_test(found) == {"test_kept": U}
    assert found[0].line == 5


def test_deleting_the_last_assertion_of_a_literal_test_is_contradicted(repo: GitRepo) -> None:
    base = "def test_x():\n    expected = 3\n    assert compute() == expected\n"
    found = judged(repo, {"test_x.py": base}, {"test_x.py": "def test_x():\n    expected = 3\n"})
    assert by_test(found) == {"test_x": C}


def test_a_deletion_next_to_a_test_does_not_touch_it(repo: GitRepo) -> None:
    base = (
        "import pytest\ndef test_a():\n    pass\n@pytest.mark.slow\ndef test_b():\n    assert f()\n"
    )
    head = base.replace("@pytest.mark.slow\n", "")
    assert by_test(judged(repo, {"test_x.py": base}, {"test_x.py": head})) == {"test_b": P}


def test_a_test_whose_decorator_line_alone_changed_is_judged(repo: GitRepo) -> None:
    base = "import pytest\n\n@pytest.mark.slow\ndef test_x():\n    pass\n"
    head = base.replace("mark.slow", "mark.fast")
    found = judged(repo, {"test_x.py": base}, {"test_x.py": head})
    assert by_test(found) == {"test_x": C}
    assert found[0].line == 4 and found[0].end_line == 5


def test_removing_a_skip_decorator_makes_the_test_judged(repo: GitRepo) -> None:
    base = "import pytest\n\n@pytest.mark.skip\ndef test_x():\n    pass\n"
    head = "import pytest\n\ndef test_x():\n    pass\n"
    assert by_test(judged(repo, {"test_x.py": base}, {"test_x.py": head})) == {"test_x": C}


def test_adding_a_skip_silences_the_test(repo: GitRepo) -> None:
    base = "def test_x():\n    pass\n"
    head = "import pytest\n\n@pytest.mark.skip\ndef test_x():\n    pass\n"
    assert judged(repo, {"test_x.py": base}, {"test_x.py": head}) == []


def test_a_renamed_test_file_is_measured_against_its_old_path(repo: GitRepo) -> None:
    base = TWO_TESTS
    head = TWO_TESTS.replace("    assert value == 1\n", "")
    repo.commit({"tests/test_one.py": base})
    repo.git("mv", "tests/test_one.py", "tests/test_two.py")
    found = judged(repo, {}, {"tests/test_two.py": head})
    assert by_test(found) == {"test_kept": U}
    assert found[0].file == "tests/test_two.py"


def test_a_deleted_test_file_gets_no_finding(repo: GitRepo) -> None:
    assert judged(repo, {"test_x.py": "def test_x():\n    pass\n"}, {"test_x.py": None}) == []


def test_crlf_files_are_judged_with_the_right_lines(repo: GitRepo) -> None:
    base = TWO_TESTS.replace("\n", "\r\n").encode()
    head = TWO_TESTS.replace("    assert value == 1\n", "").replace("\n", "\r\n").encode()
    found = judged(repo, {"test_crlf.py": base}, {"test_crlf.py": head})
    assert by_test(found) == {"test_kept": U}
    assert (found[0].line, found[0].end_line) == (5, 6)


def test_a_coding_cookie_is_honoured(repo: GitRepo) -> None:
    head = "# -*- coding: latin-1 -*-\ndef test_x():\n    label = 'caf\xe9'\n".encode("latin-1")
    assert by_test(judged(repo, {}, {"test_latin.py": head})) == {"test_x": C}


def test_an_unparsable_test_file_gets_one_unverified_finding(repo: GitRepo) -> None:
    head = "def test_x():\n    pass\n\ndef test_y(:\n    pass\n"
    found = judged(repo, {}, {"test_broken.py": head})
    assert len(found) == 1
    assert found[0].verdict is Verdict.UNVERIFIED
    assert found[0].line == 4
    assert "could not be parsed" in found[0].title


def test_files_that_are_not_test_files_are_not_judged(repo: GitRepo) -> None:
    head = {
        "helpers.py": "def test_like():\n    pass\n",
        "tests/conftest.py": "def x():\n    pass\n",
    }
    assert judged(repo, {}, head) == []


def test_a_suppression_above_the_test_downgrades_it(repo: GitRepo) -> None:
    head = (
        "# tribunal: ignore[assertion-free-test] placeholder until #12\ndef test_x():\n    pass\n"
    )
    found = judged(repo, {}, {"test_x.py": head})
    assert [(f.verdict, f.suppressed) for f in found] == [
        (Verdict.UNVERIFIED, "placeholder until #12")
    ]


# --- project configuration -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("config_file", "text"),
    [
        ("pyproject.toml", '[tool.pytest.ini_options]\npython_files = ["check_*.py"]\n'),
        ("pytest.ini", "[pytest]\npython_files = check_*.py\n"),
        ("setup.cfg", "[tool:pytest]\npython_files =\n    check_*.py\n"),
        ("tox.ini", "[tox]\nenvlist = py\n\n[pytest]\npython_files = check_*.py\n"),
    ],
)
def test_configured_file_patterns_replace_the_defaults(
    repo: GitRepo, config_file: str, text: str
) -> None:
    empty = "def test_x():\n    pass\n"
    head = {config_file: text, "tests/check_api.py": empty, "tests/test_api.py": empty}
    found = judged(repo, {}, head)
    assert [(f.file, f.verdict.name) for f in found] == [("tests/check_api.py", C)]


def test_configured_function_and_class_names_are_honoured(repo: GitRepo) -> None:
    config = '[tool.pytest.ini_options]\npython_functions = "check_*"\npython_classes = "Suite"\n'
    code = "def check_a():\n    pass\n\nclass SuiteOne:\n    def check_b(self):\n        pass\n"
    found = judged(repo, {}, {"pyproject.toml": config, "test_x.py": code})
    assert by_test(found) == {"check_a": C, "SuiteOne.check_b": C}


def test_an_autouse_fixture_in_a_parent_conftest_makes_empty_tests_unverified(
    repo: GitRepo,
) -> None:
    conftest = "import pytest\n\n@pytest.fixture(autouse=True)\ndef db():\n    yield\n"
    head = {"tests/conftest.py": conftest, "tests/unit/test_x.py": "def test_x():\n    pass\n"}
    found = judged(repo, {}, head)
    assert by_test(found) == {"test_x": U}
    assert "tests/conftest.py` has autouse fixture `db`" in found[0].detail


def test_an_autouse_fixture_made_without_a_decorator_counts(repo: GitRepo) -> None:
    conftest = (
        "import pytest\n\ndef _env():\n    yield\n\nenv = pytest.fixture(autouse=True)(_env)\n"
    )
    head = {"conftest.py": conftest, "tests/test_x.py": "def test_x():\n    pass\n"}
    assert by_test(judged(repo, {}, head)) == {"test_x": U}


def test_the_usefixtures_ini_option_makes_empty_tests_unverified(repo: GitRepo) -> None:
    head = {
        "pytest.ini": "[pytest]\nusefixtures = db\n",
        "tests/test_x.py": "def test_x():\n    pass\n",
    }
    found = judged(repo, {}, head)
    assert by_test(found) == {"test_x": U}
    assert "`pytest.ini` applies usefixtures = db" in found[0].detail


AUTOUSE = "import pytest\n\n@pytest.fixture(autouse=True)\ndef clean_db():\n    yield\n"
EMPTY = "def test_x():\n    pass\n"


@pytest.mark.parametrize(
    ("files", "verdict"),
    [
        ({"tests/fixtures.py": AUTOUSE, "tests/test_x.py": "from tests.fixtures import *\n"}, U),
        ({"tests/fixtures.py": AUTOUSE, "tests/test_x.py": "from .fixtures import clean_db\n"}, U),
        ({"tests/fixtures.py": AUTOUSE, "tests/test_x.py": "from fixtures import clean_db\n"}, U),
        (
            {
                "tests/fx/__init__.py": "from .db import *\n",
                "tests/fx/db.py": AUTOUSE,
                "tests/test_x.py": "from tests.fx import clean_db\n",
            },
            U,
        ),
        ({"tests/fixtures.py": AUTOUSE, "tests/test_x.py": "from .fixtures import other\n"}, C),
        (
            {
                "src/app/__init__.py": "def parse(s):\n    return s\n",
                "tests/test_x.py": "from app import parse\n",
            },
            C,
        ),
        ({"tests/test_x.py": "from somelib.fixtures import *\n"}, C),
    ],
)
def test_imports_that_bring_autouse_fixtures(
    repo: GitRepo, files: dict[str, str], verdict: str
) -> None:
    head = {**files, "tests/test_x.py": files["tests/test_x.py"] + "\n\n" + EMPTY}
    assert by_test(judged(repo, {}, head)) == {"test_x": verdict}


def test_a_conftest_without_autouse_fixtures_changes_nothing(repo: GitRepo) -> None:
    conftest = "import pytest\n\n@pytest.fixture\ndef db():\n    yield\n"
    head = {"conftest.py": conftest, "tests/test_x.py": "def test_x():\n    pass\n"}
    assert by_test(judged(repo, {}, head)) == {"test_x": C}


def test_a_conftest_in_a_sibling_directory_does_not_apply(repo: GitRepo) -> None:
    conftest = "import pytest\n\n@pytest.fixture(autouse=True)\ndef db():\n    yield\n"
    head = {"other/conftest.py": conftest, "tests/test_x.py": "def test_x():\n    pass\n"}
    assert by_test(judged(repo, {}, head)) == {"test_x": C}


def test_the_analyzer_can_be_disabled(repo: GitRepo) -> None:
    config = "analyzers:\n  assertion-free-test: false\n"
    assert judged(repo, {}, {"test_x.py": "def test_x():\n    pass\n"}, config) == []


# --- the real CLI --------------------------------------------------------------------------


def only_this_analyzer(repo: GitRepo) -> None:
    """A tribunal.yml (untracked) that enables this analyzer alone, whatever else is built."""
    lines = [f"  {name}: {str(name == ID).lower()}" for name in BUILTINS]
    repo.write({"tribunal.yml": "analyzers:\n" + "\n".join(lines) + "\n"})


def test_cli_json_reports_the_verdicts(repo: GitRepo) -> None:
    base = repo.commit({"README": "x\n"})
    only_this_analyzer(repo)
    repo.commit(
        {"tests/test_api.py": "def test_a():\n    pass\n\ndef test_b():\n    assert 1 < f()\n"}
    )
    result = repo.tribunal("check", "--base", base, "--head", "HEAD", "--format", "json")
    assert result.code == 0, result.stderr
    report = json.loads(result.stdout)
    mine = [(f["line"], f["verdict"]) for f in report["findings"] if f["analyzer"] == ID]
    assert mine == [(1, C), (4, P)]


def test_cli_hard_fail_blocks_on_an_empty_test(repo: GitRepo) -> None:
    base = repo.commit({"README": "x\n"})
    repo.commit({"test_api.py": "def test_a():\n    ...\n"})
    only_this_analyzer(repo)
    result = repo.tribunal("check", "--base", base, "--head", "HEAD", "--hard-fail")
    assert result.code == 1
    assert "test `test_a` asserts nothing" in result.stdout


def test_cli_bare_diff_cannot_rule_out_conftest_fixtures(repo: GitRepo, tmp_path: Path) -> None:
    repo.commit({"README": "x\n"})
    repo.write({"test_api.py": "def test_a():\n    pass\n"})
    repo.git("add", "-N", "test_api.py")
    diff = repo.git("diff") + "\n"
    elsewhere = tmp_path / "elsewhere"  # no repository holds the diff's preimage here
    elsewhere.mkdir()
    (elsewhere / "tribunal.yml").write_text(f"analyzers: {{{ID}: true}}\n")
    result = repo.tribunal("check", "--diff", "-", "--format", "json", stdin=diff, cwd=elsewhere)
    assert result.code == 0, result.stderr
    report = json.loads(result.stdout)
    mine = [f for f in report["findings"] if f["analyzer"] == ID]
    assert [f["verdict"] for f in mine] == [U]
    assert "only a diff was given" in mine[0]["detail"]
    assert any(n.startswith("assertion-free-test judged") for n in report["notes"])


def test_cli_diff_the_checkout_anchors_reads_the_tree_around_it(repo: GitRepo) -> None:
    repo.commit({"README": "x\n"})
    only_this_analyzer(repo)
    repo.write({"test_api.py": "def test_a():\n    pass\n"})
    repo.git("add", "-N", "test_api.py")
    diff = repo.git("diff") + "\n"
    result = repo.tribunal("check", "--diff", "-", "--format", "json", stdin=diff)
    mine = [f for f in json.loads(result.stdout)["findings"] if f["analyzer"] == ID]
    assert [f["verdict"] for f in mine] == ["CONTRADICTED"]


# --- the library API that other analyzers reuse --------------------------------------------


def test_discovery_spans_include_decorators_and_record_context() -> None:
    tree = parse_module(
        b"import pytest\n\nclass TestA:\n    @pytest.mark.slow\n"
        b"    @pytest.mark.skip(reason='x')\n    def test_m(self, db):\n        pass\n"
    )
    assert tree is not None
    (test,) = discover_tests(ModuleIndex.build(tree))
    assert (test.qualname, test.start, test.line, test.end) == ("TestA.test_m", 4, 6, 7)
    assert test.skip_reason is not None and "skip" in test.skip_reason
    assert test.has_setup and test.cls is not None and test.cls.name == "TestA"


def test_judgement_lists_assertion_lines() -> None:
    tree = parse_module("def test_a():\n    x = f()\n    assert x\n    assert x > 1\n")
    assert tree is not None
    index = ModuleIndex.build(tree)
    judgement = judge_test(discover_tests(index)[0], index)
    assert judgement.verdict is Verdict.PASS
    assert judgement.assertion_lines == (3, 4)


def test_parse_source_reports_the_error_line() -> None:
    parsed = parse_source(b"def f(:\n")
    assert parsed.tree is None and parsed.error_line == 1 and parsed.error


def test_parser_warnings_never_become_parse_failures() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        parsed = parse_source(b'import re\nPATTERN = "\\d+"\n')
    assert parsed.tree is not None and parsed.error is None


@pytest.mark.parametrize(
    ("path", "naming", "expected"),
    [
        ("tests/test_api.py", PytestNaming(), True),
        ("tests/api_test.py", PytestNaming(), True),
        ("tests/api.py", PytestNaming(), False),
        ("tests/test_api.pyi", PytestNaming(), False),
        ("tests/check_api.py", PytestNaming(files=("check_*.py",)), True),
        ("sub/tests/x.py", PytestNaming(files=("tests/*.py",)), True),
        ("x.py", PytestNaming(files=("tests/*.py",)), False),
    ],
)
def test_is_test_file(path: str, naming: PytestNaming, expected: bool) -> None:
    assert is_test_file(path, naming) is expected


def test_naming_from_config_reads_each_format() -> None:
    native = naming_from_config("pyproject.toml", '[tool.pytest]\npython_files = ["t_*.py"]\n')
    assert native is not None and native.files == ("t_*.py",)
    assert naming_from_config("pyproject.toml", "[tool.black]\nline-length = 1\n") is None
    assert naming_from_config("tox.ini", "[tox]\nenvlist = py\n") is None
    empty_ini = naming_from_config("pytest.ini", "")
    assert empty_ini is not None and empty_ini.files == PytestNaming().files
    assert naming_from_config("pyproject.toml", "not = [valid") is None


@pytest.mark.parametrize(
    ("expression", "env", "value"),
    [
        ("1 + 1", {}, 2),
        ("x * 2", {"x": 3}, 6),
        ("(1, 2) == (1, 2)", {}, True),
        ("'a' if x else 'b'", {"x": 0}, "b"),
        ("1 < 2 < 3", {}, True),
        ("x in [1, 2]", {"x": 2}, True),
        ("not None", {}, True),
    ],
)
def test_literal_evaluation(expression: str, env: dict[str, object], value: object) -> None:
    assert evaluate(ast.parse(expression, mode="eval").body, env) == value


@pytest.mark.parametrize("expression", ["1 / 0", "5 % 0", "1 < 'a'", "{[1]: 2}", "~1.5"])
def test_literal_evaluation_that_raises(expression: str) -> None:
    with pytest.raises(Raises):
        evaluate(ast.parse(expression, mode="eval").body, {})


@pytest.mark.parametrize(
    "expression", ["f()", "a.b", "(1, 2)[0]", "y + 1", "10 ** 10 ** 10", "'%s' % 1", "1 is 1"]
)
def test_literal_evaluation_that_is_unknown(expression: str) -> None:
    with pytest.raises(Unknown):
        evaluate(ast.parse(expression, mode="eval").body, {})


@pytest.mark.parametrize(
    ("name", "meant"),
    [
        ("called_once_with", "assert_called_once_with"),
        ("assert_called_once_wiht", "assert_called_once_with"),
        ("assert_has_call", "assert_has_calls"),
        ("assert_called_once_with", None),
        ("assert_allclose", None),
        ("assert_frame_equal", None),
        ("called", None),
    ],
)
def test_misspelled_mock_assertions(name: str, meant: str | None) -> None:
    assert misspelled_mock_assert(name) == meant


# -- literal helpers with arguments, and async tests under an event-loop mark -------------


def _aft(repo: GitRepo, files: dict[str, str], head: dict[str, str]) -> list[tuple[str, int]]:
    found = run_range(repo, files, head, "assertion-free-test")
    return [(f.verdict.name, f.line) for f in found]


LITERAL_HELPERS = """
def make_order(qty, price=10):
    return {"qty": qty, "price": price, "total": qty * price}


def wrap(order, *, currency="EUR"):
    return [order, currency]


def test_order():
    order = make_order(3, price=5)
    payload = wrap(order, currency="USD")
    wrap(make_order(1))
"""


def test_a_test_calling_only_literal_helpers_with_arguments_can_never_fail(repo: GitRepo) -> None:
    assert _aft(repo, {}, {"tests/test_x.py": LITERAL_HELPERS}) == [("CONTRADICTED", 10)]


@pytest.mark.parametrize(
    "call",
    [
        "make_order()",  # a required argument missing: TypeError
        "make_order(1, 2, 3)",  # one too many
        "make_order(1, colour=2)",  # an unknown keyword
        "make_order('a', price=None)",  # 'a' * None raises
        "make_order(compute())",  # the argument comes from code under test
        "make_order(*args)",
    ],
)
def test_a_helper_call_that_may_raise_is_not_contradicted(repo: GitRepo, call: str) -> None:
    body = LITERAL_HELPERS.replace("    wrap(make_order(1))\n", f"    {call}\n")
    assert _aft(repo, {}, {"tests/test_x.py": body}) == [("UNVERIFIED", 10)]


ASYNC_EMPTY = "import pytest\n\n\n{mark}\nasync def test_fetch():\n    pass\n"


@pytest.mark.parametrize(
    "mark",
    ["@pytest.mark.asyncio", "@pytest.mark.anyio", "@pytest.mark.asyncio(loop_scope='module')"],
)
def test_an_empty_async_test_under_only_an_event_loop_mark_can_never_fail(
    repo: GitRepo, mark: str
) -> None:
    head = {"tests/test_x.py": ASYNC_EMPTY.format(mark=mark)}
    assert _aft(repo, {}, head) == [("CONTRADICTED", 5)]


def test_a_module_pytestmark_event_loop_counts_too(repo: GitRepo) -> None:
    text = (
        "import pytest\n\npytestmark = pytest.mark.anyio\n\n\nasync def test_fetch():\n    pass\n"
    )
    assert _aft(repo, {}, {"tests/test_x.py": text}) == [("CONTRADICTED", 6)]


@pytest.mark.parametrize(
    ("where", "fixture"),
    [
        ("tests/conftest.py", "anyio_backend"),
        ("conftest.py", "event_loop"),
        ("tests/conftest.py", "event_loop_policy"),
        ("tests/test_x.py", "event_loop"),
    ],
)
def test_an_overridden_loop_fixture_keeps_it_unverified(
    repo: GitRepo, where: str, fixture: str
) -> None:
    fixture_code = f"\n\n@pytest.fixture\ndef {fixture}():\n    return 'asyncio'\n"
    test = ASYNC_EMPTY.format(mark="@pytest.mark.anyio")
    if where == "tests/test_x.py":
        head = {where: test + fixture_code}
        base: dict[str, str] = {}
    else:
        head = {"tests/test_x.py": test}
        base = {where: "import pytest" + fixture_code}
    found = _aft(repo, base, head)
    assert found == [("UNVERIFIED", 5)]


@pytest.mark.parametrize(
    "mark",
    ["@pytest.mark.asyncio\n@pytest.mark.django_db", "@pytest.mark.trio", "@some_plugin.run"],
)
def test_async_tests_with_other_setup_stay_unverified(repo: GitRepo, mark: str) -> None:
    head = {"tests/test_x.py": ASYNC_EMPTY.format(mark=mark)}
    assert [v for v, _ in _aft(repo, {}, head)] == ["UNVERIFIED"]


def test_a_sync_test_under_an_event_loop_mark_is_not_contradicted_by_it(repo: GitRepo) -> None:
    text = "import pytest\n\n\n@pytest.mark.asyncio\ndef test_fetch():\n    pass\n"
    assert _aft(repo, {}, {"tests/test_x.py": text}) == [("UNVERIFIED", 5)]


# --- the same doubt, said once ------------------------------------------------------------

DELEGATING = src(
    """
    from tests import scenarios as sc
    from tests import other


    def test_one(user):
        sc.first(user)


    def test_two(user):
        sc.second(user)


    def test_three(user):
        sc.third(user)


    def test_elsewhere(user):
        other.fourth(user)
    """
)


def test_tests_that_all_call_into_one_module_are_one_finding(repo: GitRepo) -> None:
    found = judged(repo, {"README": "x"}, {"tests/test_delegating.py": DELEGATING})
    grouped = [f for f in found if f.related]
    (group,) = grouped
    assert group.verdict is Verdict.UNVERIFIED
    assert group.title == "3 tests only call into `sc` and assert nothing Tribunal can see"
    assert [group.line, *(r.line for r in group.related)] == [5, 9, 13]
    assert "tests/test_delegating.py:9  `test_two` calls `sc.second(user)`" in group.detail
    assert group.group == "tests/test_delegating.py:delegates-to:sc"
    single = [f for f in found if not f.related]
    assert [f.title for f in single] == ["test `test_elsewhere` has no assertion Tribunal can see"]
