"""JS/TS literals, and assertions on them that can never fail.

A tautology compares literals only: ``expect(true).toBe(true)``,
``expect(1).toEqual(1)``, ``expect('x').toBeTruthy()``, ``assert(true)``,
``t.is(1, 1)``, or ``expect(a).toBe(a)`` with one identifier (``Object.is``
of a value with itself holds even for NaN). ``expect(e || true)`` is a
tautology only under matchers that any truthy value passes: ``toBeTruthy``,
``toBeDefined``, ``not.toBeFalsy``, ``not.toBeNull``, ``not.toBeUndefined``
(``toBe(true)`` still fails for a truthy ``e`` that is not ``true``); ``e``
may still throw, but that is no check. ``toEqual(a)`` on an identifier
is not judged (asymmetric matchers, getters), nor is an ``expect`` from a
library that may lack Jest's matchers, nor a global ``assert`` (undefined in
a module, so calling it throws). The node helpers here are shared with
``js_swallow``.
"""

import math
from collections.abc import Iterator
from typing import NamedTuple

from tree_sitter import Node

from tribunal.lang.js import syntax as js
from tribunal.lang.js.calls import FUNCTIONS
from tribunal.lang.js.judge import CONTEXT_ASSERTIONS
from tribunal.lang.js.module import ModuleIndex, dotted

Literal = tuple[str, object]

_TRUTHY = frozenset({"true", "truthy", "ok", "assert", "isTrue", "isOk"})
_FALSY = frozenset({"false", "falsy", "notOk", "isFalse", "isNotOk"})
_SAME = frozenset({"is", "equal", "equals", "strictEqual", "deepEqual", "deepStrictEqual"})
_SAME |= frozenset({"same", "strictSame", "eq", "eql"})
_JEST_SAME = frozenset({"toBe", "toEqual", "toStrictEqual"})
_CHAI_WORDS = frozenset({"to", "be", "been", "is", "that", "which", "and", "has", "have"})
_CHAI_WORDS |= frozenset({"with", "at", "of", "same", "but", "does", "still", "also", "deep"})
_CHAI_SAME = frozenset({"equal", "equals", "eq", "eql"})
#: Runners whose own ``expect`` has Jest's matchers (``toBe``, ``toEqual``).
_JEST_LIKE = frozenset({"jest", "vitest", "bun", "playwright"})


#: Matchers any truthy value passes, plain and after ``.not``.
_ANY_TRUTHY = frozenset({"toBeTruthy", "toBeDefined"})
_NOT_ANY_TRUTHY = frozenset({"toBeFalsy", "toBeNull", "toBeUndefined"})
OR_TRUE = "or-true"


class Spot(NamedTuple):
    line: int
    end: int
    node: Node
    why: str = ""  # ``OR_TRUE`` for ``expect(e || true)``; empty for literals


def descendants(node: Node, enter_functions: bool = True) -> Iterator[Node]:
    """Named nodes under ``node`` in source order (optionally not entering nested functions)."""
    stack = list(reversed(node.named_children))
    while stack:
        current = stack.pop()
        yield current
        if enter_functions or current.type not in FUNCTIONS:
            stack.extend(reversed(current.named_children))


def spot(node: Node) -> Spot:
    return Spot(js.first_line(node), js.last_line(node), node)


def arguments(call: Node) -> list[Node]:
    args = call.child_by_field_name("arguments")
    if args is None or args.type != "arguments":
        return []
    return [a for a in args.named_children if a.type != "comment"]


def literal(node: Node) -> Literal | None:
    """The value of a literal: booleans, null, numbers, strings without substitutions."""
    kind = node.type
    if kind == "parenthesized_expression" and node.named_child_count == 1:
        return literal(node.named_children[0])
    if kind in ("true", "false"):
        return "boolean", kind == "true"
    if kind == "null":
        return "null", None
    if kind == "number":
        return _number(js.text(node))
    if kind in ("string", "template_string"):
        value = js.string_value(node)
        return ("string", value) if value is not None else None
    if kind == "unary_expression" and js.text(node).startswith("-"):
        operand = node.child_by_field_name("argument")
        number = literal(operand) if operand is not None else None
        if number is not None and number[0] == "number" and isinstance(number[1], float):
            return "number", -number[1]
    return None


def _number(text: str) -> Literal | None:
    text = text.replace("_", "")
    try:
        if text.endswith("n"):
            return "bigint", int(text[:-1], 0)
        if text[:2].lower() in ("0x", "0o", "0b"):
            return "number", float(int(text, 0))
        if len(text) > 1 and text[0] == "0" and text[1].isdigit():
            return None  # legacy octal: 010 is 8
        return "number", float(text)
    except ValueError:
        return None


def truthy(value: Literal) -> bool:
    kind, raw = value
    if kind == "null":
        return False
    if kind == "number" and isinstance(raw, float):
        return raw != 0 and not math.isnan(raw)
    return bool(raw)


def same(left: Literal, right: Literal) -> bool:
    """``Object.is`` of two literals (``0`` and ``-0`` differ)."""
    if left[0] != right[0] or left[1] != right[1]:
        return False
    a, b = left[1], right[1]
    if isinstance(a, float) and isinstance(b, float) and a == 0:
        return math.copysign(1, a) == math.copysign(1, b)
    return True


def tautologies(root: Node, index: ModuleIndex, context: str | None) -> list[Spot]:
    """Assertion calls under ``root`` that can never fail (found through the call index)."""
    chai = mentions(index, b"chai")
    calls = [c.parent for c in index.callees.within(root) if c.parent is not None]
    found = []
    for call in calls:
        if _tautology(call, index, context, chai):
            found.append(spot(call))
        elif not chai and _or_true_matcher(call, index):
            found.append(spot(call)._replace(why=OR_TRUE))
    return found


