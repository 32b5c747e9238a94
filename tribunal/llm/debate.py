"""The bookkeeping of Attack and Defend: who may attack whom, and what each side sees.

Pure functions over validated replies. Peers are labelled per attacker
(``A``, ``B``, ... over the *other* live members, so nobody is shown its own
verdict); attacks reach a defender numbered and anonymous; the judge sees each
member's position with the attacks it received and whether it conceded them.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from tribunal.llm.phases import anonymize, scrub_names
from tribunal.llm.schemas import AttackReply, DefenseReply, FormReply, Refutation, VerdictName

MAX_ATTACKS_PER_MEMBER = 8  # what one defense reply can answer
_SEVERITY = {"critical": 0, "high": 1, "medium": 2, "low": 3}

Names = re.Pattern[str] | None


def peer_labels(live: Sequence[str]) -> dict[str, dict[str, str]]:
    """For each attacker: label -> the peer it names, never the attacker itself."""
    return {a: {chr(65 + i): t for i, t in enumerate(x for x in live if x != a)} for a in live}


def route(
    labels: Mapping[str, Mapping[str, str]], replies: Mapping[str, AttackReply]
) -> dict[str, list[Refutation]]:
    """Each live member's received attacks, most severe first; unknown labels are ignored."""
    received: dict[str, list[Refutation]] = {m: [] for m in labels}
    for attacker, reply in replies.items():
        for refutation in reply.refutations:
            target = labels[attacker].get(_label(refutation.target))
            if target is not None:
                received[target].append(refutation)
    return {m: _strongest(r) for m, r in received.items()}


def attack_cards(attacks: Sequence[Refutation], names: Names) -> dict[str, dict[str, Any]]:
    """The attacks a defender sees: numbered, anonymous, member names scrubbed."""
    return {
        f"attack-{i}": {
            "target_claim": scrub_names(a.target_claim, names),
            "attack": scrub_names(a.attack, names),
            "severity": a.severity,
        }
        for i, a in enumerate(attacks, start=1)
    }


def position(
    form: FormReply,
    attacks: Sequence[Refutation],
    defense: DefenseReply | None,
    final: VerdictName,
    names: Names,
) -> dict[str, Any]:
    """A member's anonymized final position, as the judge sees it."""
    answers = {d.attack_ref.lower(): d for d in defense.defenses} if defense else {}
    cards = attack_cards(attacks, names)
    for ref, card in cards.items():
        answer = answers.get(ref)
        card["conceded"] = None if answer is None else not answer.holds
        card["rebuttal"] = scrub_names(answer.rebuttal, names) if answer else None
    return {
        **anonymize(form, names),
        "initial_verdict": form.verdict,
        "final_verdict": final,
        "attacks": list(cards.values()),
    }


def final_verdict(form: FormReply, defense: DefenseReply | None) -> VerdictName:
    """The verdict after Defend: the revised one only when the author said it changed."""
    if defense is not None and defense.verdict_changed and defense.revised_verdict:
        return defense.revised_verdict
    return form.verdict


def conceded(defense: DefenseReply | None) -> int:
    return sum(1 for d in defense.defenses if not d.holds) if defense else 0


def _label(text: str) -> str:
    """``peer-A``, ``PEER-A``, ``Peer A`` and ``A`` all name peer A."""
    return text.upper().replace("PEER", "").replace("-", "").replace(" ", "").strip()


def _strongest(attacks: list[Refutation]) -> list[Refutation]:
    return sorted(attacks, key=lambda a: _SEVERITY[a.severity])[:MAX_ATTACKS_PER_MEMBER]
