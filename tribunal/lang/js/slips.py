"""Calls that read like checks but are not certain: bare expectations, typed calls.

``expect(x);`` and ``expect(x).toBeTruthy;`` never run a matcher, so they
check nothing. A TypeScript call of a same-file helper with the wrong number
of arguments, or arguments for typed parameters, is checked by the compiler,
so a test made only of such calls is not certain to pass.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tribunal.lang.js import syntax as js
from tribunal.util.lazyre import lazy

if TYPE_CHECKING:
    from tree_sitter import Node

    from tribunal.lang.js.module import FunctionDef, ModuleIndex

_JEST_MATCHER = lazy(r"to[A-Z]")


def typed_call(callee: Node, definition: FunctionDef, index: ModuleIndex) -> str | None:
    """A TypeScript call the compiler checks against the helper's parameters, if it is.

    ``f(1, 2)`` for ``function f() {}`` or ``f('a')`` for ``f(x: number)``
    fails to compile, so such a call is not certain to pass.
    """
    if index.language == "javascript":
        return None
    call = callee.parent
    args = call.child_by_field_name("arguments") if call is not None else None
    if call is None or args is None or args.type != "arguments":
        return None
    given = [a for a in args.named_children if a.type != "comment"]
    params = definition.node.child_by_field_name("parameters")
    declared = [p for p in (params.named_children if params else []) if p.type != "comment"]
    rest = any(p.type == "rest_pattern" or js.text(p).startswith("...") for p in declared)
    required = [p for p in declared if p.type == "required_parameter" and not _defaulted(p)]
    annotated = any(p.child_by_field_name("type") is not None for p in declared[: len(given)])
    if (len(given) > len(declared) and not rest) or len(given) < len(required) or annotated:
        name = definition.name
        return f"`{snippet(call)}` is checked by TypeScript against `{name}`'s parameters"
    return None


def matcherless(callee: Node, parts: list[str], index: ModuleIndex) -> str | None:
    """``expect(x);`` or ``expect(x).toBe;``: an expectation no matcher ever checks."""
    if not _is_expect(parts, index.imports.expect_names):
        return None
    call = callee.parent
    if call is None or call.type != "call_expression":
        return None
    top = call
    while top.parent is not None and top.parent.type == "member_expression":
        if top.parent.child_by_field_name("object") != top:
            return None
        top = top.parent
    holder = top.parent
    if holder is not None and holder.type == "await_expression":
        holder = holder.parent
    if holder is None or holder.type != "expression_statement":
        return None  # called, passed on or stored: it may still be checked
    written = snippet(top)
    if top is call:
        return f"`{written}` has no matcher (`.toBe(...)`, ...), so it checks nothing"
    prop = top.child_by_field_name("property")
    name = js.text(prop) if prop is not None else ""
    if _JEST_MATCHER().match(name) or name in ("not", "resolves", "rejects"):
        return f"`{written}` never calls its matcher (no parentheses), so it checks nothing"
    return None  # ``expect(x).to.be.true``: chai asserts in property getters


def _defaulted(param: Node) -> bool:
    return param.child_by_field_name("value") is not None


def _is_expect(parts: list[str], imported: frozenset[str]) -> bool:
    """``expect``, ``chai.expect``, ``expect.soft``/``expect.poll`` or an imported alias."""
    head = parts[0] in ("expect", *imported)
    if len(parts) == 1:
        return head
    if len(parts) == 2:
        return (head and parts[1] in ("soft", "poll")) or parts == ["chai", "expect"]
    return False


def snippet(node: Node) -> str:
    """The node's text on one line, cut to 40 characters."""
    flat = " ".join(js.text(node).split())
    return flat if len(flat) <= 40 else flat[:37] + "..."
