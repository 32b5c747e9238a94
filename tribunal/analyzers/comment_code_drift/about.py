"""Which comment lines sit next to a declaration: its docstring, its body, the block above it.

Measured where the comment was written: at base, where the declaration had
its old code, and mapped to head through the diff (a comment the change did not
touch keeps its text and moves only by whole lines). A declaration that exists
only at head in that file (moved there and edited) is measured at head.
"""

from __future__ import annotations

from tribunal.analyzers.comment_code_drift.changes import ChangedDecl, Span
from tribunal.change.diff.model import FileChange
from tribunal.change.model import Change, Source
from tribunal.lang.paths import language_of

_PY_COMMENT = ("#",)
_JS_COMMENT = ("//", "/*", "*", "*/")


def near_lines(change: Change, decl: ChangedDecl, fc: FileChange) -> frozenset[int]:
    """Head line numbers of ``fc`` that are next to ``decl`` (empty when it is elsewhere)."""
    out: set[int] = set()
    if decl.base_span is not None and decl.old_path is not None and fc.old_path == decl.old_path:
        source = change.base_source(fc)
        for line in _region(source, decl.base_span, fc.old_path):
            mapped = fc.new_line_for(line)
            if mapped is not None:
                out.add(mapped)
    if decl.head_span is not None and fc.path == decl.path:
        out.update(_region(change.head_source(fc), decl.head_span, fc.path))
    return frozenset(out)


def owners(decl: ChangedDecl) -> frozenset[str]:
    """Qualifiers that name the declaration's owner: its class, or its module."""
    parts = decl.qualname.split(".")
    if len(parts) > 1 and parts[-2] != "<locals>":
        return frozenset({parts[-2]})
    stem = decl.path.rsplit("/", 1)[-1].split(".", 1)[0]
    if stem in ("__init__", "index"):
        stem = decl.path.rsplit("/", 2)[-2] if "/" in decl.path else stem
    return frozenset({stem})


def _region(source: Source | None, span: Span, path: str) -> range:
    if source is None:
        return range(0)
    first, last = span
    return range(_block_above(source, first, path), last + 1)


def _block_above(source: Source, first: int, path: str) -> int:
    """The first line of the comment block directly above line ``first`` (or ``first``)."""
    starts = _PY_COMMENT if language_of(path) == "python" else _JS_COMMENT
    line = first
    while line > 1 and source.line(line - 1).lstrip().startswith(starts):
        line -= 1
    return line
