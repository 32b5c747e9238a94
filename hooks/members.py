"""Run the council: each lens casts a member verdict, within one time budget.

Analyzer lenses share one ``Change`` (its reads are cached, and neither it nor
git's batch reader is thread-safe), so they run one after another in a child
process (``analyzer_child``) that is killed at the deadline: every analyzer
lens it had not finished is then ERROR. The suite lens, which mostly waits on
a subprocess, runs beside it in a thread. The main thread only waits,
reports progress, and enforces the budget. Once the budget runs out or a
signal arrives, it stops every member and waits for each thread to end: the
suite lens's thread removes the repository it made before it ends, and a
process that exits under it would leave that behind. So a signal is taken
only in the wait for the verdicts (after each ``time.sleep``) or once every
thread has ended, never while a thread starts or is waited for. A lens's
verdict is the worst of its findings (PASS when it has none), or ERROR when it
could not complete.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Literal, Protocol, cast

from tribunal.change.model import Change
from tribunal.config.model import Config
from tribunal.findings import Finding
from tribunal.hooks.progress import Progress
from tribunal.hooks.suite import DEFAULT_TIMEOUT, SUITE_STOPS_WITHIN, run_on_commit
from tribunal.lenses import LensPlan
from tribunal.worktree.sandbox import Sandbox
from tribunal.worktree.signals import check_interrupted, interrupts_deferred

MemberVerdict = Literal["PASS", "UNVERIFIED", "CONTRADICTED", "ERROR"]

#: How long the thread that reads the analyzers' child may take to end once the child is killed.
_READER_ENDS_WITHIN = 10.0


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
class Board:
    """Results as workers finish them; read by the main thread."""

    done: dict[str, Outcome] = field(default_factory=dict)
    running: dict[str, float] = field(default_factory=dict)


class Collector(Protocol):
    """What the council needs of the analyzers' child (``analyzer_child.AnalyzerChild``).

    A protocol, so this module never imports the child, which imports the board,
    the outcomes and the lens runners from here.
    """

    def collect(self, board: Board, stop: threading.Event) -> None: ...

    def kill(self) -> None: ...


def convene_members(
    plans: Sequence[LensPlan],
    child: Collector | None,
    box: Sandbox,
    config: Config,
    budget: float,
    progress: Progress,
) -> list[Outcome]:
    """Every member's outcome, in ``plans`` order; ``child`` judges the analyzer lenses."""
    board = Board()
    stop = threading.Event()
    suites = [p for p in plans if p.lens.kind == "suite"]
    suite = threading.Thread(
        target=_each, args=(board, suites, lambda p: _suite(p, box, config, stop)), daemon=True
    )
    workers = [(suite, SUITE_STOPS_WITHIN)]
    if child is not None:
        reader = threading.Thread(target=child.collect, args=(board, stop), daemon=True)
        workers.append((reader, _READER_ENDS_WITHIN))
    with interrupts_deferred():  # a signal is taken in ``_wait`` alone, or once all have ended
        try:
            for thread, _ in workers:
                thread.start()
            _wait(board, len(plans), time.monotonic() + budget, progress)
            finished = dict(board.done)
        finally:
            stop.set()  # stops the suite's process group and kills the analyzers' child
            if child is not None:
                child.kill()
            for thread, within in workers:
                _join(thread, within)
    return [finished.get(p.lens.id) or _overrun(p, budget) for p in plans]


def _join(thread: threading.Thread, within: float) -> None:
    """Wait up to ``within`` s for a stopped member's thread to end; say so if it did not."""
    thread.join(within)
    if thread.is_alive():
        print(
            f"tribunal: a member did not stop within {within:.0f} s;"
            " the next convene removes what it left",
            file=sys.stderr,
        )


def _wait(board: Board, total: int, deadline: float, progress: Progress) -> None:
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
        check_interrupted()


def _each(board: Board, plans: Sequence[LensPlan], judge: Callable[[LensPlan], Outcome]) -> None:
    for plan in plans:
        started = time.monotonic()
        board.running[plan.lens.id] = started
        record(board, plan, judged(plan, judge), started)


def judged(plan: LensPlan, judge: Callable[[LensPlan], Outcome]) -> Outcome:
    """``judge(plan)``, or ERROR naming the exception it raised."""
    try:
        return judge(plan)
    except Exception as exc:  # a bug in a member must not take the others down
        return Outcome(plan, "ERROR", error=f"{type(exc).__name__}: {exc}")


def record(board: Board, plan: LensPlan, outcome: Outcome, started: float) -> None:
    """Post ``outcome`` of a lens started at ``started`` (monotonic) on ``board``."""
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


def analyze_plan(plan: LensPlan, change: Change, progress: Progress | None = None) -> Outcome:
    """Analyzers read the pushed commit from the object database: no checkout needed."""
    from tribunal.engine.runner import analyze

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
