"""test-tampering on Python tests: stripped checks, tautologies, swallowed assertions.

Every rule comes with clean twins that look risky and must not be red.
"""

from __future__ import annotations

import ast

import pytest

from tests.gitrepo import GitRepo
from tests.test_tampering_support import src, tampering, verdicts, worst
from tribunal.analyzers.test_tampering.python_tautology import always_true

BASE = src(
    """
    from app import add


    def test_add():
        result = add(1, 2)
        assert result == 3


    def test_zero():
        assert add(0, 0) == 0
    """
)
T = "tests/test_app.py"
CONFTEST = "import pytest\n\n@pytest.fixture(autouse=True)\ndef sums():\n    assert True\n"


UNITTEST_ADD = src(
    """
    import unittest
    from app import add

    class AddTest(unittest.TestCase):
        def test_add(self):
            result = add(1, 2)
            self.assertEqual(result, 3)
    """
)


def _head(body: str) -> str:
    """BASE with ``test_add``'s body replaced."""
    return BASE.replace("    result = add(1, 2)\n    assert result == 3\n", body)


# --- every check removed --------------------------------------------------------------------


def test_deleting_the_only_assertion_is_contradicted(repo: GitRepo) -> None:
    found = tampering(repo, {T: BASE}, {T: _head("    result = add(1, 2)\n")})
    assert verdicts(found) == [
        ("CONTRADICTED", 4, "the diff removed every check test `test_add` made")
    ]
    assert "line 6: `assert result == 3`" in found[0].detail
    assert found[0].end_line == 5 and found[0].language == "python"


def test_commenting_out_the_assertion_is_contradicted_and_said_so(repo: GitRepo) -> None:
    head = _head("    result = add(1, 2)\n    # assert result == 3\n")
    found = tampering(repo, {T: BASE}, {T: head})
    assert worst(found) == "CONTRADICTED"
    assert "commented out" in found[0].detail


def test_unittest_assertions_deleted_and_replaced_by_pass(repo: GitRepo) -> None:
    base = src(
        """
        import unittest
        from app import parse

        class ParseTest(unittest.TestCase):
            def test_parse(self):
                value = parse("1")
                self.assertEqual(value, 1)
                self.assertIsInstance(value, int)
        """
    )
    head = base.replace(
        "        self.assertEqual(value, 1)\n        self.assertIsInstance(value, int)\n",
        "        pass\n",
    )
    found = tampering(repo, {"tests/test_parse.py": base}, {"tests/test_parse.py": head})
    assert verdicts(found) == [
        ("CONTRADICTED", 5, "the diff removed every check test `ParseTest.test_parse` made")
    ]


def test_deleting_the_call_of_an_asserting_helper_is_contradicted(repo: GitRepo) -> None:
    base = src(
        """
        from app import add

        def check_sum(a, b, total):
            assert add(a, b) == total

        def test_add():
            check_sum(1, 2, 3)
            add(5, 5)
        """
    )
    head = base.replace("    check_sum(1, 2, 3)\n", "")
    found = tampering(repo, {T: base}, {T: head})
    assert worst(found) == "CONTRADICTED"
    assert "check_sum" in found[0].detail


@pytest.mark.parametrize(
    ("body", "verdict"),
    [
        # the assertion rewritten, not removed
        ("    assert add(1, 2) == 3\n", None),
        ("    result = add(1, 2)\n    assert result in (3, 4)\n", None),
        # pytest.raises replacing an assert
        ("    with pytest.raises(TypeError):\n        add(1, None)\n", None),
        # a new call that may check: unknown, so not red
        ("    result = add(1, 2)\n    print(result)\n", "UNVERIFIED"),
        ("    result = add(1, 2)\n    verify_total(result)\n", "UNVERIFIED"),
        # a comparison without assert checks nothing
        ("    result = add(1, 2)\n    result == 3\n", "CONTRADICTED"),
    ],
)
def test_rewritten_assertions(repo: GitRepo, body: str, verdict: str | None) -> None:
    base = "import pytest\n" + BASE
    head = "import pytest\n" + _head(body)
    found = [f for f in tampering(repo, {T: base}, {T: head}) if "test_add" in f.title]
    assert [f.verdict.name for f in found] == ([verdict] if verdict else [])


