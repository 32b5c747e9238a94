"""Which files of the head tree mention a word: one ``git grep`` of whatever the head is.

The head may be a commit (``--base A --head B``), the index (``--staged``,
``git grep --cached``) or the work tree (``--untracked``, so that files an
agent forgot to stage are searched too), or a commit with a ``--diff`` applied
(the commit is searched, the files the diff wrote are read). Analyzers use it to find candidates
cheaply before parsing anything. The answer is None when git cannot search
(no repository, a bare ``--diff``), so that callers treat it as unknown
rather than as "no file".

The words go to git on its standard input (``-f -``): a change that removes
thousands of names must not run into the limit on a command line's length.
Many words are asked as a few Perl-compatible alternations rather than one
fixed string each: git tries every pattern on every line, so 2,000 fixed
strings took 4 to 8 seconds over a 20,000-file tree where four alternations
take 0.4. Where git has no PCRE, or the words are not all ASCII, they are fixed
strings as before; both forms find the same files.
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


#: From this many words on, they are asked as Perl-compatible alternations.
PERL_FROM = 32
#: Characters of one alternation (a line on git's input): well within PCRE2's pattern size.
_ALTERNATION_CHARS = 4000
_NOT_WORD = "[A-Za-z0-9_]"  # what ``git grep -w`` counts as a word character


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
    args = ["-C", str(change.root), "grep", "-l", "-z", "-I", "--full-name", "--no-color"]
    prefix = ""
    if isinstance(snap, PatchedSnapshot):
        committed = _grep(git, [*args, snap.rev], globs, f"{snap.rev}:", patterns, whole_words)
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
    return _grep(git, args, globs, prefix, patterns, whole_words)


def _grep(
    git: Git,
    args: list[str],
    globs: Sequence[str],
    prefix: str,
    words: Sequence[str],
    whole_words: bool,
) -> list[str] | None:
    plain = all(w.isascii() and "\n" not in w for w in words)
    for perl in [True, False] if len(words) >= PERL_FROM and plain else [False]:
        flags, patterns = grep_patterns(words, whole_words, perl)
        command = [*args[:3], *flags, *args[3:]]  # options go before a revision
        try:
            out = git.run(*command, "--", *globs, ok_codes=(0, 1), stdin=patterns)
        except GitError:
            continue  # no PCRE in this git (or a pattern it refused): fixed strings next
        found = (p.decode("utf-8", "surrogateescape") for p in out.split(b"\0") if p)
        return sorted(p.removeprefix(prefix) for p in found)
    return None


def grep_patterns(words: Sequence[str], whole_words: bool, perl: bool) -> tuple[list[str], bytes]:
    """``git grep``'s flags and its standard input for ``words``: fixed strings, one per
    line, or (``perl``) alternations of ASCII words, ``-w``'s word test written into them.

    A word holding a newline becomes two fixed strings: more files, never fewer.
    """
    if not perl:
        flags = ["-F", *(["-w"] if whole_words else []), "-f", "-"]
        return flags, "\n".join(words).encode("utf-8", "surrogateescape") + b"\n"
    lines: list[str] = []
    chunk: list[str] = []
    size = 0
    for word in words:
        escaped = "".join(c if c.isalnum() or c == "_" else f"\\{c}" for c in word)
        if chunk and size + len(escaped) > _ALTERNATION_CHARS:
            lines.append(_alternation(chunk, whole_words))
            chunk, size = [], 0
        chunk.append(escaped)
        size += len(escaped) + 1
    lines.append(_alternation(chunk, whole_words))
    return ["-P", "-f", "-"], ("\n".join(lines) + "\n").encode("ascii")


def _alternation(escaped: Sequence[str], whole_words: bool) -> str:
    body = f"(?:{'|'.join(escaped)})"
    # Around the whole alternation, not checked after it picked one: ``-w`` with ``-P``
    # would take ``mod_1`` inside ``mod_10`` and never try ``mod_10``.
    return f"(?<!{_NOT_WORD}){body}(?!{_NOT_WORD})" if whole_words else body


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
