"""The LLM council inside the pre-push convene: advice recorded and printed, never the gate.

End to end through the shims of ``tribunal install``: real git, a real bare
remote, and real local chat servers on 127.0.0.1 (``tests/llm_server.py``)
scripted per model. The council's config is the remote's ``tribunal.yml``.
"""

from __future__ import annotations

import json
import os
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from tests import hookscenarios as sc
from tests import summaries as made
from tests.hooktools import UserRepo
from tests.llm_council_script import allow_sending, own_home, scripted, steady_judge, verdict
from tests.llm_server import FakeLLM, Scripted, closed_port_url, serving
from tests.test_llm_advisory import files_containing
from tribunal.gate.decision import evaluate
from tribunal.gate.summary import write
from tribunal.hooks.advisory import council_claims, scrubbed, within

KEY = "sk-test-secret-0123456789abcdefDONOTLEAK"
ADDS_TEST = {
    "tests/test_sum.py": "from calc import add\n\n\ndef test_add():\n    assert add(1, 2) == 3\n"
}
ON_TOPIC = ["test_add asserts that add(1, 2) returns 3", "the new test imports add from calc"]
HEADLINE = "tribunal: council (advisory; it never changes the gate): "


def install(user: UserRepo) -> None:
    result = user.repo.tribunal("install", env=user.env)
    assert result.code == 0, result.stderr


def council(recommendation: str, claims: list[str] | None = None) -> dict[str, dict[str, Any]]:
    """Two members and a judge that all say ``recommendation``."""
    extra = {"proposed_claims": claims} if claims else {}
    return {
        model: {
            "form": verdict(model, recommendation, ON_TOPIC, **extra),
            "judge": steady_judge(recommendation),
        }
        for model in ("m1", "m2")
    }


def council_yml(first: str, second: str, timeout: float = 30) -> str:
    return (
        "council:\n  enabled: true\n"
        f"  timeout: {timeout}\n"
        "  members:\n"
        f"    - {{id: a, provider: ollama, model: m1, endpoint: '{first}'}}\n"
        f"    - {{id: b, provider: openai, model: m2, endpoint: '{second}/v1'}}\n"
    )


def make_user(tmp_path: Path, config: str | None, env: dict[str, str] | None = None) -> UserRepo:
    user = sc.make_user(tmp_path, install, env)
    if config is not None:
        sc.set_remote_config(user, config)
    return user