def test_assertions_moved_into_a_same_file_helper_are_clean(repo: GitRepo) -> None:
    head = _head("    check(add(1, 2))\n") + "\n\ndef check(result):\n    assert result == 3\n"
    assert tampering(repo, {T: BASE}, {T: head}) == []


def test_assertions_moved_into_an_imported_helper_are_not_red(repo: GitRepo) -> None:
    helpers = "def check(result):\n    assert result == 3\n"
    head = "from tests.helpers import check\n" + _head("    check(add(1, 2))\n")
    found = tampering(repo, {T: BASE}, {T: head, "tests/helpers.py": helpers})
    assert verdicts(found) == [
        ("UNVERIFIED", 5, "test `test_add` no longer has a check Tribunal can see")
    ]
    assert "check(add(1, 2))" in found[0].detail


def test_assertions_moved_into_an_already_called_imported_helper(repo: GitRepo) -> None:
    base = src(
        """
        from tests.helpers import run
        from app import add

        def test_add():
            result = run(add, 1, 2)
            assert result == 3
        """
    )
    helpers = "def run(fn, *args):\n    return fn(*args)\n"
    moved = "def run(fn, *args):\n    result = fn(*args)\n    assert result == sum(args)\n"
    head = base.replace("    assert result == 3\n", "")
    files = {T: base, "tests/helpers.py": helpers}
    found = tampering(repo, files, {T: head, "tests/helpers.py": moved})
    assert worst(found) == "UNVERIFIED"
    assert "`tests/helpers.py` (line 3) adds `assert result == sum(args)`" in found[0].detail


@pytest.mark.parametrize(
    ("head", "extra", "why"),
    [
        # a new fixture parameter: the fixture may check
        (BASE.replace("def test_add():", "def test_add(checked):"), {}, "`checked`"),
        # a new usefixtures mark
        (
            "import pytest\n"
            + BASE.replace("def test_add():", "@pytest.mark.usefixtures('db')\ndef test_add():"),
            {},
            "usefixtures",
        ),
        # an existing helper in the same file gains an assertion
        (
            BASE + "\n\ndef helper():\n    assert add(2, 2) == 4\n",
            {},
            "outside the tests",
        ),
        # conftest.py above the test gains one
        (
            BASE,
            {"tests/conftest.py": CONFTEST},
            "tests/conftest.py",
        ),
        # a new test in the same file that asserts: the checks may have moved there
        (BASE + "\n\ndef test_add_again():\n    assert add(1, 2) == 3\n", {}, "test_add_again"),
    ],
)
def test_checks_that_may_have_moved_elsewhere_are_unverified(
    repo: GitRepo, head: str, extra: dict[str, str], why: str
) -> None:
    head = head.replace("    assert result == 3\n", "")
    found = [f for f in tampering(repo, {T: BASE}, {T: head, **extra}) if "test_add`" in f.title]
    assert [f.verdict.name for f in found] == ["UNVERIFIED"]
    assert why in found[0].detail


def test_an_assertion_the_scanner_no_longer_recognizes_is_unverified(repo: GitRepo) -> None:
    base = src(
        """
        from pytest import raises
        from app import add

        def test_add():
            with raises(TypeError):
                add(1, None)
        """
    )
    head = base.replace("from pytest import raises", "from app.testing import raises")
    assert tampering(repo, {T: base}, {T: head}) == []  # the test itself is not touched
    edited = head.replace("add(1, None)", "add(1, None)  # bad input")
    found = tampering(repo, {T: head}, {T: edited})
    assert found == []  # at base it did not assert either
    found = tampering(repo, {T: base}, {T: edited})
    assert worst(found) == "UNVERIFIED"
    assert "is unchanged" in found[0].detail


def test_untouched_tests_get_no_finding(repo: GitRepo) -> None:
    base = BASE + "\n\ndef test_smoke():\n    add(1, 1)\n"
    head = base.replace("assert add(0, 0) == 0", "assert add(0, 0) == 0, 'zero'")
    assert tampering(repo, {T: base}, {T: head}) == []


# --- tautologies ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "line",
    [
        "assert True",
        "assert 1",
        "assert 'always'",
        "assert (result == 3, 'sum is wrong')",
        "assert 1 == 1",
        "self.assertTrue(True)",
        "self.assertEqual(1, 1)",
        "self.assertFalse(0)",
        "self.assertIsNotNone('x')",
    ],
)
def test_an_added_tautology_is_contradicted(repo: GitRepo, line: str) -> None:
    base = UNITTEST_ADD
    head = base.replace("self.assertEqual(result, 3)", line)
    found = tampering(repo, {T: base}, {T: head})
    assert ("CONTRADICTED", 7, "this assertion can never fail") in verdicts(found)


