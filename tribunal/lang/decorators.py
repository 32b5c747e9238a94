"""Which lines the decorators of a declaration occupy, keyed by the declaration's line.

A finding on a decorated function or class points at its ``def`` / ``class``
line, while a comment about it sits above its decorators, and one decorator
may span many lines (``@pytest.mark.parametrize(...)`` over a table of cases,
``@Component({...})`` in TypeScript), whose continuation lines look like any
other code. Python is read with ``ast`` and JS/TS with tree-sitter, through
``tribunal.lang.trees``, so each file is parsed once for every analyzer and only
when someone asks.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from tribunal.change.model import Source
from tribunal.lang.paths import is_js_family, language_of
from tribunal.lang.trees import js_derived, python_derived

if TYPE_CHECKING:
    from tree_sitter import Node, Tree

Spans = dict[int, frozenset[int]]

_DECLARATIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
#: Nodes tree-sitter puts between a decorator and what it decorates.
_BETWEEN = ("decorator", "comment")


def decorator_lines(source: Source) -> Spans:
    """Declaration line -> every line its decorators span; {} for a file that does not parse."""
    language = language_of(source.path)
    if language == "python":
        return python_derived(source, "decorators", _python)
    if language is not None and is_js_family(language):
        return js_derived(source, language, "decorators", lambda tree: _script(tree, language))
    return {}


def _python(tree: ast.Module | None) -> Spans:
    if tree is None:
        return {}
    spans: Spans = {}
    for node in ast.walk(tree):
        if isinstance(node, _DECLARATIONS) and node.decorator_list:
            lines = (range(d.lineno, (d.end_lineno or d.lineno) + 1) for d in node.decorator_list)
            spans[node.lineno] = frozenset(n for span in lines for n in span)
    return spans


def _script(tree: Tree, language: str) -> Spans:
    """Each decorator belongs to the next sibling that is not a decorator or a comment.

    tree-sitter hangs decorators on the class, the ``export`` statement or the
    class body next to the member, so the decorated line is where that sibling
    starts (the ``class`` keyword, a method's name), not where its parent does.
    """
    from tribunal.lang.js import syntax as js

    root = tree.root_node
    if b"@" not in (root.text or b""):
        return {}  # every decorator starts with one: no query to compile for most files
    found = js.find(language, "(decorator) @decorator", root).get("decorator", [])
    spans: dict[int, set[int]] = {}
    for node in found:
        target = _decorated(node)
        if target is not None:
            lines = spans.setdefault(js.first_line(target), set())
            lines.update(range(js.first_line(node), js.last_line(node) + 1))
    return {line: frozenset(lines) for line, lines in spans.items()}


def _decorated(node: Node) -> Node | None:
    target = node.next_sibling
    while target is not None and target.type in _BETWEEN:
        target = target.next_sibling
    return target
