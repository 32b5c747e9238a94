"""Which unchanged comment lines are about which changed declarations.

A line is about a declaration when it names it strongly enough for where it
is (``mentions.needed``): next to the declaration (``about.near_lines``) a
weaker mention does than elsewhere. A file whose text does not spell a changed
name is not parsed again at all (``spelled``).
"""

from __future__ import annotations

from collections.abc import Iterator

from tribunal.analyzers.comment_code_drift.about import near_lines, owners
from tribunal.analyzers.comment_code_drift.changes import ChangedDecl, Declared
from tribunal.analyzers.comment_code_drift.mentions import Strength, needed, strongest
from tribunal.analyzers.comment_code_drift.project import normalize, project_names
from tribunal.analyzers.comment_code_drift.spelled import could_spell
from tribunal.analyzers.comment_code_drift.words import CommentWords, unchanged_comments, words_in
from tribunal.analyzers.grouping import Place
from tribunal.change.diff.model import FileChange
from tribunal.change.model import Change
from tribunal.lang.comments import CommentLine

_NOTE_WIDTH = 100


class Judge:
    """Finds, file by file, the comment lines about the changed declarations."""

    def __init__(self, change: Change, declared: Declared, words: CommentWords) -> None:
        self.change = change
        self.words = words
        self.by_name: dict[str, list[ChangedDecl]] = {}
        for decl in declared.changed:
            self.by_name.setdefault(decl.name, []).append(decl)
        self.declared_twice = declared.declared_twice
        self.project = project_names(change)
        self._near: dict[tuple[ChangedDecl, str], frozenset[int]] = {}

    def file(self, fc: FileChange) -> Iterator[tuple[ChangedDecl, Place]]:
        """(declaration, comment place) for each comment line of ``fc`` about a changed one."""
        if fc.old_path is None or not self._may_name(fc):
            return
        for comment in unchanged_comments(self.change, fc):
            for decl in self._about(comment, fc):
                yield decl, Place(fc.path, comment.line, _note(comment))

    def _may_name(self, fc: FileChange) -> bool:
        """Whether ``fc``'s text spells a changed name (if not, no comment of it names one)."""
        if not self.words.complete:
            return True  # some file's comments could not be read: read them all, as before
        source = self.change.head_source(fc)
        return source is not None and could_spell(source, self.by_name.keys())

    def _about(self, comment: CommentLine, fc: FileChange) -> Iterator[ChangedDecl]:
        seen: set[str] = set()
        for name in words_in(comment.text):
            if name in seen or name not in self.by_name:
                continue
            seen.add(name)
            decls = self.by_name[name]
            ambiguous = name in self.declared_twice or len(decls) > 1
            project = normalize(name) in self.project
            for decl in decls:
                near = comment.line in self._near_lines(decl, fc)
                want = needed(name, near=near, project=project, ambiguous=ambiguous)
                have = strongest(comment.text, name, owners(decl))
                if have is not Strength.NONE and have >= want:
                    yield decl

    def _near_lines(self, decl: ChangedDecl, fc: FileChange) -> frozenset[int]:
        key = (decl, fc.path)
        if key not in self._near:
            self._near[key] = near_lines(self.change, decl, fc)
        return self._near[key]


def _note(comment: CommentLine) -> str:
    text = " ".join(comment.text.split())
    return text if len(text) <= _NOTE_WIDTH else text[: _NOTE_WIDTH - 1] + "…"
