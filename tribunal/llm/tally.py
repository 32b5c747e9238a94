"""The deterministic half of the Judge phase: the tally, and seed 002's swap rule.

The tally counts each member's final verdict (its revised one when it said its
verdict changed); it never downgrades a verdict for conceded attacks, which
would re-inject a subjective severity (the seed's note on ``verdict_changed``).
Ties go to the more cautious verdict, in the same order the swap rule uses.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tribunal.llm.schemas import VERDICT_ORDER, Confidence, JudgeReply, VerdictName

RANK = {name: index for index, name in enumerate(VERDICT_ORDER)}


@dataclass(frozen=True)
class Tally:
    counts: dict[str, int]
    leading: VerdictName
    unanimous: bool

    @property
    def confidence(self) -> Confidence:
        total = sum(self.counts.values())
        if self.unanimous:
            return "high"
        return "medium" if self.counts[self.leading] * 2 > total else "low"

    def as_dict(self) -> dict[str, object]:
        return {
            "counts": dict(self.counts),
            "leading": self.leading,
            "unanimous": self.unanimous,
            "confidence": self.confidence,
        }


def tally(verdicts: Sequence[VerdictName]) -> Tally:
    """Plurality of ``verdicts`` (non-empty); a tie goes to the later verdict in the order."""
    counts: dict[str, int] = {name: sum(1 for v in verdicts if v == name) for name in VERDICT_ORDER}
    leading = max(VERDICT_ORDER, key=lambda name: (counts[name], RANK[name]))
    return Tally(counts, leading, unanimous=counts[leading] == len(verdicts))


@dataclass(frozen=True)
class Ruling:
    """The judge's reconciled answer over both orderings."""

    reply: JudgeReply
    position_stable: bool


def reconcile_swap(a: JudgeReply | None, b: JudgeReply | None) -> Ruling | None:
    """Seed 002's ``reconcileSwap``: agreement is stable; otherwise the higher rank, low."""
    if a is None and b is None:
        return None
    if a is None or b is None:
        only = a if a is not None else b
        assert only is not None
        return Ruling(only, position_stable=False)
    if a.recommendation == b.recommendation:
        return Ruling(a, position_stable=True)
    winner = a if RANK[a.recommendation] >= RANK[b.recommendation] else b
    return Ruling(winner.model_copy(update={"confidence": "low"}), position_stable=False)
