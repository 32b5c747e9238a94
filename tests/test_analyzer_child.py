"""The convene's analyzer child: killed at the deadline, on an exception, with its parent.

Real forks, real git: the child is given a real change and left waiting for the
council's advice (never sent here), so it is certainly unfinished when the
deadline or the exception comes, whatever the machine's speed.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests import hookscenarios as sc
from tests.engine_helpers import change_between
from tests.gitrepo import GitRepo
from tests.hooktools import UserRepo, group_gone, no_locks_left, start, wait_for
from tribunal.change.model import Change
from tribunal.config.model import Config
from tribunal.errors import GitError
from tribunal.findings import Finding, Verdict
from tribunal.hooks.analyzer_child import CLAIMS_ANALYZER, AnalyzerChild, analyzer_child
from tribunal.hooks.members import convene_members
from tribunal.hooks.progress import Progress
from tribunal.lenses import LensPlan, configured_lenses, plan
from tribunal.worktree.sandbox import Sandbox

LIMIT = 1 << 20


def analyzer_plans() -> list[LensPlan]:
    config = Config()
    return [plan(lens, config) for lens in configured_lenses(config) if lens.kind == "analyzers"]


def gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


@pytest.fixture
def commits(repo: GitRepo) -> tuple[str, str]:
    base = repo.commit({"calc.py": "def add(a, b):\n    return a + b\n"}, "base")
    head = repo.commit({"tests/test_calc.py": "def test_add():\n    pass\n"}, "an empty test")
    return base, head


def test_a_child_still_working_at_the_deadline_is_killed_and_its_lens_is_error(
    repo: GitRepo, commits: tuple[str, str], tmp_path: Path
) -> None:
    plans = analyzer_plans()
    assert any(CLAIMS_ANALYZER in p.runnable for p in plans)
    with change_between(repo, *commits) as change:
        git = change.git
        assert git is not None
        assert git.read_blob(f"{commits[0]}:calc.py", LIMIT)  # the parent's reader is running
        with analyzer_child(plans, lambda: change, lambda c: None, lambda c, advice: None) as child:
            assert child is not None and child.pid is not None
            box = Sandbox(tmp_path, commits[1], repo.path, repo.path / ".git")
            outcomes = convene_members(plans, child, box, Config(), 1.0, Progress(enabled=False))
            assert gone(child.pid)  # killed and reaped before convene_members returned
        assert {o.verdict for o in outcomes} == {"ERROR"}  # it never got past the advice
        assert all("within the convene time budget" in (o.error or "") for o in outcomes)
        after = git.read_blob(f"{commits[1]}:tests/test_calc.py", LIMIT)
        assert after == b"def test_add():\n    pass\n"


def test_an_exception_in_the_convene_kills_the_child(
    repo: GitRepo, commits: tuple[str, str]
) -> None:
    with change_between(repo, *commits) as change:
        pid = None
        with (
            pytest.raises(RuntimeError, match="the sandbox failed"),
            analyzer_child(
                analyzer_plans(), lambda: change, lambda c: None, lambda c, a: None
            ) as child,
        ):
            assert child is not None
            pid = child.pid
            raise RuntimeError("the sandbox failed")
        assert pid is not None and gone(pid)


def test_a_child_that_crashes_makes_every_unfinished_lens_error(
    repo: GitRepo, commits: tuple[str, str], tmp_path: Path
) -> None:
    def crash(change: Change) -> None:
        os._exit(7)

    plans = analyzer_plans()
    with change_between(repo, *commits) as change:
        child = AnalyzerChild(plans, lambda: change, crash, lambda c, a: None)
        try:
            box = Sandbox(tmp_path, commits[1], repo.path, repo.path / ".git")
            outcomes = convene_members(plans, child, box, Config(), 60.0, Progress(enabled=False))
        finally:
            child.close()
    assert {o.verdict for o in outcomes} == {"ERROR"}
    assert all("the analyzer process died (exit 7)" in (o.error or "") for o in outcomes)


def test_the_child_builds_the_change_and_hands_back_what_the_parent_needs(
    repo: GitRepo, commits: tuple[str, str], tmp_path: Path
) -> None:
    """The parent never holds the diff (a big push would keep two copies of it): the
    child builds it, and sends back ``noted`` for the summary before judging."""
    built_in = tmp_path / "built-in"
    plans = analyzer_plans()

    def note(change: Change) -> list[Finding]:
        paths = ", ".join(fc.path for fc in change.files)
        return [Finding("suppression", Verdict.UNVERIFIED, "x.py", 1, "noted", paths)]

    with change_between(repo, *commits) as change:

        def make_change() -> Change:
            built_in.write_text(str(os.getpid()))
            return change

        with analyzer_child(
            plans, make_change, lambda c: None, lambda c, a: None, noted=note
        ) as child:
            assert child is not None and child.pid is not None
            child.advise(None)
            box = Sandbox(tmp_path, commits[1], repo.path, repo.path / ".git")
            outcomes = convene_members(plans, child, box, Config(), 60.0, Progress(enabled=False))
            assert built_in.read_text() == str(child.pid) != str(os.getpid())
            assert child.noted is not None
            assert [f.detail for f in child.noted] == ["tests/test_calc.py"]
    assert {o.verdict for o in outcomes} == {"CONTRADICTED", "PASS"}  # the empty test


def test_a_change_that_cannot_be_built_makes_every_analyzer_lens_error(
    repo: GitRepo, commits: tuple[str, str], tmp_path: Path
) -> None:
    def make_change() -> Change:
        raise GitError("fatal: bad object deadbeef")

    plans = analyzer_plans()
    with analyzer_child(plans, make_change, lambda c: None, lambda c, a: None) as child:
        assert child is not None
        child.advise(None)
        box = Sandbox(tmp_path, commits[1], repo.path, repo.path / ".git")
        outcomes = convene_members(plans, child, box, Config(), 60.0, Progress(enabled=False))
        assert child.noted is None  # the parent reads the change itself, or fails as it did
    assert {o.verdict for o in outcomes} == {"ERROR"}
    assert all(
        o.error == "reading the change failed: GitError: fatal: bad object deadbeef"
        for o in outcomes
    )


def test_a_child_killed_while_reading_objects_leaves_the_parents_reader_intact(
    repo: GitRepo, tmp_path: Path
) -> None:
    """The child reads through its own ``git cat-file``: killed mid-read, it leaves no
    half-read object on a pipe the parent shares, so the parent's next reads are exact."""
    big = "".join(f"line {i}\n" for i in range(80_000)).encode()  # 0.9 MB: reads take a while
    base = repo.commit({"small.txt": "small\n"}, "base")
    head = repo.commit({"big.txt": big.decode()}, "big")
    started = tmp_path / "child-reader"
    with change_between(repo, base, head) as change:
        git = change.git
        assert git is not None
        assert git.read_blob(f"{base}:small.txt", LIMIT) == b"small\n"  # the parent's reader

        def read_forever(change: Change) -> None:  # the child's "claims": reads until killed
            assert git.read_blob(f"{head}:big.txt", LIMIT) == big
            started.write_text(" ".join(map(str, forked_readers(os.getpid()))))
            while True:
                git.read_blob(f"{head}:big.txt", LIMIT)

        plans = analyzer_plans()
        with analyzer_child(plans, lambda: change, read_forever, lambda c, a: None) as child:
            assert child is not None and child.pid is not None
            wait_for(started.exists, what="the child's first read", timeout=60)
            wait_for(lambda: started.read_text() != "", what="the child's reader", timeout=10)
            child.kill()  # SIGKILL in the middle of its reading loop
            assert gone(child.pid)
        child_readers = set(started.read_text().split())
        assert child_readers  # the child started a cat-file of its own ...
        assert not child_readers & set(map(str, forked_readers(os.getpid())))  # ... not ours
        for _ in range(3):  # the parent's pipe holds no leftover of the child's reads
            assert git.read_blob(f"{base}:small.txt", LIMIT) == b"small\n"
            assert git.read_blob(f"{head}:big.txt", LIMIT) == big


