"""What judging one imported name yields, shared by both languages and both rules."""

from collections.abc import Iterable
from typing import NamedTuple

from tribunal.change.diff.model import FileChange
from tribunal.findings import Finding, Verdict

ID = "hallucinated-symbol"


class Outcome(NamedTuple):
    """The verdict on one module or one name of one import statement.

    ``key`` identifies what was imported (module and name) independently of
    the side, so that an import's outcome at base can be compared with head.
    ``group`` is set on outcomes said once per run for all their places
    (``grouped``: a package that is not installed, whatever the import form).
    """

    verdict: Verdict
    line: int
    end_line: int
    key: str
    title: str = ""
    detail: str = ""
    group: str = ""

    def downgraded(self, why: str) -> "Outcome":
        """At most UNVERIFIED, saying why certainty was lost."""
        if self.verdict is not Verdict.CONTRADICTED:
            return self
        detail = f"{self.detail}\nNot a certainty: {why}." if self.detail else f"{why}."
        return self._replace(verdict=Verdict.UNVERIFIED, detail=detail)

    def finding(self, path: str, language: str) -> Finding:
        return Finding(
            analyzer=ID,
            verdict=self.verdict,
            file=path,
            line=self.line,
            end_line=self.end_line if self.end_line != self.line else None,
            title=self.title,
            detail=self.detail,
            language=language,
            group=self.group,
        )


def passed(line: int, end_line: int, key: str) -> Outcome:
    return Outcome(Verdict.PASS, line, end_line, key)


def suggestion(wanted: str, candidates: Iterable[str]) -> str:
    """`` Did you mean 'x'?`` for a close existing name, else an empty string."""
    pool = sorted({c for c in candidates if c and c != wanted and not c.startswith("__")})
    lowered = {c.lower(): c for c in pool}
    if wanted.lower() in lowered:
        return f" Did you mean {lowered[wanted.lower()]!r}?"
    import difflib  # only a missing name needs it; most runs report none

    close = difflib.get_close_matches(wanted, pool, n=1, cutoff=0.75)
    return f" Did you mean {close[0]!r}?" if close else ""


def statement_touched(fc: FileChange, start: int, end: int) -> bool:
    """Whether the diff adds a line of ``[start, end]`` or deletes one between its lines.

    Stricter than ``FileChange.touches`` at the edges: a line edited right
    below an import is not the import.
    """
    return fc.adds_within(start, end) or fc.deletes_within(start, end - 1)
