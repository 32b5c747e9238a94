"""A big change judged by this process and a forked worker: the same report, nothing lost.

The worker is a real forked process; the analyzers are the real ones, except
where a test needs an analyzer that dies (a fake that SIGKILLs its own worker).
"""

from __future__ import annotations

import os
import signal
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.engine_helpers import change_between, many_files_range
from tests.fake_analyzers import FakeSpec, installed
from tests.gitrepo import GitRepo
from tribunal.change.model import Change
from tribunal.engine import registry, workers
from tribunal.engine.registry import Kind
from tribunal.engine.runner import analyze
from tribunal.findings import Finding, Report, Verdict
from tribunal.lang.tree_cache import orphans

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="the worker is forked on Linux only"
)


def _children() -> set[int]:
    """This process's live children (Linux: every thread's ``children`` list)."""
    found: set[int] = set()
    for task in Path("/proc/self/task").iterdir():
        text = (task / "children").read_text()
        found.update(int(pid) for pid in text.split())
    return found


def _git_readers(repo: GitRepo) -> list[int]:
    """``git cat-file`` processes reading ``repo``, whoever started them."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            argv = (entry / "cmdline").read_bytes().split(b"\0")
            where = os.readlink(entry / "cwd")
        except OSError:
            continue
        if b"cat-file" in argv and Path(where) == repo.path:
            found.append(int(entry.name))
    return found


def _shape(report: Report) -> tuple[object, ...]:
    return (
        [
            (f.analyzer, f.file, f.line, f.verdict, f.title, f.detail, f.fingerprint)
            for f in report.findings
        ],
        report.errors,
        report.notes,
        report.analyzers,
        report.skipped,
    )


@pytest.fixture
def many_files(repo: GitRepo) -> tuple[str, str]:
    """``many_files_range`` with a missing import and a weakened test in its head."""
    base, _ = many_files_range(repo)
    extra = {
        "web/broken.ts": "import { nothere } from './helper';\n\nexport const x = nothere;\n",
        "tests/test_mod_0.py": "from pkg.mod_0 import f_0\n\n\ndef test_g_0():\n    f_0(2)\n",
    }
    return base, repo.commit(extra, "more")


def test_a_shared_run_reports_exactly_what_one_process_does(
    repo: GitRepo, many_files: tuple[str, str]
) -> None:
    before = _children()
    with change_between(repo, *many_files) as change:
        assert workers.workers_for(change) == 2 or workers._cores() < 2
        alone = analyze(change, workers=1)
    with change_between(repo, *many_files) as change:
        halved: list[int] = []
        trees = change.tree_cache()
        resize = trees.resize
        # The real resize, noting each bound: halved for the shared run, then restored.
        trees.resize = lambda entries, cost: (halved.append(cost), resize(entries, cost))[1]  # type: ignore[method-assign]
        shared = analyze(change, workers=2)
        bound = trees.max_cost
    assert _shape(shared) == _shape(alone)
    analyzers = {f.analyzer for f in alone.findings}
    assert len(analyzers) >= 3 and alone.errors == ()  # several analyzers had work, none broke
    assert halved == [workers_bound() // 2, workers_bound()]  # halved while shared
    assert bound == workers_bound() and orphans.max_cost == workers_bound()  # restored
    assert _children() == before  # the worker was reaped
    assert _git_readers(repo) == []  # and its own git reader with it


def workers_bound() -> int:
    from tribunal.lang.tree_cache import new_cache

    return new_cache().max_cost


def test_a_small_change_or_one_worker_asked_for_is_judged_here(
    repo: GitRepo, many_files: tuple[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    repo.write({"a.py": "x = 1\n"})
    small = repo.commit({"a.py": "x = 2\n"}, "small")
    with change_between(repo, many_files[1], small) as change:
        assert workers.workers_for(change) == 1  # fewer files than a fork pays for
    with change_between(repo, *many_files) as change:
        monkeypatch.setenv(workers.WORKERS_ENV, "1")
        assert workers.workers_for(change) == 1
        monkeypatch.setenv(workers.WORKERS_ENV, "not a number")
        assert workers.workers_for(change) == (2 if workers._cores() >= 2 else 1)


def _dies_in_the_worker(marker: Path, parent: int, name: str) -> FakeSpec:
    """An analyzer that SIGKILLs the worker it runs in; here, it waits for that to happen.

    Deterministic: this process takes one and holds it until the worker has taken
    the other (it writes ``marker`` just before it dies), so each takes exactly one.
    """

    def run(change: Change) -> Iterator[Finding]:
        if os.getpid() != parent:
            marker.write_text(name)
            os.kill(os.getpid(), signal.SIGKILL)
        deadline = time.monotonic() + 60
        while not marker.exists() and time.monotonic() < deadline:
            time.sleep(0.01)
        yield Finding(name, Verdict.PASS, "a.py", 1, "judged here", "")

    return FakeSpec(name, name, Kind.CLAIM_INDEPENDENT, "tests.fake_analyzers", "test", run)


def test_an_analyzer_the_dead_worker_took_is_an_error_never_a_pass(
    repo: GitRepo, many_files: tuple[str, str], tmp_path: Path
) -> None:
    marker = tmp_path / "taken"
    before = _children()
    with installed(()), change_between(repo, *many_files) as change:
        for name in ("doomed-a", "doomed-b"):
            registry.BUILTINS[name] = _dies_in_the_worker(marker, os.getpid(), name)
        report = analyze(change, workers=2)
    lost = marker.read_text()
    (error,) = report.errors
    assert error.analyzer == lost
    assert (
        "worker process" in error.message and f"killed by signal {signal.SIGKILL}" in error.message
    )
    (kept,) = report.findings  # the other one, judged here, is reported as usual
    assert kept.analyzer != lost and kept.title == "judged here"
    assert _children() == before


def test_a_child_forked_frozen_keeps_what_it_inherited_out_of_its_collections() -> None:
    """A collection writes to every object it walks, copying pages the fork shared: the
    child keeps its inheritance frozen, the parent's collector is left as it was."""
    import gc

    from tribunal.util.lifeline import frozen_for_fork

    before = gc.get_freeze_count()
    read, write = os.pipe()
    with frozen_for_fork():
        pid = os.fork()
        if pid == 0:
            os.write(write, str(gc.get_freeze_count()).encode())
            os._exit(0)
    os.close(write)
    with os.fdopen(read) as pipe:
        in_child = int(pipe.read())
    os.waitpid(pid, 0)
    assert in_child > 10_000 and gc.get_freeze_count() == before


def test_a_process_that_freezes_already_keeps_what_it_forked_with_frozen() -> None:
    """The command line freezes its start-up (``tribunal.entry``): after a fork its own
    collections leave the shared objects alone too, until it unfreezes all as it ends."""
    import gc

    from tribunal.util.lifeline import frozen_for_fork

    gc.freeze()
    try:
        held = gc.get_freeze_count()
        made_since = [[n] for n in range(20_000)]  # tracked objects the fork shares
        with frozen_for_fork():
            pid = os.fork()
            if pid == 0:
                os._exit(0)
        os.waitpid(pid, 0)
        assert gc.get_freeze_count() >= held + len(made_since)
    finally:
        gc.unfreeze()
