"""``tribunal check -q``: only what blocks, then the exit line.

CONTRADICTED findings, each under its file, and the UNVERIFIED ones only when they
are what blocks (``--hard-fail`` with ``strict: true``); nothing for a clean run but
the exit line, so a script or a busy log shows the decision and its reasons.
"""

from __future__ import annotations

from tribunal.findings import Report, Verdict
from tribunal.gate.policy import blocking_verdict
from tribunal.render.text import exit_reason, format_finding


def render_quiet(
    report: Report, *, color: bool = False, hard_fail: bool = False, strict: bool = False
) -> str:
    shown = {Verdict.CONTRADICTED}
    if blocking_verdict(report, hard_fail=hard_fail, strict=strict) is Verdict.UNVERIFIED:
        shown.add(Verdict.UNVERIFIED)
    lines = [
        f"{finding.file or '(change)'}\n{format_finding(finding, color)}"
        for finding in report.findings
        if finding.verdict in shown
    ]
    lines.append(exit_reason(report, hard_fail, strict))
    return "\n".join(lines) + "\n"
