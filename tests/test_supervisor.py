"""The suite's supervisor: the command's real exit status, and nothing it started left running
(a ``setsid`` background child, a double-forked daemon) after it exits, times out, is stopped,
or its convene is killed outright."""

from __future__ import annotations

import ctypes
import os
import shlex
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import pytest

from tests.hooktools import LEAVE_BEHIND, all_gone, left_behind, wait_for
from tribunal.hooks.suite import SuiteResult, run_suite, supervised

linux_only = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="setsid(1) and the subreaper are Linux-only"
)
PR_GET_CHILD_SUBREAPER = 37


@pytest.fixture
def work(tmp_path: Path) -> Path:
    (tmp_path / "leave.sh").write_text(LEAVE_BEHIND)
    return tmp_path


def suite(
    command: str, work: Path, timeout: float = 120, stop: threading.Event | None = None
) -> SuiteResult:
    return run_suite(command, work, dict(os.environ), timeout, stop or threading.Event())


@linux_only
@pytest.mark.parametrize("code", [0, 5])
def test_what_the_command_left_running_is_stopped_when_it_exits(work: Path, code: int) -> None:
    result = suite(f'sh leave.sh "$PWD"; echo done; exit {code}', work)
    assert result.passed is (code == 0)
    assert result.what == ("passed" if code == 0 else "failed")
    assert result.leftovers == 2
    assert "stopped 2 processes it left running" in result.detail
    assert code == 0 or f"(exit {code})" in result.detail
    assert result.tail == "done"
    assert all_gone(left_behind(work))


@linux_only
def test_leftovers_are_stopped_on_timeout(work: Path) -> None:
    result = suite('sh leave.sh "$PWD"; exec sleep 120', work, timeout=8)
    assert result.what == "timed out" and not result.passed
    assert "timed out after 8 s" in result.detail
    assert result.leftovers >= 3  # the command's own process and the two it left
    assert all_gone(left_behind(work))


@linux_only
def test_leftovers_are_stopped_when_the_convene_stops_the_suite(work: Path) -> None:
    stop = threading.Event()
    threading.Thread(
        target=lambda: (wait_for(lambda: (work / "daemon.pid").exists(), 60), stop.set()),
        daemon=True,
    ).start()
    result = suite('sh leave.sh "$PWD"; exec sleep 120', work, stop=stop)
    assert result.what == "stopped" and not result.passed
    assert all_gone(left_behind(work))


RUNNER = textwrap.dedent(
    """
    import os, sys, threading
    from pathlib import Path
    from tribunal.hooks.suite import run_suite
    work = Path(sys.argv[1])
    run_suite('sh leave.sh "$PWD"; exec sleep 120', work, dict(os.environ), 120, threading.Event())
    """
)


@linux_only
def test_leftovers_are_stopped_when_the_convene_is_killed(work: Path) -> None:
    runner = subprocess.Popen([sys.executable, "-c", RUNNER, str(work)])
    try:
        wait_for(lambda: (work / "daemon.pid").exists(), 60, "the suite to start")
    finally:
        runner.kill()
        runner.wait()
    pids = left_behind(work)
    wait_for(lambda: all_gone(pids), 30, "the supervisor to stop what the suite left")


def test_the_exit_status_is_the_commands_own(work: Path) -> None:
    late = suite("(sleep 0.3; exit 0) & exit 3", work)
    assert late.what == "failed" and "(exit 3)" in late.detail
    killed = suite("kill -SEGV $$", work)
    assert killed.what == "failed" and "killed by SIGSEGV" in killed.detail
    missing = suite("no-such-command-here", work)
    assert missing.what == "could not start" and "exited 127" in missing.detail


def test_a_command_that_cannot_be_spawned_is_reported(tmp_path: Path) -> None:
    read_end, write_end = os.pipe()
    argv = supervised("true", write_end)
    argv[argv.index("/bin/sh")] = str(tmp_path / "no-such-shell")
    proc = subprocess.run(argv, pass_fds=(write_end,), capture_output=True, check=False)
    os.close(write_end)
    with open(read_end, "rb") as status:
        report = status.read().decode()
    assert proc.returncode == 0, proc.stderr
    assert report.startswith("error ") and "no-such-shell" in report


@linux_only
def test_the_convene_never_becomes_a_subreaper_nor_steals_other_threads_children(
    work: Path,
) -> None:
    results = []
    runner = threading.Thread(
        target=lambda: results.append(suite('sh leave.sh "$PWD"; sleep 1; exit 4', work))
    )
    runner.start()
    codes = []
    while runner.is_alive() or not codes:
        codes.append(subprocess.run(["sh", "-c", "exit 7"], check=False).returncode)
    runner.join()
    assert set(codes) == {7}
    assert results[0].what == "failed" and "(exit 4)" in results[0].detail
    libc = ctypes.CDLL(None, use_errno=True)
    flag = ctypes.c_int(-1)
    assert libc.prctl(PR_GET_CHILD_SUBREAPER, ctypes.byref(flag), 0, 0, 0) == 0
    assert flag.value == 0
    assert all_gone(left_behind(work))


@linux_only
def test_a_stopped_leftover_is_stopped_too(work: Path) -> None:
    result = suite('sh leave.sh "$PWD"; kill -STOP $(cat setsid.pid); exit 0', work)
    assert result.passed and result.leftovers == 2
    assert all_gone(left_behind(work))


def test_sigpipe_is_the_default_again_for_the_command(work: Path) -> None:
    # Python ignores SIGPIPE; under an ignored SIGPIPE `yes` would report a broken pipe.
    result = suite("yes | head -1 > /dev/null", work)
    assert result.passed and result.tail == ""


@linux_only
def test_a_leftover_that_ignores_sigterm_is_killed(work: Path) -> None:
    stubborn = "trap '' TERM; echo $$ > stubborn.pid; exec sleep 300"
    command = (
        f"setsid sh -c {shlex.quote(stubborn)} & while [ ! -s stubborn.pid ]; do sleep 0.05; done"
    )
    result = suite(command, work)
    assert result.passed and result.leftovers == 1
    assert all_gone([int((work / "stubborn.pid").read_text())])
