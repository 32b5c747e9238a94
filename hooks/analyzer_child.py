"""The analyzer lenses of one convene, in a forked child process that can be killed.

Python's ``re`` holds the GIL for a whole match, so a thread cannot be stopped
mid-match; a process can: at the deadline the child is killed, and every
analyzer lens it had not finished is ERROR.

The child is forked before the council's threads exist (a fork copies only the
forking thread, and a lock another thread held stays held in the child
forever), and it builds the change itself: the parent never holds the diff, so
a 20,000-file push keeps one copy of it, not two (Python's reference counts
would soon copy every page a fork shared). It hands back what the parent needs
of the change (``noted``: the suppressions it adds), reads the change's own claims, then
waits for the council's advice on its inbox (None when there is none), judges
the claims the council proposed and hands the judged advice back, then runs the
analyzer lenses (each outcome given its ``second_look``: the pushed layout's,
which analyzes the change again). The child:

- runs with SIGINT/SIGTERM/SIGHUP at their defaults (a terminal's signal to the
  group stops it; the parent unwinds and reaps it), and dies with its parent on
  Linux (``PR_SET_PDEATHSIG``), so that nothing outlives a SIGKILLed hook;
- reads blobs through its own ``git cat-file`` (``gitcmd.Git`` starts one per
  process), never through the parent's, which a kill mid-read would corrupt;
- holds the read end of its inbox only, so a dead parent is an end of file.

Every exit of the parent's ``with`` block kills and reaps the child: the
deadline, an exception, a signal.
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from tribunal.change.model import Change
from tribunal.findings import Finding
from tribunal.hooks.members import Board, Outcome, analyze_plan, judged, record
from tribunal.hooks.progress import Progress
from tribunal.lenses import LensPlan
from tribunal.util.lifeline import die_with_parent, frozen_for_fork
from tribunal.worktree.signals import signals_blocked

if TYPE_CHECKING:
    from multiprocessing.connection import Connection

CLAIMS_ANALYZER = "claim-reconciliation"


class AnalyzerChild:
    """A forked child judging ``plans`` on the change ``make_change`` builds; see the module
    docstring."""

    def __init__(
        self,
        plans: Sequence[LensPlan],
        make_change: Callable[[], Change],
        claims: Callable[[Change], None],
        judge_advice: Callable[[Change, Any], Any],
        second_look: Callable[[Outcome], Outcome] = lambda outcome: outcome,
        progress: Progress | None = None,
        noted: Callable[[Change], list[Finding]] = lambda change: [],
    ) -> None:
        import multiprocessing

        context = multiprocessing.get_context("fork")
        self.plans = list(plans)
        #: the council's advice with its proposed claims judged, once the child sent it
        self.advice: Any = None
        #: ``noted(change)``, once the child sent it (None: it never did)
        self.noted: list[Finding] | None = None
        self._reports, report_writer = context.Pipe(duplex=False)
        inbox_reader, self._inbox = context.Pipe(duplex=False)
        ends = (report_writer, inbox_reader, self._reports, self._inbox)
        self._process = context.Process(
            target=_child_main,
            args=(
                ends,
                self.plans,
                _Work(make_change, claims, judge_advice, second_look, noted),
                progress,
                os.getpid(),
            ),
            daemon=True,
        )
        for stream in (sys.stdout, sys.stderr):  # the child flushes them as it exits
            with contextlib.suppress(OSError, ValueError):
                stream.flush()
        # until the child has put its handlers back to the defaults
        with frozen_for_fork(), signals_blocked():
            self._process.start()
        report_writer.close()
        inbox_reader.close()

    @property
    def pid(self) -> int | None:
        return self._process.pid

    def advise(self, advisory: Any) -> None:
        """Hand the council's advice (None: there is none) to the child, once."""
        with contextlib.suppress(OSError, ValueError):
            self._inbox.send(advisory)

    def collect(self, board: Board, stop: threading.Event) -> None:
        """Move the child's reports to ``board`` until it is done, dies or is stopped."""
        by_id = {p.lens.id: p for p in self.plans}
        started = time.monotonic()
        while not stop.is_set():
            try:
                if not self._reports.poll(0.05):
                    continue
                kind, *payload = self._reports.recv()
            except (EOFError, OSError):
                break
            if kind == "advice":
                self.advice = payload[0]
            elif kind == "noted":
                self.noted = payload[0]
            elif kind == "started":
                started = time.monotonic()
                board.running[payload[0]] = started
            else:
                record(board, by_id[payload[0]], payload[1], started)
        self._process.join(timeout=5)
        code = self._process.exitcode
        if code and not stop.is_set():  # died on its own: a crash, not the deadline
            how = f"signal {-code}" if code < 0 else f"exit {code}"
            for plan in self.plans:
                if plan.lens.id not in board.done:
                    error = f"the analyzer process died ({how}) before this lens finished"
                    record(board, plan, Outcome(plan, "ERROR", error=error), started)

    def kill(self) -> None:
        """Kill and reap the child (safe to call twice; ``collect`` may still be reading)."""
        with contextlib.suppress(OSError, ValueError, AssertionError):
            if self._process.is_alive():
                self._process.kill()
            self._process.join(timeout=10)

    def close(self) -> None:
        """Kill the child, then close the pipes (once nothing reads them)."""
        self.kill()
        for end in (self._reports, self._inbox):
            with contextlib.suppress(OSError):
                end.close()


