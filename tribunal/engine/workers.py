"""The analyzers of a big change, run two at a time: here and in one forked worker.

Every analyzer walks every changed file, one after another, and they share
nothing but the change they read; they are pure Python, so threads would take
turns on one core. On a machine with two cores or more, a change of at least
``MIN_FILES`` files is judged by this process and one forked worker at once:
the analyzers' numbers, heaviest first, are written into a pipe that both read
one byte at a time, so whichever is free takes the next, none runs twice and
none is left. The worker sends back what each analyzer it took found (its
findings, crashes and notes) and exits; the report is the one a serial run
makes, assembled in the analyzers' order.

The bound on parsed trees covers both: each process keeps half of each tree
cache (the change's, and the one for files read from outside it) while they
run. The worker dies with this process (``lifeline``), is killed and reaped on
every exit from the shared run (an exception, Ctrl-C), and an
analyzer it took but never reported (it was killed, or crashed outside the
analyzer) becomes an ``AnalyzerError``: a crash, never a verdict, never a
silent pass. ``TRIBUNAL_WORKERS=1`` runs everything here; only Linux forks
(elsewhere a fork with threads is not safe).
"""

import contextlib
import os
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, BinaryIO, NamedTuple

from tribunal.findings import AnalyzerError, Finding

if TYPE_CHECKING:
    from tribunal.change.model import Change
    from tribunal.engine.registry import AnalyzerSpec

#: Changed files below which a worker costs more (a fork, a second parse of shared
#: files) than it saves: a commit of a few files is judged in tens of milliseconds.
MIN_FILES = 64
#: ``TRIBUNAL_WORKERS``: how many processes may judge a change (1: this one only).
WORKERS_ENV = "TRIBUNAL_WORKERS"


class Judged(NamedTuple):
    """What one analyzer's run found."""

    findings: list[Finding]
    errors: list[AnalyzerError]
    notes: list[str]


RunOne = Callable[["AnalyzerSpec"], Judged]


def workers_for(change: "Change") -> int:
    """1, or 2 for a big change on a machine that can judge two analyzers at once."""
    value = os.environ.get(WORKERS_ENV, "").strip()
    if value.isdigit() and int(value) >= 1:
        wanted = min(int(value), 2)
    else:
        wanted = 2 if len(change.analyzable()) >= MIN_FILES else 1
    if wanted < 2 or not sys.platform.startswith("linux") or _cores() < 2:
        return 1
    return wanted


def run_all(specs: "Sequence[AnalyzerSpec]", run_one: RunOne, change: "Change") -> list[Judged]:
    """``run_one`` of every spec, shared with a forked worker; in ``specs``' order."""
    if len(specs) < 2 or len(specs) > 255:
        return [run_one(spec) for spec in specs]
    order = sorted(range(len(specs)), key=lambda i: -specs[i].cost)
    queue_r, queue_w = os.pipe()
    os.write(queue_w, bytes(order))
    os.close(queue_w)
    result_r, result_w = os.pipe()
    restore = _halve_tree_bounds(change)
    parent = os.getpid()
    from tribunal.util.lifeline import frozen_for_fork

    try:
        with frozen_for_fork():
            pid = os.fork()
    except OSError:  # no room for a second process: judge them all here
        os.close(result_r)
        os.close(result_w)
        os.close(queue_r)
        restore()
        return [run_one(spec) for spec in specs]
    if pid == 0:
        os.close(result_r)
        _worker(parent, queue_r, result_w, specs, run_one, change)
    os.close(result_w)
    mine: dict[int, Judged] = {}
    inbox = os.fdopen(result_r, "rb")
    try:
        with os.fdopen(queue_r, "rb", buffering=0) as queue:
            while taken := queue.read(1):
                mine[taken[0]] = run_one(specs[taken[0]])
        theirs, status = _collect(pid, inbox)
    finally:
        inbox.close()
        _stop(pid)
        restore()
    return [mine.get(i) or theirs.get(i) or _lost(spec, status) for i, spec in enumerate(specs)]


def _halve_tree_bounds(change: "Change") -> Callable[[], None]:
    """Both tree caches (the change's, and the one for files outside it) at half their
    bound while two processes fill them; returns what restores the whole bounds."""
    from tribunal.lang.tree_cache import orphans

    caches = (change.tree_cache(), orphans)
    wholes = [(cache.max_entries, cache.max_cost) for cache in caches]
    for cache, (entries, cost) in zip(caches, wholes, strict=True):
        cache.resize(entries, cost // 2)

    def restore() -> None:
        for cache, whole in zip(caches, wholes, strict=True):
            cache.resize(*whole)

    return restore


def _worker(
    parent: int,
    queue_r: int,
    result_w: int,
    specs: "Sequence[AnalyzerSpec]",
    run_one: RunOne,
    change: "Change",
) -> None:
    """The forked worker: take analyzers until none is left, send what they found, exit."""
    code = 1
    try:
        import pickle
        import signal

        from tribunal.util.lifeline import die_with_parent

        signal.signal(signal.SIGINT, signal.SIG_DFL)  # Ctrl-C stops the worker outright
        die_with_parent(parent)
        done: dict[int, Judged] = {}
        with os.fdopen(queue_r, "rb", buffering=0) as queue:
            while taken := queue.read(1):
                done[taken[0]] = run_one(specs[taken[0]])
        with os.fdopen(result_w, "wb") as out:
            pickle.dump(done, out, protocol=pickle.HIGHEST_PROTOCOL)
        code = 0
    except BaseException:  # what it did not send is reported lost by the parent
        pass
    finally:
        if change.git is not None:  # its own `git cat-file`, waited for: none outlives it
            with contextlib.suppress(BaseException):
                change.git.close()
        os._exit(code)


def _collect(pid: int, inbox: BinaryIO) -> tuple[dict[int, Judged], str]:
    """What the worker sent (nothing if it died first), and how it ended."""
    import pickle

    data = inbox.read()
    _, status = os.waitpid(pid, 0)
    how = _ended(status)
    try:
        sent = pickle.loads(data) if data else {}
    except Exception:  # cut short: nothing it sent counts
        sent = {}
    return (sent if isinstance(sent, dict) else {}), how


def _stop(pid: int) -> None:
    """Kill and reap the worker if it is still there (an exception or Ctrl-C here)."""
    import signal

    with contextlib.suppress(ProcessLookupError, ChildProcessError):
        if os.waitpid(pid, os.WNOHANG) == (0, 0):
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)


def _ended(status: int) -> str:
    if os.WIFSIGNALED(status):
        return f"killed by signal {os.WTERMSIG(status)}"
    return f"exited with status {os.waitstatus_to_exitcode(status)}"


def _lost(spec: "AnalyzerSpec", how: str) -> Judged:
    message = (
        f"analyzer {spec.id} crashed: the worker process judging it {how} before it "
        f"reported (set {WORKERS_ENV}=1 to judge every analyzer in one process)"
    )
    return Judged([], [AnalyzerError(spec.id, None, message)], [])


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1
