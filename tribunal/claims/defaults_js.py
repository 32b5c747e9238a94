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

from collections.abc import Hashable, Iterator
from typing import TYPE_CHECKING

from tribunal.change.model import Source
from tribunal.claims.default_values import Default
from tribunal.claims.js_values import (
    WRAPPERS,
    destructured_defaults,
    literal_value,
    make_default,
    pattern_name,
)
from tribunal.lang.js import syntax as js
from tribunal.lang.js.decls import code_text, declarations
from tribunal.lang.js.syntax import field, text

if TYPE_CHECKING:
    from tree_sitter import Node


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
    while value is not None and value.type in WRAPPERS and value.named_children:
        value = value.named_children[0]  # ``{...} as const``, ``{...} satisfies T``
    if value is None:
        return []
    if value.type == "object":
        out = []
        for pair in value.named_children:
            key, item = field(pair, "key"), field(pair, "value")
            if pair.type == "pair" and key is not None and item is not None:
                label = js.string_value(key) if key.type == "string" else text(key)
                found = make_default("<module>", f"{name}.{label}", item)
                out.append(found._replace(kind="constant"))
        return out
    return [make_default("<module>", name, value)._replace(kind="constant")]


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
        yield make_default(function, pattern_name(pattern), value)
    yield from destructured_defaults(function, pattern, "")
