"""assertion-free-test for Python: the adversarial review's regressions.

Each case here was once judged wrongly. The false reds (a real, fallible test
called "can never fail") come first; then checks that only looked like checks
(``pytest.raises(E)`` on its own line, ``assert (x, "msg")``), which were PASS
and are now at most UNVERIFIED with a note saying why; then the project-level
setup that runs around a test from other files. Verdicts come from the real
engine on real git repositories, one commit per scenario.
"""

from __future__ import annotations

import ast

import pytest

from tests.gitrepo import GitRepo
from tests.test_aft_python import C, P, U, by_test, judged, src
from tribunal.findings import Finding
from tribunal.lang.python.consts import Raises, Unknown, augmented, evaluate
from tribunal.lang.python.pytest_naming import naming_from_config

FALSE_REDS = src(
    """
    import unittest
    import pytest
    from typing import override

    def test_alias_sees_the_in_place_add():
        a = [1]
        b = a
        a += [2]
        assert b == [1]

    def appends_to_a_shared_default(acc=[]):
        acc += [1]
        assert acc == [1]

    def test_mutable_default_is_shared_between_calls():
        appends_to_a_shared_default()
        appends_to_a_shared_default()

    def test_bytes_against_int_warns_under_bb():
        x = {"a", b"a"}

    def test_positional_only_parameter_is_never_passed(value, /):
        pass

    @pytest.mark.skipif("sys.platform == 'win32'")
    def test_string_condition_is_evaluated_at_setup():
        pass

    def noop_replaced_by_star_import():
        pass

    from tests.shared_checks import *

    def test_helper_a_star_import_may_replace():
        noop_replaced_by_star_import()

    def noop_rebound_globally():
        pass

    def rebinds():
        global noop_rebound_globally
        noop_rebound_globally = None

    def test_helper_another_function_rebinds():
        noop_rebound_globally()

    class RunsAround(unittest.TestCase):
        def run(self, result=None):
            return super().run(result)

    class TestRunOverride(RunsAround):
        def test_empty(self):
            pass

    class TestCallTestMethod(unittest.TestCase):
        def _callTestMethod(self, method):
            method()
            raise AssertionError("always")

        def test_empty(self):
            pass

    class TestInitOverride(unittest.TestCase):
        def __init__(self, name="runTest"):
            super().__init__(name)
            self.client = connect()

        def test_empty(self):
            pass

    class TestAssignedAutouse:
        reset = pytest.fixture(autouse=True)(lambda: None)

        def test_empty(self):
            pass
    """
)

STILL_CONTRADICTED = src(
    """
    from typing import override

    def test_default_is_not_a_fixture(value=1):
        pass

    def test_star_args_are_not_fixtures(*args, **kwargs):
        pass

    class TestLabels:
        @override
        def test_override_is_inert(self):
            pass

    def test_literal_tuple_assert():
        assert (1, "always")

    def test_alias_assert_holds():
        a = [1]
        b = a
        a += [2]
        assert b == [1, 2]
    """
)

NOT_CHECKS = src(
    """
    import unittest
    from unittest import mock
    import pytest

    def test_bare_raises():
        pytest.raises(ValueError)
        parse("x")

    def test_bare_deprecated_call():
        pytest.deprecated_call()
        old_api()

    def test_tuple_assert():
        assert (parse("1") == 1, "parses")

    def test_or_message_assert():
        assert parse("1") == 1 or "should parse"

    def test_uncalled_mock_assert():
        m = mock.Mock()
        run(m)
        m.assert_called_once

    def test_raises_with_a_function_to_call():
        pytest.raises(ValueError, parse, "x")

    def test_raises_kept_for_a_with_block():
        expected = pytest.raises(ValueError)
        with expected:
            parse("x")

    def test_starred_tuple_may_be_empty():
        assert (*parse("1"),)

    class Checks(unittest.TestCase):
        def test_bare_assert_raises(self):
            self.assertRaises(ValueError)
            parse("x")

        def test_bare_assert_logs(self):
            self.assertLogs("app")
            parse("x")

        def test_assert_raises_calls_the_function(self):
            self.assertRaises(ValueError, parse, "x")
    """
)


@pytest.fixture(scope="module")
def false_reds(tmp_path_factory: pytest.TempPathFactory) -> list[Finding]:
    repo = GitRepo.init(tmp_path_factory.mktemp("false-reds") / "repo")
    return judged(repo, {"README": "x"}, {"tests/test_edges.py": FALSE_REDS})


