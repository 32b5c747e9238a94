"""Type-level checks inside a test: what only the TypeScript compiler can judge.

A TypeScript test can assert at the type level alone::

    it('infers the output', () => {
      const check: Expect<Equal<ReturnType<typeof parse>, Output>> = true;
    });

``satisfies``, an annotation, an ``as`` cast, a type alias with a constrained
generic and a ``// @ts-expect-error`` comment all fail the file when the types
are wrong (ts-jest, ``vitest --typecheck`` and ``tsc`` report it), so such a
test may fail even though nothing in it can throw at run time.
``first_type_check`` finds the first construct in a function that the
compiler could reject; the trivially satisfied ones (``: number`` on a number
literal, ``as const`` on a literal, ``any``/``unknown``, aliases built from
primitives) are let through, so an assertion-free test of literals stays
certain.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tribunal.lang.js.syntax import text
from tribunal.util.lazyre import lazy

if TYPE_CHECKING:
    from tree_sitter import Node

#: Comments a type checker acts on: an unused ``@ts-expect-error`` is itself an error,
#: and JSDoc types are checked in JavaScript under ``// @ts-check`` or ``checkJs``.
_CHECKED_COMMENT = lazy(r"@ts-expect-error|@type\b|@satisfies\b|@param\s*\{|@returns?\s*\{")
_TOP_TYPES = frozenset({"any", "unknown"})
#: Predefined types and the literal node types a value of that type is written as.
_PRIMITIVES = {
    "number": frozenset({"number"}),
    "string": frozenset({"string", "template_string"}),
    "boolean": frozenset({"true", "false"}),
}
#: Type nodes that cannot name anything undeclared or fail a constraint.
_CLOSED_TYPES = frozenset(
    {"predefined_type", "literal_type", "union_type", "intersection_type", "array_type"}
    | {"tuple_type", "parenthesized_type", "optional_type", "readonly_type", "object_type"}
    | {"property_signature", "type_annotation", "number", "string", "string_fragment"}
    | {"true", "false", "null", "undefined", "unary_expression", "property_identifier"}
    | {"escape_sequence", "comment", "interface_body", "type_parameters", "type_parameter"}
)
#: What ``as const`` accepts: literals (on a variable it is a compile error).
_CONST_ASSERTABLE = frozenset(
    {"number", "string", "template_string", "true", "false", "array", "object"}
    | {"unary_expression"}
)
CHECKED = "is a type-level check the TypeScript compiler may fail"


def first_type_check(function: Node, with_signature: bool) -> Node | None:
    """The first construct in ``function`` a type checker could reject, if any.

    ``with_signature`` False skips the function's own parameters and return
    type (a test callback's ``(): Promise<void>``), judging its body only.
    """
    body = function.child_by_field_name("body")
    if not with_signature:
        return _first_check(body) if body is not None else None
    returns = function.child_by_field_name("return_type")
    for child in function.named_children:
        if child == returns and _void(child):
            continue
        found = _first_check(child)
        if found is not None:
            return found
    return None


def _first_check(root: Node) -> Node | None:
    stack = [root]
    while stack:
        node = stack.pop()
        verdict = _judge(node)
        if verdict is True:
            return node
        if verdict is False:
            continue  # a type construct that holds: nothing inside it to judge again
        if verdict is None:
            stack.extend(reversed(node.named_children))
        else:
            stack.append(verdict)  # a cast that holds: judge the value it casts
    return None


def _judge(node: Node) -> bool | Node | None:
    """True: a check; False: a type construct that holds; a node: its value to walk on."""
    kind = node.type
    if kind == "comment":
        return _CHECKED_COMMENT().search(text(node)) is not None
    if kind == "type_annotation":
        return not _annotation_holds(node)
    if kind in ("as_expression", "satisfies_expression", "type_assertion"):
        return _cast(node)
    if kind in ("type_alias_declaration", "interface_declaration"):
        return not _closed_declaration(node)
    if kind == "type_parameter":
        return any(c.type in ("constraint", "default_type") for c in node.named_children)
    if kind in ("type_arguments", "enum_declaration", "implements_clause"):
        return True
    return None


def _void(annotation: Node) -> bool:
    """A ``void`` or ``Promise<void>`` return type: what every test callback returns."""
    flat = "".join(text(annotation).split()).lstrip(":")
    return flat in ("void", "Promise<void>", "any", "unknown")


def _annotation_holds(annotation: Node) -> bool:
    """``: any``, or ``: number`` on a number literal: nothing the compiler can reject."""
    declared = _only_child(annotation)
    if declared is None:
        return False
    if _top(declared):
        return True
    parent = annotation.parent
    if parent is None:
        return False
    value = parent.child_by_field_name("value")
    if parent.type in ("required_parameter", "optional_parameter") and value is None:
        # ``(x: T) => x``: a parameter type alone is checked only where it is named
        return _closed(declared, _own_type_parameters(parent))
    if parent.type != "variable_declarator" or value is None:
        return False
    return _literal_of(value, declared)


def _own_type_parameters(parameter: Node) -> set[str]:
    """Type parameters of the function a parameter belongs to (``<T,>(x: T)``)."""
    params = parameter.parent
    function = params.parent if params is not None else None
    found = function.child_by_field_name("type_parameters") if function is not None else None
    if found is None:
        return set()
    return {
        text(name)
        for param in found.named_children
        if (name := param.child_by_field_name("name")) is not None
    }


def _cast(node: Node) -> bool | Node:
    """``x as any``, ``1 as const``, ``'a' as string``, ``x satisfies unknown`` hold.

    A cast that holds returns its value, which may hold further checks.
    """
    named = node.named_children
    if node.type == "type_assertion":  # ``<T>x``: the type comes first
        target = named[0].named_children[0] if named and named[0].named_children else None
        value = named[-1] if len(named) > 1 else None
    else:
        value = named[0] if named else None
        target = named[1] if len(named) > 1 else None
    if value is None:
        return True
    if target is None:  # ``as const``
        holds = node.type == "as_expression" and value.type in _CONST_ASSERTABLE
    else:
        holds = _top(target) or _literal_of(value, target)
    return value if holds else True


def _closed_declaration(node: Node) -> bool:
    """A type alias or interface built from primitives and its own type parameters."""
    name = node.child_by_field_name("name")
    own = {
        text(param_name)
        for params in node.named_children
        if params.type == "type_parameters"
        for param in params.named_children
        if (param_name := param.child_by_field_name("name")) is not None
    }
    parts = [c for c in node.named_children if c != name]
    return bool(parts) and all(_closed(part, own) for part in parts)


def _closed(node: Node, own: set[str]) -> bool:
    stack = [node]
    while stack:
        current = stack.pop()
        if current.type == "type_identifier":
            if text(current) not in own:
                return False
        elif current.type not in _CLOSED_TYPES:
            return False
        stack.extend(current.named_children)
    return True


def _top(node: Node) -> bool:
    return node.type == "predefined_type" and text(node) in _TOP_TYPES


def _literal_of(value: Node, declared: Node) -> bool:
    """A literal written as a value of the predefined type ``declared``."""
    if declared.type != "predefined_type":
        return False
    kinds = _PRIMITIVES.get(text(declared))
    if kinds is None:
        return False
    if value.type == "unary_expression" and text(declared) == "number":
        operand = value.child_by_field_name("argument")
        return operand is not None and operand.type == "number" and text(value)[:1] in "-+"
    return value.type in kinds and not text(value).lower().endswith("n")


def _only_child(node: Node) -> Node | None:
    named = [c for c in node.named_children if c.type != "comment"]
    return named[0] if len(named) == 1 else None
