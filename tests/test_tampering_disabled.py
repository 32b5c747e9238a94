"""test-tampering: tests newly skipped, xfailed or deleted (UNVERIFIED, never red).

The differ under these rules is shared with the ``no-test-removed`` claim;
the last tests check that both agree on the same changes.
"""

from __future__ import annotations

import pytest

from tests.claims_support import claim_verdict
from tests.gitrepo import GitRepo
from tests.test_tampering_support import src, tampering, verdicts
from tribunal.findings import Verdict

T = "tests/test_app.py"
BASE = src(
    """
    import pytest
    import unittest
    from app import add


    def test_add():
        assert add(1, 2) == 3


    def test_zero():
        assert add(0, 0) == 0
    """
)
J = "src/add.test.ts"
JS_BASE = src(
    """
    import { add } from './add';

    describe('add', () => {
      it('adds', () => {
        expect(add(1, 2)).toBe(3);
      });
      it('zero', () => {
        expect(add(0, 0)).toBe(0);
      });
    });
    """
)


def _mark(decorator: str) -> str:
    return BASE.replace("def test_add():", f"{decorator}\ndef test_add():")


@pytest.mark.parametrize(
    ("decorator", "how", "reason"),
    [
        ('@pytest.mark.skip(reason="flaky on CI")', "skipped", "reason given: flaky on CI"),
        ("@pytest.mark.skip", "skipped", "no reason given"),
        ('@pytest.mark.skipif(True, reason="later")', "skipped", "reason given: later"),
        ('@unittest.skip("broken upstream")', "skipped", "reason given: broken upstream"),
        ('@pytest.mark.xfail(reason="bug 12")', "marked as expected to fail", "bug 12"),
        ("@pytest.mark.xfail(strict=False)", "marked as expected to fail", "no reason"),
    ],
)
def test_a_newly_skipped_or_xfailed_test_quotes_its_reason(
    repo: GitRepo, decorator: str, how: str, reason: str
) -> None:
    found = tampering(repo, {T: BASE}, {T: _mark(decorator)})
    assert verdicts(found) == [("UNVERIFIED", 6, f"test `test_add` is newly {how}")]
    assert reason in found[0].detail


@pytest.mark.parametrize(
    "decorator",
    [
        '@pytest.mark.xfail(strict=True, reason="known bug")',
        "@unittest.expectedFailure",
        "@pytest.mark.skipif(sys.platform == 'win32', reason='posix only')",
    ],
)
def test_strict_xfail_and_conditional_skips_are_clean(repo: GitRepo, decorator: str) -> None:
    assert tampering(repo, {T: BASE}, {T: "import sys\n" + _mark(decorator)}) == []


def test_a_skip_in_the_body_and_a_skipped_class(repo: GitRepo) -> None:
    head = BASE.replace(
        "    assert add(1, 2) == 3", '    pytest.skip("needs network")\n    assert add(1, 2) == 3'
    )
    found = tampering(repo, {T: BASE}, {T: head})
    assert verdicts(found) == [("UNVERIFIED", 7, "test `test_add` is newly skipped")]
    assert "needs network" in found[0].detail
    klass = src(
        """
        import unittest

        class AddTest(unittest.TestCase):
            def test_one(self):
                self.assertEqual(1 + 0, 1)

            def test_two(self):
                self.assertEqual(1 + 1, 2)
        """
    )
    skipped = klass.replace("class AddTest", '@unittest.skip("rewrite")\nclass AddTest')
    found = tampering(repo, {T: klass}, {T: skipped})
    assert verdicts(found) == [("UNVERIFIED", 3, "2 tests are newly skipped")]
    assert "`AddTest.test_one`, `AddTest.test_two`" in found[0].detail


