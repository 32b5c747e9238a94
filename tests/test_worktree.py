"""The throwaway worktree: sparse, hygienic, locked, always removed, leftovers reaped."""

from __future__ import annotations

import fcntl
import os
import signal
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import pytest

from tests.gitrepo import GitRepo
from tests.hooktools import marker_hook, wait_for
from tribunal.git.cmd import Git
from tribunal.worktree import procs, reaper
from tribunal.worktree.listing import list_worktrees, parse_porcelain
from tribunal.worktree.lock import LockTimeout, admin_lock
from tribunal.worktree.sandbox import sandbox, sparse_pattern
from tribunal.worktree.tempparent import PARENT_ENV, choose_base

FILES = {
    "plain.py": "x = 1\n",
    "dir with space/ü non-ascii.py": "y = 2\n",
    "odd/[a]*?.txt": "brackets\n",
    "odd/trailing ": "space\n",
    "big/other.txt": "not wanted\n",
}


@pytest.fixture
def user(repo: GitRepo) -> GitRepo:
    repo.commit(FILES)
    return repo


def common(repo: GitRepo) -> Path:
    return repo.path / ".git"


def registered(repo: GitRepo) -> list[str]:
    return [e.path for e in list_worktrees(Git(repo.path))][1:]


def test_created_bare_locked_and_removed(user: GitRepo, sandbox_parent: Path) -> None:
    head = user.git("rev-parse", "HEAD")
    with sandbox(user.path, common(user), head) as box:
        entries = list_worktrees(Git(user.path))
        ours = [e for e in entries if e.path == str(box.path)]
        assert ours and ours[0].head == head
        assert (ours[0].locked or "").startswith(f"tribunal convene pid={os.getpid()}")
        assert box.path.parent == sandbox_parent
        assert sorted(p.name for p in box.path.iterdir()) == [".git"]
    assert registered(user) == []
    assert list(sandbox_parent.iterdir()) == []


def test_materialize_only_the_paths_asked_for(user: GitRepo, sandbox_parent: Path) -> None:
    wanted = ["dir with space/ü non-ascii.py", "odd/[a]*?.txt", "odd/trailing "]
    with sandbox(user.path, common(user), "HEAD") as box:
        box.materialize(wanted)
        present = sorted(
            str(p.relative_to(box.path))
            for p in box.path.rglob("*")
            if p.is_file() and ".git" not in p.parts
        )
        assert present == sorted(wanted)
        assert (box.path / "odd/[a]*?.txt").read_text() == "brackets\n"
        box.materialize(["big/other.txt"])
        assert (box.path / "big/other.txt").read_text() == "not wanted\n"
        assert (box.path / "odd/trailing ").is_file()  # what was asked before stays


def test_sparse_pattern_escapes_glob_characters() -> None:
    assert sparse_pattern("a/b.py") == "/a/b.py"
    assert sparse_pattern("odd/[a]*?.txt") == r"/odd/\[a]\*\?.txt"
    assert sparse_pattern("x ") == "/x\\ "
    assert sparse_pattern("back\\slash") == "/back\\\\slash"


def test_inherited_git_variables_cannot_touch_the_users_index(
    user: GitRepo, sandbox_parent: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    user.write({"plain.py": "x = 2\n"})
    user.git("add", "plain.py")
    index = (user.path / ".git" / "index").read_bytes()
    config = (user.path / ".git" / "config").read_bytes()
    monkeypatch.setenv("GIT_INDEX_FILE", str(user.path / ".git" / "index"))
    monkeypatch.setenv("GIT_DIR", str(user.path / ".git"))
    monkeypatch.setenv("GIT_WORK_TREE", str(user.path))
    with sandbox(user.path, common(user), "HEAD") as box:
        box.materialize(["plain.py"])
        assert (box.path / "plain.py").read_text() == "x = 1\n"
    monkeypatch.delenv("GIT_INDEX_FILE")
    monkeypatch.delenv("GIT_DIR")
    monkeypatch.delenv("GIT_WORK_TREE")
    assert (user.path / ".git" / "index").read_bytes() == index
    assert (user.path / ".git" / "config").read_bytes() == config
    assert user.git("diff", "--cached", "--name-only") == "plain.py"


def test_the_users_hooks_do_not_fire_inside(
    user: GitRepo, sandbox_parent: Path, tmp_path: Path
) -> None:
    marker = tmp_path / "fired"
    marker_hook(user.path, "post-checkout", marker)
    with sandbox(user.path, common(user), "HEAD") as box:
        box.materialize(["plain.py"])
        env = box.env
        subprocess.run(
            ["git", "checkout", "-q", "--detach", "HEAD"], cwd=box.path, env=env, check=True
        )
    assert not marker.exists()
    user.git("checkout", "-q", "--detach", "HEAD")
    assert marker.exists()  # the hook itself works: it was disabled only inside


@pytest.mark.parametrize("error", [RuntimeError, KeyboardInterrupt])
def test_removed_when_the_block_raises(
    user: GitRepo, sandbox_parent: Path, error: type[BaseException]
) -> None:
    with pytest.raises(error), sandbox(user.path, common(user), "HEAD") as box:
        box.materialize(["plain.py"])
        raise error()
    assert registered(user) == []
    assert list(sandbox_parent.iterdir()) == []


HOLDER = textwrap.dedent(
    """
    import sys, time
    from pathlib import Path
    from tribunal.worktree.sandbox import sandbox
    repo = Path(sys.argv[1])
    with sandbox(repo, repo / ".git", "HEAD") as box:
        box.materialize(["plain.py"])
        print(box.path, flush=True)
        time.sleep(60)
    """
)


def hold(user: GitRepo) -> tuple[subprocess.Popen[str], Path]:
    proc = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(user.path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    path = Path(proc.stdout.readline().strip())
    assert path.is_dir(), proc.stderr.read() if proc.stderr else ""
    return proc, path


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP])
def test_removed_on_signals(user: GitRepo, sandbox_parent: Path, sig: signal.Signals) -> None:
    proc, path = hold(user)
    assert registered(user) == [str(path)]
    proc.send_signal(sig)
    proc.wait(timeout=30)
    assert registered(user) == []
    assert not path.exists()


