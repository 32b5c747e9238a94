"""Helpers for writing analyzers: per-file isolation, crashes, run notes, progress.

An analyzer that crashes on one file must not take the others down, and must
never turn into a verdict: ``each_file`` records the crash with the file's
name for the engine to report, and moves on to the next file. It also tells
whoever runs the analyzer (``reporting_files``) how many of its files it has
judged, so that a person at a terminal waiting on a 20,000-file push sees how
far it is. ``note`` says something about the run as a whole once
(``node_modules`` is absent), where a finding per file would repeat it; notes
are never verdicts.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable, Iterator
from contextvars import ContextVar
from typing import TYPE_CHECKING, TypeVar

from tribunal.change.diff.model import FileChange

if TYPE_CHECKING:
    from tribunal.findings import Finding

Crash = tuple[str | None, BaseException]
T = TypeVar("T")
#: Told (files judged, files to judge) as an analyzer's ``each_file`` goes.
Tick = Callable[[int, int], None]

#: Failures that mean "nested deeper than the analysis can follow": UNVERIFIED for the file
#: (``bounds.TreeTooDeep`` is one).
TOO_DEEP = RecursionError
_crashes: ContextVar[list[Crash] | None] = ContextVar("tribunal_crashes", default=None)
_notes: ContextVar[list[str] | None] = ContextVar("tribunal_notes", default=None)
_ticks: ContextVar[Tick | None] = ContextVar("tribunal_ticks", default=None)


def each_file(
    files: Iterable[FileChange], judge: Callable[[FileChange], Iterable[T]]
) -> Iterator[T]:
    """Run ``judge`` on each file; a crash is recorded against that file and skipped."""
    files = list(files)
    tick = _ticks.get()
    for done, fc in enumerate(files, 1):
        try:
            found = list(judge(fc))
        except Exception as exc:
            record_crash(fc.path, exc)
            continue
        finally:
            if tick is not None:
                tick(done, len(files))
        yield from found


@contextlib.contextmanager
def reporting_files(tick: Tick) -> Iterator[None]:
    """Call ``tick`` after each file an analyzer judges while the block runs."""
    token = _ticks.set(tick)
    try:
        yield
    finally:
        _ticks.reset(token)


def record_crash(file: str | None, exc: BaseException) -> None:
    sink = _crashes.get()
    if sink is None:
        raise exc
    sink.append((file, exc))


def collecting_crashes() -> contextlib.AbstractContextManager[list[Crash]]:
    """Collect crashes recorded by ``each_file`` while the block runs."""
    return _collecting(_crashes)


def note(text: str) -> None:
    """Say ``text`` once in the report (outside the engine, e.g. a direct call: dropped)."""
    sink = _notes.get()
    if sink is not None and text not in sink:
        sink.append(text)


def collecting_notes() -> contextlib.AbstractContextManager[list[str]]:
    """Collect the notes analyzers make while the block runs."""
    return _collecting(_notes)


@contextlib.contextmanager
def _collecting(var: ContextVar[list[T] | None]) -> Iterator[list[T]]:
    """A fresh list in ``var`` for the block's duration, restored after."""
    sink: list[T] = []
    token = var.set(sink)
    try:
        yield sink
    finally:
        var.reset(token)


def too_deep(analyzer: str, file: str) -> Finding:
    """The verdict on a file whose syntax nests deeper than ``analyzer`` can follow."""
    from tribunal.findings import Finding, Verdict

    return Finding(
        analyzer,
        Verdict.UNVERIFIED,
        file,
        None,
        "nested too deeply to analyze",
        "Some expression or block in this file nests deeper than this analyzer can "
        "follow, so its findings for the file are unknown; flattening the nesting "
        "(a long chain of `+`, calls or attributes) lets it be judged.",
    )