@pytest.mark.parametrize(
    "line",
    [
        "assert result == result",
        "self.assertEqual(result, result)",
        "assert result",
        "self.assertTrue(result)",
        "assert (result)",
        "assert ()  or result",
    ],
)
def test_assertions_that_only_look_tautological_are_clean(repo: GitRepo, line: str) -> None:
    base = UNITTEST_ADD
    head = base.replace("self.assertEqual(result, 3)", line)
    assert tampering(repo, {T: base}, {T: head}) == []


def test_a_tautology_that_was_already_there_is_not_reported(repo: GitRepo) -> None:
    base = BASE.replace("    assert result == 3\n", "    assert result == 3\n    assert True\n")
    head = base.replace("    result = add(1, 2)\n", "    result = add(1, 2)  # sum\n")
    assert tampering(repo, {T: base}, {T: head}) == []
    # re-indented under a new block it is still the same assertion
    head = base.replace(
        "    assert result == 3\n    assert True\n",
        "    if result:\n        assert result == 3\n        assert True\n",
    )
    assert tampering(repo, {T: base}, {T: head}) == []


def test_a_second_tautology_next_to_an_old_one_is_reported(repo: GitRepo) -> None:
    base = BASE.replace("    assert result == 3\n", "    assert result == 3\n    assert True\n")
    head = base.replace("    assert True\n", "    assert True\n    assert True\n")
    found = tampering(repo, {T: base}, {T: head})
    assert verdicts(found) == [("CONTRADICTED", 8, "this assertion can never fail")]


def test_a_tautology_in_a_new_test_is_contradicted(repo: GitRepo) -> None:
    head = BASE + "\n\ndef test_new():\n    add(1, 1)\n    assert True\n"
    assert verdicts(tampering(repo, {T: BASE}, {T: head})) == [
        ("CONTRADICTED", 15, "this assertion can never fail")
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("True", True),
        ("(x, 'message')", True),
        ("[x]", True),
        ("{'a': x}", True),
        ("'' or 'x'", True),
        ("x", False),
        ("()", False),
        ("(*xs,)", False),
        ("{**d}", False),
        ("1 / 0", False),
        ("x == x", False),
        ("0", False),
    ],
)
def test_always_true_judges_literals_only(text: str, expected: bool) -> None:
    expr = ast.parse(text, mode="eval").body
    assert always_true(expr) is expected


# --- swallowed assertions -------------------------------------------------------------------

SWALLOW_BASE = src(
    """
    import contextlib
    import pytest
    from app import add


    def test_add():
        result = add(1, 2)
        assert result == 3
    """
)


def _swallow(body: str) -> str:
    return SWALLOW_BASE.replace("    result = add(1, 2)\n    assert result == 3\n", body)


@pytest.mark.parametrize(
    "handler",
    [
        "except:\n        pass",
        "except Exception:\n        pass",
        "except AssertionError as e:\n        print(e)",
        "except (ValueError, AssertionError):\n        ...",
        "except BaseException:\n        return",
        "except AssertionError:\n        pytest.skip('flaky')",
        "except Exception as e:\n        print(e)\n        pytest.xfail(str(e))",
        "except:\n        pytest.skip(reason='unstable')",
    ],
)
def test_an_assertion_in_a_try_whose_handler_discards_it(repo: GitRepo, handler: str) -> None:
    body = f"    try:\n        assert add(1, 2) == 3\n    {handler}\n"
    found = tampering(repo, {T: SWALLOW_BASE}, {T: _swallow(body)})
    assert ("CONTRADICTED", 8, "the assertion's failure is caught and discarded") in verdicts(found)


