"""comment-code-drift: a comment that mentions a declaration the change edited or removed.

Seed semantics: a comment or docstring in a changed file mentions, by its
exact identifier, a declaration whose code changed (body edit, rename,
removal), and the comment line itself was not added or edited by the change
(a fresh comment is unlikely to be stale). Staleness is semantic, so this
analyzer only says UNVERIFIED, and is silent without a base to compare with.
Names that are ordinary words (``get``, ``run``, ``data``) are ignored: prose
uses them all the time.
"""

from __future__ import annotations

from collections.abc import Iterator

from tribunal.analysis import each_file
from tribunal.analyzers.comment_code_drift.changes import ChangedDecl, changed_decls
from tribunal.analyzers.comment_code_drift.comments import (
    CommentLine,
    js_comments,
    python_comments,
)
from tribunal.analyzers.comment_code_drift.generic import is_generic
from tribunal.change import Change
from tribunal.diff.model import FileChange
from tribunal.findings import Finding, Verdict
from tribunal.lazyre import lazy
from tribunal.paths import is_js_family, language_of

ID = "comment-code-drift"
_LANGUAGES = ("python", "javascript", "typescript", "tsx")
_WORD = lazy(r"[A-Za-z_$][\w$]*")


def run(change: Change) -> Iterator[Finding]:
    if not change.has_base:
        return
    files = change.analyzable(_LANGUAGES)
    changed: dict[str, list[ChangedDecl]] = {}
    for decl in changed_decls(change, files):
        if not is_generic(decl.name):
            changed.setdefault(decl.name, []).append(decl)
    if changed:
        yield from each_file(files, lambda fc: _judge_file(change, fc, changed))


def _judge_file(
    change: Change, fc: FileChange, changed: dict[str, list[ChangedDecl]]
) -> Iterator[Finding]:
    source = change.head_source(fc)
    if source is None:
        return
    language = language_of(fc.path)
    if language == "python":
        comments = python_comments(source)
    elif is_js_family(language) and language is not None:
        comments = js_comments(source, language)
    else:
        return
    for comment in comments:
        if comment.line in fc.added:
            continue  # written or rewritten by this change: not stale
        mentioned = _mentions(comment, changed, fc.path)
        if mentioned:
            yield _finding(fc.path, comment, mentioned, changed, language)


def _mentions(comment: CommentLine, changed: dict[str, list[ChangedDecl]], path: str) -> list[str]:
    """Changed names the comment mentions.

    A plain lower-case word (``digest``, ``greet``) counts in its own file; in
    any other file only when written as code (`` `greet` ``, ``greet()``,
    ``obj.greet``), because there it is far more often just the word.
    """
    seen: dict[str, None] = {}
    for match in _WORD().finditer(comment.text):
        name = match[0]
        if name not in changed or name in seen:
            continue
        elsewhere = all(d.path != path for d in changed[name])
        plain = name.isalpha() and name.islower()
        if plain and elsewhere and not _as_code(comment.text, match.start(), match.end()):
            continue
        seen[name] = None
    return list(seen)


def _as_code(text: str, start: int, end: int) -> bool:
    before = text[start - 1] if start > 0 else ""
    after = text[end] if end < len(text) else ""
    return before in "`." or after in "`("


def _finding(
    path: str,
    comment: CommentLine,
    names: list[str],
    changed: dict[str, list[ChangedDecl]],
    language: str | None,
) -> Finding:
    quoted = ", ".join(f"'{n}'" for n in names)
    what = "docstring" if comment.kind == "docstring" else "comment"
    evidence = []
    for name in names:
        for decl in changed[name][:3]:
            evidence.append(f"{decl.qualname} ({decl.path}:{decl.line}): {decl.how}")
    detail = (
        "\n".join(evidence)
        + f"\nThe {what} line was not changed by this diff; check that it still describes the code."
    )
    return Finding(
        analyzer=ID,
        verdict=Verdict.UNVERIFIED,
        file=path,
        line=comment.line,
        title=f"{what} mentions {quoted}, whose definition changed",
        detail=detail,
        language=language,
    )
