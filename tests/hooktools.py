"""Helpers for the hook tests: a user repository with a bare remote, and proof that
nothing of the user's was touched (working tree, index, stash, untracked and ignored
files, ``.git/config``, refs, worktrees)."""

from __future__ import annotations

import contextlib
import hashlib
import os
import signal
import subprocess
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from tests.gitrepo import GitRepo, Result, run_git

ASSERTION_FREE_TEST = "def test_nothing():\n    pass\n"
#: A shell script (``sh leave.sh DIR``) that leaves two processes behind and records their
#: pids in DIR: a background child in a session of its own (``setsid``) and a daemon that
#: double-forks (its parent exits, so it is re-parented). Linux-only: macOS has no setsid(1).
LEAVE_BEHIND = """\
dir=$1
child='echo $$ > "$0/$1.tmp" && mv "$0/$1.tmp" "$0/$1.pid" && exec sleep 300'
setsid sh -c "$child" "$dir" setsid &
( setsid sh -c "$child" "$dir" daemon & )
while [ ! -e "$dir/setsid.pid" ] || [ ! -e "$dir/daemon.pid" ]; do sleep 0.05; done
"""
GOOD_TEST = "from calc import add\n\n\ndef test_add():\n    assert add(1, 2) == 3\n"


@dataclass
class UserRepo:
    """A work repository with a bare ``origin``; ``env`` goes to every git call."""

    repo: GitRepo
    remote: Path
    env: dict[str, str] = field(default_factory=dict)

    @property
    def path(self) -> Path:
        return self.repo.path

    @classmethod
    def create(cls, base: Path, env: Mapping[str, str] | None = None) -> UserRepo:
        remote = base / "remote.git"
        subprocess.run(["git", "init", "-q", "--bare", "-b", "main", str(remote)], check=True)
        user = cls(GitRepo.init(base / "work"), remote, dict(env or {}))
        user.git("remote", "add", "origin", str(remote))
        return user

    def git(self, *args: str, check: bool = True, cwd: Path | None = None) -> str:
        return run_git(cwd or self.path, args, self.env, check=check).stdout.strip()

    def run(self, *args: str, cwd: Path | None = None, stdin: str | None = None) -> Result:
        return run_git(cwd or self.path, args, self.env, check=False, stdin=stdin)

    def commit(
        self, files: Mapping[str, str | None], message: str = "c", verify: bool = False
    ) -> str:
        self.repo.write(files)
        self.git("add", "-A")
        flags = [] if verify else ["--no-verify"]
        self.git("commit", "-q", *flags, "-m", message)
        return self.git("rev-parse", "HEAD")

    def remote_sha(self, ref: str) -> str:
        out = run_git(self.remote, ("rev-parse", "--verify", "--quiet", ref), {}, check=False)
        return out.stdout.strip()

    def worktrees(self) -> list[str]:
        out = self.git("worktree", "list", "--porcelain")
        return [line.split(" ", 1)[1] for line in out.splitlines() if line.startswith("worktree ")]

    def summaries(self, commit: str = "") -> list[Path]:
        """Every ``runs/<key>/summary.json`` (of ``commit``, when given)."""
        runs = self.path / ".git" / "tribunal" / "runs"
        return sorted(runs.glob(f"{commit[:12]}*/summary.json")) if runs.is_dir() else []


def state(path: Path) -> dict[str, object]:
    """Everything of the user's that a hook must leave as it was (remote-tracking refs aside)."""
    gitdir = Path(_git_out(path, "rev-parse", "--absolute-git-dir").strip())
    common = Path(_git_out(path, "rev-parse", "--path-format=absolute", "--git-common-dir").strip())
    return {
        "files": _tree_digest(path),
        "index": _git_out(path, "ls-files", "-s", "--debug"),
        "stash": _git_out(path, "stash", "list"),
        "untracked": _git_out(path, "ls-files", "-o", "-z"),
        "config": (common / "config").read_bytes(),
        "refs": _git_out(
            path, "for-each-ref", "--format=%(refname) %(objectname)", "refs/heads", "refs/tags"
        ),
        "head": (gitdir / "HEAD").read_bytes(),
        "worktrees": _git_out(path, "worktree", "list", "--porcelain"),
    }