@pytest.mark.parametrize(
    ("body", "verdict"),
    [
        # ValueError does not catch AssertionError
        ("    try:\n        assert add(1, 2) == 3\n    except ValueError:\n        pass\n", None),
        # pytest.raises fails with a BaseException that `except Exception` does not catch
        (
            "    try:\n        with pytest.raises(TypeError):\n            add(1, None)\n"
            "    except Exception:\n        pass\n",
            None,
        ),
        (
            "    try:\n        with pytest.raises(TypeError):\n            add(1, None)\n"
            "    except BaseException:\n        pass\n",
            "CONTRADICTED",
        ),
        # the handler re-raises or fails the test
        (
            "    try:\n        assert add(1, 2) == 3\n    except AssertionError:\n"
            "        print('oops')\n        raise\n",
            None,
        ),
        (
            "    try:\n        assert add(1, 2) == 3\n    except Exception as e:\n"
            "        pytest.fail(str(e))\n",
            None,
        ),
        # the handler records the failure for a later check: may or may not fail
        (
            "    errors = []\n    try:\n        assert add(1, 2) == 3\n"
            "    except AssertionError as e:\n        errors.append(e)\n    assert not errors\n",
            "UNVERIFIED",
        ),
        # a class Tribunal cannot resolve may or may not be a superclass
        ("    try:\n        assert add(1, 2) == 3\n    except AppError:\n        pass\n", None),
        # the assertion is in `else`, outside the guarded block
        (
            "    try:\n        result = add(1, 2)\n    except Exception:\n        pass\n"
            "    else:\n        assert result == 3\n",
            None,
        ),
        # `finally: return` discards whatever was raised
        (
            "    try:\n        assert add(1, 2) == 3\n    finally:\n        return\n",
            "CONTRADICTED",
        ),
        (
            "    with contextlib.suppress(AssertionError):\n        assert add(1, 2) == 3\n",
            "CONTRADICTED",
        ),
        ("    with contextlib.suppress(KeyError):\n        assert add(1, 2) == 3\n", None),
        # a skip on a failure that is not the assertion's, or a handler that also checks
        (
            "    try:\n        assert add(1, 2) == 3\n    except ImportError:\n"
            "        pytest.skip('no app')\n",
            None,
        ),
        (
            "    try:\n        assert add(1, 2) == 3\n    except AssertionError:\n"
            "        if strict():\n            raise\n        pytest.skip('flaky')\n",
            None,
        ),
        (
            "    try:\n        assert add(1, 2) == 3\n    except AssertionError:\n"
            "        cleanup()\n        pytest.skip('flaky')\n",
            "UNVERIFIED",
        ),
        # an assertion in a nested function is not run by the try
        (
            "    try:\n        def later():\n            assert add(1, 2) == 3\n"
            "    except Exception:\n        pass\n    later()\n",
            None,
        ),
    ],
)
def test_swallow_twins(repo: GitRepo, body: str, verdict: str | None) -> None:
    found = [
        f for f in tampering(repo, {T: SWALLOW_BASE}, {T: _swallow(body)}) if "caught" in f.title
    ]
    assert [f.verdict.name for f in found] == ([verdict] if verdict else [])


def test_a_shadowed_exception_name_is_not_judged(repo: GitRepo) -> None:
    base = SWALLOW_BASE + "\n\nclass Exception(KeyError):\n    pass\n"
    body = "    try:\n        assert add(1, 2) == 3\n    except Exception:\n        pass\n"
    head = base.replace("    result = add(1, 2)\n    assert result == 3\n", body)
    assert [f for f in tampering(repo, {T: base}, {T: head}) if "caught" in f.title] == []


def test_a_swallow_that_was_already_there_is_not_reported(repo: GitRepo) -> None:
    body = "    try:\n        assert add(1, 2) == 3\n    except Exception:\n        pass\n"
    base = _swallow(body)
    head = base.replace("        pass\n", "        pass  # flaky on CI\n")
    assert tampering(repo, {T: base}, {T: head}) == []


def test_removing_the_reraise_from_a_handler_is_contradicted(repo: GitRepo) -> None:
    body = "    try:\n        assert add(1, 2) == 3\n    except AssertionError:\n        raise\n"
    base = _swallow(body)
    head = base.replace("        raise\n", "        pass\n")
    found = tampering(repo, {T: base}, {T: head})
    assert verdicts(found) == [
        ("CONTRADICTED", 8, "the assertion's failure is caught and discarded")
    ]
    assert "`except AssertionError` (line 9)" in found[0].detail


