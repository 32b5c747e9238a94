"""``--diff FILE|-``: a change described by a unified diff alone.

The diff is the only thing trusted. A file on disk (or an object named by the
diff's ``index`` line) is used as the post-image only when every line the diff
shows of the new side matches it; base contents likewise only when the removed
lines match. Otherwise analyzers work from the diff's own lines, and with no
base available, base-dependent checks stay silent or UNVERIFIED. Inside a
repository whose HEAD holds the diff's preimage, the change is HEAD and HEAD
with the diff applied, whole trees (``diff_anchor``).
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from pathlib import Path
from typing import IO

from tribunal.change.diff.lines import bounded_lines
from tribunal.change.diff.model import FileChange, Status
from tribunal.change.diff.parse import parse_diff
from tribunal.change.diff_anchor import anchor
from tribunal.change.model import Change
from tribunal.change.snapshot import (
    MAX_FILE_BYTES,
    CommitSnapshot,
    EmptySnapshot,
    PatchedSnapshot,
    read_file_safely,
)
from tribunal.config.model import Config
from tribunal.errors import GitError, InputError
from tribunal.findings import RangeInfo
from tribunal.git.cmd import Git

_MAX_LINE = MAX_FILE_BYTES + 2


def from_diff_file(
    name: str, git: Git | None, root: Path | None, cwd: Path, config: Config
) -> Change:
    """The Change a diff file (or stdin, ``-``) describes."""
    files = _parse_input(name, cwd)
    disk = root or cwd
    files = [_resolve_plain_path(fc, disk) for fc in files]
    head: dict[str, bytes] = {}
    base: dict[str, bytes] = {}
    for fc in files:
        if fc.skip_reason is not None:
            continue
        post = _post_image(fc, git, disk)
        if post is not None:
            head[fc.path] = post
        pre = _pre_image(fc, git)
        if pre is not None and fc.old_path is not None:
            base[fc.old_path] = pre
    label = f"diff {'from stdin' if name == '-' else name}"
    anchored = anchor(files, git) if root is not None else None
    if anchored is not None:
        assert git is not None
        short = anchored.rev[:12]
        return Change(
            files=tuple(files),
            base=CommitSnapshot(git, anchored.rev, f"HEAD {short}"),
            head=PatchedSnapshot(
                git, anchored.rev, anchored.gone, anchored.head, f"HEAD {short} with the diff"
            ),
            root=root,
            config=config,
            range=RangeInfo("diff", base=anchored.rev, description=f"{label}, applied to HEAD"),
            git=git,
            head_overrides={**head, **anchored.head},
            base_overrides=anchored.base,
        )
    wanted = [fc for fc in files if fc.old_path is not None and fc.skip_reason is None]
    has_base = bool(wanted) and all(fc.old_path in base for fc in wanted)
    info = RangeInfo("diff", description=label)
    return Change(
        files=tuple(files),
        base=EmptySnapshot() if has_base else None,
        head=EmptySnapshot(),
        root=root,
        config=config,
        range=info,
        git=git,
        head_overrides=head,
        base_overrides=base,
    )


def _parse_input(name: str, cwd: Path) -> list[FileChange]:
    label = "stdin" if name == "-" else name
    try:
        if name == "-":
            return _parse(sys.stdin.buffer, label)
        path = Path(name) if Path(name).is_absolute() else cwd / name
        with path.open("rb") as handle:
            return _parse(handle, label)
    except OSError as exc:
        raise InputError(f"{label}: cannot read diff: {exc.strerror or exc}") from None


def _parse(stream: IO[bytes], label: str) -> list[FileChange]:
    try:
        lines = bounded_lines(stream, _MAX_LINE)
        return parse_diff(lines, max_file_bytes=MAX_FILE_BYTES, require_diff=True)
    except InputError as exc:
        raise InputError(f"{label}: {exc}") from None


def _resolve_plain_path(fc: FileChange, root: Path) -> FileChange:
    """``diff -ru old/ new/`` names files with a leading directory; drop it if that helps."""
    if (root / fc.path).exists() or "/" not in fc.path:
        return fc
    stripped = fc.path.split("/", 1)[1]
    if not (root / stripped).exists():
        return fc
    old = fc.old_path.split("/", 1)[1] if fc.old_path and "/" in fc.old_path else fc.old_path
    return fc._replace(path=stripped, old_path=old)


def _post_image(fc: FileChange, git: Git | None, disk: Path) -> bytes | None:
    """Head contents we can trust: a file or object that matches the diff, or the diff itself."""
    if not fc.has_head:
        return None
    on_disk = read_file_safely(disk, fc.path, MAX_FILE_BYTES)
    for data in (on_disk if isinstance(on_disk, bytes) else None, _object(git, fc.new_blob)):
        if data is not None and matches_post_image(fc, data):
            return data
    if fc.status is Status.ADDED and _covers_whole_file(fc):
        lines = [fc.added_text[n] + "\n" for n in sorted(fc.added_text)]
        return "".join(lines).encode("utf-8", "surrogateescape")
    return None


def _pre_image(fc: FileChange, git: Git | None) -> bytes | None:
    """Base contents from the object the diff's ``index`` line names, if they match it."""
    if fc.old_path is None:
        return None
    data = _object(git, fc.old_blob)
    if data is None or not _lines_match(data, fc.removed_text, _old_context(fc)):
        return None
    return data


def matches_post_image(fc: FileChange, data: bytes) -> bool:
    """Whether ``data`` holds every added and context line where the diff puts them."""
    if not _lines_match(data, fc.added_text, fc.context_text):
        return False
    last = max((h.new_start + h.new_count - 1 for h in fc.hunks), default=0)
    return _line_count(data) >= last


def _lines_match(data: bytes, *expected: Mapping[int, str]) -> bool:
    lines = data.decode("utf-8", "surrogateescape").split("\n")
    for table in expected:
        for number, text in table.items():
            if number > len(lines) or lines[number - 1].removesuffix("\r") != text:
                return False
    return True


def _old_context(fc: FileChange) -> dict[int, str]:
    """Context lines by old-file number (the diff shows them once, by new number)."""
    by_new = {new: old for old, new in fc.context_map.items()}
    return {by_new[n]: text for n, text in fc.context_text.items() if n in by_new}


def _line_count(data: bytes) -> int:
    return data.count(b"\n") + (0 if data.endswith(b"\n") or not data else 1)


def _covers_whole_file(fc: FileChange) -> bool:
    return len(fc.hunks) == 1 and fc.hunks[0].new_start <= 1 and len(fc.added_text) == len(fc.added)


def _object(git: Git | None, object_id: str | None) -> bytes | None:
    if git is None or not object_id:
        return None
    try:
        blob = git.read_blob(object_id, MAX_FILE_BYTES)
    except GitError:
        return None
    return blob if isinstance(blob, bytes) else None
