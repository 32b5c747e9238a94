"""Room for deep syntax trees: the analysis runs on a thread with a large stack.

Valid code can nest thousands deep (``X = 1+1+...`` with 2,000 terms is a
2,000-deep tree), and many tree walks recurse: under Python's default limit of
1,000 frames they raise ``RecursionError`` on such a file. ``on_deep_stack``
runs a call on a thread whose stack has room for ``RECURSION_LIMIT`` frames and
raises the interpreter's limit to that while it runs. Walks then follow trees
thousands deep; a deeper one ends in ``RecursionError`` (the engine makes that
an UNVERIFIED for its file), never in a crash of the process: the stack is far
larger than that many frames need.

Python 3.12 and later keep a separate, fixed limit for recursion through C
code (a walk written as ``any(walk(c) for c in ...)`` recurses through C at
every level; 3.12 stops it near 1,500 levels): walks that must follow deep
expressions recurse in plain Python calls.
"""

from __future__ import annotations

import contextvars
import sys
import threading
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

RECURSION_LIMIT = 50_000
#: Virtual size of the thread's stack: memory is committed only as deep as it is used.
STACK_BYTES = 512 << 20

_lock = threading.Lock()
_local = threading.local()
_active = 0
_saved_limit = 0


def on_deep_stack(call: Callable[[], T]) -> T:
    """``call()`` on a thread with a deep stack (inline if already on one, or if the
    system will not start such a thread); its exception, if any, is raised here."""
    if getattr(_local, "deep", False):
        return call()
    box: list[T] = []
    failure: list[BaseException] = []
    context = contextvars.copy_context()

    def run() -> None:
        _local.deep = True
        _raise_limit()
        try:
            box.append(context.run(call))
        except BaseException as exc:  # handed to the caller's thread
            failure.append(exc)
        finally:
            _restore_limit()

    try:
        thread = _start(run)
    except (RuntimeError, MemoryError, ValueError):  # no room for such a stack here
        return call()
    thread.join()
    if failure:
        raise failure[0]
    return box[0]


def _start(run: Callable[[], None]) -> threading.Thread:
    with _lock:
        previous = threading.stack_size(STACK_BYTES)
        try:
            thread = threading.Thread(target=run, name="tribunal-analysis", daemon=True)
            thread.start()
        finally:
            threading.stack_size(previous)
    return thread


def _raise_limit() -> None:
    global _active, _saved_limit
    with _lock:
        if _active == 0:
            _saved_limit = sys.getrecursionlimit()
            sys.setrecursionlimit(max(_saved_limit, RECURSION_LIMIT))
        _active += 1


def _restore_limit() -> None:
    global _active
    with _lock:
        _active -= 1
        if _active == 0:
            sys.setrecursionlimit(_saved_limit)
