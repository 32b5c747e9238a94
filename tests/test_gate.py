"""The gate recomputes its decision from summary.json as read back from disk."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.summaries import expectation, finding, member, summary
from tribunal.gate.decision import evaluate
from tribunal.gate.summary import GateRecord, Summary, write

KEY = b"g" * 64


def gate(tmp_path: Path, s: Summary, **expected: Any) -> tuple[bool, str]:
    path = tmp_path / "runs" / "s.json"
    write(path, s, KEY)
    result = evaluate(path, expectation(**expected), KEY)
    return result.passed, "\n".join(result.reasons)


def test_a_unanimous_verified_pass_passes(tmp_path: Path) -> None:
    assert gate(tmp_path, summary()) == (True, "")


def test_unverified_passes_unless_strict(tmp_path: Path) -> None:
    s = summary([member("tests", "UNVERIFIED", [finding("UNVERIFIED")]), member("symbols")])
    assert gate(tmp_path, s)[0]
    passed, why = gate(tmp_path, s, strict=True)
    assert not passed and "lens tests: UNVERIFIED (strict: true)" in why


@pytest.mark.parametrize(
    ("members", "reason"),
    [
        (
            [member("tests", "CONTRADICTED", [finding()]), member("symbols")],
            "lens tests: CONTRADICTED",
        ),
        (
            [member("tests"), member("symbols", "ERROR", error="timed out")],
            "lens symbols could not complete: timed out",
        ),
        (
            [member("tests", "PASS", [finding()]), member("symbols")],
            "lens tests says PASS but its findings",
        ),
        ([member("tests")], "lens symbols is configured but missing"),
        (
            [member("tests"), member("symbols"), member("tests")],
            "lens tests appears more than once",
        ),
    ],
)
def test_members_that_are_not_verified_passes_reject(
    tmp_path: Path, members: list[Any], reason: str
) -> None:
    passed, why = gate(tmp_path, summary(members))
    assert not passed
    assert reason in why


def test_a_stored_pass_decision_is_not_trusted(tmp_path: Path) -> None:
    s = summary(
        [member("tests", "CONTRADICTED", [finding()]), member("symbols")],
        gate=GateRecord(decision="pass"),
    )
    assert not gate(tmp_path, s)[0]


@pytest.mark.parametrize(
    ("expected", "reason"),
    [
        ({"commit": "e" * 40}, "stale summary: commit"),
        ({"base": None}, "stale summary: range base"),
        ({"config_digest": "0" * 16}, "stale summary: config digest"),
        ({"version": "99.0"}, "stale summary: tool version"),
        ({"lenses": ("tests", "symbols", "suite")}, "lens suite is configured but missing"),
    ],
)
def test_a_summary_of_something_else_rejects(
    tmp_path: Path, expected: dict[str, Any], reason: str
) -> None:
    passed, why = gate(tmp_path, summary(), **expected)
    assert not passed and reason in why


def test_missing_and_tampered_summaries_reject(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    result = evaluate(path, expectation(), KEY)
    assert not result.passed and "no summary" in result.reasons[0]
    write(path, summary([member("tests", "CONTRADICTED", [finding()]), member("symbols")]), KEY)
    data = json.loads(path.read_text(encoding="utf-8"))
    data["members"][0]["verdict"] = "PASS"
    data["members"][0]["findings"] = []
    path.write_text(json.dumps(data), encoding="utf-8")
    result = evaluate(path, expectation(), KEY)
    assert not result.passed and "does not authenticate" in result.reasons[0]