def test_unittest_failure_exception_overridden_is_not_judged(repo: GitRepo) -> None:
    base = src(
        """
        import unittest

        class T(unittest.TestCase):
            failureException = KeyError

            def test_x(self):
                self.assertEqual(1 + 1, 2)
        """
    )
    head = base.replace(
        "        self.assertEqual(1 + 1, 2)\n",
        "        try:\n            self.assertEqual(1 + 1, 2)\n"
        "        except ValueError:\n            pass\n",
    )
    assert tampering(repo, {T: base}, {T: head}) == []


def test_an_assert_turned_into_a_discarded_predicate_is_contradicted(repo: GitRepo) -> None:
    """Seen in pytest 8.3.0's own suite (testing/code/test_excinfo.py): `assert` was lost."""
    base = src(
        """
        import fnmatch
        from app import render

        def test_render():
            s = render()
            assert s == "  File '<string>':1 in <module>\\n  ???\\n"
        """
    )
    lost = base.replace(
        "    assert s == \"  File '<string>':1 in <module>\\n  ???\\n\"\n",
        "    # TODO: is * OK here?\n"
        "    fnmatch.fnmatch(s, \"  File '<string>':1 in <module>\\n  *\\n\")\n",
    )
    found = tampering(repo, {T: base}, {T: lost})
    assert verdicts(found) == [
        ("CONTRADICTED", 4, "the diff removed every check test `test_render` made")
    ]
    kept = lost.replace("    fnmatch.fnmatch(", "    assert fnmatch.fnmatch(")
    assert tampering(repo, {T: base}, {T: kept}) == []
    helper = lost.replace("fnmatch.fnmatch(", "match_lines(")
    assert worst(tampering(repo, {T: base}, {T: helper})) == "UNVERIFIED"


def test_real_world_tautologies(repo: GitRepo) -> None:
    """more-itertools 8.14.0 added `self.assertTrue([1, True], [...])` (the list is the value);
    pytest's `assert True or explode` tests its assertion rewriter, so it is not literals only.
    """
    base = src(
        """
        import unittest

        class IequalsTests(unittest.TestCase):
            def test_identical(self):
                self.assertTrue(iequals([1], [1]))
        """
    )
    added = base + "\n    def test_not_identical_but_equal(self):\n"
    added += "        self.assertTrue([1, True], [1.0, complex(1, 0)])\n"
    found = tampering(repo, {T: base}, {T: added})
    assert verdicts(found) == [("CONTRADICTED", 8, "this assertion can never fail")]
    rewriter = base + "\n    def test_short_circuit(self):\n        assert True or explode\n"
    assert tampering(repo, {T: base}, {T: rewriter}) == []


def test_a_negative_check_through_try_else_is_not_red(repo: GitRepo) -> None:
    body = (
        "    try:\n        assert add(1, 2) == 4\n    except AssertionError:\n        pass\n"
        "    else:\n        pytest.fail('the sum should be wrong')\n"
    )
    found = [
        f for f in tampering(repo, {T: SWALLOW_BASE}, {T: _swallow(body)}) if "caught" in f.title
    ]
    assert [f.verdict.name for f in found] == ["UNVERIFIED"]
    assert "negative check" in found[0].detail


def test_a_remaining_call_that_may_check_keeps_it_unverified(repo: GitRepo) -> None:
    base = src(
        """
        from pytest_check import check
        from app import add

        def test_add():
            check.equal(add(1, 2), 3)
            assert add(2, 2) == 4
        """
    )
    head = base.replace("    assert add(2, 2) == 4\n", "")
    found = tampering(repo, {T: base}, {T: head})
    assert worst(found) == "UNVERIFIED"
    assert "check.equal(...)" in found[0].detail


def test_a_unittest_assertion_whose_handler_only_skips_is_swallowed(repo: GitRepo) -> None:
    base = src("""
        import unittest


        class TestAdd(unittest.TestCase):
            def test_add(self):
                self.assertEqual(1 + 2, 3)
    """)
    head = src("""
        import unittest


        class TestAdd(unittest.TestCase):
            def test_add(self):
                try:
                    self.assertEqual(1 + 2, 3)
                except AssertionError:
                    self.skipTest("flaky")
    """)
    found = [f for f in tampering(repo, {T: base}, {T: head}) if "caught" in f.title]
    assert [(f.verdict.name, f.line) for f in found] == [("CONTRADICTED", 7)]
    assert "can only skip the test" in found[0].detail


