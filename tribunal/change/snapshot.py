"""Read-only views of one side of a change: a commit, the index, the work tree.

Analyzers read file contents through a Snapshot and never care where they
come from. Commit and index contents come from the object database through the
batch reader (``:path`` honours ``$GIT_INDEX_FILE``, so a partial commit is read
exactly as it will be committed); work-tree reads never follow a symlink and
never leave the repository.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Protocol

from tribunal.git.cmd import Blob as Blob  # re-exported: what a snapshot's read returns
from tribunal.git.cmd import BlobTooLarge, Git

#: Files larger than this are skipped with a note rather than loaded.
MAX_FILE_BYTES = 2 << 20


class Snapshot(Protocol):
    """One tree of files."""

    label: str

    def read(self, path: str) -> Blob: ...

    def read_many(self, paths: Sequence[str], ids: Sequence[str | None]) -> list[Blob]:
        """``read`` of each path, in one batch where git serves them.

        ``ids[i]``, when not None, is the blob git's own diff named for
        ``paths[i]`` on this side: read by id, git skips walking the trees.
        """
        ...

    def paths(self) -> frozenset[str]: ...


class EmptySnapshot:
    """The empty tree: the base of a root commit."""

    label = "empty tree"

    def read(self, path: str) -> Blob:
        return None

    def read_many(self, paths: Sequence[str], ids: Sequence[str | None]) -> list[Blob]:
        return [None] * len(paths)

    def paths(self) -> frozenset[str]:
        return frozenset()


class _GitListed:
    """Shared listing cache for snapshots that git can enumerate."""

    git: Git
    _listing: frozenset[str] | None = None

    def _list(self, *args: str) -> frozenset[str]:
        if self._listing is None:
            out = self.git.run(*args)
            self._listing = frozenset(
                p.decode("utf-8", "surrogateescape") for p in out.split(b"\0") if p
            )
        return self._listing


class CommitSnapshot(_GitListed):
    """The tree of one commit (or any tree-ish), read from the object database."""

    def __init__(self, git: Git, rev: str, label: str | None = None) -> None:
        self.git = git
        self.rev = rev
        self.label = label or rev

    def read(self, path: str) -> Blob:
        return self.git.read_blob(f"{self.rev}:{path}", MAX_FILE_BYTES)

    def read_many(self, paths: Sequence[str], ids: Sequence[str | None]) -> list[Blob]:
        specs = [i or f"{self.rev}:{p}" for p, i in zip(paths, ids, strict=True)]
        return self.git.read_blobs(specs, MAX_FILE_BYTES)

    def paths(self) -> frozenset[str]:
        return self._list("ls-tree", "-r", "-z", "--name-only", "--full-tree", self.rev)


class PatchedSnapshot(CommitSnapshot):
    """A commit's tree with a diff applied (``--diff``, ``change.diff_anchor``): its listing
    less the paths the diff removed, plus those it wrote; the contents of written paths come
    from the change's head overrides."""

    def __init__(
        self, git: Git, rev: str, gone: Iterable[str], added: Iterable[str], label: str
    ) -> None:
        super().__init__(git, rev, label)
        self.gone = frozenset(gone)
        self.added = frozenset(added)

    def read(self, path: str) -> Blob:
        return None if path in self.gone and path not in self.added else super().read(path)

    def paths(self) -> frozenset[str]:
        return (super().paths() - self.gone) | self.added


class IndexSnapshot(_GitListed):
    """The staged tree: what ``git commit`` is about to record."""

    label = "index"

    def __init__(self, git: Git) -> None:
        self.git = git

    def read(self, path: str) -> Blob:
        return self.git.read_blob(f":{path}", MAX_FILE_BYTES)

    def read_many(self, paths: Sequence[str], ids: Sequence[str | None]) -> list[Blob]:
        specs = [i or f":{p}" for p, i in zip(paths, ids, strict=True)]
        return self.git.read_blobs(specs, MAX_FILE_BYTES)

    def paths(self) -> frozenset[str]:
        return self._list("ls-files", "-z", "--cached", "--full-name")


class WorktreeSnapshot(_GitListed):
    """Files on disk under ``root``; tracked and untracked (not ignored)."""

    label = "working tree"

    def __init__(self, git: Git, root: Path) -> None:
        self.git = git
        self.root = root

    def read(self, path: str) -> Blob:
        return read_file_safely(self.root, path, MAX_FILE_BYTES)

    def read_many(self, paths: Sequence[str], ids: Sequence[str | None]) -> list[Blob]:
        return [self.read(path) for path in paths]  # the file on disk, whatever git last saw

    def paths(self) -> frozenset[str]:
        listed = self._list("ls-files", "-z", "--cached", "--others", "--exclude-standard")
        return frozenset(p for p in listed if _is_regular(self.root / p))


def _is_regular(path: Path) -> bool:
    """A regular file itself, not a symlink to one (symlinks are never followed)."""
    try:
        return stat.S_ISREG(path.lstat().st_mode)
    except OSError:
        return False


def read_file_safely(root: Path, path: str, limit: int) -> Blob:
    """A regular file's bytes, or None for symlinks, escapes from ``root`` and absences."""
    if os.path.isabs(path) or ".." in Path(path).parts:
        return None
    full = root / path
    try:
        parent = full.parent.resolve()
        if not parent.is_relative_to(root.resolve()):
            return None
        # No following a final symlink; no blocking on a FIFO someone left in the tree.
        flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
        fd = os.open(full, flags)
    except OSError:
        return None
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(handle.fileno())
        if not stat.S_ISREG(info.st_mode):
            return None
        if info.st_size > limit:
            return BlobTooLarge(info.st_size)
        return handle.read(limit + 1)
