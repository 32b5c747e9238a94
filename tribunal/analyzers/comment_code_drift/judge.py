"""Which unchanged comment lines are about which changed declarations.

A line is about a declaration when it names it strongly enough for where it
is (``mentions.needed``): next to the declaration (``about.near_lines``) a
weaker mention does than elsewhere. Many changed declarations can share a name
(a method every component has, edited by one codemod), so a line naming one is
weighed once per name, not once per declaration: only the declarations of the
line's own file are measured one by one; of the others, either all count (a
mention strong enough anywhere) or only those whose owner qualifies it
(``Owner.name``). A file whose text does not spell a changed name is not
parsed again at all (``spelled``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from tribunal.analyzers.comment_code_drift.about import near_lines, owners
from tribunal.analyzers.comment_code_drift.changes import ChangedDecl, Declared
from tribunal.analyzers.comment_code_drift.mentions import Mentions, Strength, needed
from tribunal.analyzers.comment_code_drift.project import normalize, project_names
from tribunal.analyzers.comment_code_drift.spelled import Spelling
from tribunal.analyzers.comment_code_drift.words import CommentWords, unchanged_comments, words_in
from tribunal.analyzers.grouping import Place
from tribunal.change.diff.model import FileChange
from tribunal.change.model import Change
from tribunal.lang.comments import CommentLine

_NOTE_WIDTH = 100
#: ``about.near_lines`` of a declaration in a file (cached by the judge).
_NearLines = Callable[[ChangedDecl, FileChange], frozenset[int]]


class Judge:
    """Finds, file by file, the comment lines about the changed declarations."""

    def __init__(self, change: Change, declared: Declared, words: CommentWords) -> None:
        self.change = change
        self.words = words
        grouped: dict[str, list[ChangedDecl]] = {}
        for decl in declared.changed:
            grouped.setdefault(decl.name, []).append(decl)
        project = project_names(change)
        self.by_name = {
            name: _Namesakes(name, decls, name in declared.declared_twice, project)
            for name, decls in grouped.items()
        }
        self._spelling = Spelling(self.by_name)
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
        return source is not None and self._spelling.could_be_in(source)

    def _about(self, comment: CommentLine, fc: FileChange) -> Iterator[ChangedDecl]:
        seen: set[str] = set()
        for name in words_in(comment.text):
            if name in seen or name not in self.by_name:
                continue
            seen.add(name)
            yield from self.by_name[name].about(comment, fc, self._near_lines)

    def _near_lines(self, decl: ChangedDecl, fc: FileChange) -> frozenset[int]:
        key = (decl, fc.path)
        if key not in self._near:
            self._near[key] = near_lines(self.change, decl, fc)
        return self._near[key]


class _Namesakes:
    """The changed declarations that share one name, indexed by file and by owner."""

    def __init__(
        self, name: str, decls: list[ChangedDecl], twice: bool, project: frozenset[str]
    ) -> None:
        self.name = name
        self.decls = decls
        self.owners = [owners(decl) for decl in decls]
        ambiguous = twice or len(decls) > 1
        mine = normalize(name) in project
        self.want_near = needed(name, near=True, project=mine, ambiguous=ambiguous)
        self.want_far = needed(name, near=False, project=mine, ambiguous=ambiguous)
        self.by_owner: dict[str, list[int]] = {}
        self.by_head: dict[str, list[int]] = {}  # where it is at head (``about.near_lines``)
        self.by_base: dict[str, list[int]] = {}  # where it was at base
        for at, decl in enumerate(decls):
            for owner in self.owners[at]:
                self.by_owner.setdefault(owner, []).append(at)
            if decl.head_span is not None:
                self.by_head.setdefault(decl.path, []).append(at)
            if decl.base_span is not None and decl.old_path is not None:
                self.by_base.setdefault(decl.old_path, []).append(at)

    def about(self, comment: CommentLine, fc: FileChange, near: _NearLines) -> list[ChangedDecl]:
        """The declarations ``comment`` (a line of ``fc``) is about, in their order."""
        mentions = Mentions.of(comment.text, self.name)
        local = set(self.by_head.get(fc.path, ()))
        if fc.old_path is not None:
            local.update(self.by_base.get(fc.old_path, ()))
        chosen = set()
        for at in local:  # may be next to the line: measured one by one
            want = self.want_near if comment.line in near(self.decls[at], fc) else self.want_far
            if _enough(mentions.strongest(self.owners[at]), want):
                chosen.add(at)
        if _enough(mentions.unowned, self.want_far):  # enough for any of the others
            chosen.update(at for at in range(len(self.decls)) if at not in local)
        else:  # only ``Owner.name``, the strongest mention, for those it qualifies
            for owner in mentions.qualifiers:
                chosen.update(at for at in self.by_owner.get(owner, ()) if at not in local)
        return [self.decls[at] for at in sorted(chosen)]


def _enough(have: Strength, want: Strength) -> bool:
    return have is not Strength.NONE and have >= want


def _note(comment: CommentLine) -> str:
    text = " ".join(comment.text.split())
    return text if len(text) <= _NOTE_WIDTH else text[: _NOTE_WIDTH - 1] + "…"
