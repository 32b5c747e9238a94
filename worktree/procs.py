"""Is the process that owns a leftover worktree still running?

``kill(pid, 0)`` alone is not enough: a zombie still answers it, and a pid can be
reused by an unrelated process after ours died. So the owner records its pid
*and* a start-time token, and a leftover counts as alive only while a
non-zombie process with that pid and that start time exists. Linux answers from
``/proc``; macOS (no ``/proc``) from ``ps``.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

_DEAD_STATES = ("Z", "X")
PID_MAX = (1 << 31) - 1  # pid_t; nothing larger is a process (and os.kill would overflow)


def start_token(pid: int) -> str | None:
    """A string that differs between two processes that shared ``pid``; None if unknown."""
    fields = _proc_stat(pid)
    if fields is not None:
        return fields[19] if len(fields) > 19 else None  # field 22: starttime
    out = _ps(pid, "lstart=")
    return "-".join(out.split()) if out else None


def is_alive(pid: int, token: str | None = None) -> bool:
    """True while ``pid`` runs, is not a zombie and (when given) started at ``token``."""
    if not 0 < pid <= PID_MAX:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass  # it exists, owned by someone else
    if _state(pid) in _DEAD_STATES:
        return False
    if token is None:
        return True
    current = start_token(pid)
    return current is None or current == token


def _state(pid: int) -> str:
    fields = _proc_stat(pid)
    if fields is not None:
        return fields[0]
    out = _ps(pid, "stat=")
    return out[:1] if out else "X"


def _proc_stat(pid: int) -> list[str] | None:
    """Fields of ``/proc/PID/stat`` after the command name (state first), or None."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    # The command name is in parentheses and may itself contain ")".
    return text.rsplit(")", 1)[-1].split()


def _ps(pid: int, column: str) -> str:
    try:
        proc = subprocess.run(
            ["ps", "-o", column, "-p", str(pid)],
            capture_output=True,
            text=True,
            check=False,
            timeout=10,
        )
    except (OSError, subprocess.TimeoutExpired):
        return ""
    return proc.stdout.strip() if proc.returncode == 0 else ""
