"""One side of the change (base or head) as a file tree an import can be resolved in.

The listing comes from the snapshot once per run; directories are derived from
it on first use. Contents go through ``Change.read_head`` / ``read_base`` so
they are shared with every other analyzer. When the side's listing is not
known (a bare ``--diff`` with no repository) nothing can be proven absent, and
``known`` says so.
"""

from __future__ import annotations

import os
from collections import defaultdict
from collections.abc import Callable
from functools import cached_property
from pathlib import Path
from typing import Literal, Protocol

from tribunal.analyzers.hallucinated_symbol.gitquery import normalize_link, symlink_target
from tribunal.analyzers.hallucinated_symbol.listing import DirLister, Entries
from tribunal.change.diff.model import Status
from tribunal.change.model import Change, Source
from tribunal.change.snapshot import (
    MAX_FILE_BYTES,
    CommitSnapshot,
    EmptySnapshot,
    IndexSnapshot,
    PatchedSnapshot,
    Snapshot,
    WorktreeSnapshot,
)

Side = Literal["base", "head"]


class FileTree(Protocol):
    """What resolution needs of a tree: the repository's sides, or an installed environment."""

    def is_file(self, path: str) -> bool: ...

    def is_dir(self, path: str) -> bool: ...

    def children(self, directory: str) -> frozenset[str]: ...

    def text(self, path: str) -> str | None: ...

    def read(self, path: str) -> Source | None: ...

    def link_target(self, path: str) -> str | None: ...


class TreeView:
    """Paths, directories and contents of one side, cached for the run."""

    def __init__(self, change: Change, side: Side) -> None:
        self.change = change
        self.side = side
        snap = change.head if side == "head" else change.base
        self.snapshot: Snapshot | None = snap
        overrides = change.head_overrides if side == "head" else change.base_overrides
        self._overrides = overrides
        self.known = snap is not None and not (
            isinstance(snap, EmptySnapshot) and (overrides or side == "head")
        )
        self._read: Callable[[str], Source | None] = (
            change.read_head if side == "head" else change.read_base
        )
        self._links: dict[str, str | None] = {}
        self._lister = _lister_for(change, side) if self.known else None

    @cached_property
    def paths(self) -> frozenset[str]:
        listed = self.snapshot.paths() if self.snapshot is not None else frozenset()
        return listed | frozenset(self._overrides)

    @cached_property
    def _full(self) -> dict[str, Entries]:
        """Directory -> entries, from the whole listing (when no lazy lister can be had)."""
        tree: dict[str, Entries] = defaultdict(dict)
        for path in self.paths:
            parent, _, name = path.rpartition("/")
            seen = parent in tree
            tree[parent][name] = False
            while parent and not seen:
                up, _, dirname = parent.rpartition("/")
                seen = up in tree
                tree[up][dirname] = True
                parent = up
        return tree

    def _entries(self, directory: str) -> Entries:
        if self._lister is not None:
            return self._lister.entries(directory)
        return self._full.get(directory, {})

    def is_file(self, path: str) -> bool:
        parent, _, name = path.rpartition("/")
        return self._entries(parent).get(name) is False or path in self._overrides

    def is_dir(self, path: str) -> bool:
        parent, _, name = path.rpartition("/")
        return path == "" or self._entries(parent).get(name) is True

    def children(self, directory: str) -> frozenset[str]:
        """Names (files and directories) directly inside ``directory``."""
        return frozenset(self._entries(directory))

    def read(self, path: str) -> Source | None:
        """Contents of ``path`` (no listing needed: an absent path reads as None)."""
        return self._read(path) if self.known or path in self._overrides else None

    def text(self, path: str) -> str | None:
        source = self.read(path)
        return None if source is None else source.text

    def link_target(self, path: str) -> str | None:
        """The tree path a symlink entry points at (asked of git once per path)."""
        if path not in self._links:
            known = self.is_file(path)
            self._links[path] = symlink_target(self.change, self.side, path) if known else None
        return self._links[path]


#: A change this large reaches most directories anyway: one whole listing is cheaper.
LAZY_LIMIT = 200


def _lister_for(change: Change, side: Side) -> DirLister | None:
    """A lazy lister for the side, or None when the whole listing will do (or is all there is)."""
    git, root = change.git, change.root
    snap = change.head if side == "head" else change.base
    if git is None or root is None or len(change.files) > LAZY_LIMIT:
        return None
    if isinstance(snap, PatchedSnapshot):
        return DirLister(git, root, snap.rev, sorted(snap.added), sorted(snap.gone))
    if isinstance(snap, CommitSnapshot):
        return DirLister(git, root, snap.rev)
    if isinstance(snap, EmptySnapshot):
        return DirLister(git, root, None)
    base = change.base
    if not isinstance(snap, IndexSnapshot | WorktreeSnapshot):
        return None
    if not isinstance(base, CommitSnapshot | EmptySnapshot):
        return None
    added = [fc.path for fc in change.files if fc.has_head]
    deleted = [
        fc.old_path
        for fc in change.files
        if fc.old_path is not None
        and (
            fc.status is Status.DELETED or (fc.status is Status.RENAMED and fc.old_path != fc.path)
        )
    ]
    rev = base.rev if isinstance(base, CommitSnapshot) else None
    return DirLister(git, root, rev, added, deleted)


class DiskTree:
    """A directory outside the repository (an installed environment), read lazily."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._listing: dict[str, frozenset[str]] = {}

    def children(self, directory: str) -> frozenset[str]:
        if directory not in self._listing:
            try:
                names = frozenset(os.listdir(self.root / directory))
            except OSError:
                names = frozenset()
            self._listing[directory] = names
        return self._listing[directory]

    def is_file(self, path: str) -> bool:
        parent, _, name = path.rpartition("/")
        return name in self.children(parent) and (self.root / path).is_file()

    def is_dir(self, path: str) -> bool:
        parent, _, name = path.rpartition("/")
        return path == "" or (name in self.children(parent) and (self.root / path).is_dir())

    def link_target(self, path: str) -> str | None:
        try:
            target = os.readlink(self.root / path)
        except OSError:
            return None
        return normalize_link(path, target)

    def read(self, path: str) -> Source | None:
        if not self.is_file(path):
            return None
        try:
            with (self.root / path).open("rb") as handle:
                data = handle.read(MAX_FILE_BYTES + 1)
        except OSError:
            return None
        return Source(path, data) if len(data) <= MAX_FILE_BYTES else None

    def text(self, path: str) -> str | None:
        source = self.read(path)
        return None if source is None else source.text
