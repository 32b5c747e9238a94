"""The export set of a CommonJS module, when it can be enumerated with certainty.

A named import of a name a CommonJS module never exports is ``undefined`` under
every interop and a ``SyntaxError`` under Node's ESM loader, so it is a
contradiction when the set is *fully enumerable*: every write is a static
``exports.x =``, ``module.exports.x =``, ``Object.defineProperty(exports, 'x',
...)``, or one top-level ``module.exports = { ... }`` object literal without
spread or computed keys (then no ``exports.x`` write, which the reassignment
detaches); nothing re-exports (``module.exports = require(...)``,
``__exportStar``, ``Object.assign``), no key is computed (``exports[name] =``),
and neither ``exports`` nor ``module.exports`` escapes as a value or is rebound.
Writes anywhere count (inside functions and conditions too): the set is every
name that may exist, so a name outside it is certain to be missing. Names that
exist at run time but that Node's own export detection would miss are *not*
flagged: the set is read as the code writes it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tribunal.lang.js import syntax as js

if TYPE_CHECKING:
    from tree_sitter import Node

Enumerated = tuple[frozenset[str] | None, str]  # (names or None, why not enumerable)


def commonjs_exports(root: Node) -> Enumerated:
    """Every name the module may export, or None with the reason it cannot be listed."""
    names: set[str] = set()
    literal_assignments = 0
    member_writes = False
    for node in _uses(root):
        how = _classify(node)
        if how is None:
            return None, f"`{js.text(_context(node))[:60]}` uses the exports object dynamically"
        kind, found = how
        if kind == "literal":
            literal_assignments += 1
        elif kind == "member" and js.text(node) == "exports":
            member_writes = True
        names.update(found)
    if literal_assignments > 1:
        return None, "it assigns module.exports more than once"
    if literal_assignments and member_writes:
        return None, "it reassigns module.exports and also writes to exports"
    if _rebinds(root):
        return None, "it binds its own `module` or `exports`"
    return frozenset(names), ""


def _uses(root: Node) -> list[Node]:
    """``exports`` identifiers and ``module.exports`` member expressions, in order."""
    out = []
    stack = [root]
    while stack:
        node = stack.pop()
        if node.type == "member_expression" and _is_module_exports(node):
            out.append(node)
            continue
        if node.type == "identifier" and js.text(node) == "exports":
            out.append(node)
        stack.extend(reversed(node.named_children))
    return out


def _classify(node: Node) -> tuple[str, frozenset[str]] | None:
    """How one use of the exports object adds names; None when it defies enumeration."""
    parent = node.parent
    if parent is None:
        return None
    if parent.type == "assignment_expression" and parent.child_by_field_name("left") == node:
        right = parent.child_by_field_name("right")
        if _is_module_exports(node) and right is not None and right.type == "object":
            keys = _object_keys(right)
            return None if keys is None else ("literal", keys)
        return None  # ``module.exports = fn``, ``= require(...)``, ``exports = ...``
    if parent.type == "member_expression" and parent.child_by_field_name("object") == node:
        prop = parent.child_by_field_name("property")
        if prop is None or prop.type != "property_identifier":
            return None
        return "member", frozenset({js.text(prop)})  # a write, or a harmless read
    if parent.type == "subscript_expression":
        return _subscript(parent, node)
    if parent.type == "arguments":
        return _define_property(parent, node)
    return None


def _subscript(parent: Node, node: Node) -> tuple[str, frozenset[str]] | None:
    """``exports['x'] = ...`` (a literal key); a computed one escapes."""
    if parent.child_by_field_name("object") != node:
        return None
    index = parent.child_by_field_name("index")
    key = js.string_value(index) if index is not None and index.type == "string" else None
    return None if key is None else ("member", frozenset({key}))


def _define_property(arguments: Node, node: Node) -> tuple[str, frozenset[str]] | None:
    """``Object.defineProperty(exports, 'x', ...)``."""
    call = arguments.parent
    function = call.child_by_field_name("function") if call is not None else None
    args = [a for a in arguments.named_children if a.type != "comment"]
    if function is None or js.text(function) != "Object.defineProperty" or len(args) < 2:
        return None
    if args[0] != node or args[1].type != "string":
        return None
    key = js.string_value(args[1])
    return None if key is None else ("member", frozenset({key}))


def _object_keys(node: Node) -> frozenset[str] | None:
    out: set[str] = set()
    for member in node.named_children:
        if member.type == "comment":
            continue
        if member.type == "shorthand_property_identifier":
            out.add(js.text(member))
            continue
        if member.type not in ("pair", "method_definition"):
            return None  # a spread, a getter written oddly: not enumerable
        key = member.child_by_field_name("key") or member.child_by_field_name("name")
        if key is None or key.type == "computed_property_name":
            return None
        name = js.string_value(key) if key.type == "string" else js.text(key)
        if name is None:
            return None
        out.add(name)
    return frozenset(out)


def _is_module_exports(node: Node) -> bool:
    target, prop = node.child_by_field_name("object"), node.child_by_field_name("property")
    return (
        target is not None
        and prop is not None
        and target.type == "identifier"
        and js.text(target) == "module"
        and js.text(prop) == "exports"
    )


def _context(node: Node) -> Node:
    return node.parent if node.parent is not None else node


def _rebinds(root: Node) -> bool:
    """A parameter or declaration named ``module`` or ``exports`` (a UMD wrapper)."""
    stack = [root]
    while stack:
        node = stack.pop()
        stack.extend(node.named_children)
        if node.type in ("formal_parameters", "variable_declarator"):
            bound = (
                node.named_children
                if node.type == "formal_parameters"
                else [node.child_by_field_name("name")]
            )
            for item in bound:
                if item is not None and js.text(item) in ("module", "exports"):
                    return True
    return False
