"""What the hooks print: one line when all is well, and on a block everything needed to act.

Each blocking finding is shown with its lens, analyzer, ``file:line`` and why;
UNVERIFIED notes in brief; for a push the path of ``summary.json``; and always
that ``--no-verify`` bypasses the gate: a push bypass is logged; a commit
bypass is not, but the commit is judged again when it is pushed.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol, TextIO

MARKS = {"CONTRADICTED": "✗", "UNVERIFIED": "?", "PASS": "✓", "ERROR": "!"}


class FindingLike(Protocol):
    """Both engine findings and summary records (their verdict differs in type only)."""

    @property
    def analyzer(self) -> str: ...
    @property
    def file(self) -> str: ...
    @property
    def line(self) -> int | None: ...
    @property
    def title(self) -> str: ...
    @property
    def detail(self) -> str: ...
    @property
    def suppressed(self) -> str | None: ...


def bypass_hint(stage: str) -> str:
    """The logged way out, said honestly: git leaves no trace of a commit bypass."""
    if stage == "pre-push":
        return "tribunal: `git push --no-verify` bypasses the gate; the bypass is logged"
    return (
        "tribunal: `git commit --no-verify` bypasses the gate for this commit; "
        "the push gate judges it again, and a push past that gate is logged"
    )


def location(finding: FindingLike) -> str:
    if not finding.file:
        return "(change)"
    return f"{finding.file}:{finding.line}" if finding.line else finding.file


def finding_lines(
    finding: FindingLike,
    verdict: str,
    *,
    lens: str | None = None,
    detail: bool = True,
    indent: str = "  ",
) -> list[str]:
    """``  ✗ file:line  [lens/analyzer] title`` and, when asked, the indented detail."""
    who = f"{lens}/{finding.analyzer}" if lens else finding.analyzer
    head = f"{indent}{MARKS.get(verdict, '?')} {location(finding)}  [{who}] {finding.title}"
    if finding.suppressed:
        head += f" (suppressed: {finding.suppressed})"
    if not detail or not finding.detail:
        return [head]
    return [head, *(f"{indent}    {line}" for line in finding.detail.splitlines())]


def write_lines(stream: TextIO, lines: Iterable[str]) -> None:
    for line in lines:
        print(line, file=stream)
    stream.flush()
