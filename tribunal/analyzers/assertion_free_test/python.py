"""assertion-free-test for Python (pytest and unittest).

Only the tests the diff touches are judged, one finding each, PASS included so
a report shows what was looked at. A test counts as touched when the diff adds
a line inside its span (decorators included) or removes one from the same
test's span in base: deleting the last assertion of a test is a change to it.
Skipped tests are not judged. A test file that does not parse gets a single
UNVERIFIED finding, never a verdict on its tests.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator

from tribunal.analyzers.assertion_free_test.ident import ID
from tribunal.change.diff.model import FileChange
from tribunal.change.model import Change
from tribunal.findings import Finding, Verdict
from tribunal.lang.python.judge import Judgement
from tribunal.lang.python.pytest_naming import PytestNaming
from tribunal.lang.python.pytest_project import judge_in_project, naming_for
from tribunal.lang.python.testcases import PyTestCase, is_test_file, parsed, tests_of
from tribunal.lang.test_record import ordinals

Key = tuple[str, int]  # qualified name, and which definition of that name
_FIX = "Assert on the behaviour the test is named for, or delete the test."
_CHECK = "If it should check a result, assert on it; a smoke test that only runs code is fine."


def judge_file(change: Change, fc: FileChange) -> Iterator[Finding]:
    naming = naming_for(change, fc.path)
    if not is_test_file(fc.path, naming):
        return
    source = change.head_source(fc)
    if source is None:
        return
    found = tests_of(source, naming)
    if found is None:
        failure = parsed(source)
        yield _unparsable(fc, failure.error or "unknown error", failure.error_line)
        return
    index = found.module
    tests = [(k, t) for k, t in _keyed(found.tests) if t.skip_reason is None]
    if not tests:
        return
    old_spans = _old_spans(change, fc, naming)
    for key, test in tests:
        if fc.touches(test.start, test.end, old_spans.get(key)):
            yield _finding(fc, test, judge_in_project(change, fc.path, test, index))


def _old_spans(change: Change, fc: FileChange, naming: PytestNaming) -> dict[Key, tuple[int, int]]:
    base = change.base_source(fc)
    found = tests_of(base, naming) if base is not None else None
    if found is None:
        return {}
    return {key: (test.start, test.end) for key, test in _keyed(found.tests)}


def _keyed(tests: tuple[PyTestCase, ...]) -> list[tuple[Key, PyTestCase]]:
    """Each test with its identity: the name, and which definition of that name it is."""
    names = [t.qualname for t in tests]
    return [((name, n), t) for name, n, t in zip(names, ordinals(names), tests, strict=True)]


def _finding(fc: FileChange, test: PyTestCase, judgement: Judgement) -> Finding:
    name = f"`{test.qualname}`"
    if judgement.verdict is Verdict.PASS:
        title = f"test {name} asserts"
        detail = f"{name} reaches an assertion ({judgement.reason}):"
    elif judgement.verdict is Verdict.CONTRADICTED:
        title = f"test {name} asserts nothing and can never fail"
        detail = (
            f"No assertion in {name} (lines {test.start}-{test.end}): {judgement.reason}, "
            "and no fixture, setup code or decorator runs with it, so it passes "
            f"whatever the code under test does. {_FIX}"
        )
    else:
        title = f"test {name} has no assertion Tribunal can see"
        detail = f"No assertion found in {name}; {judgement.reason}. {_CHECK}"
    evidence = "".join(f"\n- {line}" for line in judgement.evidence)
    return Finding(
        analyzer=ID,
        verdict=judgement.verdict,
        file=fc.path,
        line=test.line,
        end_line=test.end,
        title=title,
        detail=detail + evidence,
        language="python",
    )


def _unparsable(fc: FileChange, error: str, line: int | None) -> Finding:
    version = f"{sys.version_info.major}.{sys.version_info.minor}"
    where = f" at line {line}" if line else ""
    return Finding(
        analyzer=ID,
        verdict=Verdict.UNVERIFIED,
        file=fc.path,
        line=line,
        end_line=line,
        title="test file could not be parsed; its tests were not judged",
        detail=f"Python {version}'s parser rejects this file{where} ({error}).",
        language="python",
    )
