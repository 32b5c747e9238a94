"""The temp parent is ours alone: sandboxes live in a private ``tribunal-<uid>`` directory,
a look-alike that is not ours is never used, and junk or foreign entries in the shared
directories are skipped by the reaper, never a crash."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from tests.gitrepo import GitRepo
from tribunal.git.cmd import Git
from tribunal.worktree import reaper
from tribunal.worktree.listing import Entry
from tribunal.worktree.lock import admin_lock
from tribunal.worktree.sandbox import sandbox
from tribunal.worktree.tempparent import PARENT_ENV, private_name

JUNK = "tribunal-wt-99999999999999999999-x"
as_root = pytest.mark.skipif(os.getuid() != 0, reason="giving a directory away needs root")


@pytest.fixture
def runtime(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A tmpfs-like location of the test's own, first in line (no parent override)."""
    path = tmp_path / "runtime"
    path.mkdir()
    monkeypatch.delenv(PARENT_ENV, raising=False)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(path))
    return path


@pytest.fixture
def user(repo: GitRepo) -> GitRepo:
    repo.commit({"a.py": "a = 1\n"})
    return repo


def dead_pid() -> int:
    proc = subprocess.Popen(["true"])
    proc.wait()
    return proc.pid


def mode(path: Path) -> int:
    return stat.S_IMODE(os.lstat(path).st_mode)


def make_sandbox(user: GitRepo) -> Path:
    with sandbox(user.path, user.path / ".git", "HEAD") as box:
        assert (box.path / ".git").is_file()
        return box.path


def test_sandboxes_live_in_a_private_directory(user: GitRepo, runtime: Path) -> None:
    made = make_sandbox(user)
    private = runtime / private_name()
    assert made.parent == private
    assert mode(private) == 0o700 and os.lstat(private).st_uid == os.getuid()
    assert list(private.iterdir()) == []


def test_a_private_directory_made_under_a_strict_umask_is_still_usable(
    user: GitRepo, runtime: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old = os.umask(0o777)
    try:
        made = make_sandbox(user)
    finally:
        os.umask(old)
    assert made.parent == runtime / private_name()
    assert "private temporary" not in capsys.readouterr().err


def lookalike_symlink(runtime: Path, tmp_path: Path) -> Path:
    target = tmp_path / "elsewhere"
    target.mkdir(mode=0o700)
    (runtime / private_name()).symlink_to(target)
    return target


def lookalike_wide_open(runtime: Path, tmp_path: Path) -> Path:
    path = runtime / private_name()
    path.mkdir()
    path.chmod(0o755)
    return path


def lookalike_file(runtime: Path, tmp_path: Path) -> Path:
    path = runtime / private_name()
    path.write_text("not a directory\n")
    return path


@pytest.mark.parametrize(
    ("plant", "problem"),
    [
        (lookalike_symlink, "is a symbolic link"),
        (lookalike_wide_open, "has mode 0755, not 0700"),
        (lookalike_file, "is not a directory"),
    ],
)
def test_a_lookalike_parent_is_not_used(
    user: GitRepo,
    runtime: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    plant: object,
    problem: str,
) -> None:
    planted = plant(runtime, tmp_path)  # type: ignore[operator]
    first, second = make_sandbox(user), make_sandbox(user)
    assert first.parent == runtime and second.parent == runtime
    err = capsys.readouterr().err
    assert err.count(problem) == 1  # said once
    assert f"using private temporary directories in {runtime} instead" in err
    if planted.is_dir():
        assert list(planted.iterdir()) == []
    assert [p.name for p in runtime.iterdir()] == [private_name()]


@as_root
def test_a_parent_owned_by_someone_else_is_not_used(
    user: GitRepo, runtime: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    foreign = runtime / private_name()
    foreign.mkdir(mode=0o700)
    os.chown(foreign, 4242, 4242)
    made = make_sandbox(user)
    assert made.parent == runtime
    assert "is owned by uid 4242" in capsys.readouterr().err
    assert list(foreign.iterdir()) == []


def test_junk_and_foreign_entries_are_skipped_and_dead_runs_are_swept(
    user: GitRepo, runtime: Path, tmp_path: Path
) -> None:
    private = runtime / private_name()
    private.mkdir(mode=0o700)
    pid = dead_pid()
    kept_target = tmp_path / "precious"
    kept_target.mkdir()
    (kept_target / "keep.txt").write_text("mine\n")
    junk = [
        runtime / JUNK,
        private / JUNK,
        private / "tribunal-suite-99999999999999999999-x",
        private / "tribunal-wt-0-zero",
        private / "tribunal-wt-١٢٣-digits",  # digits, but not ASCII ones
    ]
    for path in junk:
        path.mkdir()
    (private / f"tribunal-suite-{pid}-file").write_text("a file, not a sandbox\n")
    (private / f"tribunal-suite-{pid}-link").symlink_to(kept_target)
    dead_suite = private / f"tribunal-suite-{pid}-old"
    (dead_suite / "repo").mkdir(parents=True)
    (dead_suite / "repo" / "readonly").mkdir()
    (dead_suite / "repo" / "readonly" / "f").write_text("x\n")
    (dead_suite / "repo" / "readonly").chmod(0o500)
    dead_fallback = runtime / f"tribunal-suite-{pid}-fallback"
    dead_fallback.mkdir()
    make_sandbox(user)
    assert all(path.is_dir() for path in junk)
    assert (private / f"tribunal-suite-{pid}-file").is_file()
    assert (kept_target / "keep.txt").read_text() == "mine\n"
    assert not dead_suite.exists() and not dead_fallback.exists()


@as_root
def test_another_users_dead_entry_is_left_alone(user: GitRepo, runtime: Path) -> None:
    pid = dead_pid()
    foreign = runtime / f"tribunal-suite-{pid}-theirs"
    foreign.mkdir()
    os.chown(foreign, 4242, 4242)
    with admin_lock(user.path / ".git"):
        assert reaper.reap(Git(user.path), user.path / ".git", [runtime]) == []
    assert foreign.is_dir()


def test_a_forged_owner_with_an_impossible_pid_is_not_ours() -> None:
    huge = "99999999999999999999"
    assert reaper.owner_of(Entry("/x/y", "abc", f"tribunal convene pid={huge}")) is None
    assert reaper.owner_of(Entry(f"/x/tribunal-wt-{huge}-x", "abc", "initializing")) is None
    assert reaper.owner_of(Entry("/x/tribunal-wt-12-x", "abc", "initializing")) == (12, None)
    assert reaper.parse_pid("0") is None and reaper.parse_pid("2147483647") == 2147483647


@pytest.mark.skipif(
    not sys.platform.startswith("linux") or not os.access("/dev/shm", os.W_OK),
    reason="needs a writable /dev/shm",
)
def test_junk_in_the_real_dev_shm_stops_nothing(
    user: GitRepo, runtime: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The case from the issue: anyone can ``mkdir /dev/shm/tribunal-wt-9999...-x``."""
    junk = Path("/dev/shm") / JUNK
    made = not junk.exists()
    junk.mkdir(exist_ok=True)
    try:
        monkeypatch.delenv("XDG_RUNTIME_DIR")  # /dev/shm itself is now first in line
        path = make_sandbox(user)
        assert path.parent == Path("/dev/shm") / private_name()
        assert junk.is_dir()
    finally:
        if made:
            junk.rmdir()
