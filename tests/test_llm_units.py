"""The deterministic parts of the advisors, in-process: no server needed."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from tribunal.errors import ConfigError, UsageError
from tribunal.llm.ask import describe, extract_object, parse
from tribunal.llm.claim_keys import claims_block, filter_claims
from tribunal.llm.config import council_plan, normalize_endpoint, parse_member_flag, single_spec
from tribunal.llm.contamination import coverage, gate, is_contaminated, words
from tribunal.llm.prompt import clip_diff, new_fence
from tribunal.llm.providers import shown_endpoint
from tribunal.llm.report import render_text
from tribunal.llm.schemas import AttackReply, DefenseReply, FormReply, JudgeReply, json_schema
from tribunal.llm.tally import reconcile_swap, tally


def form(claims: list[str], verdict: str = "approve") -> FormReply:
    return FormReply.model_validate(
        {
            "verdict": verdict,
            "confidence": "low",
            "model": "m",
            "key_claims": claims,
            "risks": [],
            "unknowns": [],
        }
    )


def judge(recommendation: str, confidence: str = "high") -> JudgeReply:
    return JudgeReply.model_validate(
        {
            "recommendation": recommendation,
            "confidence": confidence,
            "rationale": "r",
            "consensus": [],
            "dissent": [],
        }
    )


# -- seed 002's swap rule and the tally ------------------------------------------


def test_swap_rule_matches_the_seed() -> None:
    assert reconcile_swap(None, None) is None
    stable = reconcile_swap(judge("reject"), judge("reject", "medium"))
    assert stable is not None and stable.position_stable and stable.reply.confidence == "high"
    one = reconcile_swap(None, judge("approve"))
    assert one is not None and (one.reply.recommendation, one.position_stable) == ("approve", False)
    for a, b, winner in [
        ("approve", "reject", "reject"),
        ("needs-more-info", "reject", "needs-more-info"),
        ("approve-with-changes", "approve", "approve-with-changes"),
    ]:
        ruling = reconcile_swap(judge(a), judge(b))
        assert ruling is not None
        assert (ruling.reply.recommendation, ruling.reply.confidence) == (winner, "low")
        assert ruling.position_stable is False


def test_tally_is_a_plurality_with_cautious_ties() -> None:
    assert tally(["approve", "approve", "reject"]).leading == "approve"
    assert tally(["approve", "reject"]).leading == "reject"
    assert tally(["reject", "needs-more-info"]).leading == "needs-more-info"
    assert tally(["approve", "approve"]).confidence == "high"
    assert tally(["approve", "approve", "reject"]).confidence == "medium"
    assert tally(["approve", "reject", "needs-more-info"]).confidence == "low"


# -- seed 002's contamination gate ---------------------------------------------------


def test_contamination_is_the_seeds_formula() -> None:
    vocabulary = words("def refund(order, amount): ledger.record(order, amount)")
    assert vocabulary == {"refund", "order", "amount", "ledger", "record"}
    assert coverage("", vocabulary) == 1.0
    assert coverage("refund order bakes cakes", vocabulary) == 0.5
    # below 0.20 coverage but two anchors: kept
    assert not is_contaminated(
        form(
            [
                "refund order a b c d e f g h i j k l m n o p q r s",
                "alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike",
            ]
        ),
        vocabulary,
    )
    assert is_contaminated(form(["whisk eggs with sugar", "refund pastry dough"]), vocabulary)


def test_gate_overrides_when_half_or_more_are_flagged() -> None:
    diff = "refund order amount ledger record"
    good, bad = form(["refund order amount"]), form(["whisk eggs sugar pastry"])
    dropped = gate([("a", good), ("b", good), ("c", bad)], diff)
    assert (dropped.live, dropped.dropped, dropped.overridden) == (("a", "b"), ("c",), False)
    held = gate([("a", good), ("b", bad)], diff)
    assert (held.live, held.dropped, held.overridden, held.flagged) == (
        ("a", "b"),
        (),
        True,
        ("b",),
    )
    clean = gate([("a", good), ("b", good)], diff)
    assert clean.overridden is False and clean.flagged == ()


# -- reply schemas and parsing -----------------------------------------------------


def test_schemas_forbid_extra_keys_wrong_enums_and_overlong_lists() -> None:
    ok = {
        "verdict": "reject",
        "confidence": "low",
        "model": "m",
        "key_claims": ["x"],
        "risks": [],
        "unknowns": [],
    }
    assert FormReply.model_validate(ok).proposed_claims == []
    for bad in (
        {**ok, "extra": 1},
        {**ok, "verdict": "lgtm"},
        {**ok, "key_claims": []},
        {**ok, "key_claims": ["x"] * 7},
        {**ok, "unknowns": ["u"] * 5},
        {**ok, "confidence": "HIGH"},
        {**ok, "risks": "none"},
    ):
        with pytest.raises(ValidationError):
            FormReply.model_validate(bad)
    with pytest.raises(ValidationError):
        AttackReply.model_validate(
            {
                "refutations": [
                    {"target": "A", "target_claim": "c", "attack": "a", "severity": "fatal"}
                ],
                "concessions": [],
            }
        )
    with pytest.raises(ValidationError):
        DefenseReply.model_validate({"defenses": [], "conceded": [], "verdict_changed": "yes"})


def test_sent_schemas_are_self_contained() -> None:
    schema = json_schema(AttackReply)
    assert "$defs" not in schema and "$ref" not in str(schema)
    assert schema["additionalProperties"] is False
    item = schema["properties"]["refutations"]["items"]
    assert item["properties"]["severity"]["enum"] == ["critical", "high", "medium", "low"]


def test_the_json_object_is_cut_out_of_prose_and_fences() -> None:
    text = (
        'Here you go:\n```json\n{"recommendation": "reject", "confidence": "low", '
        '"rationale": "r", "consensus": [], "dissent": []}\n```\nHope this helps.'
    )
    assert parse(text, JudgeReply).recommendation == "reject"
    with pytest.raises(ValueError):
        extract_object("no object here")
    try:
        parse('{"recommendation": "ok"}', JudgeReply)
    except ValidationError as exc:
        problem = describe(exc)
    assert problem.startswith("recommendation: Input should be") and "and 2 more" in problem


# -- claims ------------------------------------------------------------------------


def test_claims_filter_and_block() -> None:
    known = ["added-test", "no-default-flip"]
    kept = filter_claims(
        [
            "* Added_Test",
            "`no-default-flip: timeout`",
            "no-default-flip: a b",
            "made-up",
            "no-default-flip: x\n```",
            "added-test",
        ],
        known,
    )
    assert kept.claims == ("added-test", "no-default-flip: timeout")
    assert len(kept.dropped) == 3
    proposed = "```tribunal-proposed\nadded-test\nno-default-flip: timeout\n```\n"
    assert claims_block(kept.claims) == proposed
    assert claims_block(()) == "```tribunal-proposed\n```\n"


# -- configuration -------------------------------------------------------------------


def test_endpoints_are_made_explicit() -> None:
    assert normalize_endpoint("ollama", "localhost") == "http://localhost:11434"
    assert normalize_endpoint("ollama", ":9999") == "http://127.0.0.1:9999"
    assert normalize_endpoint("ollama", "http://box:1/") == "http://box:1"
    assert normalize_endpoint("openai", "https://api.example.com/v1/") == (
        "https://api.example.com/v1"
    )
    with pytest.raises(UsageError):
        normalize_endpoint("openai", "api.example.com")
    # a server's "listen everywhere" setting, read as a client address, is this machine
    assert normalize_endpoint("ollama", "0.0.0.0:11434") == "http://127.0.0.1:11434"
    assert normalize_endpoint("ollama", "http://[::]:8") == "http://[::1]:8"
    assert shown_endpoint("https://u:pw@h:1/v1?key=k") == "https://h:1/v1"


def test_single_spec_prefers_flags_then_environment() -> None:
    env = {
        "TRIBUNAL_MODEL": "env-model",
        "TRIBUNAL_API_KEY": "k" * 24,
        "OLLAMA_HOST": "127.0.0.1:7",
    }
    local = single_spec(None, None, None, env)
    assert (local.provider, local.model, local.endpoint) == (
        "ollama",
        "env-model",
        "http://127.0.0.1:7",
    )
    remote = single_spec(None, "https://api.example.com/v1", "flag-model", env)
    assert (remote.provider, remote.model, remote.api_key) == ("openai", "flag-model", "k" * 24)
    with pytest.raises(UsageError):
        single_spec(None, None, None, {})


def test_member_flags_and_lenses_by_index() -> None:
    env = {"OLLAMA_HOST": "http://127.0.0.1:5"}
    spec = parse_member_flag("qwen=ollama:qwen2.5:7b", env, 0)
    assert (spec.id, spec.model, spec.endpoint) == ("qwen", "qwen2.5:7b", "http://127.0.0.1:5")
    remote = parse_member_flag("openai:gpt-x@https://h/v1", env, 1)
    assert (remote.id, remote.endpoint) == ("m2", "https://h/v1")
    plan = council_plan(
        None,
        member_flags=["ollama:a", "ollama:b", "ollama:c"],
        lens_flags=["security", "be terse"],
        lens_table={"security": {"focus": "auth and crypto"}},
        env=env,
    )
    assert [m.focus for m in plan.members] == ["auth and crypto", "be terse", ""]
    assert plan.seconds == 120.0 and plan.judge is None


def test_config_members_are_checked() -> None:
    section = {"members": [{"id": "a", "provider": "ollama", "model": "m"}], "timeout": 9}
    with pytest.raises(ConfigError, match="2 to 5 members, found 1"):
        council_plan(section, env={})
    section["members"] = [
        {"id": "a", "provider": "ollama", "model": "m", "focus": "tests"},
        {"id": "b", "provider": "ollama", "model": "n"},
    ]
    plan = council_plan(section, env={})
    assert plan.seconds == 9.0 and plan.members[0].focus == "tests"
    assert plan.members[1].endpoint == "http://127.0.0.1:11434"


# -- prompts and the report ----------------------------------------------------------


def test_fence_nonce_never_occurs_in_the_fenced_text_and_clipping_says_so() -> None:
    fence = new_fence("abc")
    assert fence.nonce.startswith("tribunal-") and fence.nonce != new_fence("abc").nonce
    block = fence.block("DIFF", "x")
    assert block == f"<<<DIFF {fence.nonce}\nx\nDIFF {fence.nonce}>>>"
    clipped = clip_diff("line\n" * 100, limit=50)
    assert len(clipped) < 120 and clipped.endswith("[diff truncated: 49 of 500 characters shown]")


def test_text_report_says_it_is_advisory() -> None:
    record = {
        "status": "ok",
        "recommendation": "reject",
        "confidence": "low",
        "position_stable": False,
        "rationale": "r",
        "consensus": [],
        "dissent": ["d"],
        "members": [
            {
                "id": "a",
                "provider": "ollama",
                "model": "m",
                "status": "live",
                "verdict": "approve",
                "final_verdict": "reject",
                "confidence": "high",
                "attacks_received": 1,
                "conceded": 1,
            }
        ],
        "dropped": [{"id": "b", "phase": "form", "reason": "b: cannot connect"}],
        "proposed_claims": ["added-test"],
        "claims_dropped": 2,
        "costs": {"calls": 3, "tokens_in": 10, "tokens_out": 5, "seconds": 1.5},
        "redactions": 1,
    }
    text = render_text(record)
    assert text.splitlines()[0] == (
        "council (advisory; it never changes the gate): REJECT "
        "(confidence low, position stable: no)"
    )
    body = text.splitlines()[1:]
    assert body and all(line.startswith("  council | ") for line in body)
    assert (
        "  council | member a (ollama:m): approve -> reject (high, 1 attacks, 1 conceded)" in body
    )
    assert "  council | dropped b in form: b: cannot connect" in body
    assert "  council | proposed claims: added-test (2 dropped)" in body
    assert "1 secrets redacted" in text