def remote_refs(path: Path) -> str:
    return _git_out(path, "for-each-ref", "--format=%(refname) %(objectname)", "refs/remotes")


def _git_out(path: Path, *args: str) -> str:
    return run_git(path, args, {"GIT_OPTIONAL_LOCKS": "0"}, check=True).stdout


def _tree_digest(root: Path) -> dict[str, str]:
    """Every file under ``root`` except git's own directory: content and mode."""
    out = {}
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if not (Path(dirpath) == root and d == ".git")]
        for name in filenames:
            full = Path(dirpath) / name
            if full.is_symlink():
                out[str(full.relative_to(root))] = "link:" + os.readlink(full)
                continue
            data = full.read_bytes()
            out[str(full.relative_to(root))] = (
                f"{oct(full.stat().st_mode)}:{hashlib.sha256(data).hexdigest()}"
            )
    return out


def wait_for(predicate: Callable[[], bool], timeout: float = 30.0, what: str = "condition") -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.05)
    raise AssertionError(f"timed out after {timeout} s waiting for {what}")


def start(cwd: Path, argv: list[str], env: Mapping[str, str]) -> subprocess.Popen[str]:
    """A process in its own session, so the test can signal its whole group like a terminal."""
    return subprocess.Popen(
        argv,
        cwd=cwd,
        env={**os.environ, **env},
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )


def signal_group(proc: subprocess.Popen[str], sig: signal.Signals) -> None:
    os.killpg(proc.pid, sig)


def marker_hook(repo: Path, name: str, marker: Path) -> None:
    """Install the hook ``name`` in ``repo`` that appends a line to ``marker`` when it fires."""
    hook = repo / ".git" / "hooks" / name
    hook.write_text(f"#!/bin/sh\necho fired >> '{marker}'\n")
    hook.chmod(0o755)


def left_behind(pid_dir: Path) -> list[int]:
    """The pids ``LEAVE_BEHIND`` recorded in ``pid_dir``."""
    return [int((pid_dir / f"{name}.pid").read_text()) for name in ("setsid", "daemon")]


def all_gone(pids: list[int]) -> bool:
    """No process with these pids runs any more (a zombie counts as gone)."""
    from tribunal.worktree.procs import is_alive

    return not any(is_alive(pid) for pid in pids)


def global_git_configs(env: Mapping[str, str] | None = None) -> dict[str, bytes | None]:
    """The user's global git config files, byte for byte (None: absent)."""
    source = {**os.environ, **(env or {})}
    home = Path(source["HOME"])
    xdg = Path(source.get("XDG_CONFIG_HOME") or home / ".config")
    paths = [home / ".gitconfig", xdg / "git" / "config"]
    return {str(p): p.read_bytes() if p.exists() else None for p in paths}


def object_files(path: Path) -> list[str]:
    """Every file under the repository's object directory (loose objects, packs)."""
    common = Path(_git_out(path, "rev-parse", "--path-format=absolute", "--git-common-dir").strip())
    root = common / "objects"
    return sorted(str(p.relative_to(root)) for p in root.rglob("*") if p.is_file())


def kill_pid_file(path: Path) -> None:
    """Stop the process whose pid a suite command wrote (it survives a SIGKILLed hook)."""
    with contextlib.suppress(OSError, ValueError):
        os.kill(int(path.read_text().strip()), signal.SIGKILL)


def no_locks_left(path: Path) -> None:
    """No lock of git's (``*.lock`` files, a worktree's admin entry) is left in ``path``'s
    repository, and tribunal's own lock files (kept on purpose) are free to take."""
    import fcntl

    common = Path(_git_out(path, "rev-parse", "--path-format=absolute", "--git-common-dir").strip())
    ours = common / "tribunal"
    locks = sorted(common.rglob("*.lock"))
    assert [p for p in locks if p.parent != ours] == []
    admin = common / "worktrees"
    assert not admin.exists() or list(admin.iterdir()) == []
    for lock in (p for p in locks if p.parent == ours):
        fd = os.open(lock, os.O_RDWR)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # BlockingIOError while held
        finally:
            os.close(fd)


def group_gone(proc: subprocess.Popen[str]) -> bool:
    """Whether no process of ``proc``'s group (it leads one: ``start``) is left."""
    try:
        os.killpg(proc.pid, 0)
    except ProcessLookupError:
        return True
    return False
