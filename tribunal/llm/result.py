"""What a council run produced, as immutable values with one JSON-able form.

``as_dict`` is the advisory record for ``summary.json`` and ``--format json``;
it carries each member's *requested* model id (honest-by-request: the seed's
wording for a model id we asked for but cannot verify) and never a credential.
Every string in it is cleaned of escape and control characters and bounded
(``modeltext``): much of it is model text, and all of it may be printed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from tribunal.llm.modeltext import clean_record
from tribunal.llm.providers import MemberSpec

if TYPE_CHECKING:  # annotations only: building a "not-sent" record needs no pydantic
    from tribunal.llm.budget import Costs
    from tribunal.llm.contamination import GateResult
    from tribunal.llm.schemas import Confidence, FormReply, VerdictName
    from tribunal.llm.tally import Tally

SCHEMA = "tribunal.council/1"
Status = Literal["ok", "unavailable", "not-sent", "error"]


@dataclass(frozen=True)
class Drop:
    phase: str
    reason: str


@dataclass(frozen=True)
class MemberReport:
    spec: MemberSpec
    verdict: FormReply | None = None
    final_verdict: VerdictName | None = None
    attacks_received: int = 0
    conceded: int = 0
    contaminated: bool = False
    drop: Drop | None = None
    tokens_in: int = 0
    tokens_out: int = 0
    #: What had to be clipped or dropped from this member's replies to keep its verdict.
    notes: tuple[str, ...] = ()

    def as_dict(self) -> dict[str, Any]:
        form = self.verdict
        return {
            **self.spec.public(),
            "focus": self.spec.focus or None,
            "status": "dropped" if self.drop else "live",
            "verdict": form.verdict if form else None,
            "final_verdict": self.final_verdict,
            "confidence": form.confidence if form else None,
            "reported_model": form.model if form else None,
            "key_claims": list(form.key_claims) if form else [],
            "risks": list(form.risks) if form else [],
            "unknowns": list(form.unknowns) if form else [],
            "attacks_received": self.attacks_received,
            "conceded": self.conceded,
            "contaminated": self.contaminated,
            "notes": list(self.notes),
            "tokens": {"in": self.tokens_in, "out": self.tokens_out},
        }


@dataclass(frozen=True)
class CouncilResult:
    status: Status
    reason: str = ""
    recommendation: VerdictName | None = None
    confidence: Confidence | None = None
    rationale: str = ""
    consensus: tuple[str, ...] = ()
    dissent: tuple[str, ...] = ()
    position_stable: bool = False
    members: tuple[MemberReport, ...] = ()
    judge: dict[str, Any] = field(default_factory=dict)
    tally: Tally | None = None
    contamination: GateResult | None = None
    proposed_claims: tuple[str, ...] = ()
    claims_dropped: tuple[str, ...] = ()
    phases: dict[str, str] = field(default_factory=dict)
    redactions: int = 0
    costs: Costs | None = None

    def as_dict(self) -> dict[str, Any]:
        record: dict[str, Any] = clean_record(self._fields())
        return record

    def _fields(self) -> dict[str, Any]:
        return {
            "schema": SCHEMA,
            "advisory": True,
            "status": self.status,
            "reason": self.reason or None,
            "recommendation": self.recommendation,
            "confidence": self.confidence,
            "rationale": self.rationale,
            "consensus": list(self.consensus),
            "dissent": list(self.dissent),
            "position_stable": self.position_stable,
            "members": [m.as_dict() for m in self.members],
            "dropped": [
                {"id": m.spec.id, "phase": m.drop.phase, "reason": m.drop.reason}
                for m in self.members
                if m.drop is not None
            ],
            "judge": self.judge,
            "tally": self.tally.as_dict() if self.tally else None,
            "contamination": self.contamination.as_dict() if self.contamination else None,
            "proposed_claims": list(self.proposed_claims),
            "claims_dropped": len(self.claims_dropped),
            # The proposals as the claim verifiers judged them: advice, filled in by the
            # convene (``tribunal.hooks.advisory``); the council itself judges nothing.
            "claims": [],
            "phases": dict(self.phases),
            "redactions": self.redactions,
            "costs": self.costs.as_dict() if self.costs else None,
        }
