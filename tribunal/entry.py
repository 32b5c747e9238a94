"""The ``tribunal`` process around the command: before anything is imported, after the output.

This is the console script and ``python -m tribunal``; ``tribunal.cli.main`` is the
command itself (and what a caller in a process of its own uses). Two fixed costs of
every commit are the process's, not the command's:

- Start-up makes ~100,000 objects that live as long as the process (modules,
  classes, functions) and next to no garbage, yet the garbage collector walks them
  again and again while they are made: ~3% of a ``check --staged``. So the
  collector is paused before ``tribunal.cli`` is imported, and when the command
  starts, start-up's objects are frozen where no collection walks them again
  (``gc.freeze``) and collection resumes for the command's own work.
- Once the output is written and the status decided, the interpreter's teardown
  (clearing every module, a last collection) is ~9% and decides nothing. When
  nothing can notice its absence (the output is flushed, no other thread runs,
  nothing is registered with ``atexit``, no profiler or tracer is attached), the
  process ends with ``os._exit``; otherwise it exits as usual, with every object
  unfrozen so that each is finalized as ever.

Only ``gc``, ``os`` and ``sys`` are imported here, so that the pause covers the rest.
"""

from __future__ import annotations

import gc
import os
import sys

#: Whether ``run`` paused the collector (``_resume_collector`` ends the pause).
_collector_paused = False


def run() -> None:
    """Run the command of ``sys.argv`` and exit with its status; never returns.

    A ``SystemExit`` raised inside (``--help``, a usage error) exits as usual.
    """
    _pause_collector()
    try:
        from tribunal.cli import main

        code = main(on_command=_resume_collector)
    finally:
        gc.unfreeze()  # an exit through the teardown finalizes start-up's objects as ever
    import contextlib  # loaded by now

    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):  # a guarded stream never raises; others might
            stream.flush()
    if _teardown_is_idle():
        os._exit(code)
    sys.exit(code)


def _pause_collector() -> None:
    global _collector_paused
    if gc.isenabled():
        gc.disable()
        _collector_paused = True


def _resume_collector() -> None:
    """Start-up's objects move where no collection walks them again; collection resumes."""
    global _collector_paused
    if _collector_paused:
        _collector_paused = False
        gc.freeze()
        gc.enable()


def _teardown_is_idle() -> bool:
    """Whether a normal exit would run nothing but the interpreter's own clean-up."""
    import atexit

    threading = sys.modules.get("threading")
    if threading is not None and threading.active_count() > 1:
        return False  # a normal exit waits for the other threads
    handlers = getattr(atexit, "_ncallbacks", None)  # CPython's count; absent elsewhere
    if handlers is None or handlers() > 0:
        return False
    return sys.getprofile() is None and sys.gettrace() is None
