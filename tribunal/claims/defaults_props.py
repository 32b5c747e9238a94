"""Defaults of JS/TS components and classes beyond function parameters.

- React ``defaultProps``: ``Button.defaultProps = {...}`` and ``static
  defaultProps = {...}``. React 19 ignores ``defaultProps`` on function
  components, so there a flip is only as certain as the React version
  (``FUNCTION_PROPS``; the verifier reads it from ``package.json``);
- Svelte: ``export let size = 'md'`` (3/4) and ``let { size = 'md' } = $props()`` (5);
- Vue: ``withDefaults(defineProps<...>(), {...})``, Vue 3.5 destructured
  ``const { size = 'md' } = defineProps()``, and the Options API's
  ``props: { size: { default: 'md' } }``;
- class property initializers (``timeout = 30``, ``static retries = 3``);
- destructured defaults in a declaration (``const { size = 'md' } = props``),
  named by the enclosing function or component;
- any other ``default:`` property, named by the property or the first string
  argument of the call it is passed to (``.option('port', { default: 80 })``).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from tribunal.claims.default_values import Default
from tribunal.lang.js.syntax import field, first_line, last_line, string_value, text

if TYPE_CHECKING:
    from tree_sitter import Node

#: ``Default.doubt`` of a function component's ``defaultProps``.
FUNCTION_PROPS = "a function component's defaultProps (React 19 ignores them)"
_FUNCTIONS = frozenset(
    {"function_declaration", "function_expression", "arrow_function", "function",
     "generator_function_declaration", "method_definition"}
)  # fmt: skip
_CLASSES = frozenset({"class_declaration", "abstract_class_declaration", "class"})


def component_defaults(root: Node, owner: str = "<module>") -> list[Default]:
    """The defaults above in a parsed file; ``owner`` names a single-file component."""
    classes = {text(n) for n in _named_classes(root)}
    out: list[Default] = []
    stack = [root]
    while stack:
        node = stack.pop()
        stack.extend(reversed(node.named_children))
        if node.has_error:
            continue
        if node.type == "assignment_expression":
            out += _assigned_props(node, classes)
        elif node.type in ("public_field_definition", "field_definition"):
            out += _class_field(node)
        elif node.type == "call_expression" and _callee(node) == "withDefaults":
            arguments = field(node, "arguments")
            objects = (
                [a for a in arguments.named_children if a.type == "object"] if arguments else []
            )
            out += [d for obj in objects[-1:] for d in _pairs(obj, owner, "prop")]
        elif node.type == "variable_declarator":
            out += _destructured(node, owner)
        elif node.type == "pair" and _key(node) == "default":
            out += _default_pair(node)
    return out


def svelte_props(root: Node, owner: str) -> list[Default]:
    """Svelte 3/4 props: ``export let size = 'md'`` in a component's instance script."""
    out = []
    for statement in root.named_children:
        declaration = (
            field(statement, "declaration") if statement.type == "export_statement" else None
        )
        keyword = declaration.child(0) if declaration is not None else None
        if declaration is None or keyword is None or keyword.type not in ("let", "var"):
            continue
        for declarator in declaration.named_children:
            name, value = field(declarator, "name"), field(declarator, "value")
            if declarator.type == "variable_declarator" and name is not None and value is not None:
                out.append(_default(owner, text(name), value, "prop", declarator))
    return out


def _assigned_props(node: Node, classes: set[str]) -> list[Default]:
    left, right = field(node, "left"), field(node, "right")
    if left is None or right is None or left.type != "member_expression" or right.type != "object":
        return []
    prop, target = field(left, "property"), field(left, "object")
    if prop is None or target is None or text(prop) != "defaultProps":
        return []
    name = text(target)
    doubt = "" if name in classes else FUNCTION_PROPS
    return [d._replace(doubt=doubt) for d in _pairs(right, name, "prop")]


def _class_field(node: Node) -> list[Default]:
    name, value = field(node, "name") or field(node, "property"), field(node, "value")
    if name is None or value is None:
        return []
    owner = _enclosing(node)
    if text(name) == "defaultProps" and value.type == "object":
        return _pairs(value, owner, "prop")
    return [_default(owner, text(name), value, "initializer", node)]


def _destructured(node: Node, owner: str) -> list[Default]:
    pattern, value = field(node, "name"), field(node, "value")
    if pattern is None or value is None or pattern.type != "object_pattern":
        return []
    from tribunal.claims.js_values import destructured_defaults

    props = _callee(value) in ("defineProps", "$props") or value.type == "identifier"
    where = owner if _callee(value) == "defineProps" else _enclosing(node)
    kind = "prop" if props else "destructured"
    return [
        d._replace(kind=kind, end_line=last_line(node))
        for d in destructured_defaults(where, pattern, "")
    ]


def _default_pair(node: Node) -> list[Default]:
    """``{ default: v }``: the default of the property or option that object describes."""
    value, holder = field(node, "value"), node.parent
    if value is None or holder is None or holder.type != "object":
        return []
    outer = holder.parent
    if outer is not None and outer.type == "pair":
        name = _key(outer)
    elif outer is not None and outer.type == "arguments":
        strings = [string_value(a) for a in outer.named_children if a.type == "string"]
        name = next((s for s in strings if s), "default")
    else:
        name = "default"
    return [_default(_enclosing(node), name or "default", value, "prop", holder)]


def _pairs(obj: Node, owner: str, kind: str) -> list[Default]:
    out = []
    for pair in obj.named_children:
        value = field(pair, "value")
        if pair.type == "pair" and value is not None:
            out.append(_default(owner, _key(pair) or "?", value, kind, pair))
    return out


def _default(owner: str, name: str, value: Node, kind: str, holder: Node) -> Default:
    from tribunal.claims.js_values import literal_value

    return Default(
        owner, name, literal_value(value), text(value), first_line(value),
        kind=kind, end_line=last_line(holder),
    )  # fmt: skip


def _key(pair: Node) -> str | None:
    key = field(pair, "key")
    if key is None:
        return None
    return string_value(key) if key.type == "string" else text(key)


def _callee(node: Node) -> str:
    if node.type != "call_expression":
        return ""
    function = field(node, "function")
    return text(function) if function is not None else ""


def _named_classes(root: Node) -> Iterator[Node]:
    stack = [root]
    while stack:
        node = stack.pop()
        stack.extend(node.named_children)
        if node.type in _CLASSES:
            name = field(node, "name")
            if name is not None:
                yield name
            elif node.parent is not None and node.parent.type == "variable_declarator":
                target = field(node.parent, "name")
                if target is not None:
                    yield target


def _enclosing(node: Node) -> str:
    """The names of the functions and classes around ``node``, outermost first."""
    names = []
    current = node.parent
    while current is not None:
        if current.type in _FUNCTIONS or current.type in _CLASSES:
            name = field(current, "name")
            if name is None and current.parent is not None:
                name = field(current.parent, "name")  # const Button = () => ...
            names.append(text(name) if name is not None else "<anonymous>")
        current = current.parent
    return ".".join(reversed(names)) or "<module>"
