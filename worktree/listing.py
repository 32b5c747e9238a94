"""``git worktree list --porcelain``, parsed safely.

``-z`` (git 2.36+) separates fields with NUL so that paths containing newlines
survive; older git prints one field per line, which is read the same way
(such paths cannot be told apart there, and are simply not ours).
"""

from typing import NamedTuple

from tribunal.errors import GitError
from tribunal.git.cmd import Git


class Entry(NamedTuple):
    """One registered worktree."""

    path: str
    head: str | None
    locked: str | None  # the lock reason ("" when locked without one); None if unlocked


def list_worktrees(git: Git) -> list[Entry]:
    """Every worktree of the repository ``git`` runs in, the main one first."""
    try:
        raw = git.run("worktree", "list", "--porcelain", "-z")
        sep = b"\0"
    except GitError:
        raw = git.run("worktree", "list", "--porcelain")
        sep = b"\n"
    return parse_porcelain(raw, sep)


def parse_porcelain(raw: bytes, sep: bytes) -> list[Entry]:
    """Entries from porcelain output whose fields end with ``sep`` (an empty field ends one)."""
    entries: list[Entry] = []
    fields: dict[str, str] = {}
    for item in raw.split(sep):
        text = item.decode("utf-8", "surrogateescape")
        if not text:
            if "worktree" in fields:
                entries.append(_entry(fields))
            fields = {}
            continue
        key, _, value = text.partition(" ")
        fields[key] = value
    if "worktree" in fields:
        entries.append(_entry(fields))
    return entries


def _entry(fields: dict[str, str]) -> Entry:
    return Entry(fields["worktree"], fields.get("HEAD"), fields.get("locked"))
