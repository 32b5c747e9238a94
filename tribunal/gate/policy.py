"""When ``tribunal check --hard-fail`` blocks: one rule for the exit code and the reports.

CONTRADICTED blocks. Under ``strict: true`` (the team's choice, in the trusted
config) UNVERIFIED blocks too, as it does at the pre-push gate, so CI is never
weaker than the hook it re-runs. The notes about the change itself (a
weakening of the config, a suppression it adds) never block, as at the gate:
they are reported and logged, and a team must be able to push its own config
change; a suppressed finding is UNVERIFIED in its own right and does block.
"""

from __future__ import annotations

from tribunal.engine.registry import SUPPRESSION_ID, WEAKENED_ID
from tribunal.findings import Report, Verdict

#: Findings about the change itself rather than the code: never gating.
CHANGE_NOTES = frozenset({WEAKENED_ID, SUPPRESSION_ID})


def blocking_verdict(report: Report, *, hard_fail: bool, strict: bool) -> Verdict | None:
    """The verdict that makes the run exit 1, or None when it does not block."""
    if not hard_fail:
        return None
    if report.count(Verdict.CONTRADICTED):
        return Verdict.CONTRADICTED
    if strict and any(
        f.verdict is Verdict.UNVERIFIED and f.analyzer not in CHANGE_NOTES for f in report.findings
    ):
        return Verdict.UNVERIFIED
    return None
