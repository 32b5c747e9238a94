"""From what one file's part of a diff said to a ``FileChange``.

The parser fills a ``Section`` while it reads; this module decides the file's
paths, status and skip reason once the section is complete, and merges the
delete-then-add pair that git prints for a type change (file <-> symlink).
"""

from __future__ import annotations

from tribunal.change.diff.linetable import EMPTY_TABLE, LineTable
from tribunal.change.diff.model import EMPTY, FileChange, Hunk, Status
from tribunal.change.diff.paths import strip_prefix

SYMLINK_MODE = "120000"
SUBMODULE_MODE = "160000"
_SPECIAL_MODES = (SYMLINK_MODE, SUBMODULE_MODE)


class Section:
    """Everything one file's part of the diff said, before it becomes a FileChange.

    A plain class rather than a dataclass: it is internal, mutable, and built
    once per import on every commit, where a 30-field dataclass costs a
    millisecond of start-up.
    """

    __slots__ = (
        "added",
        "added_bytes",
        "anchors",
        "binary",
        "context",
        "context_text",
        "copy",
        "created",
        "deleted",
        "git_style",
        "header_paths",
        "header_text",
        "hunks",
        "new_blob",
        "new_epoch",
        "new_mode",
        "new_path",
        "old_blob",
        "old_epoch",
        "old_mode",
        "old_path",
        "oversized",
        "removed",
        "removed_bytes",
        "rename",
        "saw_minus",
        "saw_plus",
    )

    def __init__(self, git_style: bool, header_text: str = "") -> None:
        self.git_style = git_style
        self.header_text = header_text
        self.old_path: str | None = None
        self.new_path: str | None = None
        self.header_paths: tuple[str, str] | None = None
        self.rename = self.copy = self.created = self.deleted = self.binary = False
        self.saw_minus = self.saw_plus = self.old_epoch = self.new_epoch = False
        self.oversized = False
        self.old_mode: str | None = None
        self.new_mode: str | None = None
        self.old_blob: str | None = None
        self.new_blob: str | None = None
        self.hunks: list[Hunk] = []
        self.added: dict[int, str] = {}
        self.removed: dict[int, str] = {}
        self.anchors: dict[int, int] = {}
        self.context: dict[int, int] = {}
        self.context_text: dict[int, str] = {}
        self.added_bytes = 0
        self.removed_bytes = 0

    @property
    def name(self) -> str:
        """The best name known so far, for error messages."""
        return self.new_path or self.old_path or self.header_text or "(unnamed file)"

    def drop_lines(self) -> None:
        """Forget every line kept so far: the file is over the cap and will be skipped."""
        for store in (self.added, self.removed, self.anchors, self.context, self.context_text):
            store.clear()


def to_change(sec: Section, max_bytes: int) -> FileChange | None:
    """The FileChange a complete section describes; None if it names no file."""
    old_path, new_path = _paths(sec)
    path = new_path or old_path
    if path is None:
        return None
    added = LineTable(sec.added) if sec.added else EMPTY_TABLE
    removed = LineTable(sec.removed) if sec.removed else EMPTY_TABLE
    return FileChange(
        path=path,
        old_path=old_path,
        status=_status(sec, old_path, new_path),
        old_blob=sec.old_blob,
        new_blob=sec.new_blob,
        old_mode=sec.old_mode,
        new_mode=sec.new_mode,
        hunks=tuple(sec.hunks),
        added=added.numbers(),
        removed=removed.numbers(),
        removed_anchor=sec.anchors or EMPTY,
        added_text=added,
        removed_text=removed,
        context_map=sec.context or EMPTY,
        binary=sec.binary,
        skip_reason=_skip_reason(sec, max_bytes),
        context_text=sec.context_text or EMPTY,
    )


