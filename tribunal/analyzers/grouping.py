"""One finding for many places: how an analyzer says a thing once instead of per line.

A comment-code-drift note per changed definition (not per comment line), a
"package not installed" note per package (not per importing file): the
places a grouped finding stands for are kept, in order. The first is the
finding's ``file``/``line`` (the pinned report shape), the others are
``related`` (SARIF ``relatedLocations``) and every place is listed in
``detail``, so the JSON, SARIF and markdown reports stay complete. ``group``
is the stable key the engine fingerprints instead of the first place, so an
alert keeps its identity when the group gains or loses a place.
"""

from collections.abc import Sequence
from typing import NamedTuple

from tribunal.findings import Finding, Related, Verdict


class Place(NamedTuple):
    """One place of a group; ``note`` says what is there, on one line."""

    file: str
    line: int | None
    note: str = ""


def grouped(
    *,
    analyzer: str,
    verdict: Verdict,
    group: str,
    title: str,
    explanation: str,
    places: Sequence[Place],
    language: str | None = None,
) -> Finding:
    """The finding for ``places`` (at least one; duplicates are dropped, order kept)."""
    unique = list(dict.fromkeys(places))
    first = unique[0]
    listing = [_listed(place) for place in unique]
    detail = "\n".join([explanation, *listing] if explanation else listing)
    return Finding(
        analyzer=analyzer,
        verdict=verdict,
        file=first.file,
        line=first.line,
        title=title,
        detail=detail,
        language=language,
        related=tuple(Related(p.file, p.line) for p in unique[1:]),
        group=group,
    )


def locations(finding: Finding) -> list[Related]:
    """Every place a finding is about, its own first."""
    return [Related(finding.file, finding.line), *finding.related]


def count_phrase(count: int, noun: str) -> str:
    """``1 file``, ``3 files``: for titles that say how big a group is."""
    return f"{count} {noun}{'s' * (count != 1)}"


def _listed(place: Place) -> str:
    where = f"{place.file}:{place.line}" if place.line else place.file
    return f"  {where}  {place.note}" if place.note else f"  {where}"
