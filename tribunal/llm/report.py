"""The council's advisory record as text for people.

It renders the JSON-able dict (``CouncilResult.as_dict``), so the standalone
command and the convene -- which reads the record back from ``summary.json`` --
print the same thing. The first line always says that the council is advisory.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any


def render_text(record: Mapping[str, Any]) -> str:
    lines = [_headline(record)]
    if record.get("reason"):
        lines.append(f"  reason: {record['reason']}")
    if record.get("rationale"):
        lines.append(f"  rationale: {record['rationale']}")
    lines += _bullets("consensus", record.get("consensus", ()))
    lines += _bullets("dissent", record.get("dissent", ()))
    lines += _members(record.get("members", ()))
    lines += _details(record)
    return "\n".join(lines) + "\n"


def _headline(record: Mapping[str, Any]) -> str:
    lead = "council (advisory; it never changes the gate):"
    if record.get("status") != "ok":
        return f"{lead} {str(record.get('status', 'unavailable')).upper()}"
    stable = "yes" if record.get("position_stable") else "no"
    return (
        f"{lead} {str(record.get('recommendation')).upper()} "
        f"(confidence {record.get('confidence')}, position stable: {stable})"
    )


def _bullets(title: str, items: Sequence[str]) -> list[str]:
    return [f"  {title}:", *(f"    - {item}" for item in items)] if items else []


def _members(members: Sequence[Mapping[str, Any]]) -> list[str]:
    if not members:
        return []
    out = ["  members:"]
    width = max(len(str(m.get("id"))) for m in members)
    for m in members:
        who = f"{str(m.get('id')).ljust(width)}  {m.get('provider')}:{m.get('model')}"
        if m.get("status") == "dropped":
            out.append(f"    {who}  dropped")
            continue
        verdict = str(m.get("verdict"))
        if m.get("final_verdict") not in (None, verdict):
            verdict += f" -> {m.get('final_verdict')}"
        extra = f", {m['attacks_received']} attacks, {m['conceded']} conceded"
        out.append(f"    {who}  {verdict} ({m.get('confidence')}{extra})")
    return out


def _details(record: Mapping[str, Any]) -> list[str]:
    out = [f"  dropped {d['id']} in {d['phase']}: {d['reason']}" for d in record.get("dropped", ())]
    tally = record.get("tally")
    if tally:
        counts = ", ".join(f"{k} {v}" for k, v in tally["counts"].items() if v)
        out.append(f"  tally: {counts} (leading: {tally['leading']})")
    gate = record.get("contamination")
    if gate and gate.get("overridden"):
        out.append(
            f"  contamination: {len(gate['flagged'])} flagged; half or more, so none "
            "dropped (override recorded)"
        )
    claims = record.get("proposed_claims") or []
    if claims or record.get("claims_dropped"):
        shown = ", ".join(claims) or "none"
        out.append(f"  proposed claims: {shown} ({record.get('claims_dropped', 0)} dropped)")
    costs = record.get("costs")
    if costs:
        out.append(
            f"  costs: {costs['calls']} calls, {costs['tokens_in']} tokens in, "
            f"{costs['tokens_out']} out, {costs['seconds']} s; "
            f"{record.get('redactions', 0)} secrets redacted"
        )
    return out
