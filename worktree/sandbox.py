"""A throwaway worktree of one commit: created bare, filled only as asked, always removed.

``git worktree add --no-checkout --detach --lock`` costs a fraction of a second
even in a 50,000-file repository; ``materialize`` then checks out only the paths
a lens asks for with a sparse ``read-tree -mu``. ``git sparse-checkout set`` is
never used: it would write ``extensions.worktreeConfig`` into the user's shared
``.git/config``. Nothing that runs the project's code runs here: a linked
worktree shares the user's refs, config and stash, so the suite lens gets a
repository of its own (``suiterepo``).

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

from tribunal.git.cmd import Git, no_git_env
from tribunal.worktree import reaper, tempparent
from tribunal.worktree.lock import admin_lock
from tribunal.worktree.signals import interrupts_as_exceptions, signals_blocked

NO_HOOKS = ("-c", "core.hooksPath=/dev/null")
SPARSE = ("-c", "core.sparseCheckout=true", "-c", "core.sparseCheckoutCone=false")


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
    """A worktree at ``path`` with ``commit`` as its detached HEAD, of the repository whose
    work tree is ``source`` and whose git common dir is ``common_dir``."""

    def __init__(self, path: Path, commit: str, source: Path, common_dir: Path) -> None:
        self.path = path
        self.commit = commit
        self.source = source
        self.common_dir = common_dir
        self.env = clean_env()
        self.git = Git(path, env=self.env)
        self._patterns: list[str] = []

    def materialize(self, paths: Iterable[str]) -> None:
        """Check out ``paths`` (files of the commit); everything else stays absent."""
        wanted = [sparse_pattern(p) for p in paths if "\n" not in p and "\r" not in p]
        self._patterns.extend(p for p in wanted if p not in self._patterns)
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
def sandbox(repo_dir: Path, common_dir: Path, commit: str) -> Iterator[Sandbox]:
    """A sandbox of ``commit`` in the repository at ``repo_dir``, removed on every exit path.

    Leftovers of dead runs are removed first.
    """
    git = Git(repo_dir, env=clean_env())
    parent = tempparent.parent_in(tempparent.choose_base(0))
    with interrupts_as_exceptions():
        with admin_lock(common_dir):
            reaper.reap(git, common_dir, sweep_dirs())
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
            yield Sandbox(path, commit, repo_dir, common_dir)
        finally:
            with signals_blocked(), admin_lock(common_dir):
                reaper.remove_registered(git, path)
                shutil.rmtree(path, ignore_errors=True)


def sweep_dirs() -> list[Path]:
    """Every place a sandbox of ours may have been left: each location's private
    directory, and the location itself (private ``mkdtemp`` fallbacks, older versions)."""
    found: list[Path] = []
    for base in tempparent.bases():
        private = tempparent.existing_private(base)
        found += [private, base] if private is not None else [base]
    return found
