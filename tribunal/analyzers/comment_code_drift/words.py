"""The comment lines drift judges, and the words they use.

Only a comment line of a changed file that the change did not add can be
stale, and it is about a declaration only if one of its words is the
declaration's name (``judge.Judge``). So a declaration that no such line
names can never be reported: ``changed_decls`` asks ``CommentWords.mentions``
before it normalizes or compares a declaration's code, and skips the work for
the rest. The words are gathered from the files it reads anyway (while their
trees are cached) and, for a name still unknown at the end, from the other
files that spell it (``spelled``).
"""

from __future__ import annotations

from collections.abc import Collection, Iterator

from tribunal.analyzers.comment_code_drift.spelled import Spelling
from tribunal.change.diff.model import FileChange
from tribunal.change.model import Change
from tribunal.lang.comments import CommentLine, comments_of, may_have_comments
from tribunal.lang.paths import language_of
from tribunal.util.lazyre import lazy

_WORD = lazy(r"[A-Za-z_$][\w$]*")


def unchanged_comments(change: Change, fc: FileChange) -> list[CommentLine]:
    """The comment lines of ``fc`` at head that the change left as they were."""
    if fc.old_path is None:
        return []  # every line of a new file is added, and an added comment is never stale
    source = change.head_source(fc)
    comments = comments_of(source, language_of(fc.path)) if source is not None else None
    return [c for c in comments or () if c.line not in fc.added]


def may_have_unchanged_comments(change: Change, fc: FileChange) -> bool:
    """False only when ``unchanged_comments`` is certainly empty, known without a parse."""
    source = change.head_source(fc) if fc.old_path is not None else None
    return source is not None and may_have_comments(source, language_of(fc.path))


def words_in(text: str) -> Iterator[str]:
    """The words of a comment line that could be a declaration's name."""
    for match in _WORD().finditer(text):
        yield match[0]


class CommentWords:
    """Words of the comment lines a change left as they were, gathered file by file."""

    def __init__(self, change: Change) -> None:
        self.change = change
        self.words: set[str] = set()
        #: False once a file's comments could not be read: every name may then be
        #: mentioned (the judge reads that file again and reports its failure).
        self.complete = True
        self._unread: list[FileChange] = []

    def mentions(self, name: str) -> bool:
        """Whether a comment line read so far names ``name`` (always, when some are unread)."""
        return not self.complete or name in self.words

    def read(self, fc: FileChange) -> set[str]:
        """Add the words of ``fc``'s unchanged comment lines; returns them."""
        try:
            comments = unchanged_comments(self.change, fc)
        except Exception:  # the judge's ``each_file`` meets the same failure and records it
            self.complete = False
            return set()
        found = {word for comment in comments for word in words_in(comment.text)}
        self.words |= found
        return found

    def read_later(self, fc: FileChange) -> None:
        """Remember ``fc``: its words are read by ``settle`` if a name could be among them."""
        self._unread.append(fc)

    def settle(self, names: Collection[str]) -> None:
        """Read the files put off whose head spells one of ``names`` not yet mentioned."""
        missing = {name for name in names if not self.mentions(name)}
        spelling = Spelling(missing)
        for fc in self._unread:
            if not missing or not self.complete:
                break
            if len(missing) < len(spelling) // 2:  # look for fewer names from now on
                spelling = Spelling(missing)
            source = self.change.head_source(fc)
            if source is not None and spelling.could_be_in(source):
                missing -= self.read(fc)
        self._unread = []