def test_fallible_tests_are_never_contradicted(false_reds: list[Finding]) -> None:
    assert by_test(false_reds) == {
        "test_alias_sees_the_in_place_add": P,
        "test_mutable_default_is_shared_between_calls": P,
        "test_bytes_against_int_warns_under_bb": U,
        "test_positional_only_parameter_is_never_passed": U,
        "test_string_condition_is_evaluated_at_setup": U,
        "test_helper_a_star_import_may_replace": U,
        "test_helper_another_function_rebinds": U,
        "TestRunOverride.test_empty": U,
        "TestCallTestMethod.test_empty": U,
        "TestInitOverride.test_empty": U,
        "TestAssignedAutouse.test_empty": U,
    }


def test_the_reasons_name_what_runs_around_the_test(false_reds: list[Finding]) -> None:
    details = {f.title: f.detail for f in false_reds}
    joined = "\n".join(details.values())
    assert "`run` (line" in joined
    assert "`_callTestMethod` (line" in joined
    assert "`__init__` (line" in joined
    assert "an autouse fixture made at line" in joined
    assert "evaluates its condition string at setup" in joined
    assert "positional-only parameter `value` is never passed" in joined


def test_literal_tests_stay_contradicted(repo: GitRepo) -> None:
    found = judged(repo, {"README": "x"}, {"tests/test_labels.py": STILL_CONTRADICTED})
    assert by_test(found) == {
        "test_default_is_not_a_fixture": C,
        "test_star_args_are_not_fixtures": C,
        "TestLabels.test_override_is_inert": C,
        "test_literal_tuple_assert": C,
        "test_alias_assert_holds": C,
    }


def test_statements_that_only_look_like_checks(repo: GitRepo) -> None:
    found = judged(repo, {"README": "x"}, {"tests/test_looks.py": NOT_CHECKS})
    assert by_test(found) == {
        "test_bare_raises": U,
        "test_bare_deprecated_call": U,
        "test_tuple_assert": U,
        "test_or_message_assert": U,
        "test_uncalled_mock_assert": U,
        "test_raises_with_a_function_to_call": P,
        "test_raises_kept_for_a_with_block": P,
        "test_starred_tuple_may_be_empty": P,
        "Checks.test_bare_assert_raises": U,
        "Checks.test_bare_assert_logs": U,
        "Checks.test_assert_raises_calls_the_function": P,
    }
    details = {f.title: f.detail for f in found}
    raises = next(d for t, d in details.items() if "`test_bare_raises`" in t)
    assert "is not used as a `with` block" in raises
    assert "did you mean `with pytest.raises(ValueError): ...`" in raises
    tuple_assert = next(d for t, d in details.items() if "`test_tuple_assert`" in t)
    assert "a non-empty tuple, list, set or dict is always true" in tuple_assert
    assert "did you mean `assert parse('1') == 1, 'parses'`" in tuple_assert
    or_assert = next(d for t, d in details.items() if "`test_or_message_assert`" in t)
    assert "an `or` with a true literal is always true" in or_assert
    uncalled = next(d for t, d in details.items() if "`test_uncalled_mock_assert`" in t)
    assert "is never called (no parentheses)" in uncalled


def test_a_module_that_does_not_compile_is_never_contradicted(repo: GitRepo) -> None:
    code = src(
        """
        def test_empty():
            pass

        def test_duplicate_argument():
            def inner(a, a):
                pass
        """
    )
    found = judged(repo, {"README": "x"}, {"tests/test_broken.py": code})
    assert by_test(found) == {"test_empty": U, "test_duplicate_argument": U}
    assert all("does not compile (line 5: duplicate argument" in f.detail for f in found)


EMPTY_TEST = "def test_empty():\n    pass\n"


