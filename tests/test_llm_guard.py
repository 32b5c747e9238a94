"""The send guard (seed 001) and secret redaction: what may leave the machine, and how."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from tests.gitrepo import GitRepo
from tests.llm_council_script import DIFF, scripted, verdict
from tests.llm_server import serving, tribunal_cli
from tribunal.git.cmd import Git
from tribunal.llm.guard import is_loopback, refused, send_allowed, user_allows_sending
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
    assert refused([remote, local], send_allowed(False, {})) == [remote, local]
    assert refused([local], send_allowed(False, {})) == [local]  # loopback is no proof
    assert refused([remote, local], send_allowed(True, {})) == []
    assert refused([remote], send_allowed(False, {"TRIBUNAL_ALLOW_SEND_DIFF": "1"})) == []
    assert refused([local], send_allowed(False, {"TRIBUNAL_ALLOW_SEND_DIFF": "0"})) == [local]


def propose_args(url: str) -> tuple[str, ...]:
    return ("propose", "--diff", "change.diff", "--provider", "ollama", "--endpoint", url)


def test_propose_refuses_a_loopback_endpoint_until_sending_is_allowed(tmp_path: Path) -> None:
    (tmp_path / "change.diff").write_text(DIFF)
    reply = {"claims": ["added-test"]}
    with serving(scripted({"m": {"propose": reply}})) as server:
        args = (*propose_args(server.url), "--model", "m", "--out", "claims.md")
        held = tribunal_cli(*args, cwd=tmp_path)
        assert held.returncode == 0, held.stderr
        assert server.requests == []
        assert not (tmp_path / "claims.md").exists()
        assert f"tribunal: would send to:\n  {server.url} (model m)" in held.stdout
        assert "raise RefundError" in held.stdout  # the diff, for review
        assert held.stderr.startswith(f"tribunal: not sent to {server.url} (m): ")
        assert "a loopback URL may forward to a hosted model" in held.stderr
        assert "--allow-send-diff or set TRIBUNAL_ALLOW_SEND_DIFF=1" in held.stderr
        flagged = tribunal_cli(*args, "--allow-send-diff", cwd=tmp_path)
        assert flagged.returncode == 0, flagged.stderr
        assert len(server.requests) == 1
        by_env = tribunal_cli(*args[:-2], cwd=tmp_path, env={"TRIBUNAL_ALLOW_SEND_DIFF": "1"})
        assert by_env.returncode == 0, by_env.stderr
        assert len(server.requests) == 2
    assert (tmp_path / "claims.md").read_text() == "```tribunal-proposed\nadded-test\n```\n"
    assert by_env.stdout == "```tribunal-proposed\nadded-test\n```\n"


def test_propose_without_permission_never_connects(tmp_path: Path) -> None:
    (tmp_path / "change.diff").write_text(DIFF)
    started = time.monotonic()
    result = tribunal_cli(
        *propose_args(UNROUTABLE), "--model", "m", "--timeout", "20", "--retries", "0", cwd=tmp_path
    )
    assert result.returncode == 0, result.stderr
    assert time.monotonic() - started < 8  # a connection attempt would hang for the 20 s timeout
    assert "not sent to http://10.255.255.1:9 (m)" in result.stderr


def test_council_refuses_loopback_members_until_sending_is_allowed(tmp_path: Path) -> None:
    (tmp_path / "change.diff").write_text(DIFF)
    behaviour = {m: {"form": verdict(m)} for m in ("m1", "m2")}
    with serving(scripted(behaviour)) as server:
        args = (
            "council",
            "--diff",
            "change.diff",
            "--member",
            f"ollama:m1@{server.url}",
            "--member",
            f"openai:m2@{server.url}/v1",
        )
        held = tribunal_cli(*args, cwd=tmp_path)
        assert held.returncode == 0, held.stderr
        assert server.requests == []
        assert "Phase 1 of 4 (Form)" in held.stdout
        assert f"not sent to {server.url} (m1), {server.url}/v1 (m2)" in held.stderr
        sent = tribunal_cli(*args, "--allow-send-diff", cwd=tmp_path)
    assert sent.returncode == 0, sent.stderr
    assert {r.model for r in server.requests if r.phase == "form"} == {"m1", "m2"}
    assert sent.stdout.startswith("council (advisory; it never changes the gate): ")


def global_git(tmp_path: Path, *settings: str) -> dict[str, str]:
    """An environment whose per-user git config is a file of this test's own."""
    path = tmp_path / "user.gitconfig"
    path.write_text("".join(f"{line}\n" for line in settings))
    return {**os.environ, "GIT_CONFIG_GLOBAL": str(path)}


@pytest.mark.parametrize(
    ("settings", "allowed"),
    [
        (["[tribunal]", "allowSendDiff = true"], True),
        (["[tribunal]", "\tallowsenddiff = yes"], True),
        (["[tribunal]", "allowSendDiff = false"], False),
        (["[tribunal]", "allowSendDiff = maybe"], False),  # not a boolean: not allowed
        ([], False),
    ],
)
def test_the_convene_asks_the_users_own_git_config(
    repo: GitRepo, tmp_path: Path, settings: list[str], allowed: bool
) -> None:
    git = Git(repo.path, env=global_git(tmp_path, *settings))
    assert user_allows_sending(git, env={}) is allowed


def test_a_repositorys_config_cannot_allow_sending(repo: GitRepo, tmp_path: Path) -> None:
    repo.git("config", "tribunal.allowSendDiff", "true")  # .git/config: the repository's
    env = global_git(tmp_path)
    env["GIT_CONFIG_PARAMETERS"] = "'tribunal.allowSendDiff'='true'"  # git -c: not per-user
    assert user_allows_sending(Git(repo.path, env=env), env={}) is False
    assert user_allows_sending(Git(repo.path, env=env), env={"TRIBUNAL_ALLOW_SEND_DIFF": "1"})


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
