"""The exit status is the decision whatever happens to the output (issue 13, case 4).

Every hook path, ``check --hard-fail`` and ``verify-pushes`` run with stdout
and stderr closed, with a pipe whose reader is gone before the first write
(EPIPE: the ``| true`` of the issue, deterministic), behind a real ``| head``,
and writing to a full disk (``/dev/full``): a block stays a block, and a pass
stays a pass.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

from tests import hookscenarios as sc
from tests import test_hooks_precommit
from tests.gitrepo import GitRepo
from tests.hooktools import ASSERTION_FREE_TEST, GOOD_TEST, UserRepo, state

framework = test_hooks_precommit.framework

Output = Callable[[Sequence[str], Path, dict[str, str]], int]


def closed(argv: Sequence[str], cwd: Path, env: dict[str, str]) -> int:
    """stdout and stderr closed (``cmd >&- 2>&-``)."""
    script = 'exec "$@" >&- 2>&-'
    return _run(["sh", "-c", script, "sh", *argv], cwd, env)


def reader_gone(argv: Sequence[str], cwd: Path, env: dict[str, str]) -> int:
    """Both on a pipe whose reader has already exited: every write fails with EPIPE."""
    read, write = os.pipe()
    os.close(read)
    try:
        return _run(argv, cwd, env, stdout=write, stderr=write)
    finally:
        os.close(write)


def head_one(argv: Sequence[str], cwd: Path, env: dict[str, str]) -> int:
    """``cmd 2>&1 | head -1``, the status of ``cmd`` (pipefail)."""
    script = '"$@" 2>&1 | head -1 >/dev/null; exit "${PIPESTATUS[0]}"'
    return _run(["bash", "-c", script, "bash", *argv], cwd, env)


def full_disk(argv: Sequence[str], cwd: Path, env: dict[str, str]) -> int:
    with open("/dev/full", "w") as full:
        return _run(argv, cwd, env, stdout=full.fileno(), stderr=full.fileno())


def _run(
    argv: Sequence[str], cwd: Path, env: dict[str, str], stdout: int | None = None,
    stderr: int | None = None,
) -> int:
    proc = subprocess.run(
        list(argv),
        cwd=cwd,
        env={**os.environ, **env},
        stdin=subprocess.DEVNULL,
        stdout=stdout if stdout is not None else subprocess.DEVNULL,
        stderr=stderr if stderr is not None else subprocess.DEVNULL,
        timeout=300,
        check=False,
    )
    return proc.returncode


OUTPUTS: dict[str, Output] = {
    "closed": closed,
    "reader-gone": reader_gone,
    "head-1": head_one,
    "full-disk": full_disk,
}


@pytest.fixture(params=list(OUTPUTS))
def output(request: pytest.FixtureRequest) -> Output:
    return OUTPUTS[str(request.param)]


@pytest.fixture(params=test_hooks_precommit.KINDS)
def user(request: pytest.FixtureRequest, tmp_path: Path) -> UserRepo:
    return test_hooks_precommit.user_of_kind(request.param, request, tmp_path)


def under_framework(user: UserRepo) -> bool:
    return "PRE_COMMIT_HOME" in user.env


def normal(argv: Sequence[str], cwd: Path, env: dict[str, str]) -> int:
    return _run(argv, cwd, env)


def test_a_blocked_push_stays_blocked(user: UserRepo, output: Output) -> None:
    base = user.git("rev-parse", "HEAD")
    user.commit(sc.BAD, "bad")
    before = state(user.path)
    push = ["git", "push", "-q", "origin", "main"]
    assert normal(push, user.path, user.env) != 0  # the control: output intact
    assert output(push, user.path, user.env) != 0
    assert user.remote_sha("main") == base
    assert state(user.path) == before
    user.git("reset", "-q", "--hard", base)
    good = user.commit(sc.GOOD, "good")
    # A pass stays a pass with the plain hooks. pre-commit fails closed by itself when
    # it cannot print its own report, so under it only the intact output is a control.
    passes = normal if under_framework(user) else output
    assert passes(push, user.path, user.env) == 0
    assert user.remote_sha("main") == good


def test_a_blocked_commit_stays_blocked(user: UserRepo, output: Output) -> None:
    head = user.git("rev-parse", "HEAD")
    user.repo.write(sc.BAD)
    user.git("add", "-A")
    assert output(["git", "commit", "-q", "-m", "bad"], user.path, user.env) != 0
    assert user.git("rev-parse", "HEAD") == head
    assert normal(["git", "commit", "-q", "-m", "bad"], user.path, user.env) != 0  # control
    assert user.git("rev-parse", "HEAD") == head
    user.git("reset", "-q", "--hard")
    user.git("clean", "-fdq", "tests")
    user.repo.write(sc.GOOD)
    user.git("add", "-A")
    passes = normal if under_framework(user) else output
    assert passes(["git", "commit", "-q", "-m", "good"], user.path, user.env) == 0
    assert user.git("rev-parse", "HEAD~1") == head


def test_check_hard_fail_and_verify_pushes_keep_their_status(
    repo: GitRepo, output: Output
) -> None:
    base = repo.commit({"calc.py": "def add(a, b):\n    return a + b\n"}, "base")
    bad = repo.commit({"tests/test_calc.py": ASSERTION_FREE_TEST}, "bad")
    tribunal = [sys.executable, "-m", "tribunal"]
    check = [*tribunal, "check", "--base", base, "--head", bad]
    assert output([*check, "--hard-fail"], repo.path, {}) == 1
    assert output(check, repo.path, {}) == 0  # report-only stays report-only
    verify = [*tribunal, "verify-pushes", "--base", base, "--head", bad]
    assert output(verify, repo.path, {}) == 1
    good = repo.commit({"tests/test_calc.py": GOOD_TEST}, "fixed")
    assert output([*tribunal, "verify-pushes", "--base", bad, "--head", good], repo.path, {}) == 0
