"""The suite lens: the project's own test command, run in the sandbox with a timeout.

PASS when it exits 0. ERROR otherwise, saying which of three things happened
(it failed, it could not start, it timed out) with the tail of its output: a
failing suite blocks the push (ERROR is not a verified pass) but is not a
syntactic certainty, so it is never CONTRADICTED. The command runs in its own
process group so that a timeout, Ctrl-C or the convene's time budget stops
everything it started.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import tempfile
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import IO

DEFAULT_TIMEOUT = 900.0
TAIL_LINES = 30
TAIL_BYTES = 4000
_NOT_FOUND = (126, 127)  # the shell's "cannot execute" / "command not found"


@dataclass(frozen=True)
class SuiteResult:
    passed: bool
    what: str  # "passed", "failed", "could not start", "timed out", "stopped"
    detail: str  # one line for people
    tail: str  # the end of the command's output


def run_suite(
    command: str, cwd: Path, env: Mapping[str, str], timeout: float, stop: threading.Event
) -> SuiteResult:
    """Run ``command`` through the shell in ``cwd``; give up after ``timeout`` s or on ``stop``."""
    with tempfile.TemporaryFile() as out:
        try:
            proc = subprocess.Popen(
                command,
                shell=True,
                cwd=cwd,
                env=dict(env),
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        except OSError as exc:
            return SuiteResult(False, "could not start", f"{command!r}: {exc}", "")
        code = _wait(proc, timeout, stop)
        tail = _tail(out)
    if code is None:
        what = "stopped" if stop.is_set() else "timed out"
        detail = f"{command!r} {what} after {timeout:.0f} s" if what == "timed out" else what
        return SuiteResult(False, what, detail, tail)
    if code == 0:
        return SuiteResult(True, "passed", f"{command!r} exited 0", tail)
    if code in _NOT_FOUND:
        return SuiteResult(False, "could not start", f"{command!r} exited {code}", tail)
    return SuiteResult(False, "failed", f"{command!r} failed (exit {code})", tail)


def _wait(proc: subprocess.Popen[bytes], timeout: float, stop: threading.Event) -> int | None:
    deadline = time.monotonic() + timeout
    try:
        while True:
            try:
                return proc.wait(timeout=0.1)
            except subprocess.TimeoutExpired:
                if stop.is_set() or time.monotonic() >= deadline:
                    _kill_group(proc)
                    return None
    except BaseException:
        _kill_group(proc)
        raise


def _kill_group(proc: subprocess.Popen[bytes]) -> None:
    for sig, grace in ((signal.SIGTERM, 2.0), (signal.SIGKILL, 5.0)):
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, sig)
        try:
            proc.wait(timeout=grace)
            return
        except subprocess.TimeoutExpired:
            continue


def _tail(handle: IO[bytes]) -> str:
    handle.seek(0, os.SEEK_END)
    size = handle.tell()
    handle.seek(max(0, size - TAIL_BYTES * 4))
    text = handle.read().decode("utf-8", "replace")
    lines = text.splitlines()[-TAIL_LINES:]
    return "\n".join(lines)[-TAIL_BYTES:]
