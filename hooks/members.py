"""Run the council: each lens casts a member verdict, within one time budget.

Analyzer lenses share one ``Change`` (its reads are cached, and neither it nor
git's batch reader is thread-safe), so they run one after another, together
with the claims parser (``prepare``), in a child process forked before any
thread starts. Python's ``re`` holds the GIL for a whole match, so a thread
cannot be stopped mid-match; a process can: at the deadline the child is
killed and every analyzer lens it had not finished is ERROR. The suite lens,
which mostly waits on a subprocess, runs beside it in a thread. The main
thread only waits (in ``time.sleep``, which a signal interrupts cleanly),
reports progress, and enforces the budget. A lens's verdict is the worst of
its findings (PASS when it has none), or ERROR when it could not complete.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal, cast

from tribunal.change import Change
from tribunal.config import Config
from tribunal.findings import Finding
from tribunal.hooks.progress import Progress
from tribunal.hooks.suite import DEFAULT_TIMEOUT, run_on_commit
from tribunal.lenses import LensPlan
from tribunal.worktree.sandbox import Sandbox
from tribunal.worktree.signals import signals_blocked

if TYPE_CHECKING:
    from multiprocessing.connection import Connection

MemberVerdict = Literal["PASS", "UNVERIFIED", "CONTRADICTED", "ERROR"]


@dataclass(frozen=True)
class Outcome:
    """One member's vote."""

    plan: LensPlan
    verdict: MemberVerdict
    findings: tuple[Finding, ...] = ()
    duration_ms: float = 0.0
    error: str | None = None
    notes: tuple[str, ...] = ()


@dataclass
class _Board:
    """Results as workers finish them; read by the main thread."""

    done: dict[str, Outcome] = field(default_factory=dict)
    running: dict[str, float] = field(default_factory=dict)


def convene_members(
    plans: Sequence[LensPlan],
    change: Change,
    box: Sandbox,
    config: Config,
    budget: float,
    progress: Progress,
    prepare: Callable[[], None] = lambda: None,
) -> list[Outcome]:
    """Every member's outcome, in ``plans`` order; ``prepare`` runs in the analyzers' child."""
    board = _Board()
    stop = threading.Event()
    analyzers = [p for p in plans if p.lens.kind == "analyzers"]
    suites = [p for p in plans if p.lens.kind == "suite"]
    child = _AnalyzerChild(analyzers, change, prepare) if analyzers else None
    workers = [
        threading.Thread(target=_each, args=(board, suites, lambda p: _suite(p, box, config, stop)))
    ]
    if child is not None:
        workers.append(threading.Thread(target=child.collect, args=(board, stop)))
    for thread in workers:
        thread.daemon = True
        thread.start()
    try:
        _wait(board, len(plans), time.monotonic() + budget, progress)
        finished = dict(board.done)
    finally:
        stop.set()  # stops the suite's process group and kills the analyzers' child
        if child is not None:
            child.kill()
        for thread in workers:
            thread.join(timeout=10)
    return [finished.get(p.lens.id) or _overrun(p, budget) for p in plans]


def _wait(board: _Board, total: int, deadline: float, progress: Progress) -> None:
    reported: set[str] = set()
    while True:
        for lens_id, outcome in list(board.done.items()):
            if lens_id not in reported:
                reported.add(lens_id)
                progress.member_done(lens_id, outcome.verdict, outcome.duration_ms)
        if len(reported) >= total or time.monotonic() >= deadline:
            return
        progress.heartbeat(dict(board.running))
        time.sleep(min(0.05, max(0.0, deadline - time.monotonic())))


def _each(board: _Board, plans: Sequence[LensPlan], judge: Callable[[LensPlan], Outcome]) -> None:
    for plan in plans:
        started = time.monotonic()
        board.running[plan.lens.id] = started
        _record(board, plan, _judged(plan, judge), started)


def _judged(plan: LensPlan, judge: Callable[[LensPlan], Outcome]) -> Outcome:
    try:
        return judge(plan)
    except Exception as exc:  # a bug in a member must not take the others down
        return Outcome(plan, "ERROR", error=f"{type(exc).__name__}: {exc}")


def _record(board: _Board, plan: LensPlan, outcome: Outcome, started: float) -> None:
    elapsed = (time.monotonic() - started) * 1000
    board.done[plan.lens.id] = Outcome(
        outcome.plan,
        outcome.verdict,
        outcome.findings,
        elapsed,
        outcome.error,
        plan.notes + outcome.notes,
    )
    board.running.pop(plan.lens.id, None)


