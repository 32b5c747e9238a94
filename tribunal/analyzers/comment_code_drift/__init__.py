"""comment-code-drift: comments about a declaration the change edited or removed.

Seed semantics: a comment or docstring line that mentions a declaration whose
code changed (body edit, signature, rename, removal), and that the change did
not itself add or edit (a fresh comment is unlikely to be stale). Staleness
is semantic, so this analyzer only says UNVERIFIED, and is silent without a
base to compare with.

One finding per changed declaration, listing the comment lines about it, and
only lines that are about it: its own docstring and comments inside it or in
the block directly above it (as it stood at base) when they mention its name;
anywhere else in the changed files, only a mention that can mean nothing else
(``mentions.needed``). Names that are ordinary words or the project's own name
need more than a bare word even next to the declaration.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator

from tribunal.analyzers.comment_code_drift.about import near_lines, owners
from tribunal.analyzers.comment_code_drift.changes import ChangedDecl, changed_decls
from tribunal.analyzers.comment_code_drift.mentions import Strength, needed, strongest
from tribunal.analyzers.comment_code_drift.project import normalize, project_names
from tribunal.analyzers.grouping import Place, count_phrase, grouped
from tribunal.change.diff.model import FileChange
from tribunal.change.model import Change
from tribunal.engine.analysis import each_file
from tribunal.findings import Finding, Verdict
from tribunal.lang.comments import (
    CommentLine,
    js_comments,
    python_comments,
)
from tribunal.lang.paths import is_js_family, language_of
from tribunal.util.lazyre import lazy

ID = "comment-code-drift"
_LANGUAGES = ("python", "javascript", "typescript", "tsx")
_WORD = lazy(r"[A-Za-z_$][\w$]*")
_NOTE_WIDTH = 100


def run(change: Change) -> Iterator[Finding]:
    if not change.has_base:
        return
    files = change.analyzable(_LANGUAGES)
    if all(fc.old_path is None for fc in files):
        return  # only new files: no declaration can have changed or gone (nothing to parse)
    declared = changed_decls(change, files)
    if not declared.changed:
        return
    by_name: dict[str, list[ChangedDecl]] = defaultdict(list)
    for decl in declared.changed:
        by_name[decl.name].append(decl)
    judge = _Judge(change, by_name, declared.names_at_head)
    places: dict[ChangedDecl, list[Place]] = defaultdict(list)
    for decl, place in each_file(files, judge.file):
        places[decl].append(place)
    for decl in declared.changed:
        if places.get(decl):
            yield _finding(decl, places[decl])


class _Judge:
    def __init__(
        self,
        change: Change,
        by_name: dict[str, list[ChangedDecl]],
        names_at_head: dict[str, set[str]],
    ) -> None:
        self.change = change
        self.by_name = by_name
        self.names_at_head = names_at_head
        self.project = project_names(change)
        self._near: dict[tuple[ChangedDecl, str], frozenset[int]] = {}

    def file(self, fc: FileChange) -> Iterator[tuple[ChangedDecl, Place]]:
        """(declaration, comment place) for each comment line of ``fc`` about a changed one."""
        if fc.old_path is None:
            return  # every line of a new file is added, and an added comment is never stale
        source = self.change.head_source(fc)
        language = language_of(fc.path)
        if source is None or language is None:
            return
        if language == "python":
            comments = python_comments(source)
        elif is_js_family(language):
            comments = js_comments(source, language)
        else:
            return
        for comment in comments:
            if comment.line in fc.added:
                continue  # written or rewritten by this change: not stale
            for decl in self._about(comment, fc):
                yield decl, Place(fc.path, comment.line, _note(comment))

    def _about(self, comment: CommentLine, fc: FileChange) -> Iterator[ChangedDecl]:
        seen: set[str] = set()
        for match in _WORD().finditer(comment.text):
            name = match[0]
            if name in seen or name not in self.by_name:
                continue
            seen.add(name)
            decls = self.by_name[name]
            ambiguous = len(self.names_at_head.get(name, ())) > 1 or len(decls) > 1
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


def _finding(decl: ChangedDecl, places: list[Place]) -> Finding:
    own = sorted((p for p in places if p.file == decl.path), key=lambda p: p.line or 0)
    other = sorted((p for p in places if p.file != decl.path), key=lambda p: (p.file, p.line or 0))
    ordered = own + other
    lines = count_phrase(len(ordered), "comment line")
    explanation = (
        f"{decl.qualname} ({decl.path}:{decl.line}) was {decl.how}. These comment and "
        "docstring lines are about it and were not changed by this diff; check that they "
        "still describe the code:"
    )
    return grouped(
        analyzer=ID,
        verdict=Verdict.UNVERIFIED,
        group=f"{decl.path}:{decl.qualname}",
        title=f"{lines} may describe the old '{decl.name}' ({decl.how})",
        explanation=explanation,
        places=ordered,
        language=language_of(decl.path),
    )
