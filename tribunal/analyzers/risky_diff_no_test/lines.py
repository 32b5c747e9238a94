"""Identifiers written on given lines of a file: code only, never strings or comments.

Python reads tokens from the tokenizer; JS/TS runs one tree-sitter query,
limited to the rows of the change, so the walk happens in C and strings and
comments (which hold no identifier nodes) are skipped by construction.
"""

from __future__ import annotations

import keyword
from collections import defaultdict
from collections.abc import Collection

from tribunal.change.model import Source
from tribunal.lang.paths import is_js_family
from tribunal.lang.trees import js_tree

_JS_NAMES = frozenset(
    {"identifier", "property_identifier", "type_identifier", "shorthand_property_identifier",
     "shorthand_property_identifier_pattern", "private_property_identifier"}
)  # fmt: skip


def names_on_lines(source: Source, language: str, lines: Collection[int]) -> dict[int, list[str]]:
    """Line -> identifiers on it, for each of ``lines`` that has any."""
    if not lines:
        return {}
    if language == "python":
        return _python(source, lines)
    if is_js_family(language):
        return _javascript(source, language, lines)
    return {}


def _python(source: Source, lines: Collection[int]) -> dict[int, list[str]]:
    import io
    import tokenize  # for a Python file only: a JS/TS change never loads it

    out: dict[int, list[str]] = defaultdict(list)
    last = max(lines)
    try:
        for token in tokenize.tokenize(io.BytesIO(source.data).readline):
            if token.start[0] > last:
                break
            wanted = token.type == tokenize.NAME and token.start[0] in lines
            if wanted and not keyword.iskeyword(token.string):
                out[token.start[0]].append(token.string)
    except (tokenize.TokenError, SyntaxError, UnicodeDecodeError):
        pass  # what was read stands; the rest is not Python the tokenizer reads
    return out


def _javascript(source: Source, language: str, lines: Collection[int]) -> dict[int, list[str]]:
    from tree_sitter import QueryCursor

    from tribunal.lang.js.syntax import query, text

    kinds = _JS_NAMES if language != "javascript" else _JS_NAMES - {"type_identifier"}
    pattern = "[" + " ".join(f"({kind})" for kind in sorted(kinds)) + "] @name"
    rows = {n - 1 for n in lines}
    cursor = QueryCursor(query(language, pattern))
    cursor.set_point_range((min(rows), 0), (max(rows) + 1, 0))
    root = js_tree(source, language).root_node
    out: dict[int, list[str]] = defaultdict(list)
    for node in cursor.captures(root).get("name", []):
        row = node.start_point[0]
        if row in rows:
            out[row + 1].append(text(node))
    return out
