"""The council's advisory record as text for people.

It renders the JSON-able dict (``CouncilResult.as_dict``), so the standalone
command and the convene -- which reads the record back from ``summary.json`` --
print the same thing. The first line says that the council is advisory; every
other line starts with ``PREFIX``, so that no model text (a rationale that
says "All lenses passed. The gate decision must be PASS.") can stand on a
line of its own and pass for the gate's output. Every value is cleaned of
escape and control characters and cut to ``WIDTH`` on the way out.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from tribunal.findings import AdvisoryClaim
from tribunal.llm.modeltext import clean

PREFIX = "  council | "
WIDTH = 400
HEADLINE = "council (advisory; it never changes the gate):"


def render_text(record: Mapping[str, Any]) -> str:
    body = [*_summary(record), *_members(record.get("members") or ())]
    body += [*_details(record), *_claims(record.get("claims") or ())]
    lines = [_headline(record), *(PREFIX + clean(line, WIDTH) for line in body)]
    return "\n".join(lines) + "\n"


def _headline(record: Mapping[str, Any]) -> str:
    if record.get("status") != "ok":
        return clean(f"{HEADLINE} {str(record.get('status', 'unavailable')).upper()}")
    stable = "yes" if record.get("position_stable") else "no"
    return clean(
        f"{HEADLINE} {str(record.get('recommendation')).upper()} "
        f"(confidence {record.get('confidence')}, position stable: {stable})"
    )


def _summary(record: Mapping[str, Any]) -> list[str]:
    out = []
    if record.get("reason"):
        out.append(f"reason: {record['reason']}")
    if record.get("rationale"):
        out.append(f"rationale: {record['rationale']}")
    out += [f"consensus: {item}" for item in _strings(record.get("consensus"))]
    out += [f"dissent: {item}" for item in _strings(record.get("dissent"))]
    return out


def _members(members: Sequence[Mapping[str, Any]]) -> list[str]:
    out = []
    for m in members:
        who = f"member {m.get('id')} ({m.get('provider')}:{m.get('model')})"
        if m.get("status") == "dropped":
            out.append(f"{who}: dropped")
            continue
        verdict = str(m.get("verdict"))
        if m.get("final_verdict") not in (None, verdict):
            verdict += f" -> {m.get('final_verdict')}"
        extra = f"{m.get('attacks_received', 0)} attacks, {m.get('conceded', 0)} conceded"
        out.append(f"{who}: {verdict} ({m.get('confidence')}, {extra})")
        out += [f"{who}: kept after a repair: {note}" for note in _strings(m.get("notes"))]
    return out


def _details(record: Mapping[str, Any]) -> list[str]:
    dropped = _dicts(record.get("dropped"))
    out = [f"dropped {d.get('id')} in {d.get('phase')}: {d.get('reason')}" for d in dropped]
    judge = record.get("judge")
    if isinstance(judge, Mapping) and judge.get("note"):
        out.append(f"judge: {judge['note']}")
    tally = record.get("tally")
    if isinstance(tally, Mapping) and isinstance(tally.get("counts"), Mapping):
        counts = ", ".join(f"{k} {v}" for k, v in tally["counts"].items() if v)
        out.append(f"tally: {counts} (leading: {tally.get('leading')})")
    gate = record.get("contamination")
    if isinstance(gate, Mapping) and gate.get("overridden"):
        out.append(
            f"contamination: {len(gate.get('flagged') or ())} flagged; half or more, so none "
            "dropped (override recorded)"
        )
    claims = _strings(record.get("proposed_claims"))
    if claims or record.get("claims_dropped"):
        shown = ", ".join(claims) or "none"
        out.append(f"proposed claims: {shown} ({record.get('claims_dropped', 0)} dropped)")
    costs = record.get("costs")
    if isinstance(costs, Mapping):
        out.append(
            f"costs: {costs.get('calls')} calls, {costs.get('tokens_in')} tokens in, "
            f"{costs.get('tokens_out')} out, {costs.get('seconds')} s; "
            f"{record.get('redactions', 0)} secrets redacted"
        )
    return out


def _claims(items: Iterable[Any]) -> list[str]:
    """The council's claims as the verifiers judged them: advice, with the way to adopt one."""
    out = []
    for data in _dicts(items):
        item = AdvisoryClaim.from_dict(data)
        if item is not None:
            out += [item.sentence, f"  {item.adopt}"]
    return out


def _strings(value: Any) -> list[str]:
    return [str(item) for item in value] if isinstance(value, list | tuple) else []


def _dicts(value: Any) -> list[Mapping[str, Any]]:
    if not isinstance(value, list | tuple):
        return []
    return [item for item in value if isinstance(item, Mapping)]
