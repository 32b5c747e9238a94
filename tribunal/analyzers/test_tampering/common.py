"""Values and helpers every test-tampering rule shares.

A rule looks at one test on both sides of the change (``Pair``: the base
record, None for a new test, and the head record) and at the lines the diff
added. Findings are built here so that they all read alike.
"""

from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import NamedTuple

from tribunal.change.diff.model import FileChange
from tribunal.findings import Finding, Verdict
from tribunal.lang.identifiers import split_words
from tribunal.lang.test_record import TestRecord
from tribunal.util.lazyre import lazy

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


_LINE_NOTE = lazy(r"(?<!\s)\s*\(?(?:at )?line \d+\)?")  # starts where a space run does


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


def judged_pairs(fc: FileChange, pairs: Iterable[Pair]) -> Iterator[Pair]:
    """The pairs the rules look at: the head test runs, and the diff touched it."""
    return (pair for pair in pairs if not pair.new.disabled and touched(fc, pair))


def ran_before(pair: Pair) -> TestRecord | None:
    """The base test, when there was one and it ran (else nothing was stripped from it)."""
    return pair.old if pair.old is not None and not pair.old.disabled else None


def stripped_checks(
    path: str,
    new: TestRecord,
    shown: str,
    doubts: Sequence[str],
    language: str,
    *,
    name: str,
    where: str = "",
    commented: str = "",
    verdict: Verdict = Verdict.CONTRADICTED,
) -> Finding:
    """A test whose base checks are all gone at head, in the words both languages use.

    ``verdict`` (CONTRADICTED unless capped) when nothing is left that might
    check instead; UNVERIFIED, naming the first ``doubts``, otherwise.
    ``shown`` quotes the base checks, ``where`` says where the diff removed
    them, ``commented`` notes that they were commented out.
    """
    if not doubts:
        return make(
            verdict,
            path,
            new.line,
            f"the diff removed every check test {name} made",
            f"In base, {name} checked something ({shown}); the diff deleted or changed those "
            f"lines{where} and added nothing that might check instead, so the test now passes "
            "whatever the code does." + commented,
            language,
            new.end,
        )
    return make(
        Verdict.UNVERIFIED,
        path,
        new.line,
        f"test {name} no longer has a check Tribunal can see",
        f"In base, {name} checked something ({shown}); at head it has no assertion "
        "Tribunal recognizes, but its checks may live on elsewhere:"
        + "".join(f"\n- {d}" for d in doubts[:4]),
        language,
        new.end,
    )


def commented_out(fc: FileChange, lines: Iterable[int], marker: str, strip: str) -> str:
    """A note when removed check ``lines`` come back as added comments (``marker`` lines)."""
    added = fc.added_text.values()
    comments = {text.strip().lstrip(strip).strip() for text in added if marker in text}
    gone = [fc.removed_text.get(line, "").strip() for line in lines]
    if any(text and text in comments for text in gone):
        return " The assertions were commented out, which removes them just the same."
    return ""


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
