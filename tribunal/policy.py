"""When ``tribunal check --hard-fail`` blocks: one rule for the exit code and the reports.

CONTRADICTED blocks. Under ``strict: true`` (the team's choice, in the trusted
config) UNVERIFIED blocks too, as it does at the pre-push gate, so CI is never
weaker than the hook it re-runs; a change's weakening of the config itself
never blocks, so that a team can still push its own config change.
"""

from __future__ import annotations

from tribunal.findings import Report, Verdict
from tribunal.registry import WEAKENED_ID


def blocking_verdict(report: Report, *, hard_fail: bool, strict: bool) -> Verdict | None:
    """The verdict that makes the run exit 1, or None when it does not block."""
    if not hard_fail:
        return None
    if report.count(Verdict.CONTRADICTED):
        return Verdict.CONTRADICTED
    if strict and any(
        f.verdict is Verdict.UNVERIFIED and f.analyzer != WEAKENED_ID for f in report.findings
    ):
        return Verdict.UNVERIFIED
    return None
