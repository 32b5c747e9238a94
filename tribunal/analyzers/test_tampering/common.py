"""Values and helpers every test-tampering rule shares.

A rule looks at one test on both sides of the change (``Pair``: the base
record, None for a new test, and the head record) and at the lines the diff
added. Findings are built here so that they all read alike.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import NamedTuple

from tribunal.diff.model import FileChange
from tribunal.findings import Finding, Verdict
from tribunal.lang.identifiers import split_words
from tribunal.lang.test_diff import TestRecord
from tribunal.lazyre import lazy

ID = "test-tampering"

#: Words in a called name that say "this call may check something" (``verify_output``).
CHECK_WORDS = frozenset(
    {"check", "checks", "verify", "verifies", "expect", "expects", "ensure", "ensures"}
    | {"validate", "validates", "should", "must", "require", "requires", "confirm"}
    | {"compare", "compares", "approve", "assure", "fail", "fails", "snapshot", "assert"}
    | {"asserts", "equal", "equals", "golden"}
)
#: Calls that fail on their own when what they look for is missing: Testing Library's
#: ``getBy*``/``findBy*``, ``waitFor``, Selenium's ``find_element``, every Cypress command.
_IMPLICIT_PREFIXES = (
    *("getBy", "getAllBy", "findBy", "findAllBy", "waitFor", "wait_for"),
    *("find_element", "get_by_", "findElement"),
)


def may_check(parts: Sequence[str]) -> bool:
    """Whether a call of ``a.b.c`` may be a check by its name (``check.equal``, ``getByText``)."""
    if not parts:
        return False
    if parts[0] == "cy" or parts[-1].startswith(_IMPLICIT_PREFIXES):
        return True
    return any(CHECK_WORDS.intersection(split_words(part)) for part in parts)


_LINE_NOTE = lazy(r"\s*\(?(?:at )?line \d+\)?")


class Lazy:
    """A list of reasons computed on first use: most files never need it."""

    def __init__(self, compute: Callable[[], list[str]]) -> None:
        self._compute = compute
        self._value: list[str] | None = None

    def get(self) -> list[str]:
        if self._value is None:
            self._value = self._compute()
        return self._value


class Pair(NamedTuple):
    """One test before and after the change; ``old`` is None for a test the change added."""

    old: TestRecord | None
    new: TestRecord


def make(
    verdict: Verdict,
    record_path: str,
    line: int | None,
    title: str,
    detail: str,
    language: str | None,
    end_line: int | None = None,
) -> Finding:
    return Finding(
        analyzer=ID,
        verdict=verdict,
        file=record_path,
        line=line,
        end_line=end_line if end_line is not None else line,
        title=title,
        detail=detail,
        language=language,
    )


def cap(verdict: Verdict, limit: Verdict) -> Verdict:
    """``verdict``, but no worse than ``limit`` (syntax errors cap a file at UNVERIFIED)."""
    return min(verdict, limit)


def added_in(fc: FileChange, start: int, end: int) -> list[int]:
    """Added lines within ``[start, end]`` of the head file, ascending."""
    return sorted(n for n in fc.added if start <= n <= end)


def touched(fc: FileChange, pair: Pair) -> bool:
    """Whether the diff adds, changes or deletes a line of the test (a new test always is)."""
    new, old = pair.new, pair.old
    if old is None:
        return True
    return fc.touches(new.start, new.end, (old.start, old.end))


def without_line_numbers(text: str) -> str:
    """``autouse fixture `x` (line 12)`` -> ``autouse fixture `x```: lines move, facts do not."""
    return _LINE_NOTE().sub("", text)


def fresh(head: Sequence[str], base: Iterable[str]) -> list[str]:
    """Items of ``head`` beyond those ``base`` already had (a multiset difference)."""
    return [head[i] for i in fresh_indices(head, base)]


def fresh_indices(head: Sequence[str], base: Iterable[str]) -> list[int]:
    left = Counter(base)
    out = []
    for i, item in enumerate(head):
        if left[item] > 0:
            left[item] -= 1
        else:
            out.append(i)
    return out


def unseen(fc: FileChange, items: Sequence[tuple[int, int, str]], base: Iterable[str]) -> list[int]:
    """Indices of head ``(line, end, text)`` items on added lines that base did not have.

    Base items are first matched to the head items the diff left alone, so
    an ``assert True`` that was already there stays unreported while a second
    one the diff adds is reported.
    """
    left = Counter(base)
    changed = [i for i, (line, end, _) in enumerate(items) if added_in(fc, line, end)]
    for i, (_, _, text) in enumerate(items):
        if i not in changed and left[text] > 0:
            left[text] -= 1
    out = []
    for i in changed:
        text = items[i][2]
        if left[text] > 0:
            left[text] -= 1
        else:
            out.append(i)
    return out


def quoted(text: str, limit: int = 70) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 3] + "..."


def listing(items: Iterable[str], shown: int = 5) -> str:
    """``a, b, c`` or ``a, b, c, d, e and 3 more``."""
    items = list(items)
    head = ", ".join(items[:shown])
    more = len(items) - shown
    return f"{head} and {more} more" if more > 0 else head
