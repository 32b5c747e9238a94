"""One lock file per repository around worktree administration.

Concurrent ``git worktree add`` calls in one repository fail now and then (about
1 in 30 at four at once), and ``add`` collides with removal of leftovers. So
every add, remove and leftover sweep holds an exclusive ``flock`` on a file
under the git common dir; the analysis itself runs outside the lock.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import time
from collections.abc import Iterator
from pathlib import Path

from tribunal.errors import TribunalError

LOCK_NAME = "worktree.lock"


class LockTimeout(TribunalError):
    """Another process held the worktree lock for too long."""


def state_dir(common_dir: Path) -> Path:
    """Per-repository state, shared by every worktree and untouched by ``git clean``."""
    return common_dir / "tribunal"


@contextlib.contextmanager
def admin_lock(common_dir: Path, timeout: float = 60.0, name: str = LOCK_NAME) -> Iterator[None]:
    """Hold the repository's lock ``name`` (default: the worktree lock); raise
    ``LockTimeout`` after ``timeout`` s."""
    path = state_dir(common_dir) / name
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        _acquire(fd, path, timeout)
        yield
    finally:
        os.close(fd)  # closing the descriptor releases the lock


def _acquire(fd: int, path: Path, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    delay = 0.005
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            if time.monotonic() >= deadline:
                raise LockTimeout(
                    f"{path}: held by another tribunal process for {timeout:.0f} s"
                ) from None
            time.sleep(delay)
            delay = min(delay * 2, 0.1)
