"""Small helpers the machine and PR renderers share.

Paths come from git decoded with ``surrogateescape`` (a file name need not be
UTF-8), and analyzers may emit a line of 0 or an end before the start. These
helpers make such values safe to print and to place, in one place.
"""

from typing import NamedTuple

from tribunal.findings import Finding


class Span(NamedTuple):
    """A finding's lines as a renderer may show them: 1-based, or absent."""

    start: int | None
    end: int | None


def printable(text: str) -> str:
    """``text`` with undecodable bytes as git writes them (``\\377``): UTF-8 encodable."""
    from tribunal.git.cquote import printable as escaped

    return escaped(text)


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


class Place(NamedTuple):
    """Where a finding points in the repository: a path and, when real, its lines."""

    path: str
    start: int | None
    end: int | None


def _names_no_file(location: str) -> bool:
    """Claim locations that are no file: ``commit:<id>`` (a message), ``council`` and
    ``pr-body`` (a pull request body that CI passed from outside the repository)."""
    return location.startswith("commit:") or location in ("council", "pr-body")


def places(finding: Finding) -> list[Place]:
    """Primary place first, then related ones; empty when nothing can be placed.

    A finding points at its file and line, and a grouped finding (or a claim
    made in a claims file) at its related places too. A claim whose finding
    names no file (``commit:<id>``, ``council``, ``pr-body``: a change without
    any file to fall back on) has no place: renderers that need one must say
    so some other way rather than invent a path.
    """
    start, end = span(finding)
    if not finding.file or _names_no_file(finding.file):
        return []
    own = Place(finding.file, start, end)
    return [own, *(Place(r.file, _line(r.line), None) for r in finding.related if r.file)]


def _line(line: int | None) -> int | None:
    return line if line is not None and line >= 1 else None
