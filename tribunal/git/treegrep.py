"""Which files of the head tree mention a word: one ``git grep`` of whatever the head is.

The head may be a commit (``--base A --head B``), the index (``--staged``,
``git grep --cached``) or the work tree (``--untracked``, so that files an
agent forgot to stage are searched too), or a commit with a ``--diff`` applied
(the commit is searched, the files the diff wrote are read). Analyzers use it to find candidates
cheaply before parsing anything. The answer is None when git cannot search
(no repository, a bare ``--diff``), so that callers treat it as unknown
rather than as "no file".
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from tribunal.change.model import Change
from tribunal.change.snapshot import (
    CommitSnapshot,
    IndexSnapshot,
    PatchedSnapshot,
    WorktreeSnapshot,
)
from tribunal.errors import GitError
from tribunal.git.cmd import Git

if TYPE_CHECKING:
    import re


def grep_files(
    change: Change, words: Iterable[str], globs: Sequence[str], *, whole_words: bool = False
) -> list[str] | None:
    """Head files (matching ``globs``) containing any of ``words``; None if git cannot search.

    ``whole_words`` matches a word only between non-word characters (``git grep -w``).
    """
    patterns = sorted({w for w in words if w})
    git, snap = change.git, change.head
    if not patterns or git is None or change.root is None:
        return [] if not patterns else None
    args = ["-C", str(change.root), "grep", "-l", "-z", "-I", "-F", "--full-name", "--no-color"]
    if whole_words:
        args.append("-w")
    for word in patterns:
        args += ["-e", word]
    prefix = ""
    if isinstance(snap, PatchedSnapshot):
        committed = _grep(git, [*args, snap.rev], globs, f"{snap.rev}:")
        if committed is None:
            return None
        written = [p for p in snap.added if _written_match(change, p, patterns, globs, whole_words)]
        return sorted({*(p for p in committed if p not in snap.gone | snap.added), *written})
    if isinstance(snap, CommitSnapshot):
        args.append(snap.rev)
        prefix = f"{snap.rev}:"
    elif isinstance(snap, IndexSnapshot):
        args.insert(3, "--cached")
    elif isinstance(snap, WorktreeSnapshot):
        args.insert(3, "--untracked")
    else:
        return None
    return _grep(git, args, globs, prefix)


def _grep(git: Git, args: list[str], globs: Sequence[str], prefix: str) -> list[str] | None:
    try:
        out = git.run(*args, "--", *globs, ok_codes=(0, 1))
    except GitError:
        return None
    found = (p.decode("utf-8", "surrogateescape") for p in out.split(b"\0") if p)
    return sorted(p.removeprefix(prefix) for p in found)


def _written_match(
    change: Change, path: str, words: Sequence[str], globs: Sequence[str], whole_words: bool
) -> bool:
    """``git grep`` on a file the diff wrote (read from the change, not from a commit)."""
    import fnmatch

    if not any(fnmatch.fnmatchcase(path, g) for g in globs):
        return False
    source = change.read_head(path)
    if source is None:
        return False
    return word_pattern(words, whole_words).search(source.text) is not None


def word_pattern(words: Sequence[str], whole_words: bool) -> re.Pattern[str]:
    """Any of ``words`` (literally), as a whole word when ``whole_words``."""
    import re

    pattern = "|".join(re.escape(w) for w in words)
    if whole_words:
        pattern = f"(?<![A-Za-z0-9_])(?:{pattern})(?![A-Za-z0-9_])"
    return re.compile(pattern)
