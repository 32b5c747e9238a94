"""The JavaScript/TypeScript front end: tree-sitter parsers, queries and node helpers.

Every JS/TS analyzer parses through here so that a file is read by one cached
parser per grammar. The grammar wheels are loaded on the first parse, and
``tree_sitter`` with it or with the front end's modules that hold its nodes
(loaded only for a JS/TS file), never when Tribunal starts: a Python-only
change pays nothing.

tree-sitter always returns a tree; syntax it cannot read (a typo, or valid
modern TypeScript the grammar does not know, such as variance annotations)
shows up as ERROR or MISSING nodes. Analyzers must treat such a region as
unknown, so the helpers here make finding them cheap.
"""

from __future__ import annotations

import sys
import threading
from functools import cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tree_sitter import Language, Node, Parser, Query, Tree

    from tribunal.lang.js.match import Pattern

#: The grammars tree-sitter provides, named as ``tribunal.lang.paths.language_of`` names them.
GRAMMARS = ("javascript", "typescript", "tsx")

_BOM = b"\xef\xbb\xbf"
#: A parser is not safe to share between threads; lenses may parse from several.
_PARSING = threading.Lock()


@cache
def grammar(language: str) -> Language:
    """The tree-sitter ``Language`` for ``javascript``, ``typescript`` or ``tsx``."""
    from tree_sitter import Language

    if language == "javascript":
        return Language(_grammar_binding("tree_sitter_javascript").language())
    if language == "typescript":
        return Language(_grammar_binding("tree_sitter_typescript").language_typescript())
    if language == "tsx":
        return Language(_grammar_binding("tree_sitter_typescript").language_tsx())
    raise ValueError(f"no tree-sitter grammar for {language!r}")


def _grammar_binding(package: str) -> Any:
    """The grammar wheel's compiled ``_binding`` module, without running the wheel's ``__init__``.

    That ``__init__`` imports ``importlib.resources`` (and with it ``tempfile``,
    ``shutil``, ``bz2``, ``lzma``, ``random``: ~4 ms of a commit) only to read
    highlighting queries Tribunal never uses; the ``language*()`` functions it
    re-exports are the binding's. A wheel laid out otherwise is imported as usual.
    """
    import importlib
    import importlib.util
    from importlib.machinery import PathFinder

    name = f"{package}._binding"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.find_spec(package)  # finds the package; does not run it
    where = spec.submodule_search_locations if spec is not None else None
    binding = PathFinder.find_spec(name, where) if where else None
    if binding is None or binding.loader is None:
        return importlib.import_module(package)
    module = importlib.util.module_from_spec(binding)
    binding.loader.exec_module(module)
    sys.modules[name] = module  # what the package's own ``from ._binding import`` would find
    return module


@cache
def parser(language: str) -> Parser:
    """One parser per grammar, reused across files (a parser is reset by each parse)."""
    from tree_sitter import Parser

    return Parser(grammar(language))


def parse(data: bytes, language: str) -> Tree:
    """Parse a file's bytes; a UTF-8 byte order mark is dropped (it does not move lines).

    Raises ``bounds.TreeTooDeep`` for a tree nested deeper than ``MAX_TREE_DEPTH``.
    """
    from tribunal.util.bounds import MAX_TREE_DEPTH, TreeTooDeep

    with _PARSING:
        tree = parser(language).parse(data.removeprefix(_BOM))
    if deeper_than(tree.root_node, MAX_TREE_DEPTH):
        raise TreeTooDeep(f"its syntax nests more than {MAX_TREE_DEPTH} levels deep")
    return tree


def deeper_than(root: Node, limit: int) -> bool:
    """Whether ``root``'s tree holds a node more than ``limit`` levels below it (root: 1).

    Only subtrees big enough to hold such a path are entered (a path of n nodes
    needs a subtree of n nodes, and tree-sitter keeps each node's count): a
    real file costs a handful of nodes, a hostile chain its length.
    """
    frontier = [root] if root.descendant_count > limit else []
    for depth in range(2, limit + 2):
        need = limit - depth + 2
        frontier = [c for n in frontier for c in n.children if c.descendant_count >= need]
        if not frontier:
            return False
    return True


