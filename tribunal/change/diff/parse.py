"""Parse unified diffs (git's, or plain ``diff -u``) into ``FileChange`` records.

One parser serves both git's own output and user-supplied diff files, so they
cannot disagree. Hunks are consumed by their line counts, never by looking at
line prefixes alone: a removed line reading ``--- x`` is content, not a header.
Input is streamed line by line (see ``diff.lines.bounded_lines``), so no line and no
file's diff is ever held past the size cap: a file whose diff exceeds it is
still counted through, keeps no lines, and is marked skipped.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from tribunal.change.diff.build import Section, merge_type_changes, to_change
from tribunal.change.diff.model import FileChange, Hunk
from tribunal.change.diff.paths import DEV_NULL, split_git_header, split_header_path, strip_prefix
from tribunal.errors import InputError

_HUNK = re.compile(rb"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")
_ZERO_ID = re.compile(r"^0+$")
_EPOCH = re.compile(rb"\t19(?:70-01-01|69-12-31) ")
_CONTEXT_MARKS = (b" ", b"\n", b"\r")


class DiffParser:
    """Feed lines with ``feed_all``; collect the files it returns."""

    def __init__(self, *, max_file_bytes: int, strip_prefixes: bool = True) -> None:
        self._max = max_file_bytes
        self._strip = strip_prefixes
        self._done: list[FileChange] = []
        self._current: Section | None = None
        self._after_hunk = False
        self._await_plus = False
        self.saw_text = False

    def feed_all(self, lines: Iterable[bytes]) -> list[FileChange]:
        it = iter(lines)
        for line in it:
            self._feed(line, it)
        return self.finish()

    def _feed(self, line: bytes, rest: Iterator[bytes]) -> None:
        after_hunk, self._after_hunk = self._after_hunk, False
        if not self.saw_text and line.strip():
            self.saw_text = True
        if self._await_plus and not line.startswith(b"+++ "):
            self._drop_plain_start()
        self._await_plus = False
        sec = self._current
        if line.startswith(b"@@"):
            self._hunk(line, rest)
        elif line.startswith(b"diff --git "):
            self._start(git_style=True, header=line)
            self._need_current().header_paths = split_git_header(line[11:])
        elif line.startswith(b"--- ") and (sec is None or sec.saw_minus or sec.hunks):
            self._start(git_style=False, header=line)
            self._minus(line)
            self._await_plus = True
        elif sec is not None:
            if after_hunk:
                _check_not_hunk_body(line, sec)
            self._header(sec, line)

    def _start(self, git_style: bool, header: bytes) -> None:
        self._close_header()
        self._complete()
        text = header.rstrip(b"\r\n").decode("utf-8", "replace")
        self._current = Section(git_style=git_style, header_text=text)

    def _complete(self) -> None:
        """The current section as a FileChange: its line dicts go as soon as it is complete."""
        sec = self._current
        if sec is None:
            return
        change = to_change(sec, self._max)
        if change is None:
            raise InputError(f"malformed diff: cannot tell the file name from {sec.name!r}")
        self._done.append(change)
        self._current = None

    def _drop_plain_start(self) -> None:
        """A ``--- `` line not followed by ``+++ `` was prose (a mail, a note), not a file."""
        self._current = None

    def _need_current(self) -> Section:
        if self._current is None:
            raise InputError("malformed diff: a hunk comes before any file header")
        return self._current

    def _minus(self, line: bytes) -> None:
        sec = self._need_current()
        sec.saw_minus = True
        path = split_header_path(line[4:])
        sec.old_epoch = _EPOCH.search(line) is not None
        if path == DEV_NULL:
            sec.created = True
        else:
            sec.old_path = self._path(path)

    def _plus(self, sec: Section, line: bytes) -> None:
        if not sec.saw_minus:
            raise InputError(f"malformed diff: '+++' without '---' for {sec.name}")
        sec.saw_plus = True
        path = split_header_path(line[4:])
        sec.new_epoch = _EPOCH.search(line) is not None
        if path == DEV_NULL:
            sec.deleted = True
        else:
            sec.new_path = self._path(path)

    def _header(self, sec: Section, line: bytes) -> None:
        text = line.rstrip(b"\r\n")
        if text.startswith(b"--- "):
            self._minus(line)
        elif text.startswith(b"+++ "):
            self._plus(sec, line)
        elif text.startswith(b"new file mode "):
            sec.created, sec.new_mode = True, text[14:].decode("ascii", "replace")
        elif text.startswith(b"deleted file mode "):
            sec.deleted, sec.old_mode = True, text[18:].decode("ascii", "replace")
        elif text.startswith(b"old mode "):
            sec.old_mode = text[9:].decode("ascii", "replace")
        elif text.startswith(b"new mode "):
            sec.new_mode = text[9:].decode("ascii", "replace")
        elif text.startswith((b"rename from ", b"copy from ")):
            sec.rename, sec.copy = text.startswith(b"rename"), text.startswith(b"copy")
            sec.old_path = split_header_path(text.split(b" ", 2)[2])
        elif text.startswith((b"rename to ", b"copy to ")):
            sec.new_path = split_header_path(text.split(b" ", 2)[2])
        elif text.startswith(b"index "):
            _index(sec, text[6:].decode("ascii", "replace"))
        elif text.startswith(b"Binary files ") or text == b"GIT binary patch":
            sec.binary = True

    def _path(self, path: str) -> str:
        return strip_prefix(path) if self._strip else path

    def _close_header(self) -> None:
        """A ``---`` line must be followed by ``+++`` before any hunk or next file."""
        sec = self._current
        if sec is not None and sec.saw_minus and not sec.saw_plus:
            raise InputError(f"malformed diff: '---' without '+++' for {sec.name}")

    def _hunk(self, line: bytes, rest: Iterator[bytes]) -> None:
        sec = self._need_current()
        self._close_header()
        match = _HUNK.match(line)
        if match is None:
            raise InputError(f"malformed hunk header in {sec.name}: {_show(line)}")
        old_start, new_start = int(match[1]), int(match[3])
        old_count = 1 if match[2] is None else int(match[2])
        new_count = 1 if match[4] is None else int(match[4])
        sec.hunks.append(Hunk(old_start, old_count, new_start, new_count))
        _HunkReader(sec, self._max, old_start, old_count, new_start, new_count).read(rest)
        self._after_hunk = True

    def finish(self) -> list[FileChange]:
        if self._await_plus:
            self._drop_plain_start()
        self._close_header()
        self._complete()
        return merge_type_changes(self._done)


class _HunkReader:
    """Consume one hunk's body, exactly as many lines as its header counts."""

    def __init__(
        self, sec: Section, cap: int, old_start: int, old_count: int, new_start: int, new_count: int
    ) -> None:
        self.sec, self.cap = sec, cap
        self.old = old_start - 1 if old_count else old_start
        self.new = new_start - 1 if new_count else new_start
        self.old_left, self.new_left = old_count, new_count

    def read(self, rest: Iterator[bytes]) -> None:
        sec = self.sec
        while self.old_left > 0 or self.new_left > 0:
            body = next(rest, None)
            if body is None:
                raise InputError(f"malformed diff: it ends inside a hunk of {sec.name}")
            mark = body[:1]
            if mark == b"+" and self.new_left > 0:
                self._added(body)
            elif mark == b"-" and self.old_left > 0:
                self._removed(body)
            elif mark in _CONTEXT_MARKS and self.old_left > 0 and self.new_left > 0:
                self._context(body)
            elif mark != b"\\":  # "\ No newline at end of file" is not a line
                raise InputError(
                    f"malformed diff: line {_show(body)} in {sec.name} does not fit its hunk"
                )

    def _added(self, body: bytes) -> None:
        self.new += 1
        self.new_left -= 1
        self.sec.added_bytes += len(body)
        if self._keep():
            self.sec.added[self.new] = _text(body[1:])

    def _removed(self, body: bytes) -> None:
        self.old += 1
        self.old_left -= 1
        self.sec.removed_bytes += len(body)
        if self._keep():
            self.sec.removed[self.old] = _text(body[1:])
            self.sec.anchors[self.old] = self.new

    def _context(self, body: bytes) -> None:
        self.old += 1
        self.new += 1
        self.old_left -= 1
        self.new_left -= 1
        if self._keep():
            self.sec.context[self.old] = self.new
            self.sec.context_text[self.new] = _text(body[1:])

    def _keep(self) -> bool:
        sec = self.sec
        if sec.oversized:
            return False
        if sec.added_bytes > self.cap or sec.removed_bytes > self.cap:
            sec.oversized = True
            sec.drop_lines()
            return False
        return True