class _AnalyzerChild:
    """The analyzer lenses (and ``prepare``) in a forked child that can be killed."""

    def __init__(
        self, plans: Sequence[LensPlan], change: Change, prepare: Callable[[], None]
    ) -> None:
        import multiprocessing

        context = multiprocessing.get_context("fork")
        self.plans = list(plans)
        self._reader, writer = context.Pipe(duplex=False)
        self._process = context.Process(
            target=_child_main, args=(writer, self.plans, change, prepare), daemon=True
        )
        with signals_blocked():  # a signal in the child before it resets its handlers
            self._process.start()  # before any thread of ours exists: a fork copies only it
        writer.close()

    def collect(self, board: _Board, stop: threading.Event) -> None:
        """Move the child's reports to ``board`` until it is done, dies or is stopped."""
        by_id = {p.lens.id: p for p in self.plans}
        started = time.monotonic()
        while not stop.is_set():
            try:
                if not self._reader.poll(0.05):
                    continue
                lens_id, outcome = self._reader.recv()
            except (EOFError, OSError):
                break
            if outcome is None:
                started = time.monotonic()
                board.running[lens_id] = started
            else:
                _record(board, by_id[lens_id], outcome, started)
        self._process.join(timeout=5)
        code = self._process.exitcode
        if code and not stop.is_set():  # died on its own: a crash, not the deadline
            how = f"signal {-code}" if code < 0 else f"exit {code}"
            for plan in self.plans:
                if plan.lens.id not in board.done:
                    error = f"the analyzer process died ({how}) before this lens finished"
                    _record(board, plan, Outcome(plan, "ERROR", error=error), started)

    def kill(self) -> None:
        with contextlib.suppress(OSError, ValueError):
            if self._process.is_alive():
                self._process.kill()
            self._process.join(timeout=5)
        with contextlib.suppress(OSError):
            self._reader.close()


def _child_main(
    writer: Connection, plans: Sequence[LensPlan], change: Change, prepare: Callable[[], None]
) -> None:
    """In the child: signals back to their defaults (the parent handles them and kills us)."""
    import signal

    stoppers = {signal.SIGINT, signal.SIGTERM, signal.SIGHUP}
    for sig in stoppers:
        signal.signal(sig, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, stoppers)  # blocked across the fork
    try:
        prepare()
    except Exception as exc:
        error = f"reading the claims failed: {type(exc).__name__}: {exc}"
        for plan in plans:
            writer.send((plan.lens.id, Outcome(plan, "ERROR", error=error)))
        return
    for plan in plans:
        writer.send((plan.lens.id, None))
        writer.send((plan.lens.id, _judged(plan, lambda p: _analyze(p, change))))
    writer.close()


def _analyze(plan: LensPlan, change: Change, progress: Progress | None = None) -> Outcome:
    """Analyzers read the pushed commit from the object database: no checkout needed."""
    from tribunal.engine import analyze

    if not plan.runnable:
        return Outcome(plan, "PASS", notes=("no analyzer of this lens is available",))

    def tick(analyzer: str, done: int, total: int) -> None:
        if progress is not None:
            progress.files(plan.lens.id, analyzer, done, total)

    report = analyze(change, only=plan.runnable, progress=tick)
    findings = tuple(f for f in report.findings if f.analyzer in plan.runnable)
    if report.errors:
        return Outcome(plan, "ERROR", findings, error="; ".join(e.message for e in report.errors))
    worst = max((f.verdict for f in findings), default=None)
    verdict = cast(MemberVerdict, worst.name) if worst is not None else "PASS"
    return Outcome(plan, verdict, findings, notes=report.notes)


def _suite(plan: LensPlan, box: Sandbox, config: Config, stop: threading.Event) -> Outcome:
    settings = config.raw.get("suite") or {}
    command = settings.get("command")
    if not command:
        return Outcome(
            plan, "ERROR", error="the suite lens is on but tribunal.yml sets no suite.command"
        )
    timeout = float(settings.get("timeout", DEFAULT_TIMEOUT))
    result = run_on_commit(command, box, timeout, stop)
    notes = (f"output (last lines):\n{result.tail}",) if result.tail else ()
    if result.passed:
        return Outcome(plan, "PASS", notes=(result.detail,))
    return Outcome(plan, "ERROR", error=f"{result.what}: {result.detail}", notes=notes)


def _overrun(plan: LensPlan, budget: float) -> Outcome:
    error = f"did not finish within the convene time budget ({budget:.0f} s, convene.timeout)"
    return Outcome(plan, "ERROR", duration_ms=budget * 1000, error=error, notes=plan.notes)
