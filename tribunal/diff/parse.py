"""Parse unified diffs (git's, or plain ``diff -u``) into ``FileChange`` records.

One parser serves both git's own output and user-supplied diff files, so they
cannot disagree. Hunks are consumed by their line counts, never by looking at
line prefixes alone: a removed line reading ``--- x`` is content, not a header.
Input is streamed line by line; a file whose diff exceeds the size cap keeps
its line numbers but not its text, and is marked skipped.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from tribunal.diff.model import FileChange, Hunk, Status
from tribunal.diff.paths import DEV_NULL, split_git_header, split_header_path, strip_prefix
from tribunal.errors import InputError

_HUNK = re.compile(rb"^@@+ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")
_ZERO_ID = re.compile(r"^0+$")
SYMLINK_MODE = "120000"
SUBMODULE_MODE = "160000"


@dataclass
class _Section:
    """Everything one file's part of the diff said, before it becomes a FileChange."""

    git_style: bool
    old_path: str | None = None
    new_path: str | None = None
    header_paths: tuple[str, str] | None = None
    rename: bool = False
    copy: bool = False
    created: bool = False
    deleted: bool = False
    old_mode: str | None = None
    new_mode: str | None = None
    old_blob: str | None = None
    new_blob: str | None = None
    binary: bool = False
    hunks: list[Hunk] = field(default_factory=list)
    added: dict[int, str] = field(default_factory=dict)
    removed: dict[int, str] = field(default_factory=dict)
    anchors: dict[int, int] = field(default_factory=dict)
    context: dict[int, int] = field(default_factory=dict)
    size: int = 0
    oversized: bool = False
    saw_minus: bool = False


class DiffParser:
    """Feed lines with ``feed``; collect the files with ``finish``."""

    def __init__(self, *, max_file_bytes: int, strip_prefixes: bool = True) -> None:
        self._max = max_file_bytes
        self._strip = strip_prefixes
        self._sections: list[_Section] = []
        self._current: _Section | None = None
        self._pending: tuple[int, int, int, int] | None = None  # old/new cursor + left

    def feed_all(self, lines: Iterable[bytes]) -> list[FileChange]:
        it = iter(lines)
        for line in it:
            self._feed(line, it)
        return self.finish()

    def _feed(self, line: bytes, rest: Iterator[bytes]) -> None:
        if line.startswith(b"@@") and self._current is not None:
            self._hunk(line, rest)
        elif line.startswith(b"diff --git "):
            self._start(git_style=True)
            assert self._current is not None
            self._current.header_paths = split_git_header(line[11:])
        elif line.startswith(b"--- ") and (
            self._current is None or self._current.saw_minus or self._current.hunks
        ):
            self._start(git_style=False)
            self._minus(line)
        elif self._current is not None:
            self._header(line)

    def _start(self, git_style: bool) -> None:
        self._current = _Section(git_style=git_style)
        self._sections.append(self._current)

    def _minus(self, line: bytes) -> None:
        assert self._current is not None
        self._current.saw_minus = True
        path = split_header_path(line[4:])
        self._current.old_path = None if path == DEV_NULL else self._path(path)
        if path == DEV_NULL:
            self._current.created = True

    def _header(self, line: bytes) -> None:
        sec = self._current
        assert sec is not None
        text = line.rstrip(b"\r\n")
        if text.startswith(b"--- "):
            self._minus(line)
        elif text.startswith(b"+++ "):
            path = split_header_path(line[4:])
            sec.new_path = None if path == DEV_NULL else self._path(path)
            sec.deleted = sec.deleted or path == DEV_NULL
        elif text.startswith(b"new file mode "):
            sec.created, sec.new_mode = True, text[14:].decode()
        elif text.startswith(b"deleted file mode "):
            sec.deleted, sec.old_mode = True, text[18:].decode()
        elif text.startswith(b"old mode "):
            sec.old_mode = text[9:].decode()
        elif text.startswith(b"new mode "):
            sec.new_mode = text[9:].decode()
        elif text.startswith((b"rename from ", b"copy from ")):
            sec.rename, sec.copy = text.startswith(b"rename"), text.startswith(b"copy")
            sec.old_path = split_header_path(text.split(b" ", 2)[2])
        elif text.startswith((b"rename to ", b"copy to ")):
            sec.new_path = split_header_path(text.split(b" ", 2)[2])
        elif text.startswith(b"index "):
            self._index(sec, text[6:].decode("ascii", "replace"))
        elif text.startswith(b"Binary files ") or text == b"GIT binary patch":
            sec.binary = True

    def _index(self, sec: _Section, rest: str) -> None:
        ids, _, mode = rest.partition(" ")
        old, _, new = ids.partition("..")
        sec.old_blob = None if _ZERO_ID.match(old) else old
        sec.new_blob = None if _ZERO_ID.match(new) else new
        if mode:
            sec.old_mode = sec.old_mode or mode
            sec.new_mode = sec.new_mode or mode

    def _path(self, path: str) -> str:
        return strip_prefix(path) if self._strip else path

    def _hunk(self, line: bytes, rest: Iterator[bytes]) -> None:
        sec = self._current
        assert sec is not None
        match = _HUNK.match(line)
        if match is None:
            raise InputError(f"malformed hunk header: {line[:80]!r}")
        old_start, new_start = int(match[1]), int(match[3])
        old_count = 1 if match[2] is None else int(match[2])
        new_count = 1 if match[4] is None else int(match[4])
        sec.hunks.append(Hunk(old_start, old_count, new_start, new_count))
        old_cur = old_start - 1 if old_count else old_start
        new_cur = new_start - 1 if new_count else new_start
        old_left, new_left = old_count, new_count
        while old_left > 0 or new_left > 0:
            body = next(rest, None)
            if body is None:
                raise InputError(f"diff ends inside a hunk of {sec.new_path or sec.old_path}")
            self._account(sec, len(body))
            mark, text = body[:1], _text(body[1:])
            if mark == b"\\":
                continue  # "\ No newline at end of file"
            if mark == b"+":
                new_cur += 1
                new_left -= 1
                self._keep(sec.added, new_cur, text, sec)
            elif mark == b"-":
                old_cur += 1
                old_left -= 1
                self._keep(sec.removed, old_cur, text, sec)
                sec.anchors[old_cur] = new_cur
            elif mark in (b" ", b"\n", b"\r", b""):
                old_cur += 1
                new_cur += 1
                old_left -= 1
                new_left -= 1
                sec.context[old_cur] = new_cur
            else:
                raise InputError(
                    f"malformed diff line in {sec.new_path or sec.old_path}: {body[:80]!r}"
                )

    def _account(self, sec: _Section, size: int) -> None:
        sec.size += size
        if sec.size > self._max and not sec.oversized:
            sec.oversized = True

    @staticmethod
    def _keep(store: dict[int, str], line: int, text: str, sec: _Section) -> None:
        store[line] = "" if sec.oversized else text

    def finish(self) -> list[FileChange]:
        changes = [_to_change(sec, self._max) for sec in self._sections]
        return _merge_type_changes([c for c in changes if c is not None])