def _paths(sec: Section) -> tuple[str | None, str | None]:
    old_path, new_path = sec.old_path, sec.new_path
    if sec.header_paths is not None:
        head_old, head_new = (strip_prefix(p) for p in sec.header_paths)
        if old_path is None and not sec.created:
            old_path = head_old
        if new_path is None and not sec.deleted:
            new_path = head_new
    if not sec.git_style and _plain_created(sec):
        old_path = None
    if not sec.git_style and _plain_deleted(sec):
        new_path = None
    if sec.created:
        old_path = None
    if sec.deleted:
        new_path = None
    return old_path, new_path


def _plain_created(sec: Section) -> bool:
    """``diff -N`` shows a new file as an epoch-dated empty old side."""
    return sec.old_epoch and all(h.old_count == 0 and h.old_start == 0 for h in sec.hunks)


def _plain_deleted(sec: Section) -> bool:
    return sec.new_epoch and all(h.new_count == 0 and h.new_start == 0 for h in sec.hunks)


def _status(sec: Section, old_path: str | None, new_path: str | None) -> Status:
    if old_path is None:
        return Status.ADDED
    if new_path is None:
        return Status.DELETED
    if sec.rename:
        return Status.RENAMED
    if sec.copy:
        return Status.COPIED
    if sec.old_mode and sec.new_mode and sec.old_mode != sec.new_mode and not sec.hunks:
        return Status.MODIFIED if sec.binary else Status.MODE_ONLY
    return Status.MODIFIED


def _skip_reason(sec: Section, max_bytes: int) -> str | None:
    modes = {sec.old_mode, sec.new_mode}
    if SUBMODULE_MODE in modes:
        return "submodule"
    if sec.new_mode == SYMLINK_MODE or (sec.deleted and sec.old_mode == SYMLINK_MODE):
        return "symlink"
    if sec.binary:
        return "binary file"
    if sec.oversized:
        return f"diff of this file is larger than the size cap ({_mib(max_bytes)})"
    return None


def _mib(size: int) -> str:
    return f"{size / (1 << 20):g} MiB" if size >= 1 << 20 else f"{size} bytes"


def merge_type_changes(changes: list[FileChange]) -> list[FileChange]:
    """git prints a type change (file <-> symlink) as a deletion then an addition."""
    merged: list[FileChange] = []
    for change in changes:
        prev = merged[-1] if merged else None
        if (
            prev is not None
            and prev.status is Status.DELETED
            and change.status is Status.ADDED
            and prev.path == change.path
        ):
            merged[-1] = _merge_pair(prev, change)
        else:
            merged.append(change)
    return merged


def _merge_pair(gone: FileChange, new: FileChange) -> FileChange:
    """One record for a path deleted and re-added in the same diff.

    When the new side is a regular file it is analyzable as a new file (its
    old side, a link or a submodule, has no lines worth comparing); when the
    new side is special the record is skipped. Two regular sides (``git diff
    -B``'s complete rewrite) are a plain modification.
    """
    special = gone.old_mode in _SPECIAL_MODES or new.new_mode in _SPECIAL_MODES
    if not special:
        anchors = {line: 0 for line in gone.removed}
        return new._replace(
            old_path=gone.old_path,
            status=Status.MODIFIED,
            old_blob=gone.old_blob,
            old_mode=gone.old_mode,
            hunks=gone.hunks + new.hunks,
            removed=gone.removed,
            removed_anchor=anchors,
            removed_text=gone.removed_text,
        )
    if new.new_mode not in _SPECIAL_MODES:
        return new._replace(
            status=Status.TYPE_CHANGED, old_blob=gone.old_blob, old_mode=gone.old_mode
        )
    old_regular = gone.old_mode not in _SPECIAL_MODES
    return new._replace(
        old_path=gone.old_path,
        status=Status.TYPE_CHANGED,
        old_blob=gone.old_blob,
        old_mode=gone.old_mode,
        removed=gone.removed if old_regular else frozenset(),
        removed_text=gone.removed_text if old_regular else {},
        removed_anchor={line: 0 for line in gone.removed} if old_regular else {},
    )
