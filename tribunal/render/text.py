"""Terminal text: findings grouped by file, a counts line, and the exit reason."""

from __future__ import annotations

from collections import defaultdict

from tribunal.findings import AdvisoryClaim, Finding, Report, Verdict
from tribunal.gate.policy import blocking_verdict

_MARK = {Verdict.CONTRADICTED: "✗", Verdict.UNVERIFIED: "?", Verdict.PASS: "✓"}
_COLOR = {Verdict.CONTRADICTED: "31;1", Verdict.UNVERIFIED: "33", Verdict.PASS: "32"}


def paint(text: str, code: str, color: bool) -> str:
    return f"\033[{code}m{text}\033[0m" if color else text


def verdict_mark(verdict: Verdict, color: bool) -> str:
    return paint(f"{_MARK[verdict]} {verdict.name}", _COLOR[verdict], color)


def render(
    report: Report, *, color: bool = False, hard_fail: bool = False, strict: bool = False
) -> str:
    lines = [_header(report), ""]
    by_file: dict[str, list[Finding]] = defaultdict(list)
    for finding in report.findings:
        by_file[finding.file or "(change)"].append(finding)
    for file, findings in by_file.items():
        lines.append(paint(file, "1", color))
        lines.extend(format_finding(f, color) for f in findings)
        lines.append("")
    for path, reason in report.skipped:
        lines.append(f"skipped {path}: {reason}")
    if report.skipped:
        lines.append("")
    for note in report.notes:
        lines.append(f"note: {note}")
    if report.notes:
        lines.append("")
    lines += advisory_lines(report.advisory)
    lines.append(counts_line(report, color))
    lines.append(exit_reason(report, hard_fail, strict))
    return "\n".join(lines) + "\n"


def format_finding(finding: Finding, color: bool, indent: str = "  ") -> str:
    where = f"{finding.line}" if finding.line else "-"
    head = f"{indent}{verdict_mark(finding.verdict, color)}  {where}  [{finding.analyzer}] "
    head += finding.title
    if finding.suppressed:
        head += f" (suppressed: {finding.suppressed})"
    if finding.verdict is Verdict.PASS or not finding.detail:
        return head
    detail = "\n".join(f"{indent}    {line}" for line in finding.detail.splitlines())
    return f"{head}\n{detail}"


def advisory_lines(items: tuple[AdvisoryClaim, ...]) -> list[str]:
    """Claims a model proposed, as the verifiers found them: advice, apart from the counts."""
    if not items:
        return []
    lines = ["advisory (claims a model proposed; verified, never counted, never blocking):"]
    for item in items:
        lines += [f"  · {item.sentence}", f"      {item.adopt}"]
    return [*lines, ""]


def counts_line(report: Report, color: bool) -> str:
    parts = [
        paint(f"{report.count(v)} {v.name}", _COLOR[v], color and report.count(v) > 0)
        for v in (Verdict.CONTRADICTED, Verdict.UNVERIFIED, Verdict.PASS)
    ]
    return " · ".join(parts)


def exit_reason(report: Report, hard_fail: bool, strict: bool = False) -> str:
    contradicted = report.count(Verdict.CONTRADICTED)
    if report.errors:
        return f"{len(report.errors)} analyzer error(s): see stderr; results are incomplete"
    blocking = blocking_verdict(report, hard_fail=hard_fail, strict=strict)
    if blocking is Verdict.CONTRADICTED:
        return "blocking: --hard-fail and a CONTRADICTED finding (exit 1)"
    if blocking is Verdict.UNVERIFIED:
        return "blocking: --hard-fail, strict: true and an UNVERIFIED finding (exit 1)"
    if contradicted:
        return "report only: CONTRADICTED findings do not fail without --hard-fail"
    return "no CONTRADICTED findings"


def _header(report: Report) -> str:
    files = report.files_analyzed
    analyzers = len(report.analyzers)
    return (
        f"tribunal: {report.range.description} — {files} file{'s' * (files != 1)}, "
        f"{analyzers} analyzer{'s' * (analyzers != 1)}, {report.duration_ms:.0f} ms"
    )
