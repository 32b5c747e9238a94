"""Tests before and after a change: which were added, removed, moved, or newly skipped.

Shared by the claims verifiers (``added-test``, ``no-test-removed``),
risky-diff-no-test and test-tampering, so every one of them agrees on what
"the change removed a test" means. Discovery is the test runners' own
(``python_tests``, ``js_tests``); this module only lines the two sides up:

- a test's identity is its file (renames followed: ``git mv`` keeps identity),
  its qualified name (``Class.test_x``; ``suite > title``) and which
  definition of that name it is;
- a test gone under its name whose body (code only, comments and layout
  ignored) appears in a head test under another name or file was renamed or
  moved, not removed;
- a test is skipped when the runner would not run it, and xfailed when it is
  expected to fail (``xfail``, ``expectedFailure``, ``.failing``).

The result is computed once per change.
"""

from __future__ import annotations

from collections import defaultdict
from typing import ClassVar

from tribunal.change.diff.model import FileChange
from tribunal.change.model import Change, Source
from tribunal.findings import Verdict
from tribunal.lang.paths import is_js_family, language_of
from tribunal.lang.per_change import PerChange
from tribunal.lang.test_record import TestRecord


class TestDiff:
    """Both sides of every changed test file, lined up (filled in once per change)."""

    __test__: ClassVar[bool] = False

    def __init__(self) -> None:
        self.added: list[TestRecord] = []
        self.removed: list[TestRecord] = []
        self.moved: list[tuple[TestRecord, TestRecord]] = []
        self.kept: list[tuple[TestRecord, TestRecord]] = []
        self.touched: list[TestRecord] = []  # head tests the diff touches
        self.test_files: list[str] = []  # changed files that hold tests
        self.unreadable: list[str] = []
        self.partial: set[str] = set()  # head files read with parse errors

    def newly_disabled(self) -> list[tuple[TestRecord, TestRecord]]:
        """(base, head) pairs of the same test that ran before and is skipped/xfailed now."""
        pairs = [*self.kept, *self.moved]
        return [(old, new) for old, new in pairs if new.disabled and not old.disabled]

    def gained_tests(self, path: str) -> bool:
        """Whether the file that is ``path`` at head gained a new test."""
        return any(t.head_path == path for t in self.added)


_MEMO: PerChange[str, TestDiff] = PerChange()


def diff_tests(change: Change) -> TestDiff:
    """The test-level difference between base and head (memoized per change)."""
    return _MEMO.get(change, "tests", lambda: _compute(change))


def is_test_path(change: Change, path: str) -> bool:
    """Whether the runners would collect ``path`` as a test file."""
    language = language_of(path)
    if language == "python":
        # Each language's readers load only when the change holds its files.
        from tribunal.lang.python.pytest_project import is_python_test_file

        return is_python_test_file(change, path)
    if is_js_family(language):
        from tribunal.lang.js.testcases import is_test_file

        return is_test_file(path)
    return False


def judge(record: TestRecord, change: Change | None = None) -> Verdict:
    """Whether the test can fail: PASS when an assertion is reachable.

    With ``change``, a Python test is judged in its project the way
    assertion-free-test judges it (``conftest.py`` autouse fixtures and hooks,
    ``usefixtures``, autouse fixtures its imports bring in), so the two never
    disagree about a head test. JS/TS tests have no such outside setup here.
    """
    if record.language == "python":
        if change is not None:
            from tribunal.lang.python.pytest_project import judge_in_project

            return judge_in_project(change, record.path, record.test, record.index).verdict
        from tribunal.lang.python.judge import judge_test as judge_python

        return judge_python(record.test, record.index).verdict
    from tribunal.lang.js.judge import judge_test as judge_js

    return judge_js(record.test, record.index).verdict


def _compute(change: Change) -> TestDiff:
    out = TestDiff()
    base_all: list[TestRecord] = []
    head_all: list[TestRecord] = []
    kept_keys: set[tuple[str, str, int]] = set()
    for fc in change.analyzable(("python", "javascript", "typescript", "tsx")):
        sides = [p for p in (fc.old_path, fc.path if fc.has_head else None) if p]
        if not any(is_test_path(change, p) for p in sides):
            continue
        out.test_files.append(fc.path)
        base = _side(change, fc, "base", out)
        head = _side(change, fc, "head", out)
        if head is not None and base is None:
            out.touched += [t for t in head if fc.touches(t.start, t.end)]
        if base is None or head is None:
            continue
        head_by_key = {(t.name, t.ordinal): t for t in head}
        old_spans: dict[tuple[str, int], tuple[int, int]] = {}
        for old in base:
            key = (old.name, old.ordinal)
            old_spans.setdefault(key, (old.start, old.end))
            new = head_by_key.get(key)
            if new is not None:
                out.kept.append((old, new))
                kept_keys.add((fc.path, new.name, new.ordinal))
            else:
                base_all.append(old)
        head_all += head
        out.touched += [t for t in head if _touched(fc, t, old_spans)]
    _match_moves(
        out, base_all, [t for t in head_all if (t.head_path, t.name, t.ordinal) not in kept_keys]
    )
    return out


def _match_moves(out: TestDiff, gone: list[TestRecord], fresh: list[TestRecord]) -> None:
    by_body: dict[str, list[TestRecord]] = defaultdict(list)
    for test in fresh:
        by_body[test.body].append(test)
    claimed: set[int] = set()
    for old in gone:
        candidates = [t for t in by_body.get(old.body, []) if id(t) not in claimed]
        if candidates:
            claimed.add(id(candidates[0]))
            out.moved.append((old, candidates[0]))
        else:
            out.removed.append(old)
    out.added += [t for t in fresh if id(t) not in claimed]


def _touched(
    fc: FileChange, test: TestRecord, old_spans: dict[tuple[str, int], tuple[int, int]]
) -> bool:
    """Lines added in the head test, or removed from its base twin (same name and ordinal)."""
    return fc.touches(test.start, test.end, old_spans.get((test.name, test.ordinal)))


def _side(change: Change, fc: FileChange, side: str, out: TestDiff) -> list[TestRecord] | None:
    """The tests of one side of ``fc``; [] when that side has none, None when unreadable."""
    if side == "base":
        path, source = fc.old_path, change.base_source(fc)
    else:
        path, source = (fc.path, change.head_source(fc)) if fc.has_head else (None, None)
    if path is None or not is_test_path(change, path):
        return []
    try:
        records = _records(change, fc.path, path, source) if source is not None else None
    except RecursionError:  # nested deeper than the analysis follows: as if unparsable
        records = None
    if records is None:
        out.unreadable.append(f"{path} ({side}) could not be read or parsed")
    elif side == "head" and source is not None and _has_syntax_errors(source, path):
        out.partial.add(fc.path)  # error recovery may have dropped tests from the tree
    return records


def _has_syntax_errors(source: Source, path: str) -> bool:
    language = language_of(path)
    if language is None or not is_js_family(language):
        return False  # Python either parses in full or not at all
    from tribunal.lang.trees import js_tree

    return js_tree(source, language).root_node.has_error


def _records(change: Change, head_path: str, path: str, source: Source) -> list[TestRecord] | None:
    language = language_of(path)
    if language == "python":
        from tribunal.lang.python.pytest_project import naming_for
        from tribunal.lang.python.records import python_records

        return python_records(source, path, head_path, naming_for(change, path))
    if language is not None and is_js_family(language):
        from tribunal.lang.js.records import js_records

        return js_records(source, path, head_path, language)
    return []
