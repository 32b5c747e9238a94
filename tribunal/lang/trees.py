"""Parsed trees of a file's contents, shared by every analyzer of one run.

A ``Source`` is read once per run (``Change`` caches it); the tree parsed from
it is remembered here against that same object, so the claims verifiers,
risky-diff-no-test and comment-code-drift parse each side of a file once
between them. The memo holds sources weakly: trees go when the run's change
goes. Parsers themselves come from ``tribunal.lang.js`` (one per grammar).
"""

from __future__ import annotations

import ast
import warnings
import weakref
from typing import TYPE_CHECKING

from tribunal.change import Source

if TYPE_CHECKING:
    from tree_sitter import Tree

_python: weakref.WeakKeyDictionary[Source, ast.Module | None] = weakref.WeakKeyDictionary()
_js: weakref.WeakKeyDictionary[Source, dict[str, Tree]] = weakref.WeakKeyDictionary()


def python_tree(source: Source) -> ast.Module | None:
    """The module's AST, or None when it does not parse (never raises for bad code)."""
    if source in _python:
        return _python[source]
    tree: ast.Module | None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # invalid escapes in the user's code are not ours
            tree = ast.parse(source.data, filename=source.path, type_comments=False)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        tree = None
    _python[source] = tree
    return tree


def js_tree(source: Source, language: str) -> Tree:
    """The tree-sitter tree of a JS/TS file in ``language`` (always a tree; check ERRORs)."""
    from tribunal.lang import js

    per_language = _js.setdefault(source, {})
    tree = per_language.get(language)
    if tree is None:
        tree = js.parse(source.data, language)
        per_language[language] = tree
    return tree
