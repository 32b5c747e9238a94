"""Helpers for writing analyzers: per-file isolation and finding construction.

An analyzer that crashes on one file must not take the others down, and must
never turn into a verdict: ``each_file`` records the crash with the file's
name for the engine to report, and moves on to the next file.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable, Iterator
from contextvars import ContextVar

from tribunal.diff.model import FileChange
from tribunal.findings import Finding

Crash = tuple[str | None, BaseException]
_crashes: ContextVar[list[Crash] | None] = ContextVar("tribunal_crashes", default=None)


def each_file(
    files: Iterable[FileChange], judge: Callable[[FileChange], Iterable[Finding]]
) -> Iterator[Finding]:
    """Run ``judge`` on each file; a crash is recorded against that file and skipped."""
    for fc in files:
        try:
            found = list(judge(fc))
        except Exception as exc:
            record_crash(fc.path, exc)
            continue
        yield from found


def record_crash(file: str | None, exc: BaseException) -> None:
    sink = _crashes.get()
    if sink is None:
        raise exc
    sink.append((file, exc))


@contextlib.contextmanager
def collecting_crashes() -> Iterator[list[Crash]]:
    """Collect crashes recorded by ``each_file`` while the block runs."""
    sink: list[Crash] = []
    token = _crashes.set(sink)
    try:
        yield sink
    finally:
        _crashes.reset(token)
