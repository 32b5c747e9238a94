"""Fitting a markdown report into one of GitHub's size limits without breaking it.

GitHub rejects a comment body over 65,536 characters (422) and cuts a step
summary over 1 MiB (measured in UTF-8 bytes). A report that big is still worth
showing in part, so it is cut at a line boundary, and whatever the cut left
open is closed: a fenced code block (else the note below it would render as
code) and any ``<details>`` (else the rest of the page would fold into it).
A note then says how much is shown and where the whole report is.

One helper serves both limits, so the comment and the summary are cut alike.
"""

import re
from collections.abc import Iterator
from typing import Literal, NamedTuple

Unit = Literal["characters", "bytes"]


class Limit(NamedTuple):
    """A size limit in ``unit``, and how far under it to stay (for the closers' slack)."""

    size: int
    unit: Unit
    margin: int


#: GitHub counts a comment body in characters (its validation message says so).
COMMENT = Limit(65_536, "characters", 1_024)
#: GitHub counts a step summary in bytes (``$GITHUB_STEP_SUMMARY`` upload limit).
STEP_SUMMARY = Limit(1_048_576, "bytes", 4_096)

#: A fence opener (backticks or tildes; our renderer indents it inside list items).
_FENCE_OPEN = re.compile(r"( *)(`{3,}|~{3,})(.*)")
_DETAILS_OPEN = re.compile(r"<details(?=[\s>])", re.IGNORECASE)
_DETAILS_CLOSE = re.compile(r"</details\s*>", re.IGNORECASE)


class _Open(NamedTuple):
    """What is open after a line: a fence (indent + fence string) and ``<details>`` depth."""

    fence: tuple[str, str] | None = None
    details: int = 0

    def after(self, line: str) -> "_Open":
        text = line.rstrip("\r\n")
        if self.fence is not None:
            fence = self.fence[1]
            stripped = text.strip()
            closes = stripped.startswith(fence) and set(stripped) == {fence[0]}
            return self._replace(fence=None) if closes else self
        opener = _FENCE_OPEN.fullmatch(text)
        if opener and not (opener[2][0] == "`" and "`" in opener[3]):
            return self._replace(fence=(opener[1], opener[2]))
        depth = self.details + len(_DETAILS_OPEN.findall(text))
        return self._replace(details=max(0, depth - len(_DETAILS_CLOSE.findall(text))))

    def closers(self) -> str:
        text = f"{self.fence[0]}{self.fence[1]}\n" if self.fence else ""
        return text + "\n</details>\n" * self.details


def size(text: str, unit: Unit) -> int:
    return len(text.encode("utf-8", "surrogatepass")) if unit == "bytes" else len(text)


def fit(text: str, limit: Limit, pointer: str = "") -> str:
    """``text`` if it fits in ``limit``; else its longest line prefix that fits with
    the blocks it left open closed and a note that says ``pointer`` (where the
    rest is). ``limit.size`` must leave room for the margin and the note.
    """
    total = size(text, limit.unit)
    if total <= limit.size:
        return text
    widest_note = size(note(total, total, limit.unit, pointer), limit.unit)
    budget = limit.size - limit.margin - widest_note
    kept, state = _longest_prefix(text, budget, limit.unit)
    shown = size(kept, limit.unit)
    return f"{kept}{state.closers()}\n{note(shown, total, limit.unit, pointer)}\n"


def note(shown: int, total: int, unit: Unit, pointer: str) -> str:
    tail = f" {pointer}" if pointer else ""
    return f"_Report truncated: {shown:,} of {total:,} {unit} shown.{tail}_"


def job_summary_pointer(run_url: str | None) -> str:
    """Where the full report is, linked when the run's page is known."""
    if run_url:
        return f"The full report is in the [job summary]({run_url})."
    return "The full report is in the job summary."


def _longest_prefix(text: str, budget: int, unit: Unit) -> tuple[str, _Open]:
    """The most whole lines whose size plus what closes them stays within ``budget``."""
    used, state = 0, _Open()
    best_end, best_state = 0, state
    end = 0
    for line in _lines(text):
        used += size(line, unit)
        if used > budget:
            break
        end += len(line)
        state = state.after(line)
        if used + size(state.closers(), unit) <= budget:
            best_end, best_state = end, state
    return text[:best_end], best_state


def _lines(text: str) -> Iterator[str]:
    """Lines with their ``\\n``; only ``\\n`` ends a line, as in markdown."""
    start = 0
    while start < len(text):
        end = text.find("\n", start)
        end = len(text) if end < 0 else end + 1
        yield text[start:end]
        start = end
