"""The repository git runs a hook for, resolved once with the environment git gave us.

git exports ``GIT_DIR`` to a hook only when it was given (``git --git-dir=...``,
``$GIT_DIR``), in a linked worktree, with a ``--separate-git-dir`` checkout, or as
``GIT_DIR=.`` in a bare repository; otherwise the hook's current directory is
the top of the work tree. So the git dir and the common dir are resolved from
the hook's current directory with its original environment, and every later
git command names that git dir explicitly (``git --git-dir=<absolute>``) with
the other inherited variables (``GIT_INDEX_FILE``, ``GIT_WORK_TREE``, ...)
removed: it reads the right repository and can never reach the user's index.

The checkout (the top of the work tree) is known when git found the repository
itself, when ``GIT_WORK_TREE`` or ``core.worktree`` names it, or when the
current directory's own ``.git`` leads to the same git dir (a linked worktree, a
``--separate-git-dir`` checkout). When ``GIT_DIR`` was given without a work
tree, git takes the current directory as one, which says nothing about the
repository: then there is no checkout, and nothing is read from the current
directory (analyzers read the object database and need none).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from tribunal.errors import GitError
from tribunal.git.cmd import Git, no_git_env


@dataclass(frozen=True)
class Repo:
    git_dir: Path  # this worktree's git dir (absolute)
    common_dir: Path  # shared by every worktree: per-repository state lives under it
    checkout: Path | None  # the top of the work tree; None when no checkout is known

    @property
    def workdir(self) -> Path:
        """Where git commands run: the checkout, else the common dir (nothing of the cwd)."""
        return self.checkout or self.common_dir

    def git(self) -> Git:
        """A git pinned to this repository that cannot see the hook's index or work tree."""
        return Git(self.workdir, env=no_git_env(), git_dir=self.git_dir)


def open_repo(cwd: Path, env: Mapping[str, str] | None = None) -> Repo:
    """The repository of a hook (or command) started in ``cwd`` with ``env`` (default: ours)."""
    environ = os.environ if env is None else env
    original = Git(cwd, env=environ)
    try:
        out = original.text(
            "rev-parse",
            "--path-format=absolute",
            "--git-dir",
            "--git-common-dir",
            "--is-bare-repository",
        )
    except GitError:
        raise GitError(f"{cwd}: not inside a git repository") from None
    git_dir, common_dir, bare = out.split("\n")
    checkout = None if bare == "true" else _checkout(original, cwd, environ, Path(git_dir))
    return Repo(Path(git_dir), Path(common_dir), checkout)


def _checkout(original: Git, cwd: Path, env: Mapping[str, str], git_dir: Path) -> Path | None:
    given_dir = "GIT_DIR" in env
    named_tree = "GIT_WORK_TREE" in env or bool(
        original.text("config", "--get", "core.worktree", ok_codes=(0, 1))
    )
    if not given_dir or named_tree:
        return _toplevel(original)
    own = Git(cwd, env=no_git_env(env))
    found = own.text("rev-parse", "--path-format=absolute", "--git-dir", ok_codes=(0, 128))
    if found and _same(Path(found), git_dir):
        return _toplevel(own)
    return None  # git was told where the repository is; the cwd is not its checkout


def _toplevel(git: Git) -> Path | None:
    top = git.text("rev-parse", "--show-toplevel", ok_codes=(0, 128))
    return Path(top) if top else None


def _same(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve()
    except OSError:
        return False
