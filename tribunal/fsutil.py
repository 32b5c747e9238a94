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
