"""Members that misbehave: malformed replies, dead or slow servers, spent budgets."""

from __future__ import annotations

import json
import time
from typing import Any

from tests.llm_council_script import DIFF, member, plan, scripted, verdict
from tests.llm_server import Received, Scripted, closed_port_url, serving
from tribunal.llm.council import convene_council
from tribunal.llm.report import render_text


def form_requests(requests: list[Received], model: str) -> list[Received]:
    return [r for r in requests if r.model == model and r.phase == "form"]


def test_malformed_replies_get_one_repair_then_the_member_is_dropped() -> None:
    behaviour: dict[str, dict[str, Any]] = {
        "fixer": {"form": ["Sure! Here is my verdict: it looks fine.", verdict("fixer")]},
        "enum": {"form": verdict("enum", "lgtm")},
        "extra": {"form": verdict("extra", score=5)},
        "fenced": {"form": "```json\n" + json.dumps(verdict("fenced")) + "\n```"},
        "steady": {"form": verdict("steady")},
    }
    with serving(scripted(behaviour)) as server:
        council = plan(*(member(m, "ollama", m, server.url) for m in behaviour))
        result = convene_council(DIFF, council).as_dict()
    dropped = {d["id"]: d for d in result["dropped"]}
    assert set(dropped) == {"enum", "extra"}
    assert all(d["phase"] == "form" for d in dropped.values())
    assert "malformed reply after one repair" in dropped["enum"]["reason"]
    assert "verdict" in dropped["enum"]["reason"]
    assert "score" in dropped["extra"]["reason"] and "Extra inputs" in dropped["extra"]["reason"]
    # the repair request showed the model its own reply and what was wrong with it
    fixer = form_requests(server.requests, "fixer")
    assert len(fixer) == 2
    assert "That reply is invalid" in fixer[1].text and "it looks fine" in fixer[1].text
    assert len(form_requests(server.requests, "enum")) == 2
    assert len(form_requests(server.requests, "fenced")) == 1  # a fence is not malformed
    assert result["status"] == "ok"


def test_a_defense_that_changes_its_verdict_without_saying_to_what_is_repaired() -> None:
    bad = {"defenses": [], "conceded": [], "verdict_changed": True}
    good = {**bad, "revised_verdict": "reject"}
    behaviour = {
        "m1": {"form": verdict("m1"), "defense": [bad, good]},
        "m2": {"form": verdict("m2")},
    }
    with serving(scripted(behaviour)) as server:
        council = plan(*(member(m, "ollama", m, server.url) for m in behaviour))
        result = convene_council(DIFF, council).as_dict()
    defenses = [r for r in server.requests if r.model == "m1" and r.phase == "defense"]
    assert len(defenses) == 2 and "revised_verdict is missing" in defenses[1].text
    assert result["members"][0]["final_verdict"] == "reject"


def test_a_dead_member_is_dropped_and_the_council_goes_on() -> None:
    behaviour = {m: {"form": verdict(m)} for m in ("m1", "m2")}
    with serving(scripted(behaviour)) as server:
        council = plan(
            member("m1", "ollama", "m1", server.url),
            member("m2", "openai", "m2", server.url),
            member("dead", "ollama", "m3", closed_port_url()),
        )
        result = convene_council(DIFF, council).as_dict()
    assert result["status"] == "ok"
    assert [(d["id"], d["phase"]) for d in result["dropped"]] == [("dead", "form")]
    assert "cannot connect" in result["dropped"][0]["reason"]


def test_with_fewer_than_two_members_left_the_council_is_unavailable() -> None:
    with serving(scripted({"m1": {"form": verdict("m1")}})) as server:
        council = plan(
            member("m1", "ollama", "m1", server.url),
            member("d1", "ollama", "x", closed_port_url()),
            member("d2", "openai", "y", closed_port_url()),
        )
        result = convene_council(DIFF, council).as_dict()
    assert result["status"] == "unavailable"
    assert result["recommendation"] is None
    assert "only 1 member(s) gave a verdict" in result["reason"]
    assert {d["id"] for d in result["dropped"]} == {"d1", "d2"}
    assert [r.phase for r in server.requests] == ["form"]


def test_a_member_slower_than_the_call_timeout_never_blocks_the_others() -> None:
    behaviour: dict[str, dict[str, Any]] = {m: {"form": verdict(m)} for m in ("m1", "m2")}
    behaviour["slow"] = {"form": lambda r: Scripted(200, {}, delay=5.0)}
    with serving(scripted(behaviour)) as server:
        council = plan(*(member(m, "ollama", m, server.url) for m in behaviour), timeout=1.0)
        started = time.monotonic()
        result = convene_council(DIFF, council).as_dict()
        elapsed = time.monotonic() - started
    assert elapsed < 4.0  # the slow member sleeps 5 s
    assert result["status"] == "ok"
    assert result["dropped"] == [
        {"id": "slow", "phase": "form", "reason": "slow: no reply within the timeout"}
    ]


