"""Signals at any moment of a convene (issue 13): nothing left behind, no traceback, 128+N.

Real processes get real signals: ``tribunal convene`` is started in its own
session and its whole group is signalled, as a terminal would, while the
suite lens runs (the lenses), right after the worktree exists (its creation),
twice in a row (Ctrl-C, then the terminal closing), and at the moments the
convene starts and stops the suite lens's thread, which makes and removes a
repository of its own.
"""

from __future__ import annotations

import shlex
import signal
import sys
from pathlib import Path

import pytest

from tests import hookscenarios as sc
from tests.hooktools import (
    UserRepo,
    group_gone,
    kill_pid_file,
    no_locks_left,
    signal_group,
    start,
    wait_for,
)


@pytest.fixture
def user(tmp_path: Path) -> UserRepo:
    return sc.make_user(tmp_path, lambda u: None)


def convene(user: UserRepo) -> list[str]:
    return [sys.executable, "-m", "tribunal", "convene", "--ref", "HEAD"]


def held_convene(
    user: UserRepo, tmp_path: Path, argv: list[str] | None = None
) -> tuple[object, Path]:
    pid_file = tmp_path / "suite.pid"
    command = f"echo $$ > {shlex.quote(str(pid_file))}; exec sleep 60"
    sc.set_remote_config(user, sc.suite_config(command))
    user.commit(sc.GOOD, "good")
    proc = start(user.path, argv or convene(user), user.env)
    wait_for(lambda: len(user.worktrees()) > 1 and pid_file.exists(), what="the suite lens")
    return proc, pid_file


def finish(user: UserRepo, proc: object, pid_file: Path) -> tuple[int, str]:
    try:
        out, _ = proc.communicate(timeout=60)  # type: ignore[attr-defined]
    finally:
        kill_pid_file(pid_file)
    left_nothing(user, proc)
    return proc.returncode, out  # type: ignore[attr-defined]


def left_nothing(user: UserRepo, proc: object) -> None:
    """No worktree, sandbox, lock, half-written summary or process of the convene is left."""
    wait_for(lambda: user.worktrees() == [str(user.path)], timeout=30, what="cleanup")
    sc.no_sandboxes_left(user)
    no_locks_left(user.path)
    runs = user.path / ".git" / "tribunal" / "runs"
    half_written = [p.name for p in runs.rglob(".*")] if runs.exists() else []
    assert half_written == []
    wait_for(lambda: group_gone(proc), timeout=30, what="the convene's processes")  # type: ignore[arg-type]


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP])
def test_a_signal_during_the_lenses(user: UserRepo, tmp_path: Path, sig: signal.Signals) -> None:
    proc, pid_file = held_convene(user, tmp_path)
    signal_group(proc, sig)  # type: ignore[arg-type]
    code, out = finish(user, proc, pid_file)
    assert code == 128 + sig, out
    assert "Traceback" not in out and "tribunal: error: interrupted" in out


#: ``tribunal convene`` noting in the file ``argv[1]`` each signal its handler has taken:
#: the test sends the second signal only once the first was handled (two pending at once
#: are handled lowest number first, whatever order they were sent in).
NOTING_HANDLED_SIGNALS = """
import sys
from tribunal.cli import main
from tribunal.worktree import signals
real_raise = signals._raise
def noting_raise(signum, frame):
    try:
        real_raise(signum, frame)
    finally:
        with open(sys.argv[1], "a") as handled:
            handled.write(f"{signum}\\n")
signals._raise = noting_raise
sys.exit(main(["convene", "--ref", "HEAD"]))
"""


@pytest.mark.parametrize(
    "first,second", [(signal.SIGINT, signal.SIGHUP), (signal.SIGHUP, signal.SIGTERM)]
)
def test_a_second_signal_while_unwinding(
    user: UserRepo, tmp_path: Path, first: signal.Signals, second: signal.Signals
) -> None:
    handled = tmp_path / "handled"
    argv = [sys.executable, "-c", NOTING_HANDLED_SIGNALS, str(handled)]
    proc, pid_file = held_convene(user, tmp_path, argv)
    signal_group(proc, first)  # type: ignore[arg-type]
    wait_for(lambda: handled.exists() and handled.read_text() != "", what="the first signal")
    assert handled.read_text().split() == [str(int(first))]
    signal_group(proc, second)  # type: ignore[arg-type]
    code, out = finish(user, proc, pid_file)
    assert code == 128 + first, out
    assert "Traceback" not in out and "release unlocked lock" not in out


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP])
def test_a_signal_as_the_worktree_is_made(
    user: UserRepo, tmp_path: Path, sig: signal.Signals
) -> None:
    sc.set_remote_config(user, sc.suite_config("exit 0"))
    user.commit(sc.GOOD, "good")
    proc = start(user.path, convene(user), user.env)
    wait_for(lambda: len(user.worktrees()) > 1, what="the worktree", timeout=60)
    signal_group(proc, sig)  # type: ignore[arg-type]
    out, _ = proc.communicate(timeout=60)
    left_nothing(user, proc)
    assert "Traceback" not in out
    assert proc.returncode in (0, 128 + sig), out  # it may have finished first


