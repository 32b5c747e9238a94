"""Simple tree-sitter queries answered by walking the tree in Python, for small runs.

Compiling a query costs 2-10 ms on the TypeScript grammar whatever the query
(tree-sitter analyzes the grammar's parse states for it), and running it on a
test file of a few hundred nodes costs microseconds: a commit that adds one
test file paid more for compiling its three queries than for everything else
the analyzers did with the file. ``find`` answers a query by a walk while the
run has walked few nodes for it, and compiles it once the walks would cost
about as much as compiling (``WALK_BUDGET`` nodes per query and grammar).

The walk understands the subset of the query language the analyzers use, and
gives exactly what ``QueryCursor.captures`` gives for it (the tests compare
both on many files, broken ones included):

- ``(type) @name`` and ``[(a) (b)] @name``: named nodes of those types;
- ``(type field: (_) @name)``, ``(type field: (sub) @name)`` and
  ``(type field: [(a) (b)] @name)``: the named children in that field;
- both at once (a capture on the node and on the child);
- ``(#eq? @name "text")`` inside such a pattern: the node captured as ``name``
  is exactly that text.

Anything else (other predicates, anonymous nodes, nested or several fields)
is compiled as before (``parse_patterns`` returns None for it).
"""

import re
import threading
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from tree_sitter import Language, Node

#: Nodes a query may be answered by walking, per grammar, before it is compiled: a
#: walk costs ~0.5 us a node, compiling 2-10 ms. A call counts ``CALL_COST`` more.
WALK_BUDGET = 5_000
CALL_COST = 50


def source_order(node: "Node") -> tuple[int, int]:
    """Sort key of nodes in the order they are written: by start, an enclosing node first.

    Both ways of answering a query sort by it (this walk, and ``js.find`` after the
    compiled query), so no result depends on which one ran.
    """
    return node.start_byte, -node.end_byte


class Pattern(NamedTuple):
    """One pattern: node types, an optional field with its child types, and the captures."""

    types: frozenset[str]
    capture: str | None  # on the node itself
    field: str | None = None
    child_types: frozenset[str] | None = None  # None: any named child
    child_capture: str | None = None
    #: ``#eq?`` predicates: (capture name, the text it must be).
    equal: tuple[tuple[str, bytes], ...] = ()


#: No leading ``\s*``: every alternative opens on a non-space, so the search skips spaces
#: itself (a ``\s*`` ran to the end of a trailing run from each of its positions). An
#: unclosed string runs to the end as one token (searched for its close from every quote,
#: it was quadratic); a query with one does not parse either way.
_TOKEN = re.compile(r'(\(|\)|\[|\]|@[\w.-]+|#[\w?!-]+|"(?:[^"\\]|\\.)*+"?|[\w.-]+:|[\w.-]+|\S)')


def parse_patterns(source: str) -> tuple[Pattern, ...] | None:
    """The patterns of ``source``, or None when it uses anything the walk does not answer."""
    tokens = _TOKEN.findall(source)
    patterns: list[Pattern] = []
    at = 0
    while at < len(tokens):
        parsed = _pattern(tokens, at)
        if parsed is None:
            return None
        pattern, at = parsed
        patterns.append(pattern)
    return tuple(patterns) or None


def _pattern(tokens: list[str], at: int) -> tuple[Pattern, int] | None:
    if _peek(tokens, at) == "[":
        alternatives = _alternatives(tokens, at)
        if alternatives is None:
            return None
        types, at = alternatives
        capture, at = _capture(tokens, at)
        return Pattern(types, capture), at
    if _peek(tokens, at) != "(" or _peek(tokens, at + 1) in ("(", "_", ")", "", "["):
        return None
    node_type, at = tokens[at + 1], at + 2
    field = child_capture = None
    child_types: frozenset[str] | None = None
    if _peek(tokens, at).endswith(":"):
        field = tokens[at][:-1]
        child = _child(tokens, at + 1)
        if child is None:
            return None
        child_types, child_capture, at = child
    equal: list[tuple[str, bytes]] = []
    while _peek(tokens, at) == "(" and _peek(tokens, at + 1) == "#eq?":
        predicate = _equal(tokens, at)
        if predicate is None or predicate[0] != child_capture:
            return None  # only on the field's child (the node's own capture comes after)
        equal.append(predicate)
        at += 5
    if _peek(tokens, at) != ")":
        return None
    capture, at = _capture(tokens, at + 1)
    pattern = Pattern(frozenset({node_type}), capture, field, child_types, child_capture)
    return pattern._replace(equal=tuple(equal)), at


