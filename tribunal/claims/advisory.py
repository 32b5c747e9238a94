"""Claims a model proposed: verified like any claim, reported as advice, never a finding.

A claim nobody made is not a defect. When the council, or a
```` ```tribunal-proposed ```` block written by ``tribunal propose``, suggests
``added-test`` for a change that adds no test, the verifier's answer is worth
showing, but no promise of the author's was broken. So these claims are judged
by the same deterministic verifiers and come back as ``AdvisoryClaim`` values,
which no lens counts and no exit-code policy reads. The author adopts one by
stating it (a ``Tribunal-Claim:`` trailer, or a line in a ```` ```tribunal ````
block); from then on it is the author's claim and gates like any other.
"""

from __future__ import annotations

from collections.abc import Iterable

from tribunal.change.model import Change, Claim
from tribunal.findings import AdvisoryClaim, Verdict

#: The source every model-proposed claim is reported with, whoever proposed it.
SOURCE = "council"
OUTCOMES = {
    Verdict.PASS: "holds",
    Verdict.UNVERIFIED: "unverified",
    Verdict.CONTRADICTED: "contradicted",
}


def adopt_hint(claim: Claim) -> str:
    text = f"{claim.key}: {claim.arg}" if claim.arg else claim.key
    return (
        f"to make it your claim, add the trailer `Tribunal-Claim: {text}` to a commit message "
        f"or put `{text}` in the PR body's ```tribunal block"
    )


def judge_proposed(
    change: Change, proposed: Iterable[Claim], authored: Iterable[Claim] = ()
) -> tuple[AdvisoryClaim, ...]:
    """Each proposed claim the author did not also make, with the verifier's answer.

    A verifier that crashes leaves that claim unverified (advice must never fail a run).
    """
    from tribunal.claims.registry import judge
    from tribunal.claims.sources import location

    stated = {(c.key, c.arg) for c in authored}
    out = []
    for claim in proposed:
        if (claim.key, claim.arg) in stated:
            continue  # the author made it too: it is judged, and gates, as theirs
        try:
            judgement = judge(change, claim)
            outcome, title, detail = OUTCOMES[judgement.verdict], judgement.title, judgement.detail
        except Exception as exc:
            outcome, detail = "unverified", str(exc)
            title = f"not verified: the verifier failed ({type(exc).__name__})"
        out.append(
            AdvisoryClaim(
                claim.key,
                claim.arg,
                location(claim),
                claim.line,
                outcome,
                title,
                detail.strip(),
                adopt_hint(claim),
                SOURCE,
            )
        )
    return tuple(out)
