"""The diff text the advisors read: a file, stdin, or git (through the chokepoint).

Models want context, so git is asked for three lines of it (the engine's own
``-U0`` diff is for parsing, not for reading). Only ``Git.run`` touches git.
"""

from __future__ import annotations

import sys
from pathlib import Path

from tribunal.engine.sources import Selection, check_selection, empty_tree, require_commit
from tribunal.errors import GitError, InputError, UsageError
from tribunal.git.cmd import Git, find_repo_root

GIT_DIFF = (
    "diff",
    "-U3",
    "-M",
    "--no-ext-diff",
    "--no-textconv",
    "--no-color",
    "--src-prefix=a/",
    "--dst-prefix=b/",
)


def read_diff(cwd: Path, diff: str | None, base: str | None, head: str | None, staged: bool) -> str:
    """The change named by the flags, as unified-diff text."""
    check_selection(Selection(base, head, staged, diff))
    if diff is not None:
        return _read_input(diff, cwd)
    if base is None and not staged:
        raise UsageError("name a change: --diff FILE|-, --base REF [--head REF], or --staged")
    return _git_diff(cwd, base, head or "HEAD", staged)


def _read_input(name: str, cwd: Path) -> str:
    if name == "-":
        return sys.stdin.buffer.read().decode("utf-8", "replace")
    path = Path(name) if Path(name).is_absolute() else cwd / name
    try:
        return path.read_bytes().decode("utf-8", "replace")
    except OSError as exc:
        raise InputError(f"{name}: cannot read diff: {exc.strerror or exc}") from None


def _git_diff(cwd: Path, base: str | None, head: str, staged: bool) -> str:
    root = find_repo_root(cwd)
    if root is None:
        raise GitError(f"{cwd}: not inside a git repository (use --diff FILE)")
    with Git(root) as git:
        if staged:
            return _text(git.run(*GIT_DIFF, "--cached", "--"))
        assert base is not None
        revs = [require_commit(git, base, "--base"), require_commit(git, head, "--head")]
        return _text(git.run(*GIT_DIFF, f"{revs[0]}...{revs[1]}", "--"))


def diff_between(git: Git, base: str | None, head: str) -> str:
    """The text of ``base..head`` (``base`` a commit or tree; None: ``head``'s whole tree).

    For callers that already resolved a range, such as the pre-push convene.
    """
    start = base or empty_tree(git)
    return _text(git.run(*GIT_DIFF, start, head, "--"))


def _text(out: bytes) -> str:
    return out.decode("utf-8", "replace")
