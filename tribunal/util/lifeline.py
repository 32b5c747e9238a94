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



def forked_child(parent: int) -> None:
    """What a forked child does first: die with ``parent``, and keep what it inherited out
    of its collections.

    A collection writes to every object it walks, which copies each page the child
    still shares with its parent; frozen (``gc.freeze``, a splice of lists that writes
    to no object), they stay shared. The parent's collector is left as it was.
    """
    gc.freeze()
    die_with_parent(parent)
