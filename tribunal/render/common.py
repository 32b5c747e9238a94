"""Small helpers the machine and PR renderers share.

Paths come from git decoded with ``surrogateescape`` (a file name need not be
UTF-8), and analyzers may emit a line of 0 or an end before the start. These
helpers make such values safe to print and to place, in one place.
"""

from __future__ import annotations

from typing import NamedTuple

from tribunal.findings import Finding


class Span(NamedTuple):
    """A finding's lines as a renderer may show them: 1-based, or absent."""

    start: int | None
    end: int | None


def printable(text: str) -> str:
    """``text`` with undecodable bytes shown as ``\\xNN``: always UTF-8 encodable."""
    try:
        raw = text.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:  # a surrogate that no undecodable byte made
        return text.encode("utf-8", "backslashreplace").decode("utf-8")
    return raw.decode("utf-8", "backslashreplace")


def span(finding: Finding) -> Span:
    """Line 0 or below means "no line"; an end before the start is dropped."""
    start = finding.line if finding.line is not None and finding.line >= 1 else None
    end = finding.end_line
    if start is None or end is None or end < start:
        return Span(start, None)
    return Span(start, end)


def is_claim(finding: Finding) -> bool:
    """A claim finding judges a sentence from a claims source, not only code."""
    return finding.claim is not None and bool(finding.source)