def parse_diff(
    lines: Iterable[bytes],
    *,
    max_file_bytes: int,
    strip_prefixes: bool = True,
    require_diff: bool = False,
) -> list[FileChange]:
    """Parse a whole unified diff.

    With ``require_diff`` (user input), text that holds no file header at all is
    an error rather than an empty change: a mistyped file name must not pass.
    """
    parser = DiffParser(max_file_bytes=max_file_bytes, strip_prefixes=strip_prefixes)
    files = parser.feed_all(lines)
    if require_diff and not files and parser.saw_text:
        raise InputError("not a unified diff: no 'diff --git' or '---'/'+++' file header found")
    return files


def _check_not_hunk_body(line: bytes, sec: Section) -> None:
    """A content line right after a hunk means its header undercounted."""
    if line.startswith((b"+++ ", b"\\", b"-- ")) or line.rstrip(b"\r\n") == b"--":
        return
    if line[:1] in (b"+", b"-", b" "):
        raise InputError(
            f"malformed diff: a hunk of {sec.name} has more lines than its header counts"
        )


def _index(sec: Section, rest: str) -> None:
    ids, _, mode = rest.partition(" ")
    old, _, new = ids.partition("..")
    sec.old_blob = None if _ZERO_ID.match(old) else old
    sec.new_blob = None if _ZERO_ID.match(new) else new
    if mode:
        sec.old_mode = sec.old_mode or mode
        sec.new_mode = sec.new_mode or mode


def _text(raw: bytes) -> str:
    return raw.rstrip(b"\n").removesuffix(b"\r").decode("utf-8", "surrogateescape")


def _show(line: bytes) -> str:
    text = line.rstrip(b"\r\n")
    shown = text[:60].decode("utf-8", "replace")
    return repr(shown + ("..." if len(text) > 60 else ""))
