"""claim-reconciliation: check each claim the change makes against the change itself.

One finding per claim, pointing at where the claim was made (the claims file
and line, or the commit whose message made it), never at line 0. A verifier
that crashes is reported as an analyzer error naming the claim; it never turns
into a verdict.
"""

from __future__ import annotations

from collections.abc import Iterator

from tribunal.analysis import record_crash
from tribunal.change import Change, Claim
from tribunal.findings import Finding

ID = "claim-reconciliation"


def run(change: Change) -> Iterator[Finding]:
    if not change.claims:
        return
    from tribunal.claims.registry import judge
    from tribunal.claims.sources import location

    for claim in change.claims:
        try:
            judgement = judge(change, claim)
        except Exception as exc:
            record_crash(f"{location(claim)} (claim {claim.key})", exc)
            continue
        detail = judgement.detail + _also(claim)
        yield Finding(
            analyzer=ID,
            verdict=judgement.verdict,
            file=location(claim),
            line=claim.line,
            title=f"{label(claim)}: {judgement.title}",
            detail=detail.strip(),
            claim=claim.key,
            source=claim.source,
        )


def label(claim: Claim) -> str:
    return f"claim '{claim.key}: {claim.arg}'" if claim.arg else f"claim '{claim.key}'"


def _also(claim: Claim) -> str:
    if not claim.also:
        return ""
    return f"\nAlso claimed by: {', '.join(claim.also)} (judged once)."
