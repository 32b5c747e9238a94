"""The shape of every model reply, validated with pydantic at this boundary.

Extra keys are forbidden, enums are closed and lists are bounded (seed 002's
schemas, plus the fields this implementation needs: ``proposed_claims`` in a
verdict and the attacked peer's label in a refutation). A reply that does not
fit is malformed: ``ask`` gives it one repair retry, then the member is dropped.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, model_validator

VerdictName = Literal["approve", "approve-with-changes", "reject", "needs-more-info"]
Confidence = Literal["low", "medium", "high"]
Severity = Literal["critical", "high", "medium", "low"]

#: Seed 002's swap-rule order: on disagreement the later (more cautious) one wins.
VERDICT_ORDER: tuple[VerdictName, ...] = (
    "approve",
    "approve-with-changes",
    "reject",
    "needs-more-info",
)

Text = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=600)]
Label = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=40)]
ClaimLine = Annotated[str, StringConstraints(strip_whitespace=True, max_length=200)]


class _Reply(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class ProposeReply(_Reply):
    claims: list[ClaimLine] = Field(max_length=12)


class FormReply(_Reply):
    verdict: VerdictName
    confidence: Confidence
    model: Annotated[str, StringConstraints(max_length=200)]
    key_claims: list[Text] = Field(min_length=1, max_length=6)
    risks: list[Text] = Field(max_length=6)
    unknowns: list[Text] = Field(max_length=4)
    proposed_claims: list[ClaimLine] = Field(default_factory=list, max_length=6)


class Refutation(_Reply):
    target: Label
    target_claim: Text
    attack: Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=1200)]
    severity: Severity


class AttackReply(_Reply):
    refutations: list[Refutation] = Field(max_length=8)
    concessions: list[Text] = Field(max_length=4)


class Defense(_Reply):
    attack_ref: Label
    rebuttal: Text
    holds: bool


class DefenseReply(_Reply):
    defenses: list[Defense] = Field(max_length=8)
    conceded: list[Text] = Field(max_length=4)
    verdict_changed: bool
    revised_verdict: VerdictName | None = None

    @model_validator(mode="after")
    def _revised_when_changed(self) -> DefenseReply:
        if self.verdict_changed and self.revised_verdict is None:
            raise ValueError("verdict_changed is true but revised_verdict is missing")
        return self


class JudgeReply(_Reply):
    recommendation: VerdictName
    confidence: Confidence
    rationale: Annotated[
        str, StringConstraints(strip_whitespace=True, min_length=1, max_length=2000)
    ]
    consensus: list[Text] = Field(max_length=6)
    dissent: list[Text] = Field(max_length=6)


def json_schema(model: type[BaseModel]) -> dict[str, Any]:
    """The JSON schema sent to a model, with ``$ref``s inlined for simple servers."""
    schema = model.model_json_schema()
    defs = schema.pop("$defs", {})
    inlined: dict[str, Any] = _inline(schema, defs)
    return inlined


def _inline(node: Any, defs: dict[str, Any]) -> Any:
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/$defs/"):
            return _inline(defs[ref.removeprefix("#/$defs/")], defs)
        return {key: _inline(value, defs) for key, value in node.items()}
    if isinstance(node, list):
        return [_inline(item, defs) for item in node]
    return node