def _or_true_matcher(call: Node, index: ModuleIndex) -> bool:
    """``expect(e || true).toBeTruthy()``, ``expect(e || 1).not.toBeFalsy()``."""
    callee = call.child_by_field_name("function")
    if callee is None or callee.type != "member_expression" or arguments(call):
        return False
    target, prop = callee.child_by_field_name("object"), callee.child_by_field_name("property")
    if target is None or prop is None:
        return False
    matchers = _ANY_TRUTHY
    if target.type == "member_expression":
        negation = target.child_by_field_name("property")
        if negation is None or js.text(negation) != "not":
            return False
        target, matchers = target.child_by_field_name("object"), _NOT_ANY_TRUTHY
    subject = _expect_subject(target, index, jest=True) if target is not None else None
    return subject is not None and js.text(prop) in matchers and always_truthy(subject)


def always_truthy(node: Node) -> bool:
    """``e || true``, ``true || e``, ``(e || 'x')``: an ``||`` with a truthy literal operand."""
    while node.type == "parenthesized_expression" and node.named_child_count == 1:
        node = node.named_children[0]
    if node.type != "binary_expression":
        return False
    operator = node.child_by_field_name("operator")
    if operator is None or js.text(operator) != "||":
        return False
    sides = [node.child_by_field_name("left"), node.child_by_field_name("right")]
    for side in sides:
        value = literal(side) if side is not None else None
        if (value is not None and truthy(value)) or (side is not None and always_truthy(side)):
            return True
    return False


def mentions(index: ModuleIndex, word: bytes) -> bool:
    """Whether the file's text contains ``word`` (remembered per file)."""
    key = ("test-tampering", word)
    found = index.cache.get(key)
    if not isinstance(found, bool):
        found = word in (index.root.text or b"")
        index.cache[key] = found
    return found


def _tautology(call: Node, index: ModuleIndex, context: str | None, chai: bool) -> bool:
    callee = call.child_by_field_name("function")
    if callee is None:
        return False
    args = arguments(call)
    if callee.type == "member_expression":
        target = callee.child_by_field_name("object")
        prop = callee.child_by_field_name("property")
        if target is None or prop is None:
            return False
        method = js.text(prop)
        subject = _expect_subject(target, index, jest=True)
        if subject is not None and not chai:
            return _jest(method, subject, args)
        chained = _chai_subject(target, index) if chai else None
        if chained is not None and method in _CHAI_SAME and len(args) == 1:
            return _same_literals(chained, args[0])
    parts = dotted(callee) if callee.type in ("identifier", "member_expression") else []
    if not parts or len(parts) > 2 or js.text(callee) != ".".join(parts):
        return False
    if len(parts) == 2 and parts[0] == context:
        return _named(parts[1], args) if parts[1] in CONTEXT_ASSERTIONS else False
    root = parts[0]
    imports = index.imports
    imported = root in imports.assert_names or imports.namespaces.get(root, "") is None
    if not imported or root in index.definitions:
        return False  # a global ``assert`` is not defined in a module: it would throw
    if root == "assert":
        return _named(parts[1] if len(parts) == 2 else "assert", args)
    if len(parts) == 1 and root in imports.assert_names:
        return _named(root, args)  # ``import { strictEqual } from 'node:assert'``
    return False


def _expect_subject(node: Node, index: ModuleIndex, jest: bool = False) -> Node | None:
    """``A`` of ``expect(A)`` when ``node`` is that call (``expect`` not defined here)."""
    if node.type != "call_expression":
        return None
    callee = node.child_by_field_name("function")
    if callee is None or callee.type != "identifier" or js.text(callee) != "expect":
        return None
    if "expect" in index.definitions:
        return None
    imports = index.imports
    if (
        jest
        and "expect" in imports.bound
        and not _JEST_LIKE.intersection(r for _, r in imports.api.values())
    ):
        return None  # an ``expect`` from another library may have no ``toBe`` at all
    args = arguments(node)
    return args[0] if len(args) == 1 else None


def _chai_subject(node: Node, index: ModuleIndex) -> Node | None:
    """``A`` of ``expect(A).to.be`` (language chains only, no ``not``)."""
    while node.type == "member_expression":
        prop = node.child_by_field_name("property")
        inner = node.child_by_field_name("object")
        if prop is None or inner is None or js.text(prop) not in _CHAI_WORDS:
            return None
        node = inner
    return _expect_subject(node, index)


def _jest(method: str, subject: Node, args: list[Node]) -> bool:
    value = literal(subject)
    if method in _JEST_SAME and len(args) == 1:
        if method == "toBe" and subject.type == args[0].type == "identifier":
            return js.text(subject) == js.text(args[0])
        return _same_literals(subject, args[0])
    if args or value is None:
        return False
    if method == "toBeTruthy":
        return truthy(value)
    if method == "toBeFalsy":
        return not truthy(value)
    if method == "toBeNull":
        return value[0] == "null"
    return method == "toBeDefined"


def _named(method: str, args: list[Node]) -> bool:
    """``assert(true)``, ``assert.equal(1, 1)``, ``t.is(1, 1)``, ``t.false(false)``."""
    if not args:
        return False
    first = literal(args[0])
    if method in _TRUTHY:
        return first is not None and truthy(first)
    if method in _FALSY:
        return first is not None and not truthy(first)
    if method in _SAME and len(args) >= 2:
        if method == "is" and args[0].type == args[1].type == "identifier":
            return js.text(args[0]) == js.text(args[1])
        return _same_literals(args[0], args[1])
    return False


def _same_literals(left: Node, right: Node) -> bool:
    a, b = literal(left), literal(right)
    return a is not None and b is not None and same(a, b)