def parse_diff(
    lines: Iterable[bytes], *, max_file_bytes: int, strip_prefixes: bool = True
) -> list[FileChange]:
    """Parse a whole unified diff."""
    return DiffParser(max_file_bytes=max_file_bytes, strip_prefixes=strip_prefixes).feed_all(lines)


def _text(raw: bytes) -> str:
    return raw.rstrip(b"\n").removesuffix(b"\r").decode("utf-8", "surrogateescape")


def _to_change(sec: _Section, max_bytes: int) -> FileChange | None:
    old_path, new_path = sec.old_path, sec.new_path
    if sec.header_paths is not None:
        head_old, head_new = (strip_prefix(p) for p in sec.header_paths)
        if old_path is None and not sec.created:
            old_path = head_old
        if new_path is None and not sec.deleted:
            new_path = head_new
    if sec.created:
        old_path = None
    if sec.deleted:
        new_path = None
    path = new_path or old_path
    if path is None:
        return None
    status = _status(sec, old_path, new_path)
    return FileChange(
        path=path,
        old_path=old_path,
        status=status,
        old_blob=sec.old_blob,
        new_blob=sec.new_blob,
        old_mode=sec.old_mode,
        new_mode=sec.new_mode,
        hunks=tuple(sec.hunks),
        added=frozenset(sec.added),
        removed=frozenset(sec.removed),
        removed_anchor=sec.anchors,
        added_text=sec.added,
        removed_text=sec.removed,
        context_map=sec.context,
        binary=sec.binary,
        skip_reason=_skip_reason(sec, max_bytes),
    )


def _status(sec: _Section, old_path: str | None, new_path: str | None) -> Status:
    if old_path is None:
        return Status.ADDED
    if new_path is None:
        return Status.DELETED
    if sec.rename:
        return Status.RENAMED
    if sec.copy:
        return Status.COPIED
    if sec.old_mode and sec.new_mode and sec.old_mode != sec.new_mode and not sec.hunks:
        return Status.MODE_ONLY if not sec.binary else Status.MODIFIED
    return Status.MODIFIED


def _skip_reason(sec: _Section, max_bytes: int) -> str | None:
    modes = {sec.old_mode, sec.new_mode}
    if SUBMODULE_MODE in modes:
        return "submodule"
    if sec.new_mode == SYMLINK_MODE or (sec.deleted and sec.old_mode == SYMLINK_MODE):
        return "symlink"
    if sec.binary:
        return "binary file"
    if sec.oversized:
        return f"diff larger than {max_bytes // (1 << 20)} MiB"
    return None


def _merge_type_changes(changes: list[FileChange]) -> list[FileChange]:
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
            merged[-1] = FileChange(
                path=change.path,
                old_path=prev.old_path,
                status=Status.TYPE_CHANGED,
                old_blob=prev.old_blob,
                new_blob=change.new_blob,
                old_mode=prev.old_mode,
                new_mode=change.new_mode,
                hunks=prev.hunks + change.hunks,
                added=change.added,
                removed=prev.removed,
                removed_anchor={line: 0 for line in prev.removed},
                added_text=change.added_text,
                removed_text=prev.removed_text,
                binary=prev.binary or change.binary,
                skip_reason=change.skip_reason or prev.skip_reason,
            )
        else:
            merged.append(change)
    return merged
