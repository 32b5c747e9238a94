"""The reference-transaction shim: it never breaks git, and starts Python only for pushes.

git runs the hook for every ref update; a non-zero exit at ``prepared`` aborts
the update. These tests install the real shim with a Python that is gone, one
that fails, and one that only leaves a mark, and drive real commits, checkouts,
fetches and pushes through it.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests import hookscenarios as sc
from tests.audittools import install_shim, log_records, render_shim, warnings
from tests.hooktools import ASSERTION_FREE_TEST, UserRepo

ZERO = "0" * 40
PUSHED = f"{ZERO} {'a' * 40} refs/remotes/origin/main\n"


def fake_python(tmp_path: Path, body: str) -> Path:
    script = tmp_path / "bin" / "python"
    script.parent.mkdir(parents=True, exist_ok=True)
    script.write_text(f"#!/bin/sh\n{body}\n")
    script.chmod(0o755)
    return script


def run_shim(
    tmp_path: Path, python: str, state: str, stdin: str
) -> subprocess.CompletedProcess[str]:
    hook = tmp_path / "reference-transaction"
    hook.write_text(render_shim(python))
    hook.chmod(0o755)
    return subprocess.run(
        [str(hook), state], input=stdin, capture_output=True, text=True, timeout=30, check=False
    )


@pytest.fixture
def user(tmp_path: Path) -> UserRepo:
    user = UserRepo.create(tmp_path / "work")
    user.commit({"a.py": "a = 1\n"}, "init")
    user.git("push", "-q", "-u", "origin", "main")
    return user


@pytest.mark.parametrize("state", ["prepared", "committed", "aborted", "preparing"])
def test_the_shim_exits_0_with_its_python_gone(tmp_path: Path, state: str) -> None:
    gone = tmp_path / "env" / "bin" / "python"
    result = run_shim(tmp_path, str(gone), state, PUSHED + f"{ZERO} {'b' * 40} HEAD\n")
    assert result.returncode == 0
    said = "is gone" in result.stderr
    assert said == (state == "committed"), result.stderr


def test_the_shim_exits_0_when_its_python_fails(tmp_path: Path) -> None:
    broken = fake_python(tmp_path, "cat >/dev/null; echo 'Traceback: boom' >&2; exit 3")
    for state in ("prepared", "committed"):
        result = run_shim(tmp_path, str(broken), state, PUSHED)
        assert result.returncode == 0
    assert "boom" in result.stderr  # what the Python said still reaches the user


def test_a_broken_or_missing_python_never_aborts_a_ref_update(
    user: UserRepo, tmp_path: Path
) -> None:
    colleague = tmp_path / "colleague"
    subprocess.run(["git", "clone", "-q", str(user.remote), str(colleague)], check=True)
    for n, python in enumerate(
        [str(tmp_path / "gone" / "python"), str(fake_python(tmp_path, "exit 1"))]
    ):
        install_shim(user, python)
        sha = user.commit({"a.py": f"a = {n + 2}\n"}, f"commit {n}")
        assert user.git("rev-parse", "HEAD") == sha
        user.git("checkout", "-q", "-b", f"side{n}")
        user.git("checkout", "-q", "main")
        subprocess.run(["git", "-C", str(colleague), "checkout", "-q", "-b", f"c{n}"], check=True)
        subprocess.run(["git", "-C", str(colleague), "push", "-q", "origin", f"c{n}"], check=True)
        user.git("fetch", "-q")
        assert user.git("rev-parse", f"origin/c{n}")
        result = user.run("push", "-q", "origin", "main")
        assert result.code == 0, sc.output(result)
        assert user.remote_sha("main") == sha


def test_python_starts_only_for_pushes(user: UserRepo, tmp_path: Path) -> None:
    mark = tmp_path / "started"
    install_shim(user, str(fake_python(tmp_path, f"cat >> '{mark}'")))
    colleague = tmp_path / "colleague"
    subprocess.run(["git", "clone", "-q", str(user.remote), str(colleague)], check=True)
    subprocess.run(
        ["git", "-C", str(colleague), "push", "-q", "origin", "HEAD:refs/heads/new"], check=True
    )
    user.commit({"b.py": "b = 1\n"}, "local")
    user.git("checkout", "-q", "-b", "topic")
    for step in (("fetch",), ("pull", "-q", "--no-rebase", "--no-edit", "origin", "main")):
        user.git(*step)
    assert not mark.exists() or sys.platform != "linux", mark.read_text()
    user.git("push", "-q", "origin", "topic")
    assert " refs/remotes/origin/topic" in mark.read_text()


def test_a_fetch_that_creates_a_ref_is_classified_by_its_reflog(
    user: UserRepo, tmp_path: Path
) -> None:
    """Where the shell cannot tell a fetch (no /proc), Python reads the reflog: no record."""
    colleague = tmp_path / "colleague"
    subprocess.run(["git", "clone", "-q", str(user.remote), str(colleague)], check=True)
    (colleague / "tests").mkdir()
    (colleague / "tests" / "test_c.py").write_text(ASSERTION_FREE_TEST)
    for args in (
        ("add", "-A"),
        ("commit", "-qm", "c"),
        ("push", "-q", "origin", "HEAD:refs/heads/c"),
    ):
        subprocess.run(["git", "-C", str(colleague), *args], check=True)
    assert user.repo.tribunal("install", "--audit-only").code == 0
    user.git("fetch", "-q")
    sha = user.git("rev-parse", "origin/c")
    line = f"{ZERO} {sha} refs/remotes/origin/c\n"
    result = user.repo.tribunal("hook", "reference-transaction", "committed", stdin=line)
    assert result.code == 0 and warnings(result) == [] and log_records(user) == []


def test_a_foreign_reference_transaction_hook_is_chained_and_decides_for_itself(
    user: UserRepo, tmp_path: Path
) -> None:
    seen = tmp_path / "seen"
    hook = user.path / ".git" / "hooks" / "reference-transaction"
    hook.write_text(f"#!/bin/sh\necho \"$1\" >> '{seen}'\ncat >> '{seen}'\n")
    hook.chmod(0o755)
    refused = user.repo.tribunal("install", "--audit-only")
    assert refused.code == 2 and "--force" in refused.stderr
    assert user.repo.tribunal("install", "--audit-only", "--force").code == 0
    sha = user.commit({"tests/test_x.py": ASSERTION_FREE_TEST}, "x")
    result = user.run("push", "--no-verify")
    assert result.code == 0 and len(warnings(result)) == 1
    assert f"committed\n{ZERO} {sha} refs/remotes/origin/main" in seen.read_text()
    assert [r["new"] for r in log_records(user)] == [sha]
    hook.with_name("reference-transaction.pre-tribunal").write_text(
        "#!/bin/sh\ncat >/dev/null\nexit 1\n"
    )
    blocked = user.run("commit", "-q", "--allow-empty", "--no-verify", "-m", "y")
    assert blocked.code != 0  # the chained hook's own "no" at prepared is kept
    assert os.access(hook, os.X_OK)


def test_the_fetch_benchmark_runs(capsys: pytest.CaptureFixture[str]) -> None:
    from bench import perf_fetch

    assert perf_fetch.main(["--runs", "2"]) == 0
    out = capsys.readouterr().out
    assert "one existing ref moves" in out and "one new ref arrives" in out
    assert "the hook adds at most" in out and "fewer than 15 runs" in out
