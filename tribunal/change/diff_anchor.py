"""``--diff`` inside a repository whose HEAD holds the diff's preimage: the whole tree.

A bare diff shows a few lines of a few files; resolving an import or reading a
``conftest.py`` needs the files around them. When every file the diff changes
reads at ``HEAD`` exactly as the diff's removed and context lines say (and
every file it adds is absent there), the diff applies to ``HEAD``: the base is
that commit, and the head is that commit with the diff applied (the
post-images computed from the pre-images and the hunks). This is the
``propose`` -> ``check --diff`` loop of seed 001, run in the checkout the
diff was made from. Anything short of a match anchors nothing: the diff is
then judged on its own, and the report says which analyzers could not run
(``tribunal.engine.limits``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from tribunal.change.diff.model import FileChange
from tribunal.change.snapshot import MAX_FILE_BYTES
from tribunal.errors import GitError
from tribunal.git.cmd import Git


class Anchor:
    """The commit a diff applies to, and the post-images it yields there."""

    def __init__(
        self, rev: str, base: Mapping[str, bytes], head: Mapping[str, bytes], gone: frozenset[str]
    ) -> None:
        self.rev = rev
        self.base = base
        self.head = head
        self.gone = gone  # paths the diff deletes or moves away


def anchor(files: Sequence[FileChange], git: Git | None) -> Anchor | None:
    """The anchor at ``HEAD`` when the diff applies to it exactly; None otherwise."""
    if git is None or not files:
        return None
    try:
        rev = git.text("rev-parse", "--verify", "--quiet", "HEAD^{commit}", ok_codes=(0, 1, 128))
        if not rev:
            return None
        base: dict[str, bytes] = {}
        head: dict[str, bytes] = {}
        for fc in files:
            if fc.skip_reason is not None or fc.binary:
                return None  # what a skipped file holds at head cannot be computed
            old = _blob(git, rev, fc.old_path) if fc.old_path is not None else None
            if fc.old_path is None:
                if _blob(git, rev, fc.path) is not None:
                    return None  # an added file HEAD already has: not this diff's base
            elif old is None or not _preimage(fc, old):
                return None
            else:
                base[fc.old_path] = old
            if fc.has_head:
                head[fc.path] = apply(fc, old or b"")
    except GitError:
        return None
    gone = {fc.old_path for fc in files if fc.old_path is not None and fc.old_path != fc.path}
    gone |= {fc.path for fc in files if not fc.has_head}
    return Anchor(rev, base, head, frozenset(gone - set(head)))


def _blob(git: Git, rev: str, path: str) -> bytes | None:
    data = git.read_blob(f"{rev}:{path}", MAX_FILE_BYTES)
    return data if isinstance(data, bytes) else None


def _preimage(fc: FileChange, data: bytes) -> bool:
    """Whether ``data`` holds every removed and context line where the diff puts them."""
    lines = data.decode("utf-8", "surrogateescape").split("\n")
    by_new = {new: old for old, new in fc.context_map.items()}
    context = {by_new[n]: t for n, t in fc.context_text.items() if n in by_new}
    for table in (fc.removed_text, context):
        for number, text in table.items():
            if number > len(lines) or lines[number - 1].removesuffix("\r") != text:
                return False
    last = max((h.old_start + h.old_count - 1 for h in fc.hunks), default=0)
    return len(lines) >= last


def apply(fc: FileChange, data: bytes) -> bytes:
    """The post-image: ``data`` (the pre-image) with the diff's hunks applied."""
    old = data.decode("utf-8", "surrogateescape").split("\n") if data else []
    ends_with_newline = data.endswith(b"\n")
    if ends_with_newline:
        old = old[:-1]
    out: list[str] = []
    at = 1  # the next old line to copy
    new_to_old = {new: o for o, new in fc.context_map.items()}
    for hunk in sorted(fc.hunks, key=lambda h: h.old_start):
        upto = hunk.old_start + 1 if hunk.old_count == 0 else hunk.old_start
        while at < upto and at <= len(old):
            out.append(old[at - 1])
            at += 1
        for new in range(hunk.new_start, hunk.new_start + hunk.new_count):
            if new in fc.added_text:
                out.append(fc.added_text[new])
            elif new in new_to_old and new_to_old[new] <= len(old):
                out.append(old[new_to_old[new] - 1])
            else:
                out.append(fc.context_text.get(new, ""))
        at = max(at, hunk.old_start + hunk.old_count)
    out.extend(old[at - 1 :])
    text = "\n".join(out) + ("\n" if ends_with_newline or not data else "")
    return text.encode("utf-8", "surrogateescape")
