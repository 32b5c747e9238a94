"""The suite lens: the project's own test command, on the pushed commit, with a timeout.

PASS when it exits 0. ERROR otherwise, saying which of three things happened
(it failed, it could not start, it timed out) with the tail of its output: a
failing suite blocks the push (ERROR is not a verified pass) but is not a
syntactic certainty, so it is never CONTRADICTED.

The command runs in a throwaway repository of its own (``suiterepo``), so
nothing it does to git reaches the user's repository, under a small dedicated
supervisor process (``worktree/supervisor.py``) that reaps only its own
descendants and, when the command exits, times out or the push is interrupted,
stops every process the command left running. This process never waits for
"any child" and never becomes a subreaper: it waits for the supervisor alone.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from tribunal.worktree import supervisor
from tribunal.worktree.sandbox import Sandbox

DEFAULT_TIMEOUT = 900.0
TAIL_LINES = 30
TAIL_BYTES = 4000
GRACE = 2.0  # seconds between SIGTERM and SIGKILL for what the suite leaves running
_SUPERVISOR_MARGIN = 10.0  # past GRACE and the supervisor's own give-up time
_NOT_FOUND = (126, 127)  # the shell's "cannot execute" / "command not found"
#: How long the lens may take to end once stopped: the build under way, the supervisor's
#: own bound (``_stop``), then removing the repository; with room for a loaded machine.
SUITE_STOPS_WITHIN = GRACE + supervisor.GIVE_UP_AFTER_KILL + _SUPERVISOR_MARGIN + 30.0


@dataclass(frozen=True)
class SuiteResult:
    passed: bool
    what: str  # "passed", "failed", "could not start", "timed out", "stopped"
    detail: str  # one line for people
    tail: str  # the end of the command's output
    leftovers: int = 0  # processes still running when it ended, stopped by the supervisor


def run_on_commit(command: str, box: Sandbox, timeout: float, stop: threading.Event) -> SuiteResult:
    """Run ``command`` on the sandbox's commit, in a throwaway repository of its own."""
    from tribunal.worktree.suiterepo import SuiteRepoError, suite_repository

    if stop.is_set():  # stopped before it began: make nothing
        return SuiteResult(False, "stopped", "stopped", "")
    try:
        with suite_repository(box.source, box.common_dir, box.commit) as repo:
            if stop.is_set():
                return SuiteResult(False, "stopped", "stopped", "")
            return run_suite(command, repo.path, repo.env, timeout, stop)
    except SuiteRepoError as exc:
        return SuiteResult(False, "could not start", f"no repository for the suite: {exc}", "")


def run_suite(
    command: str, cwd: Path, env: Mapping[str, str], timeout: float, stop: threading.Event
) -> SuiteResult:
    """Run ``command`` through the shell in ``cwd``; give up after ``timeout`` s or on ``stop``."""
    with tempfile.TemporaryFile() as out:
        read_end, write_end = os.pipe()
        try:
            proc = subprocess.Popen(
                supervised(command, write_end),
                cwd=cwd,
                env=dict(env),
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
                pass_fds=(write_end,),
            )
        except OSError as exc:
            os.close(read_end)
            return SuiteResult(False, "could not start", f"{command!r}: {exc}", "")
        finally:
            os.close(write_end)
        with open(read_end, "rb") as status:
            ended = _wait(proc, timeout, stop, status)
            report = _Report.parse(status.read())
        tail = _tail(out)
    return _result(command, timeout, report, tail, stopped_by=None if ended else _why(stop))


def supervised(command: str, status_fd: int) -> list[str]:
    """The supervisor's command line for ``sh -c command``, reporting to ``status_fd``."""
    return [
        sys.executable,
        "-I",  # no user site, no PYTHON* variables, not even the current directory on the path
        "-S",
        str(Path(supervisor.__file__).resolve()),
        str(status_fd),
        str(os.getpid()),
        str(GRACE),
        "--",
        "/bin/sh",
        "-c",
        command,
    ]