@pytest.mark.parametrize(
    ("old", "new", "title", "line"),
    [
        ("it('adds'", "it.skip('adds'", "test `add > adds` is newly skipped", 4),
        ("it('adds'", "xit('adds'", "test `add > adds` is newly skipped", 4),
        ("describe('add'", "describe.skip('add'", "2 tests are newly skipped", 3),
        ("describe('add'", "xdescribe('add'", "2 tests are newly skipped", 3),
    ],
)
def test_js_skips(repo: GitRepo, old: str, new: str, title: str, line: int) -> None:
    found = tampering(repo, {J: JS_BASE}, {J: JS_BASE.replace(old, new)})
    assert verdicts(found) == [("UNVERIFIED", line, title)]
    assert "no reason given" in found[0].detail


def test_js_skip_reason_from_a_comment_and_todo(repo: GitRepo) -> None:
    head = JS_BASE.replace("  it('adds'", "  // flaky until #42 is fixed\n  it.skip('adds'")
    found = tampering(repo, {J: JS_BASE}, {J: head})
    assert "reason given: flaky until #42 is fixed" in found[0].detail
    todo = JS_BASE.replace(
        "  it('adds', () => {\n    expect(add(1, 2)).toBe(3);\n  });\n", "  it.todo('adds');\n"
    )
    found = tampering(repo, {J: JS_BASE}, {J: todo})
    assert verdicts(found) == [("UNVERIFIED", 4, "test `add > adds` is newly turned into a todo")]


def test_js_failing_is_strict_and_clean(repo: GitRepo) -> None:
    head = JS_BASE.replace("it('adds'", "it.failing('adds'")
    assert tampering(repo, {J: JS_BASE}, {J: head}) == []


def test_deleted_tests(repo: GitRepo) -> None:
    head = BASE.replace("\n\ndef test_zero():\n    assert add(0, 0) == 0\n", "\n")
    found = tampering(repo, {T: BASE}, {T: head})
    assert verdicts(found) == [("UNVERIFIED", 9, "test `test_zero` was deleted")]
    # a test added to the same file may be the same test renamed and edited
    renamed = head + "\n\ndef test_zero_sum():\n    assert add(0, 0) == 0 + 0\n"
    assert tampering(repo, {T: BASE}, {T: renamed}) == []
    # renamed without edits: the differ sees a move
    moved = head + "\n\ndef test_nothing():\n    assert add(0, 0) == 0\n"
    assert tampering(repo, {T: BASE}, {T: moved}) == []


def test_a_deleted_test_file(repo: GitRepo) -> None:
    found = tampering(repo, {T: BASE, J: JS_BASE}, {T: None})
    assert verdicts(found) == [("UNVERIFIED", None, "2 tests were deleted")]
    assert "with its file" in found[0].detail


def test_an_unparsable_test_file_is_unverified(repo: GitRepo) -> None:
    found = tampering(repo, {T: BASE}, {T: BASE.replace("def test_zero():", "def test_zero(:")})
    assert [(f.verdict.name, f.file) for f in found] == [("UNVERIFIED", T)]
    assert "could not be parsed" in found[0].title


# --- agreement with the no-test-removed claim -------------------------------------------------

SCENARIOS = {
    "deleted": BASE.replace("\n\ndef test_zero():\n    assert add(0, 0) == 0\n", "\n"),
    "skipped": _mark("@pytest.mark.skip"),
    "xfailed": _mark("@pytest.mark.xfail"),
    "renamed": BASE.replace("def test_zero", "def test_zero_is_zero"),
    "edited": BASE.replace("== 3", "== 1 + 2"),
    "conditional": "import sys\n" + _mark("@pytest.mark.skipif(sys.version_info < (3,))"),
}


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_disabled_and_deleted_agree_with_no_test_removed(repo: GitRepo, name: str) -> None:
    head = SCENARIOS[name]
    found = tampering(repo, {T: BASE}, {T: head})
    flagged = any("deleted" in f.title or "newly" in f.title for f in found)
    verdict, _ = claim_verdict(repo, {T: BASE}, {T: head}, "no-test-removed")
    assert flagged == (verdict is Verdict.CONTRADICTED), (found, verdict)
