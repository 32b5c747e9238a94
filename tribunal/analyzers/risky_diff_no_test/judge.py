"""Judging one changed source file: which risky words it touches, and which test covers it."""

from collections.abc import Iterator
from typing import NamedTuple

from tribunal.analyzers.risky_diff_no_test.correlate import correlated
from tribunal.analyzers.risky_diff_no_test.lines import names_on_lines
from tribunal.analyzers.risky_diff_no_test.vocab import Vocabulary
from tribunal.change.diff.linetable import joined
from tribunal.change.diff.model import FileChange
from tribunal.change.model import Change
from tribunal.findings import Finding, Verdict
from tribunal.lang.paths import language_of
from tribunal.lang.test_diff import diff_tests, judge
from tribunal.lang.test_record import TestRecord

ID = "risky-diff-no-test"

_SHOWN = 8


class Hit(NamedTuple):
    line: int
    word: str
    where: str  # the identifier or path part that holds the word
    in_path: bool = False


def judge_file(change: Change, fc: FileChange, vocab: Vocabulary) -> Iterator[Finding]:
    if not fc.added and not fc.removed:
        return  # a pure rename or mode change: no code changed
    hits = _line_hits(change, fc, vocab)
    first_line = min([*fc.added, *(a + 1 for a in fc.removed_anchor.values())], default=1)
    head = change.head_source(fc)
    first_line = min(first_line, max(len(head.lines), 1)) if head is not None else first_line
    for part in fc.path.split("/"):
        hits += [Hit(first_line, w, part, in_path=True) for w in _words(part, vocab)]
    if not hits:
        return
    covering = _covering_test(change, fc.path)
    words = sorted({h.word for h in hits})
    quoted = ", ".join(f"'{w}'" for w in words)
    at = min(hits, key=lambda h: (h.in_path, h.line))
    evidence = "\n".join(_evidence(hits))
    if covering is not None:
        title = f"risky area ({quoted}) changed, with a correlated asserting test"
        yield _finding(fc, at.line, Verdict.PASS, title, f"{evidence}\nTest: {covering.label}")
        return
    yield _finding(
        fc,
        at.line,
        Verdict.UNVERIFIED,
        f"risky area ({quoted}) changed with no correlated asserting test",
        evidence + "\nNo test added or edited by this change, in a test file named for this "
        "module or its directory, has an assertion Tribunal can see.",
    )


def _line_hits(change: Change, fc: FileChange, vocab: Vocabulary) -> list[Hit]:
    """Hits on added lines, then on removed lines whose identifier no added line still has.

    A removed line is reported where the deletion sits in head (the line after
    its anchor), so a deleted ``require_auth()`` call points at the gap it left.
    """
    language = language_of(fc.path) or ""
    found: list[Hit] = []
    head = change.head_source(fc)
    if head is not None and vocab.may_hit(joined(fc.added_text)):
        for line, names in names_on_lines(head, language, fc.added).items():
            found += [Hit(line, w, n) for n in names for w in _words(n, vocab)]
    if not fc.removed or not vocab.may_hit(joined(fc.removed_text)):
        return found
    base = change.base_source(fc)
    if base is None:
        return found
    kept = {h.where for h in found}
    last = len(head.lines) if head is not None else 1
    for line, names in names_on_lines(base, language, fc.removed).items():
        at = min(fc.removed_anchor.get(line, 0) + 1, last)
        found += [Hit(at, w, n) for n in names if n not in kept for w in _words(n, vocab)]
    return found


def _words(name: str, vocab: Vocabulary) -> list[str]:
    return vocab.hits_in(name)


def _covering_test(change: Change, path: str) -> TestRecord | None:
    for test in diff_tests(change).touched:
        if test.disabled or not correlated(path, test.path):
            continue
        if judge(test) is Verdict.PASS:
            return test
    return None


def _evidence(hits: list[Hit]) -> list[str]:
    seen: dict[tuple[bool, int, str], str] = {}
    for hit in sorted(hits, key=lambda h: (h.in_path, h.line)):
        seen.setdefault((hit.in_path, hit.line, hit.where), hit.word)
    lines = [
        f"path segment '{where}' ({word})" if in_path else f"line {line}: '{where}' ({word})"
        for (in_path, line, where), word in seen.items()
    ]
    if len(lines) > _SHOWN:
        lines = [*lines[:_SHOWN], f"... and {len(lines) - _SHOWN} more"]
    return lines


def _finding(fc: FileChange, line: int, verdict: Verdict, title: str, detail: str) -> Finding:
    return Finding(
        analyzer=ID,
        verdict=verdict,
        file=fc.path,
        line=line,
        title=title,
        detail=detail,
        language=language_of(fc.path),
    )