@pytest.mark.parametrize(
    ("files", "reason"),
    [
        pytest.param(
            {
                "tests/fixtures.py": "import pytest\n@pytest.fixture(autouse=True)\n"
                "def reset():\n    yield\n",
                "tests/conftest.py": "from tests.fixtures import *  # noqa: F403\n",
            },
            "`tests/fixtures.py` defines autouse fixture `reset`",
            id="conftest-star-imports-autouse",
        ),
        pytest.param(
            {
                "tests/hooks.py": "def pytest_runtest_setup(item):\n    raise RuntimeError\n",
                "tests/conftest.py": "from tests.hooks import pytest_runtest_setup\n",
            },
            "the hook `pytest_runtest_setup` is imported from tests.hooks",
            id="conftest-imports-a-hook",
        ),
        pytest.param(
            {
                "conftest.py": "import pytest\n@pytest.hookimpl(hookwrapper=True)\n"
                "def pytest_runtest_makereport(item, call):\n    yield\n"
            },
            "defines hook `pytest_runtest_makereport`",
            id="makereport-may-rewrite-outcomes",
        ),
        pytest.param(
            {
                "conftest.py": "class Leak:\n    def pytest_runtest_teardown(self, item):\n"
                "        raise RuntimeError\n\ndef pytest_configure(config):\n"
                "    config.pluginmanager.register(Leak())\n"
            },
            "`conftest.py` registers a plugin at line 6",
            id="conftest-registers-a-plugin",
        ),
        pytest.param(
            {"pytest.ini": "[pytest]\naddopts = -ra -p tests.plugin -p no:cacheprovider\n"},
            "`pytest.ini` loads plugins with addopts -p tests.plugin",
            id="addopts-loads-a-plugin",
        ),
        pytest.param(
            {
                "pyproject.toml": '[project]\nname = "pytest-foo"\n'
                '[project.entry-points.pytest11]\nfoo = "pytest_foo.plugin"\n'
            },
            "registers a pytest plugin (a `pytest11` entry point)",
            id="the-project-is-a-pytest-plugin",
        ),
    ],
)
def test_setup_from_other_files_makes_an_empty_test_unverified(
    repo: GitRepo, files: dict[str, str], reason: str
) -> None:
    found = judged(repo, files, {"tests/test_a.py": EMPTY_TEST})
    assert by_test(found) == {"test_empty": U}
    assert reason in found[0].detail


def test_a_conftest_importing_plain_helpers_changes_nothing(repo: GitRepo) -> None:
    base = {
        "tests/helpers.py": "def make_user():\n    return {}\n",
        "tests/conftest.py": "from tests.helpers import make_user\n\n"
        "def pytest_configure(config):\n"
        "    config.addinivalue_line('markers', 'slow: slow tests')\n"
        "    make_user()\n",
        "pytest.ini": "[pytest]\naddopts = -p no:cacheprovider\n",
    }
    found = judged(repo, base, {"tests/test_a.py": EMPTY_TEST})
    assert by_test(found) == {"test_empty": C}


def test_contradicted_and_unverified_details_say_what_to_do(repo: GitRepo) -> None:
    code = "def test_empty():\n    pass\n\ndef test_smoke():\n    build()\n"
    found = judged(repo, {"README": "x"}, {"tests/test_a.py": code})
    details = {f.verdict.name: f.detail for f in found}
    assert details[C].endswith("Assert on the behaviour the test is named for, or delete the test.")
    assert "a smoke test that only runs code is fine" in details[U]


def test_in_place_operators_change_every_alias() -> None:
    shared = [1]
    assert augmented(ast.Add(), shared, [2]) is shared
    assert shared == [1, 2]
    with pytest.raises(Raises):
        augmented(ast.Add(), [1], 1)
    with pytest.raises(Unknown):
        augmented(ast.Mult(), "a", 10**9)


@pytest.mark.parametrize(
    "expression",
    ['b"a" == 1', '"a" in [b"a"]', '{"a", b"a"}', '{b"a": 1, "a": 2}', "[b'a'] == ['a']"],
)
def test_bytes_compared_with_str_or_int_is_unknown(expression: str) -> None:
    with pytest.raises(Unknown):
        evaluate(ast.parse(expression, mode="eval").body, {})


def test_addopts_plugins_are_read() -> None:
    naming = naming_from_config("pytest.ini", "[pytest]\naddopts = -pxdist -p no:warnings -p a.b\n")
    assert naming is not None
    assert naming.plugins == ("xdist", "a.b")


def test_a_same_file_assert_named_method_is_judged_by_its_body(repo: GitRepo) -> None:
    code = src(
        """
        class TestShapes:
            def assert_valid(self):
                pass

            def check(self):
                assert compute()

            def assert_checks(self):
                self.check()

            def test_noop_assert_method(self):
                self.assert_valid()

            def test_real_assert_method(self):
                self.assert_checks()
        """
    )
    found = judged(repo, {"README": "x"}, {"tests/test_shapes.py": code})
    assert by_test(found) == {
        "TestShapes.test_noop_assert_method": C,
        "TestShapes.test_real_assert_method": P,
    }
