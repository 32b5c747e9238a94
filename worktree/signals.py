"""Make SIGTERM and SIGHUP unwind like Ctrl-C, and keep cleanup from being cut short.

A throwaway worktree must be removed however the run ends. Python turns SIGINT
into ``KeyboardInterrupt``, so ``finally`` blocks run; SIGTERM and SIGHUP would
kill the process outright. ``interrupts_as_exceptions`` maps all three to an
``Interrupted`` (a ``KeyboardInterrupt``) that remembers its signal, and
``signals_blocked`` defers them while the sandbox is being removed.

Blocking a signal holds it off this thread only: with other threads running,
the kernel hands it to one of them, and Python still runs the handler here,
between any two bytecodes of the main thread. A raise there can cut a thread's
start or a ``join`` short and leave ``threading`` believing a running thread
has ended. So where the main thread starts and stops threads (the convene's
members), ``interrupts_deferred`` keeps the first signal until the main thread
asks for it (``check_interrupted``) or the block ends.

Only the first signal interrupts: one that arrives while the run is already
unwinding (Ctrl-C, then the terminal closing) is remembered for nothing and
ignored, so it cannot cut a ``finally`` block or a lock's bookkeeping short
(it once crashed a wait with ``RuntimeError: release unlocked lock``). The
exit status is ``128 + `` the first signal's number: 130, 129 or 143.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator
from types import FrameType

_CAUGHT = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
_DEFERRED = set(_CAUGHT)
_first: list[int] = []
_deferring: list[None] = []  # one entry per ``interrupts_deferred`` block we are in
_pending: list[int] = []  # the first signal, taken in such a block and not raised yet


class Interrupted(KeyboardInterrupt):
    """The process was asked to stop by ``signum``."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


def exit_code(exc: KeyboardInterrupt) -> int:
    """130 for Ctrl-C, otherwise 128 plus the number of the signal that stopped us."""
    return 128 + (exc.signum if isinstance(exc, Interrupted) else signal.SIGINT)


def _raise(signum: int, frame: FrameType | None) -> None:
    if _first:  # already unwinding from an earlier signal: let the cleanup finish
        return
    _first.append(signum)
    if _deferring:
        _pending.append(signum)
        return
    raise Interrupted(signum)


@contextlib.contextmanager
def interrupts_as_exceptions() -> Iterator[None]:
    """Within the block, SIGINT/SIGTERM/SIGHUP raise ``Interrupted`` (main thread only)."""
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


@contextlib.contextmanager
def interrupts_deferred() -> Iterator[None]:
    """Within the block, the first signal raises ``Interrupted`` only at ``check_interrupted``
    or when the block ends, never where it lands (main thread, under
    ``interrupts_as_exceptions``)."""
    _deferring.append(None)
    try:
        yield
    finally:
        _deferring.pop()
        if not _deferring:
            check_interrupted()


def check_interrupted() -> None:
    """Raise the ``Interrupted`` that ``interrupts_deferred`` held back, if any."""
    if _pending:
        raise Interrupted(_pending.pop())