def _equal(tokens: list[str], at: int) -> tuple[str, bytes] | None:
    """``(#eq? @name "text")`` -> ``(name, text)``: a plain string, no escapes."""
    name, text, close = _peek(tokens, at + 2), _peek(tokens, at + 3), _peek(tokens, at + 4)
    if not name.startswith("@") or close != ")" or len(text) < 2 or text[0] != '"':
        return None
    if "\\" in text:
        return None
    return name[1:], text[1:-1].encode()


def _child(tokens: list[str], at: int) -> tuple[frozenset[str] | None, str | None, int] | None:
    """``(_)``, ``(type)`` or ``[(a) (b)]``, with its capture."""
    types: frozenset[str] | None
    if _peek(tokens, at) == "[":
        alternatives = _alternatives(tokens, at)
        if alternatives is None:
            return None
        types, at = alternatives
    elif _peek(tokens, at) == "(" and _peek(tokens, at + 2) == ")" and _is_name(tokens[at + 1]):
        types = None if tokens[at + 1] == "_" else frozenset({tokens[at + 1]})
        at += 3
    else:
        return None
    capture, at = _capture(tokens, at)
    return types, capture, at


def _alternatives(tokens: list[str], at: int) -> tuple[frozenset[str], int] | None:
    """``[(a) (b) ...]``: plain named types only."""
    at += 1
    types = []
    while _peek(tokens, at) == "(":
        if _peek(tokens, at + 2) != ")" or not _is_name(tokens[at + 1]) or tokens[at + 1] == "_":
            return None
        types.append(tokens[at + 1])
        at += 3
    if _peek(tokens, at) != "]" or not types:
        return None
    return frozenset(types), at + 1


def _capture(tokens: list[str], at: int) -> tuple[str | None, int]:
    if _peek(tokens, at).startswith("@"):
        return tokens[at][1:], at + 1
    return None, at


def _peek(tokens: list[str], at: int) -> str:
    return tokens[at] if at < len(tokens) else ""


def _is_name(token: str) -> bool:
    return token.replace("_", "a").replace("-", "a").replace(".", "a").isalnum()


def names_known(patterns: tuple[Pattern, ...], grammar: "Language") -> bool:
    """Whether every node type and field the patterns name exists in ``grammar``.

    A name the grammar lacks makes compiling fail (``QueryError``); the walk
    would quietly match nothing, so such a query is left to the compiler.
    """
    for pattern in patterns:
        types = pattern.types | (pattern.child_types or frozenset())
        if any(grammar.id_for_node_kind(name, True) is None for name in types):
            return False
        if pattern.field is not None and grammar.field_id_for_name(pattern.field) is None:
            return False
    return True


def matches(patterns: tuple[Pattern, ...], node: "Node") -> "dict[str, list[Node]]":
    """What ``QueryCursor.captures`` gives for ``patterns`` over ``node``'s subtree."""
    by_type: dict[str, list[Pattern]] = {}
    for pattern in patterns:
        for node_type in pattern.types:
            by_type.setdefault(node_type, []).append(pattern)
    found: dict[str, list[Node]] = {}
    stack = [node]
    while stack:
        current = stack.pop()
        for pattern in by_type.get(current.type, ()) if current.is_named else ():
            _match(pattern, current, found)
        stack.extend(reversed(current.children))
    for nodes in found.values():
        nodes.sort(key=source_order)  # and js.find orders the compiled query's captures
    return found


def _match(pattern: Pattern, node: "Node", found: "dict[str, list[Node]]") -> None:
    if pattern.field is None:
        if pattern.capture is not None:
            found.setdefault(pattern.capture, []).append(node)
        return
    for child in node.children_by_field_name(pattern.field):
        if not child.is_named:
            continue
        if pattern.child_types is not None and child.type not in pattern.child_types:
            continue
        if any(child.text != text for _, text in pattern.equal):
            continue
        if pattern.capture is not None:
            found.setdefault(pattern.capture, []).append(node)
        if pattern.child_capture is not None:
            found.setdefault(pattern.child_capture, []).append(child)


class Budget:
    """Nodes walked so far per (grammar, query), for every thread of the process."""

    def __init__(self) -> None:
        self._walked: dict[tuple[str, str], int] = {}
        self._lock = threading.Lock()

    def spend(self, key: tuple[str, str], nodes: int) -> bool:
        """Whether ``nodes`` more may be walked for ``key`` (and count them if so)."""
        with self._lock:
            walked = self._walked.get(key, 0) + nodes
            if walked > WALK_BUDGET:
                return False
            self._walked[key] = walked
            return True


BUDGET = Budget()