#: ``tribunal convene``, with a real signal sent to its group (as a terminal would) from
#: inside ``os.fsync`` of the summary's temporary file: the moment it is half written.
SIGNAL_IN_SUMMARY_WRITE = """
import os, signal, sys
from tribunal.cli import main
real_fsync = os.fsync
def fsync(fd):
    real_fsync(fd)
    if "/tribunal/runs/" in os.readlink(f"/proc/self/fd/{fd}"):
        print("signalled in the summary write", flush=True)
        os.killpg(0, int(sys.argv[1]))
os.fsync = fsync
sys.exit(main(["convene", "--ref", "HEAD"]))
"""


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP])
def test_a_signal_while_the_summary_is_written(
    user: UserRepo, tmp_path: Path, sig: signal.Signals
) -> None:
    user.commit(sc.BAD, "bad")
    signalled(user, SIGNAL_IN_SUMMARY_WRITE, sig, "signalled in the summary write")
    assert user.summaries() == []  # the temporary file went, and no summary was made of it


#: Patches for ``tribunal convene`` (before ``main`` runs) that make the suite lens's thread
#: wait, where a test calls ``wait_for_the_convene()``, until the convene has handled a
#: signal and then waits for that thread (``join``). A convene that exits under the thread
#: instead leaves the thread's directory behind every time, not once in a dozen runs.
WAITED_FOR = """
import os, sys, tempfile, threading
from tribunal.cli import main
from tribunal.worktree import signals, suiterepo
handled, joined = threading.Event(), threading.Event()
real_raise, real_join = signals._raise, threading.Thread.join
def noting_raise(signum, frame):
    try:
        real_raise(signum, frame)
    finally:
        handled.set()
def join(self, timeout=None):
    if handled.is_set() and self.name.endswith("(_each)"):
        joined.set()
    real_join(self, timeout)
def wait_for_the_convene():
    handled.wait(60) and joined.wait(60)
signals._raise = noting_raise
threading.Thread.join = join
"""

#: The signal as the members start: the suite lens's thread has made its directory and
#: the convene is still starting the other threads (a thread's ``start`` waits for it).
SIGNAL_AS_THE_MEMBERS_START = (
    WAITED_FOR
    + """
made = threading.Event()
real_mkdtemp, real_start = tempfile.mkdtemp, threading.Thread.start
def mkdtemp(*args, **kwargs):
    path = real_mkdtemp(*args, **kwargs)
    if (kwargs.get("prefix") or "").startswith("tribunal-suite-"):
        made.set()
        wait_for_the_convene()
    return path
def start(self):
    real_start(self)
    if self.name.endswith("(_each)") and made.wait(60):
        print("signalled as the members start", flush=True)
        os.killpg(0, int(sys.argv[1]))
tempfile.mkdtemp = mkdtemp
threading.Thread.start = start
sys.exit(main(["convene", "--ref", "HEAD"]))
"""
)


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP])
def test_a_signal_as_the_members_start(user: UserRepo, sig: signal.Signals) -> None:
    sc.set_remote_config(user, sc.suite_config("exit 0"))
    user.commit(sc.GOOD, "good")
    signalled(user, SIGNAL_AS_THE_MEMBERS_START, sig, "signalled as the members start")


#: The signal as the convene stops the members, its time budget spent: it has just stopped
#: the suite lens (which is about to remove its repository) and is killing the analyzers'
#: child, and it has still to wait for the suite lens's thread.
SIGNAL_AS_THE_MEMBERS_STOP = (
    WAITED_FOR
    + """
from tribunal.hooks.analyzer_child import AnalyzerChild
real_kill, real_remove = AnalyzerChild.kill, suiterepo.remove_tree
def kill(self):
    if not handled.is_set():
        print("signalled as the members stop", flush=True)
        os.killpg(0, int(sys.argv[1]))
    real_kill(self)
def remove_tree(path):
    wait_for_the_convene()
    real_remove(path)
AnalyzerChild.kill = kill
suiterepo.remove_tree = remove_tree
sys.exit(main(["convene", "--ref", "HEAD"]))
"""
)


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP])
def test_a_signal_as_the_members_stop(user: UserRepo, sig: signal.Signals) -> None:
    sc.set_remote_config(user, sc.suite_config("exec sleep 60") + "convene:\n  timeout: 1\n")
    user.commit(sc.GOOD, "good")
    signalled(user, SIGNAL_AS_THE_MEMBERS_STOP, sig, "signalled as the members stop")


def signalled(user: UserRepo, script: str, sig: signal.Signals, said: str) -> None:
    """Run ``python -c script sig``, which signals its own group as it prints ``said``:
    it must end with 128 + sig, no traceback, and nothing left behind."""
    proc = start(user.path, [sys.executable, "-c", script, str(int(sig))], user.env)
    out, _ = proc.communicate(timeout=120)
    assert said in out, out
    assert proc.returncode == 128 + sig, out
    assert "Traceback" not in out
    left_nothing(user, proc)