def forked_readers(pid: int) -> list[int]:
    """The ``git cat-file --batch`` processes ``pid`` started."""
    kids = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    readers = []
    for kid in kids:
        with contextlib.suppress(FileNotFoundError, ProcessLookupError):
            if b"cat-file\0--batch" in Path(f"/proc/{kid}/cmdline").read_bytes():
                readers.append(int(kid))
    return readers


# -- the hook's process killed outright: its child must not live on ------------------------


class SilentEndpoint:
    """A chat endpoint on 127.0.0.1 that takes connections and never answers."""

    def __init__(self, listener: socket.socket) -> None:
        self.listener = listener
        self.url = f"http://127.0.0.1:{listener.getsockname()[1]}"
        self.held: list[socket.socket] = []

    def wait_for_request(self) -> None:
        """Until the council has connected: the convene has forked its child by then."""
        self.listener.settimeout(60)
        self.held.append(self.listener.accept()[0])


@pytest.fixture
def silent_endpoint() -> Iterator[SilentEndpoint]:
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(16)
        endpoint = SilentEndpoint(listener)
        yield endpoint
        for held in endpoint.held:
            held.close()


def test_a_sigkilled_convene_takes_its_analyzer_child_along(
    tmp_path: Path, silent_endpoint: SilentEndpoint
) -> None:
    """The parent waits on a council that never answers; its child waits for the advice."""
    user = council_user(tmp_path, silent_endpoint)
    proc = start(
        user.path, [sys.executable, "-m", "tribunal", "convene", "--ref", "HEAD"], user.env
    )
    try:
        silent_endpoint.wait_for_request()
        child = steady_fork(proc.pid)
        os.kill(proc.pid, signal.SIGKILL)  # no handler runs, no finally: only the kernel helps
        proc.communicate(timeout=60)
        wait_for(lambda: gone(child), what="the orphaned analyzer child", timeout=30)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
    wait_for(lambda: group_gone(proc), what="every process of the convene", timeout=30)
    no_locks_left(user.path)


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP])
def test_a_signal_while_the_council_is_consulted_ends_the_child_too(
    tmp_path: Path, silent_endpoint: SilentEndpoint, sig: signal.Signals
) -> None:
    user = council_user(tmp_path, silent_endpoint)
    proc = start(
        user.path, [sys.executable, "-m", "tribunal", "convene", "--ref", "HEAD"], user.env
    )
    silent_endpoint.wait_for_request()
    child = steady_fork(proc.pid)
    os.kill(proc.pid, sig)  # the parent alone: it must end the child itself
    out, _ = proc.communicate(timeout=60)
    assert proc.returncode == 128 + sig, out
    assert "Traceback" not in out
    assert gone(child)  # reaped by the parent before it exited
    wait_for(lambda: group_gone(proc), what="every process of the convene", timeout=30)
    sc.no_sandboxes_left(user)
    no_locks_left(user.path)


