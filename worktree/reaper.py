"""Remove the leftovers of tribunal runs that died (SIGKILL, power loss, a crash).

Each sandbox is registered locked, with a reason naming its owner
(``tribunal convene pid=<pid> start=<token>``), in a directory whose name also
carries the pid. At the start of a run, every worktree of this repository that
is ours and whose owner is gone is removed with ``worktree remove -f -f`` (the
only thing that clears a locked, half-initialized entry). Only *our* entries
are touched: ``git worktree prune`` is never run, because it would also forget
the user's own worktrees whose directories are momentarily missing.

The suite lens's throwaway repositories (``tribunal-suite-<pid>-*``) belong to
no repository: a dead run's one is removed wherever it was made.

The sandbox directories sit in shared places (``/dev/shm``, ``/tmp``) where
anyone can create names. An entry is touched only when its name parses as
ours (a pid in range) and ``lstat`` shows a directory owned by this user; junk
such as ``tribunal-wt-99999999999999999999-x`` or another user's entry is
skipped, never a crash.
"""

import os
import re
import shutil
import stat
from pathlib import Path
from typing import NamedTuple

from tribunal.git.cmd import Git
from tribunal.worktree import procs
from tribunal.worktree.listing import Entry, list_worktrees

DIR_PREFIX = "tribunal-wt-"
SUITE_PREFIX = "tribunal-suite-"
REASON_PREFIX = "tribunal convene"
_REASON = re.compile(r"^tribunal convene pid=([0-9]{1,10})(?: start=(\S+))?", re.ASCII)
_DIR = re.compile(r"^tribunal-(wt|suite)-([0-9]{1,10})-", re.ASCII)


class Owner(NamedTuple):
    pid: int
    token: str | None


def lock_reason(pid: int) -> str:
    token = procs.start_token(pid)
    return f"{REASON_PREFIX} pid={pid}" + (f" start={token}" if token else "")


def owner_of(entry: Entry) -> Owner | None:
    """The process that made ``entry``, if tribunal made it; None for anything else."""
    match = _REASON.match(entry.locked or "")
    if match:
        pid = parse_pid(match[1])
        return Owner(pid, match[2]) if pid is not None else None
    named = _DIR.match(Path(entry.path).name)
    if named and named[1] == "wt" and entry.locked is not None:  # "initializing" after a SIGKILL
        pid = parse_pid(named[2])
        return Owner(pid, None) if pid is not None else None
    return None


def parse_pid(digits: str) -> int | None:
    """``digits`` as a pid, or None when no process can have it (junk, not ours)."""
    pid = int(digits)
    return pid if 0 < pid <= procs.PID_MAX else None


def reap(git: Git, common_dir: Path, parents: list[Path]) -> list[str]:
    """Remove dead runs' worktrees and stray sandbox directories; return what went.

    The caller holds the worktree lock.
    """
    removed = []
    registered = set()
    for entry in list_worktrees(git):
        registered.add(entry.path)
        owner = owner_of(entry)
        if owner is None or procs.is_alive(owner.pid, owner.token):
            continue
        remove_registered(git, Path(entry.path))
        removed.append(entry.path)
    for parent in parents:
        removed.extend(_sweep_strays(parent, common_dir, registered))
    return removed


def remove_registered(git: Git, path: Path) -> None:
    """``worktree remove -f -f`` (works on a missing directory too), then the directory."""
    git.run(
        "-c",
        "core.hooksPath=/dev/null",
        "worktree",
        "remove",
        "--force",
        "--force",
        str(path),
        ok_codes=(0, 128),
    )
    if path.exists():
        shutil.rmtree(path, ignore_errors=True)


def _sweep_strays(parent: Path, common_dir: Path, registered: set[str]) -> list[str]:
    """Sandbox directories of dead runs that git no longer (or never) knew about.

    A worktree directory goes only when it is empty or its ``.git`` file points
    into this repository (another repository's leftover is that repository's to
    clean); a suite repository goes whatever repository it was made from.
    """
    removed: list[str] = []
    try:
        names = [p for p in parent.iterdir() if _DIR.match(p.name)]
    except OSError:
        return removed
    for path in names:
        match = _DIR.match(path.name)
        assert match is not None
        pid = parse_pid(match[2])
        if pid is None or str(path) in registered or not _ours(path) or procs.is_alive(pid):
            continue
        if match[1] == "suite" or _belongs_here(path, common_dir):
            shutil.rmtree(path, ignore_errors=True)
            removed.append(str(path))
    return removed


def _ours(path: Path) -> bool:
    """A real directory (not a link) owned by this user."""
    try:
        info = os.lstat(path)
    except OSError:
        return False
    return stat.S_ISDIR(info.st_mode) and info.st_uid == os.getuid()


def _belongs_here(path: Path, common_dir: Path) -> bool:
    try:
        entries = list(path.iterdir())
    except OSError:
        return False
    if not entries:
        return True
    try:
        pointer = (path / ".git").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return False
    target = pointer.removeprefix("gitdir:").strip()
    return Path(target).resolve().is_relative_to((common_dir / "worktrees").resolve())