@dataclass(frozen=True)
class _Report:
    """What the supervisor wrote: the command's pid and how it ended."""

    started: int | None
    outcome: str | None  # "exit 3", "signal 9", "stopped", "error <why>"; None if it said nothing
    killed: int

    @classmethod
    def parse(cls, raw: bytes) -> _Report:
        started, outcome, killed = None, None, 0
        for line in raw.decode("utf-8", "replace").splitlines():
            word, _, rest = line.partition(" ")
            if word == "started" and rest.isdigit():
                started = int(rest)
            elif word == "error":
                outcome = line
            elif " killed " in line:  # "exit 3 killed 0", "signal 9 killed 1", "stopped killed 2"
                outcome, _, count = line.rpartition(" killed ")
                killed = int(count) if count.isdigit() else 0
        return cls(started, outcome, killed)


def _why(stop: threading.Event) -> str:
    return "stopped" if stop.is_set() else "timed out"


def _result(
    command: str, timeout: float, report: _Report, tail: str, stopped_by: str | None
) -> SuiteResult:
    outcome, killed = report.outcome or "", report.killed
    plural = "es" if killed != 1 else ""
    if stopped_by is not None:
        detail = f"{command!r} timed out after {timeout:.0f} s" if stopped_by == "timed out" else ""
        ended = f"; stopped its {killed} process{plural}" if killed else ""
        return SuiteResult(False, stopped_by, (detail or "stopped") + ended, tail, killed)
    left = f"; stopped {killed} process{plural} it left running" if killed else ""
    word, _, value = outcome.partition(" ")
    if word == "exit" and value == "0":
        return SuiteResult(True, "passed", f"{command!r} exited 0{left}", tail, killed)
    if word == "exit" and value.isdigit() and int(value) in _NOT_FOUND:
        return SuiteResult(False, "could not start", f"{command!r} exited {value}", tail, killed)
    if word == "exit":
        return SuiteResult(
            False, "failed", f"{command!r} failed (exit {value}){left}", tail, killed
        )
    if word == "signal" and value.isdigit():
        name = _signal_name(int(value))
        return SuiteResult(False, "failed", f"{command!r} was killed by {name}{left}", tail, killed)
    why = value if word == "error" else "the supervisor ended without a report"
    return SuiteResult(False, "could not start", f"{command!r}: {why}", tail, killed)


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


def _wait(
    proc: subprocess.Popen[bytes], timeout: float, stop: threading.Event, status: IO[bytes]
) -> bool:
    """Wait for the supervisor; on timeout or ``stop``, have it stop everything. True if the
    command ended by itself."""
    deadline = time.monotonic() + timeout
    try:
        while True:
            try:
                proc.wait(timeout=0.1)
                return True
            except subprocess.TimeoutExpired:
                if stop.is_set() or time.monotonic() >= deadline:
                    _stop(proc, status)
                    return False
    except BaseException:
        _stop(proc, status)
        raise


def _stop(proc: subprocess.Popen[bytes], status: IO[bytes]) -> None:
    """SIGTERM to the supervisor, which stops the command's processes; SIGKILL if it hangs."""
    with contextlib.suppress(ProcessLookupError):
        proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(timeout=GRACE + supervisor.GIVE_UP_AFTER_KILL + _SUPERVISOR_MARGIN)
        return
    except subprocess.TimeoutExpired:
        pass
    with contextlib.suppress(ProcessLookupError):
        proc.kill()
    proc.wait()
    with contextlib.suppress(OSError):  # the command's group, all the supervisor left us
        started = _Report.parse(status.read()).started
        if started is not None:
            os.killpg(started, signal.SIGKILL)


def _tail(handle: IO[bytes]) -> str:
    handle.seek(0, os.SEEK_END)
    size = handle.tell()
    handle.seek(max(0, size - TAIL_BYTES * 4))
    text = handle.read().decode("utf-8", "replace")
    lines = text.splitlines()[-TAIL_LINES:]
    return "\n".join(lines)[-TAIL_BYTES:]
