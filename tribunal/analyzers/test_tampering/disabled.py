"""Tests the change skipped, marked as expected to fail, or deleted: UNVERIFIED, never red.

An honest developer parks a flaky test or deletes an obsolete one, so these
only ever inform; the ``no-test-removed`` claim is what turns them red. Both
read the same base-vs-head differ (``tribunal.lang.test_diff``), so they
agree on which tests were removed or disabled. Two refinements are this
rule's own: an expected failure that is strict (``xfail(strict=True)``,
unittest's ``expectedFailure``, Jest's ``test.failing``, Vitest's
``test.fails``) fails the run as soon as the test passes, so it hides
nothing and gets no finding; and a skip whose condition is not a literal
(``skipif(sys.platform == "win32")``) is not a certain skip.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

from tribunal.analyzers.test_tampering.common import listing, make, quoted
from tribunal.change.diff.model import FileChange
from tribunal.change.model import Change
from tribunal.findings import Finding, Verdict
from tribunal.lang.test_diff import TestDiff
from tribunal.lang.test_record import TestRecord
from tribunal.util.lazyre import lazy

if TYPE_CHECKING:
    from tribunal.analyzers.test_tampering.reasons import Disabler

_UNREADABLE = lazy(r"^(?P<path>.*) \((?P<side>base|head)\) could not be read or parsed$")


def findings(change: Change, tests: TestDiff) -> Iterator[Finding]:
    yield from _disabled(change, tests)
    yield from _deleted(change, tests)
    yield from _unreadable(tests)


def _disabled(change: Change, tests: TestDiff) -> Iterator[Finding]:
    newly = tests.newly_disabled()
    if not newly:
        return
    # Reading marks and skips (``ast``, the pytest marks) loads only for a disabled test.
    from tribunal.analyzers.test_tampering.reasons import disabler

    groups: dict[tuple[str, Disabler], list[TestRecord]] = defaultdict(list)
    for _old, new in newly:
        found = disabler(change, new)
        if found is not None:
            groups[(new.head_path, found)].append(new)
    for (path, found), records in groups.items():
        names = [f"`{r.name}`" for r in records]
        subject = f"test {names[0]} is" if len(names) == 1 else f"{len(names)} tests are"
        reason = f"reason given: {quoted(found.reason, 120)}" if found.reason else "no reason given"
        yield make(
            Verdict.UNVERIFIED,
            path,
            found.line,
            f"{subject} newly {found.how}",
            f"{listing(names)} ran before this change and {'is' if len(names) == 1 else 'are'} "
            f"now {found.how} by `{quoted(found.marker, 60)}` ({reason}). A parked test "
            "no longer guards anything; a `no-test-removed` claim would make this blocking.",
            records[0].language,
        )


def _deleted(change: Change, tests: TestDiff) -> Iterator[Finding]:
    gone: dict[str, list[TestRecord]] = defaultdict(list)
    for record in tests.removed:
        if not tests.gained_tests(record.head_path):
            gone[record.head_path].append(record)
    by_path = {fc.path: fc for fc in change.files}
    for path, records in gone.items():
        fc = by_path.get(path)
        yield _deleted_finding(change, fc, path, records, path in tests.partial)


def _deleted_finding(
    change: Change,
    fc: FileChange | None,
    path: str,
    records: Sequence[TestRecord],
    partial: bool,
) -> Finding:
    names = [f"`{r.name}`" for r in records]
    subject = f"test {names[0]} was" if len(names) == 1 else f"{len(names)} tests were"
    if fc is not None and not fc.has_head:
        where = "with its file"
        line = None
    else:
        where = "and no test was added to the file"
        line = _where(change, fc, records[0])
    note = (
        " (the file has syntax the parser could not read, so they may still be there)"
        if partial
        else ""
    )
    return make(
        Verdict.UNVERIFIED,
        path,
        line,
        f"{subject} deleted",
        f"{listing(names)} existed before this change and {'is' if len(names) == 1 else 'are'} "
        f"gone {where}{note}. A `no-test-removed` claim would make this blocking.",
        records[0].language,
    )


def _where(change: Change, fc: FileChange | None, record: TestRecord) -> int | None:
    """The head line where a deleted test used to be."""
    if fc is None:
        return None
    anchor = fc.removed_anchor.get(record.start)
    if anchor is None:
        return None
    source = change.head_source(fc)
    size = len(source.lines) if source is not None else anchor + 1
    return max(1, min(anchor + 1, size))


def _unreadable(tests: TestDiff) -> Iterator[Finding]:
    for entry in tests.unreadable:
        match = _UNREADABLE().match(entry)
        path = match["path"] if match else ""
        side = match["side"] if match else "one side"
        yield make(
            Verdict.UNVERIFIED,
            path,
            None,
            "test file could not be parsed; its tests were not compared",
            f"The {side} version of this test file could not be read or parsed, so removed, "
            "skipped or weakened tests in it could not be detected.",
            None,
        )
