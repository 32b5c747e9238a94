"""Summaries built directly, for the summary and gate tests."""

from __future__ import annotations

from typing import Any

from tribunal import __version__
from tribunal.gate.decision import Expectation
from tribunal.gate.summary import (
    ConfigRecord,
    FindingRecord,
    GateRecord,
    MemberRecord,
    RangeRecord,
    RefRecord,
    RemoteRecord,
    Summary,
    TimingRecord,
    ToolRecord,
)

COMMIT = "c" * 40
BASE = "b" * 40
LENSES = ("tests", "symbols")


def finding(verdict: str = "CONTRADICTED", **extra: Any) -> FindingRecord:
    fields: dict[str, Any] = {
        "analyzer": "assertion-free-test",
        "verdict": verdict,
        "file": "tests/test_a.py",
        "line": 3,
        "title": "test `test_x` asserts nothing",
        "detail": "its body is empty",
    }
    return FindingRecord.model_validate({**fields, **extra})


def member(
    lens: str, verdict: str = "PASS", findings: list[FindingRecord] | None = None, **extra: Any
) -> MemberRecord:
    fields: dict[str, Any] = {
        "lens": lens,
        "title": lens.title(),
        "kind": "analyzers",
        "verdict": verdict,
        "analyzers": ["assertion-free-test"],
        "findings": findings or [],
        "duration_ms": 1.5,
    }
    return MemberRecord.model_validate({**fields, **extra})


def summary(members: list[MemberRecord] | None = None, **extra: Any) -> Summary:
    fields: dict[str, Any] = {
        "tool": ToolRecord(version=__version__),
        "created": "2026-01-01T00:00:00+00:00",
        "commit": COMMIT,
        "tree": "t" * 40,
        "range": RangeRecord(base=BASE, head=COMMIT, commits=2),
        "remote": RemoteRecord(name="origin", url="https://example.com/r.git"),
        "ref": RefRecord(local="refs/heads/main", remote="refs/heads/main"),
        "config": ConfigRecord(digest="d" * 16, source="built-in defaults", lenses=list(LENSES)),
        "members": members if members is not None else [member(lens) for lens in LENSES],
        "gate": GateRecord(decision="pass"),
        "timings": TimingRecord(total_ms=10, sandbox_ms=2, members_ms=5),
    }
    return Summary.model_validate({**fields, **extra})


def expectation(**extra: Any) -> Expectation:
    fields: dict[str, Any] = {
        "commit": COMMIT,
        "base": BASE,
        "config_digest": "d" * 16,
        "version": __version__,
        "lenses": LENSES,
        "strict": False,
        "remote": "origin",
    }
    return Expectation(**{**fields, **extra})
