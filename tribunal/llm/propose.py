"""``propose``: one model suggests which claim keys a reviewer should have checked.

The model proposes; it never adjudicates. Its reply is parsed, never trusted:
only keys of the claims verifier registry (with an optional ``: arg``) survive,
the rest are dropped and counted, and the output is a ```` ```tribunal-proposed ````
block: ``tribunal check`` verifies its claims and reports them as advice, which
never blocks until the author states a claim as their own.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from tribunal.llm.ask import ask
from tribunal.llm.budget import Budget, Costs, Limits
from tribunal.llm.claim_keys import claims_block, filter_claims, known_claim_keys
from tribunal.llm.prompt import Fence, clip_diff, new_fence
from tribunal.llm.providers import Factory, MemberSpec, Message, make_provider
from tribunal.llm.redact import redact
from tribunal.llm.schemas import ProposeReply


@dataclass(frozen=True)
class Prepared:
    """The messages for one diff (already redacted) and how many secrets were removed."""

    messages: list[Message]
    redactions: int


@dataclass(frozen=True)
class Proposal:
    claims: tuple[str, ...]
    dropped: tuple[str, ...]
    redactions: int
    costs: Costs

    @property
    def block(self) -> str:
        return claims_block(self.claims)


def prepare(diff_text: str, claim_keys: Mapping[str, str]) -> Prepared:
    redacted = redact(diff_text)
    diff = clip_diff(redacted.text)
    return Prepared(messages(new_fence(diff), diff, claim_keys), redacted.count)


def messages(fence: Fence, diff: str, claim_keys: Mapping[str, str]) -> list[Message]:
    catalogue = "\n".join(
        f"- {key}: {text}" if text else f"- {key}" for key, text in claim_keys.items()
    )
    system = (
        "You help a code reviewer. A deterministic checker can verify these claims about a "
        f"change:\n{catalogue}\n"
        "List the claims a reviewer of the change below should ask the checker to verify: "
        "the ones the change appears to make or that its risk calls for. Use only keys from "
        "the list, optionally as 'key: argument' (for example a parameter name). "
        'Reply with ONLY a JSON object: {"claims": [up to 12 strings]}. ' + fence.rule()
    )
    return [Message("system", system), Message("user", fence.block("DIFF", diff))]


def propose_claims(
    diff_text: str,
    spec: MemberSpec,
    limits: Limits,
    seconds: float,
    *,
    factory: Factory = make_provider,
    claim_keys: Mapping[str, str] | None = None,
) -> Proposal:
    """Ask ``spec`` once (plus retries and one repair) and keep only known claim keys."""
    keys = dict(claim_keys if claim_keys is not None else known_claim_keys())
    prepared = prepare(diff_text, keys)
    budget = Budget(seconds, max_calls=2 * (limits.retries + 1))
    provider = factory(spec, limits)
    try:
        answer = ask(provider, prepared.messages, ProposeReply, limits, budget)
    finally:
        provider.close()
    kept = filter_claims(answer.value.claims, keys)
    return Proposal(kept.claims, kept.dropped, prepared.redactions, budget.costs())
