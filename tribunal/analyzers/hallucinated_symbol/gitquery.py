"""The git questions this analyzer asks: is a path ignored, where does a symlink point.

Both go through the ``Git`` chokepoint and answer None when git cannot tell
(no repository, no work tree), so that callers treat the answer as unknown
rather than as "no". Which head files mention a word is ``tribunal.treegrep``.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from tribunal.analyzers.hallucinated_symbol.pathutil import parent_dir, resolve_path
from tribunal.change import Change
from tribunal.errors import GitError
from tribunal.snapshot import CommitSnapshot, IndexSnapshot, WorktreeSnapshot


class IgnoreOracle:
    """``git check-ignore`` answers, asked in batches and remembered for the run."""

    def __init__(self, change: Change) -> None:
        self._change = change
        self._known: dict[str, bool] = {}
        self._broken = change.git is None or change.root is None

    def any_ignored(self, paths: Sequence[str]) -> bool | None:
        """Whether ``.gitignore`` covers any of ``paths``; None when git cannot say."""
        if self._broken:
            return None
        missing = [p for p in paths if p not in self._known]
        if missing and not self._ask(missing):
            return None
        return any(self._known[p] for p in paths)

    def _ask(self, paths: list[str]) -> bool:
        git, root = self._change.git, self._change.root
        assert git is not None and root is not None
        stdin = b"".join(p.encode("utf-8", "surrogateescape") + b"\0" for p in paths)
        try:
            out = git.run(
                "-C", str(root), "check-ignore", "-z", "--stdin", "--no-index",
                stdin=stdin, ok_codes=(0, 1),
            )  # fmt: skip
        except GitError:
            self._broken = True
            return False
        hits = {p.decode("utf-8", "surrogateescape") for p in out.split(b"\0") if p}
        for path in paths:
            self._known[path] = path in hits
        return True


def symlink_target(change: Change, side: str, path: str) -> str | None:
    """Where a symlink in one side's tree points, as a tree path; None if not a link."""
    snap = change.head if side == "head" else change.base
    raw: bytes | None = None
    try:
        if isinstance(snap, WorktreeSnapshot):
            full = snap.root / path
            raw = os.fsencode(os.readlink(full)) if full.is_symlink() else None
        elif isinstance(snap, CommitSnapshot | IndexSnapshot) and change.root is not None:
            raw = _git_link(snap, str(change.root), path)
    except (OSError, GitError):
        return None
    return None if raw is None else normalize_link(path, raw.decode("utf-8", "surrogateescape"))


def _git_link(snap: CommitSnapshot | IndexSnapshot, root: str, path: str) -> bytes | None:
    if isinstance(snap, CommitSnapshot):
        listed = snap.git.run("-C", root, "ls-tree", "-z", snap.rev, "--", path)
        spec = f"{snap.rev}:{path}"
    else:
        listed = snap.git.run("-C", root, "ls-files", "-s", "-z", "--", path)
        spec = f":{path}"
    if not listed.startswith(b"120000 "):
        return None
    blob = snap.git.read_blob(spec, 4096)
    return blob if isinstance(blob, bytes) else None


def normalize_link(path: str, target: str) -> str | None:
    """``target`` read relative to the link's directory; None if it leaves the tree."""
    return resolve_path(parent_dir(path), target)
