"""JS/TS assertions whose failure is caught and discarded.

An assertion is swallowed when it is called directly in a ``try`` block
(not in a callback, not an un-awaited ``.resolves``) whose ``catch`` body
certainly neither throws nor fails the test (empty, or only ``console``
calls), or when the ``finally`` block returns. A ``catch`` that runs other
code is only "caught" (UNVERIFIED).
"""

from collections.abc import Iterator
from typing import TYPE_CHECKING, NamedTuple

from tribunal.analyzers.test_tampering.js_tautology import (
    Spot,
    arguments,
    descendants,
    literal,
    mentions,
    spot,
)
from tribunal.lang.js import syntax as js
from tribunal.lang.js.calls import FUNCTIONS
from tribunal.lang.js.judge import CONTEXT_ASSERTIONS
from tribunal.lang.js.module import ModuleIndex, dotted

if TYPE_CHECKING:
    from tree_sitter import Node

_LEAVES = frozenset({"return_statement", "break_statement", "continue_statement"})


class Swallow(NamedTuple):
    spot: Spot
    handler_line: int
    handler: str
    certain: bool
    why: str


def swallowed(root: "Node", index: ModuleIndex, context: str | None) -> list[Swallow]:
    """Assertions called directly in a ``try`` block whose ``catch`` discards the failure."""
    if not mentions(index, b"try"):
        return []
    out = []
    for call, trys in _guarded(root, [], index, context):
        fate = _fate(trys, index, context)
        if fate is not None:
            out.append(Swallow(spot(call), *fate))
    return out


def is_assertion(call: "Node", index: ModuleIndex, context: str | None) -> bool:
    callee = call.child_by_field_name("function")
    if callee is None or callee.type not in ("identifier", "member_expression"):
        return False
    parts = dotted(callee)
    if not parts:
        return False
    if context and len(parts) > 1 and parts[0] == context:
        return parts[1] in CONTEXT_ASSERTIONS
    return index.call_asserts(parts) and parts[0] not in index.definitions


def _guarded(
    node: "Node", trys: "list[Node]", index: ModuleIndex, context: str | None
) -> "Iterator[tuple[Node, list[Node]]]":
    for child in node.named_children:
        if child.type in FUNCTIONS:
            continue  # a callback may run later, outside the ``try``
        if child.type == "try_statement":
            body = child.child_by_field_name("body")
            if body is not None:
                yield from _guarded(body, [*trys, child], index, context)
            for part in ("handler", "finalizer"):
                sub = child.child_by_field_name(part)
                if sub is not None:
                    yield from _guarded(sub, trys, index, context)
            continue
        if trys and child.type == "call_expression" and is_assertion(child, index, context):
            if _settles_in_place(child):
                yield child, trys
            continue  # ``expect(x)`` inside ``expect(x).toBe(y)`` is the same assertion
        yield from _guarded(child, trys, index, context)


def _settles_in_place(call: "Node") -> bool:
    """False for ``expect(p).resolves...`` that is not awaited: it fails later, if at all."""
    text = js.text(call)
    if ".resolves" not in text and ".rejects" not in text:
        return True
    parent = call.parent
    return parent is not None and parent.type == "await_expression"


def _fate(
    trys: "list[Node]", index: ModuleIndex, context: str | None
) -> tuple[int, str, bool, str] | None:
    for block in reversed(trys):
        handler = block.child_by_field_name("handler")
        if handler is not None:
            effect = _handler_effect(handler, index, context)
            text = _handler_text(handler)
            line = js.first_line(handler)
            if effect == "swallow":
                return line, text, True, "the `catch` block neither rethrows nor fails the test"
            if effect == "unknown":
                why = "the `catch` block runs code that may or may not fail the test"
                return line, text, False, why
        final = _discarding_finally(block)
        if final is not None:
            why = "its `finally` block returns, which discards the failure"
            return final, "finally { return }", True, why
    return None


def _handler_effect(handler: "Node", index: ModuleIndex, context: str | None) -> str:
    body = handler.child_by_field_name("body")
    if body is None:
        return "unknown"
    for node in descendants(body, enter_functions=False):
        if node.type == "throw_statement":
            return "rethrow"
        if node.type == "call_expression" and (
            is_assertion(node, index, context) or _fails_test(node, context)
        ):
            return "rethrow"
    statements = [c for c in body.named_children if c.type != "comment"]
    return "swallow" if all(_harmless(s) for s in statements) else "unknown"


def _fails_test(call: "Node", context: str | None) -> bool:
    """``done(err)``, ``t.fail()``, ``fail()``: the runner's own ways to fail a test."""
    callee = call.child_by_field_name("function")
    parts = dotted(callee) if callee is not None else []
    if not parts:
        return False
    return parts[0] in ("done", "fail") or (context is not None and parts[0] == context)


def _harmless(statement: "Node") -> bool:
    kind = statement.type
    if kind in ("empty_statement", "break_statement", "continue_statement"):
        return True
    if kind == "return_statement":
        values = statement.named_children
        return not values or literal(values[0]) is not None
    if kind != "expression_statement" or not statement.named_children:
        return False
    expr = statement.named_children[0]
    if expr.type != "call_expression":
        return literal(expr) is not None
    callee = expr.child_by_field_name("function")
    parts = dotted(callee) if callee is not None else []
    if len(parts) != 2 or parts[0] != "console":
        return False
    return all(a.type in ("identifier", "member_expression", "string") for a in arguments(expr))


def _discarding_finally(block: "Node") -> int | None:
    final = block.child_by_field_name("finalizer")
    body = final.child_by_field_name("body") if final is not None else None
    if body is None:
        return None
    for statement in body.named_children:
        if statement.type in _LEAVES:
            return js.first_line(statement)
    return None


def _handler_text(handler: "Node") -> str:
    param = handler.child_by_field_name("parameter")
    return f"catch ({js.text(param)})" if param is not None else "catch"