def test_a_skip_handler_already_in_base_is_not_reported_again(repo: GitRepo) -> None:
    body = (
        "    try:\n        assert add(1, 2) == 3\n    except AssertionError:\n"
        "        pytest.skip('x')\n"
    )
    found = tampering(repo, {T: _swallow(body)}, {T: _swallow(body) + "\n# touched\n"})
    assert [f for f in found if "caught" in f.title] == []


# --- tampering the tree proves (issue 22) ---------------------------------------------------

CALC = "from calc import compute\n\n\ndef test_compute():\n    assert compute() == 3\n"


@pytest.mark.parametrize(
    "head",
    ["assert compute() == 3 or True", "assert compute() == 3 or 1", "assert (compute() or 'x')"],
)
def test_an_or_true_assertion_is_contradicted(repo: GitRepo, head: str) -> None:
    found = tampering(repo, {T: CALC}, {T: CALC.replace("assert compute() == 3", head)})
    assert ("CONTRADICTED", 5, "this assertion can never fail") in verdicts(found)


@pytest.mark.parametrize(
    "head", ["assert compute() == 3 or compute() == 4", "assert True or compute()"]
)
def test_an_or_that_can_still_fail_is_no_tautology(repo: GitRepo, head: str) -> None:
    found = tampering(repo, {T: CALC}, {T: CALC.replace("assert compute() == 3", head)})
    assert worst(found) != "CONTRADICTED", verdicts(found)


RAISES = (
    "import pytest\n\n\ndef test_bad():\n    with pytest.raises(ValueError):\n        parse('x')\n"
)
TRY = (
    "import pytest\n\n\ndef test_bad():\n    try:\n        parse('x'){after}\n"
    "    except ValueError:\n        pass{other}\n"
)


@pytest.mark.parametrize(
    ("after", "other", "certain"),
    [
        ("", "", True),
        ("", "\n    except TypeError:\n        raise", True),
        ("\n        pytest.fail('no error')", "", False),
        ("\n        assert False", "", False),
        ("\n        raise AssertionError('no error')", "", False),
        ("", "\n    else:\n        pytest.fail('no error')", False),
    ],
    ids=["bare", "raise-in-other-handler", "pytest-fail", "assert-false", "raise", "else"],
)
def test_raises_replaced_by_a_passing_try(
    repo: GitRepo, after: str, other: str, certain: bool
) -> None:
    found = tampering(repo, {T: RAISES}, {T: TRY.format(after=after, other=other)})
    titles = [title for _, _, title in verdicts(found)]
    replaced = "an expected-exception check became a try that passes either way"
    assert (replaced in titles) is certain, verdicts(found)


GIVEN = (
    "from hypothesis import assume, given, strategies as st\n\n\n@given(st.integers())\n"
    "def test_prop(x):\n    {line}\n"
)


@pytest.mark.parametrize(
    ("line", "certain"),
    [
        ("assume(f(x) >= 0)", True),
        ("assume(f(x) > 0)", False),  # another expression: a new filter, not the old check
        ("assume(f(x) >= 0)\n    assert f(x) >= 0", False),  # still asserted
    ],
)
def test_a_hypothesis_assertion_turned_into_assume(repo: GitRepo, line: str, certain: bool) -> None:
    base = GIVEN.replace("{line}", "assert f(x) >= 0")
    found = tampering(repo, {T: base}, {T: GIVEN.replace("{line}", line)})
    titles = [title for _, _, title in verdicts(found)]
    assert ("an assertion became a Hypothesis filter" in titles) is certain, verdicts(found)


def test_assume_from_elsewhere_is_not_hypothesis(repo: GitRepo) -> None:
    base = GIVEN.replace("{line}", "assert f(x) >= 0")
    head = base.replace("from hypothesis import assume, given", "from hypothesis import given")
    head = "from mylib import assume\n" + head.replace("assert f(x) >= 0", "assume(f(x) >= 0)")
    titles = [title for _, _, title in verdicts(tampering(repo, {T: base}, {T: head}))]
    assert "an assertion became a Hypothesis filter" not in titles


def test_pytest_assume_is_a_soft_assertion(repo: GitRepo) -> None:
    base = GIVEN.replace("{line}", "assert f(x) >= 0")
    head = "import pytest\n" + base.replace("assert f(x) >= 0", "pytest.assume(f(x) >= 0)")
    assert tampering(repo, {T: base}, {T: head}) == []
