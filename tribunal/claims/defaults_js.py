"""Defaults of a JS/TS module, as values.

Covers plain parameter defaults (``a = 1``, TS ``a: number = 1``) and
destructured ones (``{ timeout = 30, retries: r = 3 } = {}``, ``[first = 0] =
[]``); component and class defaults (``defaults_props``); and module constants
named ``DEFAULT_*`` / ``defaultX``. A destructured default is named by the
property a caller passes (``timeout``, ``retries``; nested: ``nested.x``); a
whole pattern by its keys (``{timeout,retries}``), so adding a parameter
before it does not shift names. A default that names a module ``const`` of
the same file (``timeout = DEFAULT_TIMEOUT``) has that constant's value.

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
from tribunal.lang import js
from tribunal.lang.js import field, first_line, text
from tribunal.lang.js_decls import code_text, declarations

if TYPE_CHECKING:
    from tree_sitter import Node

_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "v": "\v", "0": "\0"}
_WRAPPERS = frozenset({"parenthesized_expression", "as_expression", "satisfies_expression"})


def js_defaults(
    source: Source, language: str, owner: str = "<module>", *, exported_props: bool = False
) -> list[Default]:
    """Every default of the file: named functions' parameters, components, classes,
    ``DEFAULT_*`` constants. ``owner`` names a single-file component's script;
    ``exported_props``: a Svelte instance script, whose ``export let`` are props."""
    from tribunal.claims.defaults_props import component_defaults, svelte_props
    from tribunal.lang.trees import js_tree

    root = js_tree(source, language).root_node
    constants = _module_constants(root)
    out: list[Default] = []
    for decl in declarations(source, language):
        params = field(decl.function, "parameters") if decl.function is not None else None
        top = decl.qualname == decl.name
        if top and decl.kind == "variable" and "default" in decl.name.lower():
            out += _constant(decl.node, decl.name)
        if params is None or params.has_error:
            continue  # parameters the parser could not read are not compared
        body_node = field(decl.function, "body") if decl.function is not None else None
        body = code_text(body_node, language) if body_node is not None else ""
        for param in params.named_children:
            out.extend(d._replace(body=body) for d in _parameter(decl.qualname, param))
    out += component_defaults(root, owner)
    if exported_props:
        out += svelte_props(root, owner)
    return [_resolved(d, constants) for d in out]


def _resolved(default: Default, constants: dict[str, Hashable]) -> Default:
    if default.value is None and default.text in constants:
        return default._replace(value=constants[default.text])
    return default


def _module_constants(root: Node) -> dict[str, Hashable]:
    """Top-level ``const NAME = <literal>`` (each name declared once): values defaults use."""
    seen: dict[str, int] = {}
    values: dict[str, Hashable] = {}
    for statement in root.named_children:
        node = field(statement, "declaration") if statement.type == "export_statement" else None
        node = node or statement
        if node.type not in ("lexical_declaration", "variable_declaration"):
            continue
        keyword = node.child(0)
        constant = keyword is not None and keyword.type == "const"
        for declarator in node.named_children:
            name, value = field(declarator, "name"), field(declarator, "value")
            if declarator.type != "variable_declarator" or name is None:
                continue
            seen[text(name)] = seen.get(text(name), 0) + 1
            literal = literal_value(value) if value is not None and constant else None
            if literal is not None:
                values[text(name)] = literal
    return {k: v for k, v in values.items() if seen[k] == 1}


def _constant(node: Node, name: str) -> list[Default]:
    """``const DEFAULT_TIMEOUT = 30``; ``const defaults = { timeout: 30 }`` one per key."""
    value = field(node, "value")
    while value is not None and value.type in _WRAPPERS and value.named_children:
        value = value.named_children[0]  # ``{...} as const``, ``{...} satisfies T``
    if value is None:
        return []
    if value.type == "object":
        out = []
        for pair in value.named_children:
            key, item = field(pair, "key"), field(pair, "value")
            if pair.type == "pair" and key is not None and item is not None:
                label = js.string_value(key) if key.type == "string" else text(key)
                out.append(_default("<module>", f"{name}.{label}", item)._replace(kind="constant"))
        return out
    return [_default("<module>", name, value)._replace(kind="constant")]


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
    yield from destructured_defaults(function, pattern, "")


def destructured_defaults(function: str, pattern: Node, path: str) -> Iterator[Default]:
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
                yield from destructured_defaults(function, inner, f"{name}.")
        elif child.type == "assignment_pattern":
            left, right = field(child, "left"), field(child, "right")
            if left is not None and right is not None:
                yield _default(function, f"{path}{_pattern_name(left)}", right)
                yield from destructured_defaults(function, left, f"{path}{_pattern_name(left)}.")


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
    line = first_line(value)
    return Default(function, param, literal_value(value), text(value), line, end_line=line)


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