class _Work(NamedTuple):
    """What the child does with the change it builds; see ``AnalyzerChild``."""

    make_change: Callable[[], Change]
    claims: Callable[[Change], None]
    judge_advice: Callable[[Change, Any], Any]
    second_look: Callable[[Outcome], Outcome]
    noted: Callable[[Change], list[Finding]]


@contextlib.contextmanager
def analyzer_child(
    plans: Sequence[LensPlan],
    make_change: Callable[[], Change],
    claims: Callable[[Change], None],
    judge_advice: Callable[[Change, Any], Any],
    second_look: Callable[[Outcome], Outcome] = lambda outcome: outcome,
    progress: Progress | None = None,
    noted: Callable[[Change], list[Finding]] = lambda change: [],
) -> Iterator[AnalyzerChild | None]:
    """The child for ``plans`` (None when there is no analyzer lens), killed on every exit."""
    if not plans:
        yield None
        return
    child = AnalyzerChild(plans, make_change, claims, judge_advice, second_look, progress, noted)
    try:
        yield child
    finally:
        child.close()


def _child_main(
    ends: tuple[Connection, Connection, Connection, Connection],
    plans: Sequence[LensPlan],
    work: _Work,
    progress: Progress | None,
    parent: int,
) -> None:
    import signal

    writer, inbox, *parents_ends = ends
    for end in parents_ends:  # the parent's ends: with them closed, its death is an EOF here
        end.close()
    stoppers = {signal.SIGINT, signal.SIGTERM, signal.SIGHUP}
    for sig in stoppers:
        signal.signal(sig, signal.SIG_DFL)
    die_with_parent(parent)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, stoppers)  # blocked across the fork
    with contextlib.suppress(EOFError, OSError):  # the parent is gone: end quietly
        _judge_all(writer, inbox, plans, work, progress)
        writer.close()


def _judge_all(
    writer: Connection,
    inbox: Connection,
    plans: Sequence[LensPlan],
    work: _Work,
    progress: Progress | None,
) -> None:
    step = "reading the change"
    try:
        change = work.make_change()
        writer.send(("noted", work.noted(change)))
        step = "reading the claims"
        work.claims(change)
    except Exception as exc:
        error = f"{step} failed: {type(exc).__name__}: {exc}"
        for plan in plans:
            writer.send(("done", plan.lens.id, Outcome(plan, "ERROR", error=error)))
        return
    advisory = inbox.recv()
    if advisory is not None:
        with contextlib.suppress(Exception):  # advice: unjudged, it is still advice
            writer.send(("advice", work.judge_advice(change, advisory)))
    for plan in plans:
        writer.send(("started", plan.lens.id))
        outcome = judged(plan, lambda p: work.second_look(analyze_plan(p, change, progress)))
        writer.send(("done", plan.lens.id, outcome))