@pytest.fixture(autouse=True)
def _home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test here has a home of its own: the per-user send permission lives there."""
    return own_home(tmp_path, monkeypatch)


def with_server(tmp_path: Path, server: FakeLLM, **env: str) -> UserRepo:
    """A user whose trusted config enables a council on ``server``, allowed to send the diff."""
    allow_sending(True)
    return make_user(tmp_path, council_yml(server.url, server.url), env)


def summary_path(user: UserRepo, sha: str) -> Path:
    [path] = user.summaries(sha)
    return path


def advisory_of(user: UserRepo, sha: str) -> dict[str, Any]:
    record = sc.only_summary(user, sha).advisory
    assert record is not None
    return record


# -- the gate never reads the advisory ------------------------------------------------


def test_the_gate_passes_a_summary_whose_council_says_reject(tmp_path: Path) -> None:
    record = {"schema": "tribunal.council/1", "advisory": True, "status": "ok"}
    summary = made.summary(advisory={**record, "recommendation": "reject"})
    write(tmp_path / "s.json", summary, b"k" * 64)
    result = evaluate(tmp_path / "s.json", made.expectation(), b"k" * 64)
    assert result.passed, result.reasons
    assert result.summary is not None and result.summary.advisory == summary.advisory


def test_the_gate_rejects_a_contradiction_whatever_the_council_says(tmp_path: Path) -> None:
    members = [made.member("tests", "CONTRADICTED", [made.finding()]), made.member("symbols")]
    advice = {"schema": "tribunal.council/1", "status": "ok", "recommendation": "approve"}
    write(tmp_path / "s.json", made.summary(members, advisory=advice), b"k" * 64)
    result = evaluate(tmp_path / "s.json", made.expectation(), b"k" * 64)
    assert not result.passed
    assert result.reasons == ("lens tests: CONTRADICTED",)


# -- the advisory step's own guarantees ----------------------------------------------


def test_a_council_that_overruns_its_budget_is_abandoned() -> None:
    given: list[float] = []
    release = threading.Event()

    def stuck(seconds: float) -> dict[str, Any]:
        given.append(seconds)
        release.wait(30)
        return {"status": "ok"}

    started = time.monotonic()
    record = within(0.4, stuck)
    elapsed = time.monotonic() - started
    release.set()
    assert 0.35 < elapsed < 2.0
    assert (record["status"], record["advisory"]) == ("unavailable", True)
    assert record["reason"] == "did not finish within its budget (0.4 s, council.timeout)"
    assert given == [pytest.approx(0.3)]  # the council itself is told to stop a little earlier


def test_a_council_that_crashes_becomes_an_error_record() -> None:
    def broken(seconds: float) -> dict[str, Any]:
        raise RuntimeError("boom")

    record = within(5, broken)
    assert (record["status"], record["reason"]) == ("error", "internal error: RuntimeError: boom")


def test_an_api_key_that_reached_the_record_is_scrubbed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TRIBUNAL_API_KEY", KEY)
    record = scrubbed({"status": "error", "reason": f"401 for key {KEY}", "n": [1]})
    assert record == {"status": "error", "reason": "401 for key [redacted]", "n": [1]}
    clean = {"status": "ok", "reason": None}
    assert scrubbed(clean) is clean


def test_only_an_ok_council_proposes_claims_and_they_name_the_council() -> None:
    ok = {"status": "ok", "proposed_claims": ["no-new-dependency", "no-default-flip: timeout"]}
    claims = council_claims(ok)
    assert [(c.key, c.arg, c.source, c.origin) for c in claims] == [
        ("no-new-dependency", None, "council", "council"),
        ("no-default-flip", "timeout", "council", "council"),
    ]
    assert council_claims({**ok, "status": "unavailable"}) == ()
    assert council_claims(None) == ()


# -- end to end -----------------------------------------------------------------------


def test_council_says_reject_while_the_gate_passes(tmp_path: Path) -> None:
    with serving(scripted(council("reject"))) as server:
        user = with_server(tmp_path, server, TRIBUNAL_API_KEY=KEY)
        sha = user.commit(ADDS_TEST, "add a test")
        result = sc.push(user)
    text = sc.output(result)
    assert result.code == 0, text
    assert user.remote_sha("refs/heads/main") == sha
    assert HEADLINE + "REJECT" in text
    assert text.index("unanimous pass") < text.index(HEADLINE)  # printed after the decision
    record = advisory_of(user, sha)
    assert (record["schema"], record["status"], record["recommendation"]) == (
        "tribunal.council/1",
        "ok",
        "reject",
    )
    sent = [r for r in server.requests if r.phase == "form"]
    assert len(sent) == 2 and all("+    assert add(1, 2) == 3" in r.text for r in sent)
    # the key went to the openai-compatible member, and nowhere else
    assert any(r.headers.get("Authorization") == f"Bearer {KEY}" for r in server.requests)
    assert KEY not in text
    home = Path(os.environ["HOME"])  # logs, caches, crash reports
    assert files_containing(KEY, tmp_path, home) == []
    assert KEY.encode() not in summary_path(user, sha).read_bytes()


def test_council_says_approve_while_the_gate_rejects_and_a_rerun_keeps_the_advice(
    tmp_path: Path,
) -> None:
    with serving(scripted(council("approve"))) as server:
        user = with_server(tmp_path, server)
        sha = user.commit(sc.BAD, "add a test")
        first = sc.push(user)
        asked = len(server.requests)
        second = sc.push(user)
    for result in (first, second):
        text = sc.output(result)
        assert result.code != 0, text
        assert "rejected" in text and "assertion-free-test" in text
        assert HEADLINE + "APPROVE" in text
        assert text.index("--no-verify") < text.index(HEADLINE)
    assert "from an earlier run" in sc.output(second)
    assert len(server.requests) == asked  # reused: the council was not asked again
    assert user.remote_sha("refs/heads/main") != sha
    assert advisory_of(user, sha)["recommendation"] == "approve"


def test_a_dead_council_leaves_the_push_to_the_lenses_within_its_budget(tmp_path: Path) -> None:
    slow = {"m1": {"form": lambda r: Scripted(200, {}, delay=60.0)}}
    allow_sending(True)
    with serving(scripted(slow)) as server:
        user = make_user(tmp_path, council_yml(server.url, closed_port_url(), timeout=4))
        sha = user.commit(ADDS_TEST, "add a test")
        started = time.monotonic()
        result = sc.push(user)
        elapsed = time.monotonic() - started
    text = sc.output(result)
    assert result.code == 0, text
    assert elapsed < 20  # a member that answers after 60 s was not waited for
    record = advisory_of(user, sha)
    assert record["status"] == "unavailable"
    assert record["costs"]["seconds"] <= 4.0
    assert HEADLINE + "UNAVAILABLE" in text
    summary = sc.only_summary(user, sha)
    assert summary.gate.decision == "pass"
    assert [m.verdict for m in summary.members] == ["PASS"] * len(summary.members)


def test_a_claim_the_council_proposes_is_verified_as_advice_and_never_rejects(
    tmp_path: Path,
) -> None:
    behaviour = council("approve", claims=["no-new-dependency", "made-up-claim"])
    with serving(scripted(behaviour)) as server:
        user = with_server(tmp_path, server)
        user.commit({"requirements.txt": "requests\n"}, "requirements")
        user.git("push", "-q", "--no-verify", "origin", "main")
        sha = user.commit({"requirements.txt": "requests\nflask\n"}, "use flask")
        result = sc.push(user)
    text = sc.output(result)
    assert result.code == 0, text  # nobody claimed "no new dependency": not a defect
    assert user.remote_sha("refs/heads/main") == sha
    summary = sc.only_summary(user, sha)
    assert {m.verdict for m in summary.members} == {"PASS"}
    assert all(f.source != "council" for m in summary.members for f in m.findings)
    record = advisory_of(user, sha)
    assert record["proposed_claims"] == ["no-new-dependency"]
    [claim] = record["claims"]
    assert (claim["claim"], claim["source"], claim["outcome"]) == (
        "no-new-dependency",
        "council",
        "contradicted",
    )
    assert "new dependency 'flask'" in claim["title"]
    lines = text.splitlines()
    said = next(i for i, line in enumerate(lines) if "proposed claim 'no-new-dependency'" in line)
    assert lines[said].startswith("  council | proposed claim 'no-new-dependency' (council) ")
    assert "does not hold (advice, not a finding)" in lines[said]
    assert "`Tribunal-Claim: no-new-dependency`" in lines[said + 1]
    assert lines[said + 1].startswith("  council | ")
    assert "[claims/claim-reconciliation]" not in text


def test_a_claim_the_author_adopts_gates_like_any_other(tmp_path: Path) -> None:
    behaviour = council("approve", claims=["no-new-dependency"])
    with serving(scripted(behaviour)) as server:
        user = with_server(tmp_path, server)
        user.commit({"requirements.txt": "requests\n"}, "requirements")
        user.git("push", "-q", "--no-verify", "origin", "main")
        sha = user.commit(
            {"requirements.txt": "requests\nflask\n"},
            "use flask\n\nTribunal-Claim: no-new-dependency\n",
        )
        result = sc.push(user)
    text = sc.output(result)
    assert result.code != 0, text
    assert user.remote_sha("refs/heads/main") != sha
    claims = next(m for m in sc.only_summary(user, sha).members if m.lens == "claims")
    [finding] = claims.findings
    assert (finding.claim, finding.source, finding.verdict) == (
        "no-new-dependency",
        sha,
        "CONTRADICTED",
    )
    assert advisory_of(user, sha)["claims"] == []  # judged once, as the author's
    assert "[claims/claim-reconciliation] claim 'no-new-dependency'" in text


def test_a_claim_made_by_a_commit_and_the_council_is_judged_once(tmp_path: Path) -> None:
    behaviour = council("approve", claims=["no-new-dependency"])
    with serving(scripted(behaviour)) as server:
        user = with_server(tmp_path, server)
        sha = user.commit(
            {"calc.py": "def add(a, b):\n    return b + a\n"},
            "swap\n\nTribunal-Claim: no-new-dependency\n",
        )
        result = sc.push(user)
    assert result.code == 0, sc.output(result)
    claims = next(m for m in sc.only_summary(user, sha).members if m.lens == "claims")
    [finding] = claims.findings
    assert finding.source == sha and finding.verdict == "PASS"
    assert advisory_of(user, sha)["claims"] == []


def test_the_pushed_commits_config_cannot_turn_the_council_on(tmp_path: Path) -> None:
    with serving(scripted(council("reject"))) as server:
        user = make_user(tmp_path, None)
        sha = user.commit({**ADDS_TEST, "tribunal.yml": council_yml(server.url, server.url)})
        result = sc.push(user)
    text = sc.output(result)
    assert result.code == 0, text
    assert server.requests == []
    assert sc.only_summary(user, sha).advisory is None
    assert not any("council" in line for line in sc.tribunal_lines(result))


def test_no_council_configured_means_no_advisory_section(tmp_path: Path) -> None:
    user = make_user(tmp_path, "strict: false\n")
    sha = user.commit(ADDS_TEST)
    result = sc.push(user)
    assert result.code == 0, sc.output(result)
    path = summary_path(user, sha)
    assert json.loads(path.read_text())["advisory"] is None


def test_without_the_per_user_setting_the_council_sends_nothing_even_to_loopback(
    tmp_path: Path,
) -> None:
    with serving(scripted(council("reject", ["added-test"]))) as server:
        user = make_user(tmp_path, council_yml(server.url, server.url))  # not allowed
        user.git("config", "tribunal.allowSendDiff", "true")  # the repository's: ignored
        sha = user.commit(ADDS_TEST)
        result = sc.push(user)
    text = sc.output(result)
    assert result.code == 0, text
    assert server.requests == []
    record = advisory_of(user, sha)
    assert record["status"] == "not-sent"
    assert not any(line.startswith("  council | ") for line in text.splitlines())
    council_lines = [line for line in sc.tribunal_lines(result) if "council" in line]
    assert council_lines == [
        "tribunal: council skipped: sending the diff is not allowed; see `tribunal council "
        "--help` (allow it with `git config --global tribunal.allowSendDiff true` or "
        "TRIBUNAL_ALLOW_SEND_DIFF=1)"
    ]
    assert sc.only_summary(user, sha).gate.decision == "pass"


def test_the_environment_variable_allows_sending_too(tmp_path: Path) -> None:
    with serving(scripted(council("reject"))) as server:
        env = {"TRIBUNAL_ALLOW_SEND_DIFF": "1"}
        user = make_user(tmp_path, council_yml(server.url, server.url), env)
        sha = user.commit(ADDS_TEST)
        result = sc.push(user)
    assert result.code == 0, sc.output(result)
    assert {r.phase for r in server.requests} >= {"form"}
    assert advisory_of(user, sha)["recommendation"] == "reject"


def test_verify_pushes_in_ci_never_consults_the_council(tmp_path: Path) -> None:
    """CI re-running the gate must be deterministic: no model is asked, no advisory recorded."""
    with serving(scripted(council("approve", ["no-new-dependency"]))) as server:
        user = with_server(tmp_path, server)
        base = user.git("rev-parse", "HEAD").strip()
        head = user.commit(ADDS_TEST, "add a test")
        result = user.repo.tribunal(
            "verify-pushes", "--base", base, "--head", head, "--format", "json", env=user.env
        )
    assert result.code == 0, sc.output(result)
    assert server.requests == []
    [judged] = json.loads(result.stdout)["results"]
    assert judged["passed"] is True
    assert sc.only_summary(user, head).advisory is None