@cache
def query(language: str, source: str) -> Query:
    """A compiled query, cached per grammar: compiling costs far more than running."""
    from tree_sitter import Query

    _compiled.add((language, source))
    return Query(grammar(language), source)


_compiled: set[tuple[str, str]] = set()


def find(language: str, source: str, node: Node) -> dict[str, list[Node]]:
    """``captures(query(language, source), node)``, by a walk in Python while that is cheaper.

    A small run (one test file added) pays milliseconds to compile each query
    and microseconds to run it; a walk of a few hundred nodes costs less than
    the compiling (``tribunal.lang.js.match``). Once a query has walked its
    budget of nodes, or when it uses syntax the walk does not answer, it is
    compiled and run in C from then on. Both give the same captures, each
    list in source order (``js_match.source_order``), so no result depends on which ran.
    """
    key = (language, source)
    patterns = _walkable(language, source)
    if patterns is not None and key not in _compiled:
        from tribunal.lang.js import match as js_match

        if js_match.BUDGET.spend(key, node.descendant_count + js_match.CALL_COST):
            return js_match.matches(patterns, node)
    from tribunal.lang.js.match import source_order  # the walk's order: one sort key for both

    found = captures(query(language, source), node)
    for nodes in found.values():  # QueryCursor's own order is not the source's
        nodes.sort(key=source_order)
    return found


@cache
def _walkable(language: str, source: str) -> tuple[Pattern, ...] | None:
    """The query's patterns when the walk answers them on this grammar (known names only)."""
    from tribunal.lang.js.match import names_known, parse_patterns

    patterns = parse_patterns(source)
    if patterns is None or not names_known(patterns, grammar(language)):
        return None
    return patterns


def captures(q: Query, node: Node) -> dict[str, list[Node]]:
    """Run ``q`` over ``node``'s subtree; each capture name maps to nodes in source order."""
    from tree_sitter import QueryCursor

    return QueryCursor(q).captures(node)


def text(node: Node) -> str:
    """The node's source text (undecodable bytes replaced)."""
    raw = node.text
    return raw.decode("utf-8", "replace") if raw is not None else ""


def first_line(node: Node) -> int:
    """1-based line where the node starts."""
    return node.start_point[0] + 1


def last_line(node: Node) -> int:
    """1-based line where the node ends (a node ending at column 0 ends on the line before)."""
    row, column = node.end_point
    if column == 0 and row > node.start_point[0]:
        return row
    return row + 1


def error_nodes(node: Node) -> list[Node]:
    """ERROR and MISSING nodes inside ``node``, in source order.

    Only subtrees that report an error are entered, so a clean file costs one
    check and a file with one typo costs a walk down one branch.
    """
    if not node.has_error:
        return []
    found: list[Node] = []
    stack = [node]
    while stack:
        current = stack.pop()
        if current.is_error or current.is_missing:
            found.append(current)
            continue
        stack.extend(child for child in reversed(current.children) if child.has_error)
    return found


def inside_error(node: Node) -> bool:
    """Whether an ancestor of ``node`` is an ERROR node (error recovery swallowed it)."""
    parent = node.parent
    while parent is not None:
        if parent.is_error:
            return True
        parent = parent.parent
    return False


def string_value(node: Node) -> str | None:
    """The value of a plain string literal, or a template literal without substitutions."""
    if node.type == "string":
        return text(node)[1:-1]
    if node.type == "template_string" and not any(
        child.type == "template_substitution" for child in node.named_children
    ):
        return text(node)[1:-1]
    return None


def field(node: Node, name: str) -> Node | None:
    """``node.child_by_field_name`` under a shorter name, for readable walks."""
    return node.child_by_field_name(name)
