"""The repository a hook runs in, resolved once with the environment git gave us.

A hook inherits ``GIT_DIR`` (linked worktrees) and ``GIT_INDEX_FILE``
(pre-commit, ``git commit -a``). The common dir is resolved with that original
environment, so it names the right repository; every later git command runs
from the top of the work tree with those variables removed, so nothing can
reach the user's index.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from tribunal.gitcmd import Git, no_git_env


@dataclass(frozen=True)
class Repo:
    common_dir: Path  # shared by every worktree: per-repository state lives under it
    workdir: Path  # where git commands run: the top of the work tree (the git dir if bare)

    def git(self) -> Git:
        """A git for this repository that cannot see the hook's index or git dir."""
        return Git(self.workdir, env=no_git_env())


def open_repo(cwd: Path) -> Repo:
    original = Git(cwd)
    common = original.text("rev-parse", "--path-format=absolute", "--git-common-dir")
    top = original.text("rev-parse", "--show-toplevel", ok_codes=(0, 128))
    if not top:
        top = original.text("rev-parse", "--path-format=absolute", "--git-dir")
    return Repo(Path(common), Path(top))
