"""``tribunal: ignore[<analyzer>] <reason>`` comments.

A suppression turns a finding into UNVERIFIED (never hides it) and needs a
reason. A suppression the change itself adds is reported on its own, because
an agent silencing the gate is exactly what the gate exists to notice.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable, Iterator

from tribunal.change import Change
from tribunal.findings import Finding, Verdict
from tribunal.paths import language_of
from tribunal.registry import SUPPRESSION_ID

_COMMENT_STARTS = ("#", "//", "/*", "*", "<!--")
_MARK = re.compile(r"(?:#|//|/\*|\*|<!--)\s*tribunal:\s*ignore\[([a-z0-9-]+)\]\s*(.*)")


def parse_marker(line: str) -> tuple[str, str] | None:
    """(analyzer id, reason) of a suppression comment on ``line``, if any."""
    match = _MARK.search(line)
    if match is None:
        return None
    reason = match[2].strip().removesuffix("*/").removesuffix("-->").strip()
    return match[1], reason


def apply(change: Change, findings: Iterable[Finding]) -> list[Finding]:
    """Downgrade findings that a suppression comment with a reason covers."""
    out: list[Finding] = []
    for finding in findings:
        marker = _marker_for(change, finding)
        if marker is None or finding.verdict is Verdict.PASS:
            out.append(finding)
            continue
        line_no, reason = marker
        if not reason:
            note = f"\n(a suppression at line {line_no} has no reason, so it was ignored)"
            out.append(dataclasses.replace(finding, detail=finding.detail + note))
            continue
        out.append(dataclasses.replace(finding, verdict=Verdict.UNVERIFIED, suppressed=reason))
    return out


def _marker_for(change: Change, finding: Finding) -> tuple[int, str] | None:
    if finding.line is None or not finding.file:
        return None
    source = change.read_head(finding.file)
    if source is None:
        return None
    for line_no in _candidate_lines(source.lines, finding.line):
        parsed = parse_marker(source.line(line_no))
        if parsed is not None and parsed[0] == finding.analyzer:
            return line_no, parsed[1]
    return None


def _candidate_lines(lines: list[str], line: int) -> Iterator[int]:
    """The flagged line, then the comment-only lines directly above it.

    Decorator lines are stepped over, so a comment above ``@pytest.mark...``
    covers the decorated test whose finding points at its ``def`` line. A
    trailing comment on the line above belongs to that line, not this one.
    """
    yield line
    above = line - 1
    while above >= 1:
        text = lines[above - 1].lstrip() if above <= len(lines) else ""
        if text.startswith(_COMMENT_STARTS):
            yield above
        elif not text.startswith("@"):
            return
        above -= 1


def added_suppressions(change: Change) -> Iterator[Finding]:
    """One UNVERIFIED finding for each suppression comment the change adds."""
    for fc in change.analyzable():
        for line_no in sorted(fc.added_text):
            parsed = parse_marker(fc.added_text[line_no])
            if parsed is None:
                continue
            analyzer, reason = parsed
            detail = f"reason: {reason}" if reason else "no reason given, so it suppresses nothing"
            yield Finding(
                analyzer=SUPPRESSION_ID,
                verdict=Verdict.UNVERIFIED,
                file=fc.path,
                line=line_no,
                end_line=line_no,
                title=f"this change adds a suppression of {analyzer}",
                detail=detail,
                language=language_of(fc.path),
            )
