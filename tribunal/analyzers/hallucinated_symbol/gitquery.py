"""The git questions this analyzer asks: is a path ignored, where does a symlink point.

Both go through the ``Git`` chokepoint and answer None when git cannot tell
(no repository, no work tree, a path inside a submodule), so that callers
treat the answer as unknown rather than as "no". Which head files mention a
word is ``tribunal.git.treegrep``.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence

from tribunal.analyzers.hallucinated_symbol.commit_ignores import CommitIgnores, check_ignore
from tribunal.change.model import Change
from tribunal.change.snapshot import (
    CommitSnapshot,
    EmptySnapshot,
    IndexSnapshot,
    Snapshot,
    WorktreeSnapshot,
)
from tribunal.errors import GitError
from tribunal.lang.treepaths import parent_dir, resolve_path


class IgnoreOracle:
    """Whether ``.gitignore`` covers a path, asked in batches and remembered for the run.

    The rules are those of the tree being checked: the head commit's own
    ``.gitignore`` files when the head is a commit (``CommitIgnores``; what is
    checked out must not matter, DESIGN 7), the working tree's when the working
    tree or the index is what is checked. Only the head is asked: an ignored
    path only ever downgrades a verdict, and base answers feed PASS keys alone.
    """

    def __init__(self, change: Change) -> None:
        self._change = change
        self._known: dict[str, bool | None] = {}
        self._broken = change.git is None or change.root is None
        self._head = _commit_rules(change, change.head)
        self._base: CommitIgnores | None = None

    def any_ignored(self, paths: Sequence[str]) -> bool | None:
        """Whether ``.gitignore`` covers any of ``paths``; None when git cannot say."""
        missing = [p for p in paths if p not in self._known]
        if missing and not self._broken:
            self._known.update(self._ask(missing))
        known = [self._known.get(p) for p in paths]
        if any(known):
            return True
        return None if None in known else False

    def doubt(self, paths: Sequence[str]) -> str | None:
        """Why a missing file (probed as ``paths``) may exist after all, naming the path a
        rule covers; None if no reason."""
        ignored = self.any_ignored(paths)
        if ignored is None:
            return "git could not say whether .gitignore covers it"
        if not ignored:
            return None
        matched = next(p for p in paths if self._known.get(p))
        added = "; excused only by a .gitignore rule this change adds" if self._added(paths) else ""
        return f".gitignore covers {matched} (generated, not in the tree){added}"

    def close(self) -> None:
        """Remove the scratch directories the commits' rules were laid out in."""
        for rules in (self._head, self._base):
            if rules is not None:
                rules.close()

    def _ask(self, paths: list[str]) -> Mapping[str, bool | None]:
        try:
            if self._head is not None:
                return self._head.ask(paths)
            git, root = self._change.git, self._change.root
            assert git is not None and root is not None
            hits = check_ignore(git, ("-C", str(root)), paths)
            return {p: p in hits for p in paths}
        except (GitError, OSError):
            self._broken = True
            return dict.fromkeys(paths)

    def _added(self, paths: Sequence[str]) -> bool:
        """Whether the base commit's rules cover none of the ``paths`` the head's rules do."""
        base = self._change.base
        if self._head is None or not isinstance(base, CommitSnapshot | EmptySnapshot):
            return False
        covered = [p for p in paths if self._known.get(p)]
        if isinstance(base, EmptySnapshot):
            return bool(covered)
        if self._base is None:
            self._base = _commit_rules(self._change, base)
        try:
            answers = self._base.ask(covered) if self._base is not None else {}
        except (GitError, OSError):
            return False
        return bool(covered) and all(answers.get(p) is False for p in covered)


def _commit_rules(change: Change, snap: Snapshot | None) -> CommitIgnores | None:
    """The commit's own rules when ``snap`` is a commit (and git is there to ask)."""
    if not isinstance(snap, CommitSnapshot) or change.git is None or change.root is None:
        return None
    return CommitIgnores(change.git, change.root, snap.rev)


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
