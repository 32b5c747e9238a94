"""The pre-push gate: re-read ``summary.json`` from disk and decide from its members.

A stored boolean is never trusted. The push passes if and only if the summary
parses, validates and authenticates, belongs to the pushed commit, range,
remote and config in force (and this tool version), lists every configured lens, and every
member is a verified pass: completed (not ERROR), not CONTRADICTED, and under
``strict`` not UNVERIFIED either. Each member's verdict is also checked against
its own findings, so a member cannot claim PASS while listing a CONTRADICTED.
The summary's ``advisory`` section (the LLM council's advice) is never read.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from tribunal.gate.summary import MemberRecord, Summary, SummaryError, load

_RANK = {"PASS": 0, "UNVERIFIED": 1, "CONTRADICTED": 2}


@dataclass(frozen=True)
class Expectation:
    """What the summary must belong to: the push being gated, under the config in force."""

    commit: str
    base: str | None
    config_digest: str
    version: str
    lenses: tuple[str, ...]
    strict: bool
    remote: str | None = None  # the remote's name; None for a URL or for CI


@dataclass(frozen=True)
class GateResult:
    passed: bool
    reasons: tuple[str, ...]
    summary: Summary | None
    blocking: tuple[str, ...] = ()  # ids of the members that did not pass


def evaluate(path: Path, expected: Expectation, key: bytes) -> GateResult:
    """The gate's decision for the summary at ``path``."""
    try:
        summary = load(path, key)
    except SummaryError as exc:
        return GateResult(False, (str(exc),), None)
    reasons = mismatches(summary, expected)
    if reasons:
        return GateResult(False, tuple(reasons), summary)
    blocking = [m.lens for m in summary.members if member_reason(m, expected.strict)]
    reasons = member_reasons(summary.members, expected.strict)
    return GateResult(not reasons, tuple(reasons), summary, tuple(blocking))


def mismatches(summary: Summary, expected: Expectation) -> list[str]:
    """Ways in which ``summary`` is not the summary of this push."""
    out = []
    checks = (
        ("commit", summary.commit, expected.commit),
        ("range head", summary.range.head, expected.commit),
        ("range base", summary.range.base, expected.base),
        ("config digest", summary.config.digest, expected.config_digest),
        ("tool version", summary.tool.version, expected.version),
        ("remote", summary.remote.name, expected.remote),
    )
    for what, found, wanted in checks:
        if found != wanted:
            out.append(f"stale summary: {what} is {found or 'none'}, expected {wanted or 'none'}")
    present = [m.lens for m in summary.members]
    for lens in expected.lenses:
        if lens not in present:
            out.append(f"lens {lens} is configured but missing from the summary")
    duplicated = sorted({lens for lens in present if present.count(lens) > 1})
    if duplicated:
        out.append(f"lens {', '.join(duplicated)} appears more than once")
    return out


def member_reasons(members: Sequence[MemberRecord], strict: bool) -> list[str]:
    return [r for r in (member_reason(m, strict) for m in members) if r]


def member_reason(member: MemberRecord, strict: bool) -> str | None:
    """Why ``member`` is not a verified pass, or None if it is."""
    worst = max((_RANK[f.verdict] for f in member.findings), default=0)
    if member.verdict == "ERROR":
        return f"lens {member.lens} could not complete: {member.error or 'no reason given'}"
    if _RANK[member.verdict] != worst:
        return f"lens {member.lens} says {member.verdict} but its findings say otherwise"
    if member.verdict in blocking_verdicts(strict):
        because = " (strict: true)" if member.verdict == "UNVERIFIED" else ""
        return f"lens {member.lens}: {member.verdict}{because}"
    return None


def blocking_verdicts(strict: bool) -> tuple[str, ...]:
    """The verdicts that keep a member, or a finding of it, from a verified pass."""
    return ("CONTRADICTED", "UNVERIFIED") if strict else ("CONTRADICTED",)
