"""A forked child that dies with its parent, so that nothing a hook starts outlives it.

A hook killed with SIGKILL runs no ``finally``: the children it forked would
run on, judging a change nobody waits for. On Linux the kernel can send the
child a signal when the thread that forked it ends (``PR_SET_PDEATHSIG``);
elsewhere the child notices through the pipes it shares with the parent.
"""

from __future__ import annotations

import contextlib
import gc
import os
import sys
from collections.abc import Iterator

#: Linux's prctl option: a signal for the child when the thread that forked it ends.
_PR_SET_PDEATHSIG = 1


def die_with_parent(parent: int) -> None:
    """In a forked child: have the kernel SIGKILL it when ``parent`` dies (Linux; elsewhere
    the closed pipes end it). Exits at once if the parent died before the call."""
    if not sys.platform.startswith("linux"):
        return
    import ctypes
    import signal

    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None).prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL))
    if os.getppid() != parent:  # it died before the prctl
        os._exit(1)


@contextlib.contextmanager
def frozen_for_fork() -> Iterator[None]:
    """Fork inside this: neither process's collections walk what they share.

    A collection writes to every object it walks, which copies each page the two
    processes still share. The child (which never leaves the block: it exits) keeps
    it all frozen. So does a parent that freezes already (the command line freezes
    its start-up and unfreezes everything as it ends, ``tribunal.entry``); a caller
    that froze nothing (a test, a library user) gets its collector back as it was.
    """
    thawed = gc.get_freeze_count() == 0
    gc.freeze()
    try:
        yield
    finally:
        if thawed:
            gc.unfreeze()
