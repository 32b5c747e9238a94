"""Parameter defaults of a JS/TS module, as values.

Covers plain defaults (``a = 1``, TS ``a: number = 1``) and destructured ones
(``{ timeout = 30, retries: r = 3 } = {}``, ``[first = 0] = []``). A
destructured default is named by the property a caller passes (``timeout``,
``retries``; nested: ``nested.x``); a whole pattern by its keys
(``{timeout,retries}``), so adding a parameter before it does not shift names.

Values as JavaScript sees them: there is one number type, so ``30``, ``30.0``,
``3e1`` and ``0x1e`` are the same default (BigInt ``30n`` is not); ``'x'``,
``"x"`` and `` `x` `` are the same string. A default that is not a literal is
compared only by its text, to say that something changed.
"""

from __future__ import annotations

import re
from collections.abc import Hashable, Iterator
from typing import TYPE_CHECKING

from tribunal.change import Source
from tribunal.claims.defaults_py import Default
from tribunal.lang.js import field, first_line, text
from tribunal.lang.js_decls import code_text, declarations

if TYPE_CHECKING:
    from tree_sitter import Node

_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "v": "\v", "0": "\0"}
_WRAPPERS = frozenset({"parenthesized_expression", "as_expression", "satisfies_expression"})


def js_defaults(source: Source, language: str) -> list[Default]:
    """Every default of the named functions and methods in the file."""
    out: list[Default] = []
    for decl in declarations(source, language):
        params = field(decl.function, "parameters") if decl.function is not None else None
        if params is None or params.has_error:
            continue  # parameters the parser could not read are not compared
        body_node = field(decl.function, "body") if decl.function is not None else None
        body = code_text(body_node, language) if body_node is not None else ""
        for param in params.named_children:
            out.extend(d._replace(body=body) for d in _parameter(decl.qualname, param))
    return out


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


def _parameter(function: str, param: Node) -> Iterator[Default]:
    if param.type in ("required_parameter", "optional_parameter"):
        pattern, value = field(param, "pattern"), field(param, "value")
    elif param.type == "assignment_pattern":
        pattern, value = field(param, "left"), field(param, "right")
    else:
        pattern, value = param, None
    if pattern is None:
        return
    if value is not None:
        yield _default(function, _pattern_name(pattern), value)
    yield from _destructured(function, pattern, "")


def _destructured(function: str, pattern: Node, path: str) -> Iterator[Default]:
    """Defaults inside an object or array pattern, named by the property path."""
    for child in (
        pattern.named_children if pattern.type in ("object_pattern", "array_pattern") else []
    ):
        if child.type == "object_assignment_pattern":
            left, right = field(child, "left"), field(child, "right")
            if left is not None and right is not None:
                yield _default(function, f"{path}{text(left)}", right)
        elif child.type == "pair_pattern":
            key, value = field(child, "key"), field(child, "value")
            if key is None or value is None:
                continue
            name = f"{path}{text(key)}"
            inner: Node | None = value
            if value.type == "assignment_pattern":
                inner, right = field(value, "left"), field(value, "right")
                if right is not None:
                    yield _default(function, name, right)
            if inner is not None:
                yield from _destructured(function, inner, f"{name}.")
        elif child.type == "assignment_pattern":
            left, right = field(child, "left"), field(child, "right")
            if left is not None and right is not None:
                yield _default(function, f"{path}{_pattern_name(left)}", right)
                yield from _destructured(function, left, f"{path}{_pattern_name(left)}.")


def _pattern_name(pattern: Node) -> str:
    if pattern.type == "identifier":
        return text(pattern)
    keys = []
    for child in pattern.named_children:
        key = field(child, "key") or field(child, "left") or child
        keys.append(text(key) if key.type != "object_pattern" else "{...}")
    opener, closer = ("{", "}") if pattern.type == "object_pattern" else ("[", "]")
    return opener + ",".join(keys) + closer


def _default(function: str, param: str, value: Node) -> Default:
    return Default(function, param, literal_value(value), text(value), first_line(value))


def _unwrap(node: Node) -> Node:
    while node.type in _WRAPPERS and node.named_children:
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
