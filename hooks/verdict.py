"""The gate's decision as text: one line for a pass, the whole story for a reject."""

from __future__ import annotations

from tribunal.gate.decision import GateResult, blocking_verdicts, member_reason
from tribunal.gate.summary import FindingRecord, MemberRecord, Summary
from tribunal.hooks.convene import Convened
from tribunal.hooks.output import finding_lines

MAX_NOTES = 10


def gate_lines(label: str, convened: Convened, result: GateResult) -> list[str]:
    sha = convened.expected.commit[:12]
    summary = result.summary
    reused = ", from an earlier run" if convened.reused else ""
    config = [f"  config: {summary.config.source}"] if summary is not None else []
    if result.passed and summary is not None:
        count = len(summary.members)
        head = f"tribunal: ✓ {label} ({sha}): unanimous pass from {count} lenses{reused}"
        return [head, *config, *_range_notes(summary), *_notes(summary, convened.expected.strict)]
    lines = [f"tribunal: ✗ push of {label} ({sha}) rejected{reused}", *config]
    lines += _range_notes(summary) if summary is not None else []
    if summary is None or not result.blocking:
        lines += [f"  {reason}" for reason in result.reasons]
    if summary is not None:
        for member in summary.members:
            if member.lens in result.blocking:
                lines += _member_lines(member, convened.expected.strict)
        lines += _notes(summary, convened.expected.strict)
    lines.append(f"  summary: {convened.path}")
    return lines


def _range_notes(summary: Summary) -> list[str]:
    """What the range says about itself (judged from a merge base, a shallow cut...)."""
    return [f"  range: {note}" for note in summary.range.notes]


def _member_lines(member: MemberRecord, strict: bool) -> list[str]:
    reason = member_reason(member, strict) or member.verdict
    lines = [f"  {reason}"]
    if member.verdict == "ERROR":
        lines += [f"      {note_line}" for note in member.notes for note_line in note.splitlines()]
        return lines
    blocking = blocking_verdicts(strict)
    for finding in member.findings:
        if finding.verdict in blocking:
            lines += finding_lines(finding, finding.verdict, lens=member.lens, indent="    ")
    return lines


def _notes(summary: Summary, strict: bool) -> list[str]:
    """UNVERIFIED findings that did not block, in brief (under strict, only the change's notes)."""
    brief: list[str] = []
    if not strict:
        for member in summary.members:
            unverified = [f for f in member.findings if f.verdict == "UNVERIFIED"]
            brief += [_brief(f, member.lens) for f in unverified]
    brief += [_brief(f, None) for f in summary.notes]
    if not brief:
        return []
    more = len(brief) - MAX_NOTES
    shown = brief[:MAX_NOTES] + ([f"    … and {more} more in the summary"] if more > 0 else [])
    return ["  UNVERIFIED (not blocking):", *shown]


def _brief(finding: FindingRecord, lens: str | None) -> str:
    return finding_lines(finding, finding.verdict, lens=lens, detail=False, indent="    ")[0]