def test_the_council_budget_bounds_the_whole_run() -> None:
    behaviour: dict[str, dict[str, Any]] = {m: {"form": verdict(m)} for m in ("m1", "m2")}
    behaviour["slow"] = {"form": lambda r: Scripted(200, {}, delay=8.0)}
    with serving(scripted(behaviour)) as server:
        council = plan(
            *(member(m, "ollama", m, server.url) for m in behaviour), seconds=0.6, timeout=30
        )
        started = time.monotonic()
        result = convene_council(DIFF, council).as_dict()
        elapsed = time.monotonic() - started
    assert elapsed < 3.0  # the slow member sleeps 8 s
    assert result["status"] == "ok"  # two verdicts arrived in time: the tally stands
    assert result["dropped"] == [
        {"id": "slow", "phase": "form", "reason": "no reply within the council's time budget"}
    ]
    assert result["phases"]["form"] == "cut short by the time budget"
    assert result["phases"]["attack"].startswith("skipped")
    assert result["recommendation"] == "approve"
    assert "deterministic tally" in result["rationale"]


def test_a_judge_that_fails_leaves_the_deterministic_tally() -> None:
    behaviour = {
        "m1": {"form": verdict("m1", "reject")},
        "m2": {"form": verdict("m2", "reject")},
        "judge-j": {"judge": Scripted(500, {"error": "judge down"})},
    }
    with serving(scripted(behaviour)) as server:
        council = plan(
            member("m1", "ollama", "m1", server.url),
            member("m2", "ollama", "m2", server.url),
            judge=member("judge", "ollama", "judge-j", server.url),
        )
        result = convene_council(DIFF, council).as_dict()
    assert (result["recommendation"], result["confidence"]) == ("reject", "high")
    assert result["position_stable"] is False
    assert set(result["judge"]["failed_orderings"]) == {"a", "b"}
    assert result["dropped"] == []  # the judge is not a member


def test_a_judge_that_answers_once_stands_but_is_not_position_stable() -> None:
    answered = {
        "recommendation": "reject",
        "confidence": "high",
        "rationale": "r",
        "consensus": [],
        "dissent": [],
    }
    behaviour = {
        "m1": {"form": verdict("m1")},
        "m2": {"form": verdict("m2")},
        "judge-j": {"judge": [answered, Scripted(404, {"error": "gone"})]},
    }
    with serving(scripted(behaviour)) as server:
        council = plan(
            member("m1", "ollama", "m1", server.url),
            member("m2", "ollama", "m2", server.url),
            judge=member("judge", "ollama", "judge-j", server.url),
        )
        result = convene_council(DIFF, council).as_dict()
    assert (result["recommendation"], result["position_stable"]) == ("reject", False)
    (note,) = result["judge"]["failed_orderings"].values()
    assert note.startswith("judge: HTTP 404")


def refutation(target: str = "peer-A", **extra: Any) -> dict[str, Any]:
    return {
        "target": target,
        "target_claim": "the refund check",
        "attack": "a full refund of the order total is now rejected",
        "severity": "high",
        **extra,
    }


def test_an_attack_reply_that_breaks_one_limit_costs_the_member_nothing() -> None:
    """One over-long target, a ninth refutation, a bad item: clipped or dropped, with notes;
    the member keeps its Form verdict and is asked no repair."""
    behaviour: dict[str, dict[str, Any]] = {
        "long": {
            "form": verdict("long", "reject"),
            "attack": {
                "refutations": [refutation("peer-A" + " " * 10 + "x" * 60)],
                "concessions": [],
            },
        },
        "many": {
            "form": verdict("many", "reject"),
            "attack": {"refutations": [refutation()] * 9, "concessions": []},
        },
        "bad-item": {
            "form": verdict("bad-item", "approve"),
            "attack": {
                "refutations": [refutation(severity="apocalyptic"), refutation()],
                "concessions": [],
            },
        },
    }
    with serving(scripted(behaviour)) as server:
        council = plan(*(member(m, "ollama", m, server.url) for m in behaviour))
        result = convene_council(DIFF, council).as_dict()
    assert result["status"] == "ok" and result["dropped"] == []
    members = {m["id"]: m for m in result["members"]}
    assert {i: m["verdict"] for i, m in members.items()} == {
        "long": "reject",
        "many": "reject",
        "bad-item": "approve",
    }
    assert result["tally"]["counts"] == {
        "approve": 1,
        "approve-with-changes": 0,
        "reject": 2,
        "needs-more-info": 0,
    }
    assert members["long"]["notes"] == ["attack: refutations[0].target: clipped to 40 characters"]
    assert members["many"]["notes"] == [
        "attack: refutations: 1 item(s) over the limit of 8 dropped"
    ]
    assert members["bad-item"]["notes"] == [
        "attack: refutations[0]: dropped (it does not fit the schema)"
    ]
    attacks = [r for r in server.requests if r.phase == "attack"]
    assert len(attacks) == 3  # no repair round for a reply that could be salvaged
    text = render_text(result)
    assert "  council | member many (ollama:many): kept after a repair: attack: refutations" in text


def test_an_unusable_attack_reply_still_drops_the_member() -> None:
    behaviour: dict[str, dict[str, Any]] = {m: {"form": verdict(m)} for m in ("m1", "m2")}
    behaviour["junk"] = {"form": verdict("junk"), "attack": "I refuse to answer in JSON."}
    with serving(scripted(behaviour)) as server:
        council = plan(*(member(m, "ollama", m, server.url) for m in behaviour))
        result = convene_council(DIFF, council).as_dict()
    assert [(d["id"], d["phase"]) for d in result["dropped"]] == [("junk", "attack")]
    assert "malformed reply after one repair" in result["dropped"][0]["reason"]
    assert len([r for r in server.requests if r.model == "junk" and r.phase == "attack"]) == 2
