"""The send guard and secret redaction: what may leave the machine, and in what form."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from tests.llm_council_script import DIFF, scripted, verdict
from tests.llm_server import outward_address, serving, tribunal_cli
from tribunal.llm.guard import is_loopback, refused, send_allowed
from tribunal.llm.providers import MemberSpec
from tribunal.llm.redact import redact

UNROUTABLE = "http://10.255.255.1:9"


@pytest.mark.parametrize(
    ("endpoint", "loopback"),
    [
        ("http://127.0.0.1:11434", True),
        ("http://127.8.9.10", True),
        ("http://localhost:8080/v1", True),
        ("http://LOCALHOST.:8080", True),
        ("http://[::1]:11434", True),
        ("http://[::ffff:127.0.0.1]:1", True),
        ("http://api.localhost/v1", True),
        ("https://api.openai.com/v1", False),
        ("http://10.255.255.1:9", False),
        ("http://0.0.0.0:11434", False),
        ("http://127.0.0.1.nip.io", False),
        ("http://localhost.evil.com", False),
        ("http://[::2]:1", False),
        ("not a url", False),
    ],
)
def test_loopback_is_decided_without_the_network(endpoint: str, loopback: bool) -> None:
    assert is_loopback(endpoint) is loopback


def test_permission_comes_from_the_flag_or_the_environment_only() -> None:
    remote = MemberSpec("r", "openai", "m", "https://api.example.com/v1")
    local = MemberSpec("l", "ollama", "m", "http://127.0.0.1:11434")
    assert refused([remote, local], send_allowed(False, {})) == [remote]
    assert refused([remote], send_allowed(True, {})) == []
    assert refused([remote], send_allowed(False, {"TRIBUNAL_ALLOW_SEND_DIFF": "1"})) == []
    assert refused([remote], send_allowed(False, {"TRIBUNAL_ALLOW_SEND_DIFF": "0"})) == [remote]


def test_propose_to_a_non_loopback_endpoint_prints_the_prompt_and_sends_nothing(
    tmp_path: Path,
) -> None:
    (tmp_path / "change.diff").write_text(DIFF)
    started = time.monotonic()
    result = tribunal_cli(
        "propose",
        "--diff",
        "change.diff",
        "--endpoint",
        UNROUTABLE,
        "--model",
        "m",
        "--timeout",
        "20",
        "--retries",
        "0",
        "--out",
        "claims.md",
        cwd=tmp_path,
    )
    elapsed = time.monotonic() - started
    assert result.returncode == 0, result.stderr
    assert elapsed < 8  # no connection attempt: that would hang for the 20 s timeout
    assert "would send to:" in result.stdout and UNROUTABLE in result.stdout
    assert "raise RefundError" in result.stdout  # the diff, for review
    assert "not sent: http://10.255.255.1:9" in result.stderr
    assert "--allow-send-diff" in result.stderr
    assert not (tmp_path / "claims.md").exists()


@pytest.mark.skipif(outward_address() is None, reason="no non-loopback interface")
def test_the_guard_holds_a_reachable_non_loopback_server_until_sending_is_allowed(
    tmp_path: Path,
) -> None:
    (tmp_path / "change.diff").write_text(DIFF)
    address = outward_address()
    assert address is not None
    reply = {"claims": ["added-test"]}
    with serving(scripted({"m": {"propose": reply}}), host=address) as server:
        args = (
            "propose",
            "--diff",
            "change.diff",
            "--provider",
            "ollama",
            "--endpoint",
            server.url,
            "--model",
            "m",
        )
        held = tribunal_cli(*args, cwd=tmp_path)
        assert held.returncode == 0 and server.requests == []
        sent = tribunal_cli(*args, cwd=tmp_path, env={"TRIBUNAL_ALLOW_SEND_DIFF": "1"})
        assert sent.returncode == 0, sent.stderr
        assert len(server.requests) == 1
        assert sent.stdout == "```tribunal\nadded-test\n```\n"


def test_council_refuses_every_member_when_one_endpoint_is_not_loopback(tmp_path: Path) -> None:
    (tmp_path / "change.diff").write_text(DIFF)
    with serving(scripted({"m1": {"form": verdict("m1")}})) as server:
        result = tribunal_cli(
            "council",
            "--diff",
            "change.diff",
            "--member",
            f"ollama:m1@{server.url}",
            "--member",
            f"openai:m2@{UNROUTABLE}",
            cwd=tmp_path,
        )
    assert result.returncode == 0, result.stderr
    assert server.requests == []
    assert "Phase 1 of 4 (Form)" in result.stdout
    assert "not sent: http://10.255.255.1:9 (m2)" in result.stderr


# -- redaction ------------------------------------------------------------------

SECRETS = {
    "private-key": "+-----BEGIN OPENSSH PRIVATE KEY-----\n+b3BlbnNzaC1rZXk=\n"
    "+-----END OPENSSH PRIVATE KEY-----\n",
    "aws-access-key": '+key = "AKIAIOSFODNN7EXAMPLE"\n',
    "aws-secret-key": "+aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\n",
    "github-token": "+GH = 'ghp_" + "A" * 36 + "'\n",
    "slack-token": "+SLACK = 'xoxb-123456789012-abcdefABCDEF'\n",
    "slack-webhook": "+URL = 'https://hooks.slack.com/services/T000/B000/XXXXXXXX'\n",
    "openai-key": "+OPENAI = 'sk-proj-" + "x1" * 20 + "'\n",
    "jwt": "+t = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJlc2ln'\n",
}


@pytest.mark.parametrize("kind", sorted(SECRETS))
def test_each_well_known_secret_format_is_redacted(kind: str) -> None:
    diff = f"diff --git a/x.py b/x.py\n--- a/x.py\n+++ b/x.py\n@@ -0,0 +1,3 @@\n{SECRETS[kind]}"
    result = redact(diff)
    assert result.kinds == {kind: 1}
    assert f"[REDACTED:{kind}]" in result.text
    secret_body = SECRETS[kind].split("=")[-1].strip(" '\"\n")[:12]
    assert secret_body not in result.text.replace(f"[REDACTED:{kind}]", "")


def test_every_value_of_a_dotenv_file_is_redacted_but_names_stay() -> None:
    diff = (
        "diff --git a/config/.env.local b/config/.env.local\n"
        "--- a/config/.env.local\n+++ b/config/.env.local\n@@ -1,2 +1,3 @@\n"
        " DATABASE_URL=postgres://u:hunter2@db/app\n-OLD_TOKEN=abc\n+NEW_TOKEN=def\n"
        "+# a comment = not a value\n"
        "diff --git a/app.py b/app.py\n--- a/app.py\n+++ b/app.py\n@@ -1 +1 @@\n"
        "-TIMEOUT=3\n+TIMEOUT=4\n"
    )
    result = redact(diff)
    assert result.kinds == {"env-value": 3}
    assert "hunter2" not in result.text and "=abc" not in result.text
    assert "DATABASE_URL=[REDACTED:env-value]" in result.text
    assert "+TIMEOUT=4" in result.text  # not a dotenv file


@pytest.mark.parametrize(
    "clean",
    [
        "+import sklearn as sk-learn\n",
        "+risk-assessment-configuration-manager = 1\n",
        "+sha = 'da39a3ee5e6b4b0d3255bfef95601890afd80709'\n",
        "+AKIA_PREFIX = 'AKIA'\n",
        "+payload = 'eyJhbGciOiJIUzI1NiJ9'\n",
        "+-- a SQL comment\n",
        "+password = os.environ['DB_PASSWORD']\n",
    ],
)
def test_look_alikes_are_left_alone(clean: str) -> None:
    diff = f"diff --git a/x.py b/x.py\n--- a/x.py\n+++ b/x.py\n@@ -0,0 +1 @@\n{clean}"
    result = redact(diff)
    assert (result.count, result.text) == (0, diff)


def test_a_removed_line_that_looks_like_a_header_does_not_switch_files() -> None:
    diff = (
        "diff --git a/.env b/.env\n--- a/.env\n+++ b/.env\n@@ -1,2 +1 @@\n"
        "--- comment =x\n-KEY=secret-value\n"
    )
    assert "secret-value" not in redact(diff).text
