"""Make SIGTERM and SIGHUP unwind like Ctrl-C, and keep cleanup from being cut short.

A throwaway worktree must be removed however the run ends. Python turns SIGINT
into ``KeyboardInterrupt``, so ``finally`` blocks run; SIGTERM and SIGHUP would
kill the process outright. ``interrupts_as_exceptions`` maps them to
``Terminated`` (a ``KeyboardInterrupt``) while a sandbox exists, and
``signals_blocked`` defers all three while the sandbox is being removed.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator
from types import FrameType

_CAUGHT = (signal.SIGTERM, signal.SIGHUP)
_DEFERRED = {signal.SIGINT, signal.SIGTERM, signal.SIGHUP}


class Terminated(KeyboardInterrupt):
    """The process was asked to stop (SIGTERM or SIGHUP)."""


def _raise(signum: int, frame: FrameType | None) -> None:
    raise Terminated(signal.Signals(signum).name)


@contextlib.contextmanager
def interrupts_as_exceptions() -> Iterator[None]:
    """Within the block, SIGTERM/SIGHUP raise ``Terminated`` (main thread only)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    saved = {sig: signal.signal(sig, _raise) for sig in _CAUGHT}
    try:
        yield
    finally:
        for sig, handler in saved.items():
            signal.signal(sig, handler)


@contextlib.contextmanager
def signals_blocked() -> Iterator[None]:
    """Defer SIGINT/SIGTERM/SIGHUP until the block ends (they are delivered then)."""
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, _DEFERRED)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)
