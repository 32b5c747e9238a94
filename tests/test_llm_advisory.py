"""The council's two entry points: ``run_council_advisory`` (for the convene) and the CLI."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from tests.gitrepo import GitRepo
from tests.llm_council_script import DIFF, scripted, steady_judge, verdict
from tests.llm_server import Scripted, closed_port_url, serving, tribunal_cli
from tribunal.config.load import parse_config
from tribunal.config.model import Config
from tribunal.llm.advisory import run_council_advisory
from tribunal.llm.budget import Limits
from tribunal.llm.providers import MemberSpec, Provider

KEY = "sk-proj-DONOTLEAKdonotleak0123456789"


def council_yml(*members: tuple[str, str, str, str], extra: str = "") -> str:
    lines = ["council:", "  enabled: true", "  members:"]
    for member_id, provider, model, endpoint in members:
        lines.append(
            f"    - {{id: {member_id}, provider: {provider}, model: {model}, "
            f"endpoint: '{endpoint}'}}"
        )
    return "\n".join(lines) + "\n" + extra


def config(text: str) -> Config:
    return parse_config(text, "tribunal.yml")


def never_called(spec: MemberSpec, limits: Limits) -> Provider:
    raise AssertionError(f"a provider was built for {spec.endpoint}")


@pytest.mark.parametrize("text", ["", "strict: true\n", "council:\n  enabled: false\n"])
def test_no_enabled_council_means_no_advisory(text: str) -> None:
    assert run_council_advisory(DIFF, config(text), factory=never_called) is None


def test_advisory_record_is_json_and_carries_no_key() -> None:
    behaviour = {
        "m1": {"form": verdict("m1", "reject"), "judge": steady_judge("reject")},
        "m2": {"form": verdict("m2", "reject")},
    }
    with serving(scripted(behaviour)) as server:
        cfg = config(
            council_yml(("a", "ollama", "m1", server.url), ("b", "openai", "m2", server.url))
        )
        record = run_council_advisory(DIFF, cfg, 30, allowed=True, env={"TRIBUNAL_API_KEY": KEY})
    assert record is not None
    assert json.loads(json.dumps(record)) == record
    assert (record["schema"], record["advisory"], record["status"]) == (
        "tribunal.council/1",
        True,
        "ok",
    )
    assert record["recommendation"] == "reject"
    assert KEY not in json.dumps(record)
    assert any(r.headers.get("Authorization") == f"Bearer {KEY}" for r in server.requests)


def test_advisory_without_permission_sends_nothing_even_to_loopback() -> None:
    cfg = config(
        council_yml(
            ("a", "ollama", "m1", "http://127.0.0.1:1"),
            ("b", "openai", "m2", "http://10.255.255.1:9/v1"),
        )
    )
    env = {"TRIBUNAL_ALLOW_SEND_DIFF": "1"}  # the caller decides; the environment is not read
    record = run_council_advisory(DIFF, cfg, 30, env=env, factory=never_called)
    assert record is not None and record["status"] == "not-sent"
    assert record["reason"].startswith("council skipped: sending the diff is not allowed; see ")
    assert "git config --global tribunal.allowSendDiff true" in record["reason"]


def test_advisory_respects_its_budget_and_never_raises() -> None:
    behaviour: dict[str, dict[str, Any]] = {
        "m1": {"form": verdict("m1")},
        "m2": {"form": lambda r: Scripted(200, {}, delay=6.0)},
    }
    with serving(scripted(behaviour)) as server:
        cfg = config(
            council_yml(
                ("a", "ollama", "m1", server.url),
                ("b", "ollama", "m2", server.url),
                ("c", "ollama", "m3", closed_port_url()),
            )
        )
        started = time.monotonic()
        record = run_council_advisory(DIFF, cfg, 0.5, allowed=True, env={})
        elapsed = time.monotonic() - started
    assert elapsed < 3.0  # the slow member sleeps 6 s
    assert record is not None and record["status"] == "unavailable"

    def broken(spec: MemberSpec, limits: Limits) -> Provider:
        raise RuntimeError("boom")

    crashed = run_council_advisory(DIFF, cfg, 0.5, allowed=True, env={}, factory=broken)
    assert crashed is not None
    assert (crashed["status"], crashed["reason"]) == ("error", "internal error: RuntimeError: boom")


def test_advisory_reports_a_config_problem_instead_of_raising() -> None:
    cfg = config(council_yml(("a", "ollama", "m1", "http://127.0.0.1:1")))
    record = run_council_advisory(DIFF, cfg, allowed=True, env={}, factory=never_called)
    assert record is not None and record["status"] == "error"
    assert "a council needs 2 to 5 members, found 1" in record["reason"]


def test_council_cli_from_config_on_a_git_range(repo: GitRepo) -> None:
    repo.commit(
        {
            "src/payments/refund.py": "def refund(order, amount):\n"
            "    if amount > order.total:\n        raise E\n"
        }
    )
    repo.commit(
        {
            "src/payments/refund.py": "def refund(order, amount):\n"
            "    if amount >= order.total:\n        raise E\n"
        }
    )
    behaviour = {
        "m1": {"form": verdict("m1", "reject")},
        "m2": {"form": verdict("m2")},
        "m3": {"form": verdict("m3", "reject")},
        "jj": {"judge": steady_judge("reject")},
    }
    with serving(scripted(behaviour)) as server:
        url = server.url
        repo.write(
            {
                "tribunal.yml": council_yml(
                    ("a", "ollama", "m1", server.url),
                    ("b", "openai", "m2", server.url + "/v1"),
                    ("c", "ollama", "m3", server.url),
                    extra=f"  judge: {{id: j, provider: ollama, model: jj, endpoint: '{url}'}}\n",
                )
            }
        )
        env = {"TRIBUNAL_API_KEY": KEY}
        text = tribunal_cli(
            "council",
            "--base",
            "HEAD~1",
            "--head",
            "HEAD",
            "--lens",
            "security",
            "--allow-send-diff",
            cwd=repo.path,
            env=env,
        )
        data = tribunal_cli(
            "council",
            "--base",
            "HEAD~1",
            "--head",
            "HEAD",
            "--format",
            "json",
            "--allow-send-diff",
            cwd=repo.path,
            env=env,
        )
    assert text.returncode == 0, text.stderr
    assert text.stdout.startswith(
        "council (advisory; it never changes the gate): REJECT "
        "(confidence medium, position stable: yes)"
    )
    assert data.returncode == 0, data.stderr
    record = json.loads(data.stdout)
    assert [m["model"] for m in record["members"]] == ["m1", "m2", "m3"]
    sent = [r for r in server.requests if r.phase == "form"]
    assert all("+    if amount >= order.total:" in r.text for r in sent)
    security = [r for r in sent if "Pay particular attention" in r.text]
    assert [r.model for r in security] == ["m1"]  # lens 0 -> member 0, focus from the lens
    assert "authentication, permissions, cryptography" in security[0].text
    for output in (text.stdout, text.stderr, data.stdout, data.stderr):
        assert KEY not in output
    assert files_containing(KEY, repo.path, Path(os.environ["HOME"])) == []


def files_containing(needle: str, *roots: Path) -> list[Path]:
    """Every file under ``roots`` (logs, caches, crash reports) that holds ``needle``."""
    return [
        p
        for root in roots
        for p in root.rglob("*")
        if p.is_file() and needle.encode() in p.read_bytes()
    ]


def test_council_cli_reports_unavailable_with_exit_2(tmp_path: Path) -> None:
    result = tribunal_cli(
        "council",
        "--diff",
        "-",
        "--member",
        f"ollama:m1@{closed_port_url()}",
        "--member",
        f"d2=openai:m2@{closed_port_url()}",
        "--retries",
        "0",
        "--allow-send-diff",
        cwd=tmp_path,
        stdin=DIFF,
    )
    assert result.returncode == 2
    assert "UNAVAILABLE" in result.stdout
    assert "dropped d2 in form: d2: cannot connect" in result.stdout
    assert result.stderr.startswith("tribunal: error: the council is unavailable: only 0")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--member", "ollama:m1"], "a council needs 2 to 5 members, found 1"),
        (["--member", "a=ollama:m", "--member", "a=ollama:n"], "member id 'a' is used twice"),
        (["--member", "gemini:pro", "--member", "ollama:n"], "expected [id=]ollama|openai"),
        (["--member", "openai:m", "--member", "ollama:n"], "needs an endpoint"),
    ],
)
def test_council_cli_usage_errors(tmp_path: Path, args: list[str], message: str) -> None:
    result = tribunal_cli("council", "--diff", "-", *args, cwd=tmp_path, stdin=DIFF)
    assert result.returncode == 2
    assert message in result.stderr and len(result.stderr.splitlines()) == 1


def test_missing_extra_is_a_one_line_hint(tmp_path: Path) -> None:
    code = (
        "import sys; sys.modules['pydantic'] = None\nfrom tribunal.cli import main\n"
        "sys.exit(main(['council', '--diff', '-', '--member', 'ollama:a', "
        "'--member', 'ollama:b']))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        input=DIFF,
        capture_output=True,
        text=True,
        cwd=tmp_path,
        check=False,
    )
    assert result.returncode == 2
    assert result.stderr == (
        "tribunal: error: the LLM advisors need the optional dependency "
        "'pydantic': pip install 'tribunal-gate[llm]'\n"
    )


@pytest.mark.parametrize("command", ["propose", "council"])
def test_help_shows_the_commands_own_exit_codes(tmp_path: Path, command: str) -> None:
    result = tribunal_cli(command, "--help", cwd=tmp_path)
    assert result.returncode == 0
    codes = result.stdout[result.stdout.index("exit codes:") :]
    assert "--hard-fail" not in codes and "CONTRADICTED" not in codes  # not check's
    assert [line.split()[0] for line in codes.splitlines()[1:] if line[:4].strip()] == [
        "0",
        "2",
        "3",
        "130",
    ]
    assert "nothing was sent (sending not allowed" in codes
    if command == "council":
        assert "its advice never fails this" in codes
        assert "a judge that is one of\n       the members' models" in codes


def test_council_cli_refuses_a_judge_that_is_a_member(tmp_path: Path) -> None:
    with serving(scripted({})) as server:
        flags = ["--member", f"a=ollama:m1@{server.url}", "--member", f"b=ollama:m2@{server.url}"]
        by_flag = tribunal_cli(
            "council",
            "--diff",
            "-",
            *flags,
            "--judge",
            f"openai:m2@{server.url}/v1",
            "--allow-send-diff",
            cwd=tmp_path,
            stdin=DIFF,
        )
        (tmp_path / "tribunal.yml").write_text(
            council_yml(
                ("a", "ollama", "m1", server.url),
                ("b", "ollama", "m2", server.url),
                extra=f"  judge: {{id: j, provider: ollama, model: 'M1:latest', endpoint: "
                f"'{server.url}'}}\n",
            )
        )
        by_config = tribunal_cli(
            "council",
            "--diff",
            "-",
            "--config",
            "tribunal.yml",
            "--allow-send-diff",
            cwd=tmp_path,
            stdin=DIFF,
        )
    assert server.requests == []
    assert (by_flag.returncode, by_config.returncode) == (2, 2)
    assert by_flag.stderr == (
        "tribunal: error: the judge openai:m2 is the model of member 'b' (ollama:m2); a judge "
        "must not be one of the members' models. Name another model as the judge, or none "
        "(the tally is used)\n"
    )
    assert "the judge ollama:M1:latest is the model of member 'a' (ollama:m1)" in by_config.stderr


def test_council_output_fed_back_into_check_only_advises(repo: GitRepo) -> None:
    repo.commit({"calc.py": "def add(a, b):\n    return a + b\n"})
    repo.commit(
        {"calc.py": "def add(a, b):\n    return a + b\n\n\ndef sub(a, b):\n    return a - b\n"}
    )
    claims = ["added-test", "no-public-api-change"]
    behaviour = {m: {"form": verdict(m, "approve", proposed_claims=claims)} for m in ("m1", "m2")}
    with serving(scripted(behaviour)) as server:
        members = ["--member", f"ollama:m1@{server.url}", "--member", f"ollama:m2@{server.url}"]
        advice = tribunal_cli(
            "council", "--base", "HEAD~1", *members, "--allow-send-diff", cwd=repo.path
        )
    assert advice.returncode == 0, advice.stderr
    assert advice.stdout.endswith("```tribunal-proposed\nadded-test\nno-public-api-change\n```\n")
    (repo.path / "advice.txt").write_text(advice.stdout)
    for flag in ("--claims", "--pr-body"):
        checked = tribunal_cli(
            "check",
            "--base",
            "HEAD~1",
            "--head",
            "HEAD",
            flag,
            "advice.txt",
            "--hard-fail",
            "--format",
            "json",
            cwd=repo.path,
        )
        assert checked.returncode == 0, checked.stdout + checked.stderr
        report = json.loads(checked.stdout)
        assert not [f for f in report["findings"] if f.get("claim")]
        assert {a["claim"]: a["outcome"] for a in report["advisory"]} == {
            "added-test": "contradicted",
            "no-public-api-change": "contradicted",
        }