def test_a_sigkilled_runs_leftover_is_reaped_by_the_next_run(
    user: GitRepo, sandbox_parent: Path
) -> None:
    proc, path = hold(user)
    proc.kill()
    proc.wait(timeout=30)
    entries = [e for e in list_worktrees(Git(user.path)) if e.path == str(path)]
    assert entries and entries[0].locked  # left behind, locked
    with sandbox(user.path, common(user), "HEAD") as box:
        assert registered(user) == [str(box.path)]
    assert registered(user) == []
    assert not path.exists()


def dead_pid() -> int:
    proc = subprocess.Popen(["true"])
    proc.wait()
    return proc.pid


def test_half_initialized_leftovers_and_strays_of_dead_runs_go(
    user: GitRepo, sandbox_parent: Path
) -> None:
    pid = dead_pid()
    half = sandbox_parent / f"tribunal-wt-{pid}-half"
    user.git(
        "worktree",
        "add",
        "--no-checkout",
        "--detach",
        "--lock",
        "--reason",
        "initializing",
        str(half),
    )
    stray = sandbox_parent / f"tribunal-wt-{pid}-stray"
    stray.mkdir()
    foreign = sandbox_parent / f"tribunal-wt-{pid}-foreign"
    foreign.mkdir()
    (foreign / "keep.txt").write_text("someone else's\n")
    alive = sandbox_parent / f"tribunal-wt-{os.getpid()}-alive"
    alive.mkdir()
    with admin_lock(common(user)):
        removed = reaper.reap(Git(user.path), common(user), [sandbox_parent])
    assert sorted(removed) == sorted([str(half), str(stray)])
    assert registered(user) == []
    assert foreign.is_dir() and alive.is_dir()


def test_the_users_own_and_live_worktrees_are_left_alone(
    user: GitRepo, sandbox_parent: Path, tmp_path: Path
) -> None:
    mine = tmp_path / "my-worktree"
    user.git("worktree", "add", "--detach", "--lock", "--reason", "on a USB disk", str(mine))
    other = tmp_path / "other"
    user.git(
        "worktree",
        "add",
        "--detach",
        "--lock",
        "--reason",
        reaper.lock_reason(os.getpid()),
        str(other),
    )
    with admin_lock(common(user)):
        assert reaper.reap(Git(user.path), common(user), [sandbox_parent]) == []
    assert registered(user) == [str(mine), str(other)]


def test_concurrent_sandboxes_in_one_repository(user: GitRepo, sandbox_parent: Path) -> None:
    errors: list[BaseException] = []
    paths: list[Path] = []

    def work() -> None:
        try:
            for _ in range(3):
                with sandbox(user.path, common(user), "HEAD") as box:
                    box.materialize(["plain.py"])
                    assert (box.path / "plain.py").is_file()
                    paths.append(box.path)
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert errors == []
    assert len(set(paths)) == 12
    assert registered(user) == []
    assert list(sandbox_parent.iterdir()) == []


def test_the_admin_lock_times_out_with_a_message(user: GitRepo) -> None:
    lock = common(user) / "tribunal" / "worktree.lock"
    with admin_lock(common(user)):
        assert lock.is_file()
        fd = os.open(lock, os.O_RDWR)
        try:
            with pytest.raises(BlockingIOError):
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        finally:
            os.close(fd)
        with (
            pytest.raises(LockTimeout, match="held by another tribunal process"),
            admin_lock(common(user), timeout=0.2),
        ):
            pass


def test_process_liveness_sees_zombies_and_reused_pids() -> None:
    assert procs.is_alive(os.getpid())
    assert procs.is_alive(os.getpid(), procs.start_token(os.getpid()))
    assert not procs.is_alive(os.getpid(), "not-the-start-time")
    assert not procs.is_alive(dead_pid())
    zombie = subprocess.Popen(["true"])
    wait_for(lambda: procs._state(zombie.pid) == "Z", what="a zombie")
    try:
        os.kill(zombie.pid, 0)  # a zombie still answers kill(pid, 0)...
        assert not procs.is_alive(zombie.pid)  # ...but is not alive
    finally:
        zombie.wait()


def test_porcelain_parsing_with_and_without_nul() -> None:
    z = (
        b"worktree /r\0HEAD abc\0branch refs/heads/main\0\0"
        b"worktree /t/a\nb\0HEAD def\0detached\0locked\0\0"
    )
    assert parse_porcelain(z, b"\0") == [
        ("/r", "abc", None),
        ("/t/a\nb", "def", ""),
    ]
    plain = b"worktree /r\nHEAD abc\nbare\n\nworktree /t/x\nHEAD def\nlocked why not\n\n"
    assert parse_porcelain(plain, b"\n")[1] == ("/t/x", "def", "why not")


def test_tmpfs_is_used_only_when_it_has_room(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv(PARENT_ENV, raising=False)
    roomy = tmp_path / "runtime"
    roomy.mkdir()
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(roomy))
    assert choose_base(0) == roomy
    assert choose_base(1 << 60) != roomy
    monkeypatch.setenv(PARENT_ENV, str(tmp_path))
    assert choose_base(1 << 60) == tmp_path
