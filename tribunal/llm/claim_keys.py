"""Which claim keys a model may propose, and the filter its proposals go through.

The keys come from the claims verifier registry (``tribunal.claims.registry``),
read lazily and only for its names: nothing here imports a verifier. Until that
registry exists, seed 001's keys stand in. A model's proposal survives only as
a known key with an optional ``: arg`` made of identifier characters, so no
reply can smuggle text (a closing fence, a second block) into the PR body.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

FALLBACK_KEYS: Mapping[str, str] = {
    "added-test": "the change adds a test with a reachable assertion",
    "no-public-api-change": "the public surface (exports, __all__, public names) is unchanged",
    "no-default-flip": "no literal parameter default changed (optionally ': param' for one)",
    "no-new-dependency": "no new dependency in pyproject, requirements or package.json",
    "no-test-removed": "no test was deleted, skipped or xfailed",
}
_ARG = re.compile(r"[A-Za-z0-9_.\-/]{1,80}")


def known_claim_keys() -> dict[str, str]:
    """Registry key -> one-line description, from the registry when it can be read."""
    try:
        module = importlib.import_module("tribunal.claims.registry")
    except ImportError:
        return dict(FALLBACK_KEYS)
    table = getattr(module, "VERIFIERS", None)
    if isinstance(table, Mapping) and table:
        return {str(key): _describe(key, spec) for key, spec in table.items()}
    listing = getattr(module, "known_keys", None)
    if callable(listing):
        return {str(key): FALLBACK_KEYS.get(str(key), "") for key in listing()}
    return dict(FALLBACK_KEYS)


def _describe(key: object, spec: object) -> str:
    summary = getattr(spec, "summary", None)
    arg = getattr(spec, "arg", None)
    text = summary if isinstance(summary, str) else FALLBACK_KEYS.get(str(key), "")
    return f"{text} (optional ': argument': {arg})" if isinstance(arg, str) and arg else text


def parse_line(text: str) -> tuple[str, str | None] | None:
    """``(key, arg)`` as the claims parser reads the line; its own parser when present."""
    try:
        from tribunal.claims.parse import parse_claim
    except ImportError:
        key, _, arg = text.strip().lstrip("-*• ").partition(":")
        key = re.sub(r"[\s_]+", "-", key.strip().strip("`").lower()).strip("-")
        return (key, arg.strip().strip("`").strip() or None) if key else None
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
    """The fenced block that ``tribunal check --pr-body`` reads."""
    body = "".join(f"{claim}\n" for claim in claims)
    return f"```tribunal\n{body}```\n"
