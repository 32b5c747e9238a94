"""Standard output and error that may fail without changing the exit status.

A hook's exit status is the gate's decision, whatever happens to what it prints:
a closed stdout or stderr, a reader that went away (``git push 2>&1 | head``,
``| true``: EPIPE, Python ignores SIGPIPE), a full disk, a terminal that
vanished. Left alone, a failed write raises mid-decision (and a failed flush at
exit turns the status into 120); caught in the wrong place it used to become
exit 0, a pass. So ``protect`` runs first: descriptors 0-2 that are closed are
opened on ``/dev/null`` (nothing the process opens later can land on them), and
``sys.stdout``/``sys.stderr`` become streams that stop writing after their
first failure, point their descriptor at ``/dev/null`` so that nothing still
buffered can fail later, and otherwise behave as before. The code deciding the
exit status never sees an output error.
"""

from __future__ import annotations

import os
import sys
from typing import Any, TextIO


class GuardedStream:
    """``inner`` (a text stream on descriptor ``fd``) that swallows its own failures.

    Anything but writing is delegated to ``inner`` (``encoding``, ``reconfigure``...).
    """

    def __init__(self, inner: TextIO, fd: int) -> None:
        self._inner = inner
        self._fd = fd
        self.lost = False

    def write(self, text: str) -> int:
        if not self.lost:
            try:
                return self._inner.write(text)
            except (OSError, ValueError):
                self._lose()
        return len(text)

    def flush(self) -> None:
        if not self.lost:
            try:
                self._inner.flush()
            except (OSError, ValueError):
                self._lose()

    def writelines(self, lines: Any) -> None:
        for line in lines:
            self.write(line)

    def isatty(self) -> bool:
        try:
            return not self.lost and self._inner.isatty()
        except (OSError, ValueError):
            return False

    def fileno(self) -> int:
        return self._fd

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    def _lose(self) -> None:
        self.lost = True
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, self._fd)
            os.close(devnull)
        except OSError:
            pass


def protect() -> None:
    """Make descriptors 0-2 valid and ``sys.stdout``/``sys.stderr`` unable to raise."""
    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
        except OSError:
            _reopen(fd)
    for name, fd in (("stdout", 1), ("stderr", 2)):
        stream = getattr(sys, name)
        if isinstance(stream, GuardedStream):
            continue
        if stream is None:  # Python found the descriptor closed at start-up
            stream = open(fd, "w", encoding="utf-8", errors="backslashreplace", closefd=False)  # noqa: SIM115
        setattr(sys, name, GuardedStream(stream, fd))


def _reopen(fd: int) -> None:
    flags = os.O_RDONLY if fd == 0 else os.O_WRONLY
    devnull = os.open(os.devnull, flags)
    if devnull != fd:
        os.dup2(devnull, fd)
        os.close(devnull)
