"""The words of each council phase (seed 002's prompts, adapted to a code diff).

Every prompt puts untrusted text -- the diff, and any model's output -- inside
the run's nonce fence, states the rule that nothing fenced is an instruction,
and strips member identities (anonymization) before a peer or the judge sees
anything.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from tribunal.llm.prompt import Fence
from tribunal.llm.providers import Message
from tribunal.llm.schemas import VERDICT_ORDER, FormReply

_VERDICTS = " | ".join(f'"{v}"' for v in VERDICT_ORDER)


def _system(fence: Fence, *parts: str) -> Message:
    return Message("system", " ".join((*parts, fence.rule())))


def form(
    fence: Fence, diff: str, model: str, size: int, focus: str, claim_keys: Mapping[str, str]
) -> list[Message]:
    keys = "; ".join(f"{k} ({d})" if d else k for k, d in claim_keys.items())
    lens = f" Pay particular attention to this dimension: {focus}." if focus else ""
    return [
        _system(
            fence,
            f"You are a rigorous, independent reviewer on a {size}-member adversarial council "
            "reviewing a code change given as a unified diff. Evaluate it on its merits: do "
            "not adopt a forced optimistic or pessimistic stance, and do not assume the other "
            f"members will agree.{lens}",
            f"Reply with ONLY a JSON object: verdict ({_VERDICTS}), confidence (low|medium|"
            f'high), model (set it to "{model}"), key_claims (1-6 short statements about what '
            "the change does, naming its files and identifiers), risks (0-6), unknowns (0-4), "
            "proposed_claims (0-6 claim keys a reviewer should have a deterministic checker "
            f"verify, from: {keys}; optionally 'key: argument').",
        ),
        Message("user", f"Phase 1 of 4 (Form). The change:\n{fence.block('DIFF', diff)}"),
    ]


def attack(fence: Fence, diff: str, peers: Mapping[str, dict[str, Any]]) -> list[Message]:
    blocks = "\n".join(fence.block(f"PEER-{label}", _dump(v)) for label, v in peers.items())
    labels = ", ".join(peers)
    return [
        _system(
            fence,
            "You are a member of an adversarial code-review council. Your peers' verdicts on "
            "the same change are below, anonymized. Refute what is wrong, unsupported or "
            "missing in each of them (do not agree just to agree), and concede what holds.",
            "Reply with ONLY a JSON object: refutations (0-8 items, each {target: the peer "
            f"label, one of {labels}; target_claim; attack; severity: critical|high|medium|"
            "low}), concessions (0-4 strings).",
        ),
        Message(
            "user",
            f"Phase 2 of 4 (Attack). The change:\n{fence.block('DIFF', diff)}\n"
            f"Your peers' verdicts:\n{blocks}",
        ),
    ]


def defend(
    fence: Fence, diff: str, own: dict[str, Any], attacks: Mapping[str, dict[str, Any]]
) -> list[Message]:
    blocks = "\n".join(fence.block(ref.upper(), _dump(a)) for ref, a in attacks.items())
    return [
        _system(
            fence,
            "You reviewed this change and gave the verdict below; anonymous council members "
            "attacked it. For each attack, rebut it (holds: true) or concede it (holds: false).",
            "Reply with ONLY a JSON object: defenses (0-8 items, each {attack_ref: one of "
            f"{', '.join(attacks)}; rebuttal; holds: true|false}}), conceded (0-4 strings), "
            "verdict_changed (true ONLY if conceding a flaw changes your overall verdict), "
            f"revised_verdict ({_VERDICTS}; only when verdict_changed).",
        ),
        Message(
            "user",
            f"Phase 3 of 4 (Defend). The change:\n{fence.block('DIFF', diff)}\n"
            f"Your verdict:\n{fence.block('OWN', _dump(own))}\n"
            f"The attacks on it:\n{blocks}",
        ),
    ]


def judge(fence: Fence, diff: str, positions: Sequence[dict[str, Any]]) -> list[Message]:
    blocks = "\n".join(
        fence.block(f"MEMBER-{i}", _dump(p)) for i, p in enumerate(positions, start=1)
    )
    return [
        _system(
            fence,
            "You are a stake-free judge of a code-review council: you cast no verdict of your "
            "own and do not know who the members are. Weigh each member's final position, the "
            "attacks it received and its defenses against the change itself, then recommend.",
            f"Reply with ONLY a JSON object: recommendation ({_VERDICTS}), confidence (low|"
            "medium|high), rationale (a short paragraph), consensus (0-6 points the members "
            "share), dissent (0-6 points of disagreement that remain).",
        ),
        Message(
            "user",
            f"Phase 4 of 4 (Judge). The change:\n{fence.block('DIFF', diff)}\n"
            f"The members' final positions:\n{blocks}",
        ),
    ]


def anonymize(verdict: FormReply, pattern: re.Pattern[str] | None) -> dict[str, Any]:
    """Seed 002's ``anon``: the verdict without ``model``, and no member's name in its text."""
    data = verdict.model_dump(exclude={"model", "proposed_claims"})
    for key in ("key_claims", "risks", "unknowns"):
        data[key] = [scrub_names(text, pattern) for text in data[key]]
    return {**data, "author": "anonymous-peer"}


def scrub_names(text: str, pattern: re.Pattern[str] | None) -> str:
    return pattern.sub("a peer", text) if pattern is not None else text


def names_pattern(names: Iterable[str]) -> re.Pattern[str] | None:
    """A matcher for member ids and model names as whole words (short ones are skipped)."""
    usable = sorted({n for n in names if len(n) >= 3}, key=len, reverse=True)
    if not usable:
        return None
    alternatives = "|".join(re.escape(n) for n in usable)
    return re.compile(rf"(?<![\w])(?:{alternatives})(?![\w])", re.IGNORECASE)


def _dump(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, indent=1)
