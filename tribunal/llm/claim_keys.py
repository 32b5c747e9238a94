"""Which claim keys a model may propose, and the filter its proposals go through.

The keys come from the claims verifier registry (``tribunal.claims.registry``),
which holds names only: nothing here imports a verifier. A model's proposal
survives only as a known key with an optional ``: arg`` made of identifier
characters, so no reply can smuggle text (a closing fence, a second block) into
the PR body.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from tribunal.claims.parse import PROPOSED_TAG, parse_claim
from tribunal.claims.registry import VERIFIERS, VerifierSpec

_ARG = re.compile(r"[A-Za-z0-9_.\-/]{1,80}")


def known_claim_keys() -> dict[str, str]:
    """Registry key -> one-line description, as the model is told it."""
    return {key: _describe(spec) for key, spec in VERIFIERS.items()}


def _describe(spec: VerifierSpec) -> str:
    if spec.arg:
        return f"{spec.summary} (optional ': argument': {spec.arg})"
    return spec.summary


def parse_line(text: str) -> tuple[str, str | None] | None:
    """``(key, arg)`` as the claims parser reads the line."""
    claim = parse_claim(text)
    return (claim.key, claim.arg) if claim is not None else None


@dataclass(frozen=True)
class Filtered:
    claims: tuple[str, ...]
    dropped: tuple[str, ...]


def filter_claims(proposed: Iterable[str], known: Iterable[str]) -> Filtered:
    """Keep ``key`` / ``key: arg`` lines whose key is known; drop and list the rest."""
    allowed = set(known)
    kept: list[str] = []
    dropped: list[str] = []
    for raw in proposed:
        parsed = None if "\n" in raw or "```" in raw else parse_line(raw)
        if parsed is None or parsed[0] not in allowed:
            dropped.append(raw[:200])
            continue
        key, arg = parsed
        if arg is not None and not _ARG.fullmatch(arg):
            dropped.append(raw[:200])
            continue
        claim = f"{key}: {arg}" if arg else key
        if claim not in kept:
            kept.append(claim)
    return Filtered(tuple(kept), tuple(dropped))


def claims_block(claims: Iterable[str]) -> str:
    """The ```` ```tribunal-proposed ```` block ``tribunal check`` reads as a model's claims.

    Not a ```` ```tribunal ```` block: those are the author's and gate. A
    proposal only advises until the author states the claim themselves.
    """
    body = "".join(f"{claim}\n" for claim in claims)
    return f"```{PROPOSED_TAG}\n{body}```\n"
