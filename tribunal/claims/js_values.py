"""JS/TS literal values and the defaults inside a destructuring pattern.

Shared by ``defaults_js`` (parameters, constants) and ``defaults_props`` (component
props), below both. Values as JavaScript sees them: one number type, so ``30``,
``30.0``, ``3e1`` and ``0x1e`` are the same default; ``'x'``, ``"x"`` and `` `x` ``
the same string.
"""

from __future__ import annotations

import re
from collections.abc import Hashable, Iterator
from typing import TYPE_CHECKING

from tribunal.claims.default_values import Default
from tribunal.lang.js.syntax import field, first_line, text

if TYPE_CHECKING:
    from tree_sitter import Node

_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "v": "\v", "0": "\0"}


WRAPPERS = frozenset({"parenthesized_expression", "as_expression", "satisfies_expression"})


def literal_value(node: Node) -> Hashable | None:
    """A hashable, type-tagged form of a JS literal; None if it is not a literal."""
    node = _unwrap(node)
    kind = node.type
    if node.has_error:
        return None
    if kind == "number":
        return _number(text(node))
    if kind in ("string", "template_string"):
        if any(c.type == "template_substitution" for c in node.named_children):
            return None
        try:
            return ("string", _unescape(text(node)[1:-1]))
        except ValueError:  # a malformed escape: compare the text as written
            return ("string-as-written", text(node)[1:-1])
    if kind in ("true", "false"):
        return ("boolean", kind == "true")
    if kind in ("null", "undefined") or (kind == "identifier" and text(node) == "undefined"):
        return (text(node),)
    if kind == "unary_expression":
        return _signed(node)
    if kind == "array":
        items = [literal_value(c) for c in node.named_children]
        return None if any(i is None for i in items) else ("array", tuple(items))
    if kind == "object":
        return _object(node)
    return None


def destructured_defaults(function: str, pattern: Node, path: str) -> Iterator[Default]:
    """Defaults inside an object or array pattern, named by the property path."""
    for child in (
        pattern.named_children if pattern.type in ("object_pattern", "array_pattern") else []
    ):
        if child.type == "object_assignment_pattern":
            left, right = field(child, "left"), field(child, "right")
            if left is not None and right is not None:
                yield make_default(function, f"{path}{text(left)}", right)
        elif child.type == "pair_pattern":
            key, value = field(child, "key"), field(child, "value")
            if key is None or value is None:
                continue
            name = f"{path}{text(key)}"
            inner: Node | None = value
            if value.type == "assignment_pattern":
                inner, right = field(value, "left"), field(value, "right")
                if right is not None:
                    yield make_default(function, name, right)
            if inner is not None:
                yield from destructured_defaults(function, inner, f"{name}.")
        elif child.type == "assignment_pattern":
            left, right = field(child, "left"), field(child, "right")
            if left is not None and right is not None:
                yield make_default(function, f"{path}{pattern_name(left)}", right)
                yield from destructured_defaults(function, left, f"{path}{pattern_name(left)}.")


def pattern_name(pattern: Node) -> str:
    if pattern.type == "identifier":
        return text(pattern)
    keys = []
    for child in pattern.named_children:
        key = field(child, "key") or field(child, "left") or child
        keys.append(text(key) if key.type != "object_pattern" else "{...}")
    opener, closer = ("{", "}") if pattern.type == "object_pattern" else ("[", "]")
    return opener + ",".join(keys) + closer


def make_default(function: str, param: str, value: Node) -> Default:
    line = first_line(value)
    return Default(function, param, literal_value(value), text(value), line, end_line=line)


def _unwrap(node: Node) -> Node:
    while node.type in WRAPPERS and node.named_children:
        node = node.named_children[0]
    return node


def _number(raw: str) -> Hashable | None:
    digits = raw.replace("_", "").lower()
    try:
        if digits.endswith("n"):
            return ("bigint", int(digits[:-1], 0))
        if digits.startswith(("0x", "0o", "0b")):
            return ("number", float(int(digits, 0)))
        if re.fullmatch(r"0[0-7]+", digits):
            return ("number", float(int(digits, 8)))  # legacy octal: 017 is 15
        return ("number", float(digits))
    except ValueError:
        return None


def _signed(node: Node) -> Hashable | None:
    operator = node.child(0)
    argument = field(node, "argument")
    if operator is None or argument is None or text(operator) not in ("-", "+"):
        return None
    inner = literal_value(argument)
    if not isinstance(inner, tuple) or inner[0] not in ("number", "bigint"):
        return None
    return (inner[0], -inner[1] if text(operator) == "-" else inner[1])


def _object(node: Node) -> Hashable | None:
    pairs = []
    for member in node.named_children:
        key, value = field(member, "key"), field(member, "value")
        if member.type != "pair" or key is None or value is None:
            return None
        if key.type == "property_identifier":
            name: Hashable | None = ("string", text(key))
        elif key.type == "number":
            name = ("string", _js_number_key(text(key)))
        else:
            name = literal_value(key)
        item = literal_value(value)
        if name is None or item is None:
            return None
        pairs.append((name, item))
    return ("object", frozenset(pairs))


def _js_number_key(raw: str) -> str:
    number = _number(raw)
    if isinstance(number, tuple) and isinstance(number[1], float) and number[1].is_integer():
        return str(int(number[1]))
    return raw


def _unescape(body: str) -> str:
    """JS string escapes: ``\\n``, ``\\xHH``, ``\\uHHHH``, ``\\u{H}``, and ``\\c`` -> ``c``."""
    out: list[str] = []
    index = 0
    while index < len(body):
        char = body[index]
        if char != "\\" or index + 1 == len(body):
            out.append(char)
            index += 1
            continue
        nxt = body[index + 1]
        index += 2
        if nxt in _ESCAPES:
            out.append(_ESCAPES[nxt])
        elif nxt == "x" and index + 2 <= len(body):
            out.append(chr(int(body[index : index + 2], 16)))
            index += 2
        elif nxt == "u" and body[index : index + 1] == "{":
            close = body.find("}", index)
            out.append(chr(int(body[index + 1 : close], 16)))
            index = close + 1
        elif nxt == "u":
            out.append(chr(int(body[index : index + 4], 16)))
            index += 4
        elif nxt == "\n":
            continue  # line continuation
        else:
            out.append(nxt)
    return "".join(out)
