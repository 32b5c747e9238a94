"""Files written so that a reader, or a crash, never sees half of one."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def write_atomically(
    path: Path, text: str, *, encoding: str = "utf-8", mode: int | None = None, fsync: bool = False
) -> None:
    """Write ``text`` to a temporary file beside ``path``, then rename it over ``path``.

    A concurrent reader sees the old file or the new one; an interrupted write
    leaves no temporary file. ``fsync`` for files whose loss after a power cut
    matters (a summary the gate reads back); ``mode`` for scripts (hooks).
    """
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}-", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding=encoding) as handle:
            handle.write(text)
            if fsync:
                handle.flush()
                os.fsync(handle.fileno())
        if mode is not None:
            os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def remove_tree(path: Path) -> None:
    """Remove the directory tree at ``path``, also where its owner made parts read-only.

    What a test suite leaves (a Go module cache, a ``chmod -w`` fixture) may
    hold directories without write or read permission: when a first removal
    leaves anything, every directory is made accessible to its owner (links are
    never followed) and the removal tried again. What still resists is left for
    the next run's sweep.
    """
    import shutil

    shutil.rmtree(path, ignore_errors=True)
    if not os.path.lexists(path) or os.path.islink(path):
        return
    _owner_access(str(path))
    for top, dirs, _files in os.walk(path):
        for name in dirs:
            _owner_access(os.path.join(top, name))
    shutil.rmtree(path, ignore_errors=True)


def _owner_access(directory: str) -> None:
    import stat

    try:
        info = os.lstat(directory)
        if stat.S_ISDIR(info.st_mode):
            os.chmod(directory, stat.S_IMODE(info.st_mode) | stat.S_IRWXU)
    except OSError:
        pass