def council_user(tmp_path: Path, endpoint: SilentEndpoint) -> UserRepo:
    """A repository whose trusted config asks a council at ``endpoint``, with a change."""
    user: UserRepo = sc.make_user(tmp_path, lambda u: None, {"TRIBUNAL_ALLOW_SEND_DIFF": "1"})
    members = "".join(
        f"    - {{id: {i}, provider: openai, model: m, endpoint: '{endpoint.url}/v1'}}\n"
        for i in "ab"
    )
    council = "council:\n  enabled: true\n  timeout: 300\n  members:\n" + members
    sc.set_remote_config(user, council)
    user.commit(sc.BAD, "bad")
    return user


def steady_fork(pid: int) -> int:
    """The analyzer child of ``pid``: a fork still there on the next look (a git command
    between its fork and its exec shows the parent's command line for a moment)."""
    looks: list[set[int]] = [set()]

    def steady() -> bool:
        looks.append(set(forked_children(pid)))
        return bool(looks[-1] & looks[-2])

    wait_for(steady, what="the analyzer child", timeout=60)
    [child] = looks[-1] & looks[-2]
    return child


def forked_children(pid: int) -> list[int]:
    """Children of ``pid`` running its own program (forks, not the git commands it runs)."""
    try:
        kids = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
        own = Path(f"/proc/{pid}/cmdline").read_bytes()
        return [int(k) for k in kids if Path(f"/proc/{k}/cmdline").read_bytes() == own]
    except (FileNotFoundError, ProcessLookupError):
        return []


def test_a_push_of_two_refs_prints_each_result_once(tmp_path: Path) -> None:
    """Output the hook had buffered when it forked the second ref's child is not repeated
    by that child (a child flushes the standard streams it inherited as it exits)."""

    def install(user: UserRepo) -> None:
        assert user.repo.tribunal("install", env=user.env).code == 0

    user = sc.make_user(tmp_path, install)
    user.git("checkout", "-q", "-b", "one")
    user.commit(sc.GOOD, "one")
    user.git("checkout", "-q", "-b", "two")
    user.commit({"tests/test_two.py": sc.GOOD_TEST.replace("test_add", "test_two")}, "two")
    result = sc.push(user, "origin", "one", "two")
    assert result.code == 0, sc.output(result)
    lines = sc.tribunal_lines(result)
    for ref in ("refs/heads/one", "refs/heads/two"):
        assert len([line for line in lines if f"✓ {ref} (" in line]) == 1, lines
    assert len(lines) == len(set(lines)), lines
