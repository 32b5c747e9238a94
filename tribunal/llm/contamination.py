"""Seed 002's contamination gate, ported exactly.

A verdict whose claims, risks and unknowns barely share words with the diff
(coverage below 0.20 and fewer than two anchor words) is probably about some
other text -- a cached answer, an injected script, a confused model -- and is
dropped. If half or more of the members look contaminated, the test itself is
suspect (a terse diff, a vocabulary mismatch), so none is dropped and the
override is recorded instead.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from tribunal.llm.schemas import FormReply

_WORD = re.compile(r"[a-z]+")
COVERAGE_FLOOR = 0.20
MIN_ANCHORS = 2


def words(text: str, min_length: int = 4) -> set[str]:
    return {w for w in _WORD.findall(text.lower()) if len(w) >= min_length}


def _verdict_text(verdict: FormReply) -> str:
    return " ".join([*verdict.key_claims, *verdict.risks, *verdict.unknowns])


def coverage(text: str, vocabulary: set[str]) -> float:
    own = words(text)
    if not own:
        return 1.0
    return len(own & vocabulary) / len(own)


def anchors(text: str, vocabulary: set[str]) -> int:
    return len(words(text) & vocabulary)


def is_contaminated(verdict: FormReply, vocabulary: set[str]) -> bool:
    text = _verdict_text(verdict)
    return coverage(text, vocabulary) < COVERAGE_FLOOR and anchors(text, vocabulary) < MIN_ANCHORS


@dataclass(frozen=True)
class GateResult:
    live: tuple[str, ...]
    dropped: tuple[str, ...]
    flagged: tuple[str, ...]
    overridden: bool

    def as_dict(self) -> dict[str, object]:
        return {
            "flagged": list(self.flagged),
            "dropped": list(self.dropped),
            "overridden": self.overridden,
        }


def gate(verdicts: Sequence[tuple[str, FormReply]], diff: str) -> GateResult:
    """Which member ids stay, by the seed's rule (``flagged * 2 >= present`` overrides)."""
    vocabulary = words(diff)
    present = [member_id for member_id, _ in verdicts]
    flagged = tuple(mid for mid, verdict in verdicts if is_contaminated(verdict, vocabulary))
    if len(flagged) * 2 >= len(present):
        return GateResult(tuple(present), (), flagged, overridden=bool(flagged))
    return GateResult(_without(present, flagged), flagged, flagged, overridden=False)


def _without(ids: Iterable[str], drop: Iterable[str]) -> tuple[str, ...]:
    gone = set(drop)
    return tuple(i for i in ids if i not in gone)
