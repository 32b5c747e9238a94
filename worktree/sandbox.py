"""A throwaway worktree of one commit: created bare, filled only as asked, always removed.

``git worktree add --no-checkout --detach --lock`` costs a fraction of a second
even in a 50,000-file repository; ``materialize`` then checks out only the paths
a lens asks for with a sparse ``read-tree -mu`` (and ``checkout_all`` the whole
tree, for the suite lens). ``git sparse-checkout set`` is never used: it would
write ``extensions.worktreeConfig`` into the user's shared ``.git/config``.

Hygiene: the hook that starts us may have ``GIT_INDEX_FILE`` or ``GIT_DIR`` set
(pre-commit, linked worktrees, ``git commit -a``); run against a new worktree
they would overwrite the user's index. Every git command here, and every
command run inside the sandbox, gets an environment without them and with the
user's hooks disabled.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from collections.abc import Iterable, Iterator, Mapping
from functools import cached_property
from pathlib import Path

from tribunal.gitcmd import Git, no_git_env
from tribunal.worktree import reaper
from tribunal.worktree.lock import admin_lock
from tribunal.worktree.signals import interrupts_as_exceptions, signals_blocked

NO_HOOKS = ("-c", "core.hooksPath=/dev/null")
SPARSE = ("-c", "core.sparseCheckout=true", "-c", "core.sparseCheckoutCone=false")
PARENT_ENV = "TRIBUNAL_WORKTREE_PARENT"
_TMPFS_MARGIN = 256 << 20


def clean_env(env: Mapping[str, str] | None = None) -> dict[str, str]:
    """``env`` without repository-pointing ``GIT_*`` variables and with hooks disabled.

    The hooks setting travels as ``GIT_CONFIG_COUNT`` entries so that git commands
    a test suite runs inside the sandbox cannot fire the user's hooks either.
    """
    out = no_git_env(env)
    count = int(out.get("GIT_CONFIG_COUNT", "0") or "0")
    out[f"GIT_CONFIG_KEY_{count}"] = "core.hooksPath"
    out[f"GIT_CONFIG_VALUE_{count}"] = "/dev/null"
    out["GIT_CONFIG_COUNT"] = str(count + 1)
    return out


class Sandbox:
    """A worktree at ``path`` with ``commit`` as its detached HEAD."""

    def __init__(self, path: Path, commit: str) -> None:
        self.path = path
        self.commit = commit
        self.env = clean_env()
        self.git = Git(path, env=self.env)
        self._patterns: list[str] = []

    def materialize(self, paths: Iterable[str]) -> None:
        """Check out ``paths`` (files of the commit); everything else stays absent."""
        wanted = [sparse_pattern(p) for p in paths if "\n" not in p and "\r" not in p]
        self._patterns.extend(p for p in wanted if p not in self._patterns)
        self._read_tree()

    def checkout_all(self) -> None:
        """Check out the whole tree (the suite lens needs it)."""
        self._patterns = ["/*"]
        self._read_tree()

    @cached_property
    def _sparse_file(self) -> Path:
        """This worktree's own ``info/sparse-checkout`` (under the common dir's worktrees/)."""
        spec = self.git.text(
            "rev-parse", "--path-format=absolute", "--git-path", "info/sparse-checkout"
        )
        return Path(spec)

    def _read_tree(self) -> None:
        target = self._sparse_file
        target.parent.mkdir(parents=True, exist_ok=True)
        body = "".join(f"{p}\n" for p in self._patterns) or "!/*\n"
        target.write_bytes(body.encode("utf-8", "surrogateescape"))
        self.git.run(*NO_HOOKS, *SPARSE, "read-tree", "-mu", "HEAD")


def sparse_pattern(path: str) -> str:
    """A non-cone sparse-checkout pattern that matches exactly ``path`` (gitignore syntax)."""
    escaped = "".join("\\" + ch if ch in "\\*?[" else ch for ch in path)
    stripped = escaped.rstrip(" ")
    return "/" + stripped + "\\ " * (len(escaped) - len(stripped))


@contextlib.contextmanager
def sandbox(repo_dir: Path, common_dir: Path, commit: str, size_hint: int = 0) -> Iterator[Sandbox]:
    """A sandbox of ``commit`` in the repository at ``repo_dir``, removed on every exit path.

    Leftovers of dead runs are removed first. ``size_hint`` (bytes the caller will
    check out) decides whether a tmpfs location is large enough.
    """
    git = Git(repo_dir, env=clean_env())
    parent = choose_parent(size_hint)
    with interrupts_as_exceptions():
        with admin_lock(common_dir):
            reaper.reap(git, common_dir, candidate_parents())
        path = Path(tempfile.mkdtemp(prefix=f"{reaper.DIR_PREFIX}{os.getpid()}-", dir=parent))
        try:
            with admin_lock(common_dir):
                git.run(
                    *NO_HOOKS,
                    "worktree",
                    "add",
                    "--no-checkout",
                    "--detach",
                    "--lock",
                    "--reason",
                    reaper.lock_reason(os.getpid()),
                    str(path),
                    commit,
                )
            yield Sandbox(path, commit)
        finally:
            with signals_blocked(), admin_lock(common_dir):
                reaper.remove_registered(git, path)
                shutil.rmtree(path, ignore_errors=True)


def candidate_parents() -> list[Path]:
    """Where sandboxes may live, preferred first: an override, tmpfs, then the temp dir."""
    override = os.environ.get(PARENT_ENV)
    if override:
        return [Path(override)]
    found = [Path(p) for p in (os.environ.get("XDG_RUNTIME_DIR"), "/dev/shm") if p]
    found.append(Path(tempfile.gettempdir()))
    return [p for p in dict.fromkeys(found) if p.is_dir() and os.access(p, os.W_OK | os.X_OK)]


def choose_parent(size_hint: int) -> Path:
    """The first candidate with room for ``size_hint`` bytes (tmpfs only if well clear)."""
    candidates = candidate_parents()
    for path in candidates[:-1]:
        with contextlib.suppress(OSError):
            stat = os.statvfs(path)
            if stat.f_bavail * stat.f_frsize >= 2 * size_hint + _TMPFS_MARGIN:
                return path
    return candidates[-1] if candidates else Path(tempfile.gettempdir())
