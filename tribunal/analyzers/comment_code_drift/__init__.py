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

The work follows what can be reported: nothing is parsed for a change with
no comment line that could be stale; each side of a file is parsed once; a
declaration is normalized only when its bytes changed and an unchanged comment
line names it (``changes``); and a file is read again for its comments only
when its text spells a changed name (``judge``).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from typing import TYPE_CHECKING

from tribunal.analyzers.grouping import Place, count_phrase, grouped
from tribunal.change.model import Change
from tribunal.engine.analysis import each_file
from tribunal.findings import Finding, Verdict
from tribunal.lang.paths import language_of

if TYPE_CHECKING:
    from tribunal.analyzers.comment_code_drift.changes import ChangedDecl

ID = "comment-code-drift"
_LANGUAGES = ("python", "javascript", "typescript", "tsx")


def run(change: Change) -> Iterator[Finding]:
    if not change.has_base:
        return
    files = change.analyzable(_LANGUAGES)
    if all(fc.old_path is None for fc in files):
        return  # only new files: no declaration can have changed or gone (nothing to parse)
    # The judging loads only now: a commit that only adds files never needs it.
    from tribunal.analyzers.comment_code_drift.changes import changed_decls
    from tribunal.analyzers.comment_code_drift.judge import Judge
    from tribunal.analyzers.comment_code_drift.words import (
        CommentWords,
        may_have_unchanged_comments,
    )

    if not any(may_have_unchanged_comments(change, fc) for fc in files):
        return  # no comment line that could be stale: nothing to judge (nothing to parse)
    words = CommentWords(change)
    declared = changed_decls(change, files, words)  # only those an unchanged comment names
    if not declared.changed:
        return
    judge = Judge(change, declared, words)
    places: dict[ChangedDecl, list[Place]] = defaultdict(list)
    for decl, place in each_file(files, judge.file):
        places[decl].append(place)
    for decl in declared.changed:
        if places.get(decl):
            yield _finding(decl, places[decl])


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
