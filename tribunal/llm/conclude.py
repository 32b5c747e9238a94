"""Turn what the phases produced into a ``CouncilResult``.

The recommendation is the judge's reconciled ruling; when there is none (no
stake-free judge, a judge that failed twice, a spent budget) it is the
deterministic tally, and the rationale says why. Proposed claims come only
from members still in the council and pass the same registry filter as
``propose``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from tribunal.llm.claim_keys import filter_claims
from tribunal.llm.config import MIN_MEMBERS, CouncilPlan
from tribunal.llm.contamination import GateResult
from tribunal.llm.debate import conceded
from tribunal.llm.result import CouncilResult, MemberReport
from tribunal.llm.runner import PhaseRunner
from tribunal.llm.schemas import DefenseReply, FormReply, Refutation, VerdictName
from tribunal.llm.tally import Ruling, tally

TALLY_ONLY = "the judge gave no usable ruling; this is the deterministic tally"


@dataclass(frozen=True)
class Debate:
    """Everything the phases produced, keyed by member id."""

    forms: Mapping[str, FormReply]
    screened: GateResult | None = None
    received: Mapping[str, list[Refutation]] = field(default_factory=dict)
    defenses: Mapping[str, DefenseReply] = field(default_factory=dict)
    final: Mapping[str, VerdictName] = field(default_factory=dict)


def member_reports(
    plan: CouncilPlan, debate: Debate, runner: PhaseRunner
) -> tuple[MemberReport, ...]:
    flagged = set(debate.screened.flagged) if debate.screened else set()
    return tuple(
        MemberReport(
            spec=spec,
            verdict=debate.forms.get(spec.id),
            final_verdict=debate.final.get(spec.id),
            attacks_received=len(debate.received.get(spec.id, ())),
            conceded=conceded(debate.defenses.get(spec.id)),
            contaminated=spec.id in flagged,
            drop=runner.drops.get(spec.id),
            tokens_in=runner.usage[spec.id][0],
            tokens_out=runner.usage[spec.id][1],
            notes=tuple(runner.notes.get(spec.id, ())),
        )
        for spec in plan.members
    )


def unavailable(
    plan: CouncilPlan, debate: Debate, runner: PhaseRunner, reason: str
) -> CouncilResult:
    return CouncilResult(
        status="unavailable",
        reason=f"{reason}; a council needs at least {MIN_MEMBERS}",
        members=member_reports(plan, debate, runner),
        contamination=debate.screened,
        phases=dict(runner.status),
    )


def conclude(
    plan: CouncilPlan,
    debate: Debate,
    runner: PhaseRunner,
    ruling: Ruling | None,
    judge: dict[str, Any],
    claim_keys: Mapping[str, str],
) -> CouncilResult:
    counted = tally(list(debate.final.values()))
    proposals = [c for m in debate.final for c in debate.forms[m].proposed_claims]
    claims = filter_claims(proposals, claim_keys)
    common: dict[str, Any] = {
        "members": member_reports(plan, debate, runner),
        "judge": judge,
        "tally": counted,
        "contamination": debate.screened,
        "proposed_claims": claims.claims,
        "claims_dropped": claims.dropped,
        "phases": dict(runner.status),
    }
    if ruling is None:
        return CouncilResult(
            "ok",
            recommendation=counted.leading,
            confidence=counted.confidence,
            rationale=str(judge.get("note") or TALLY_ONLY),
            **common,
        )
    reply = ruling.reply
    return CouncilResult(
        "ok",
        recommendation=reply.recommendation,
        confidence=reply.confidence,
        rationale=reply.rationale,
        consensus=tuple(reply.consensus),
        dissent=tuple(reply.dissent),
        position_stable=ruling.position_stable,
        **common,
    )
