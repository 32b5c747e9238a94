"""Which locals of a JS/TS function may be renamed canonically (alpha-equivalence).

The JS/TS twin of ``py_rename``, kept narrower because block scoping makes a
name's meaning depend on where it is read: a name is renamed only when the
function's own body declares it at its top level (``const``/``let``/``var``
with a plain identifier, or a nested ``function``). Such a declaration covers
the whole body, so every identifier of that name in the body means either it
or a nested redeclaration, never anything outside, and renaming all of them
alike (only in the body: parameter defaults are read outside it) keeps the
code's meaning. Parameters of the function itself are its signature and are
never renamed. A function that mentions ``eval`` or uses ``with`` is not
renamed at all. Destructuring (``const {a} = o``) and shorthand properties
(``{a}``) use property names, which are never renamed, so a rename there shows
as a change.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tribunal.lang.js.syntax import field, text

if TYPE_CHECKING:
    from tree_sitter import Node

_TOP = frozenset({"lexical_declaration", "variable_declaration"})
_NAMED = frozenset({"function_declaration", "generator_function_declaration"})


def renamable_locals(function: Node) -> dict[str, str]:
    """Local name -> canonical name (``<local0>``... in order of declaration); may be empty."""
    body = field(function, "body")
    if body is None or body.type != "statement_block":
        return {}
    code = body.text or b""
    if b"eval" in code or (b"with" in code and _has_with(body)):
        return {}
    out: dict[str, str] = {}
    for name in _top_level(body):
        out.setdefault(name, f"<local{len(out)}>")
    return out


def _has_with(node: Node) -> bool:
    stack = [node]
    while stack:
        current = stack.pop()
        if current.type == "with_statement":
            return True
        stack.extend(current.named_children)
    return False


def _top_level(body: Node) -> list[str]:
    names = []
    for stmt in body.named_children:
        if stmt.type in _TOP:
            for declarator in stmt.named_children:
                name = (
                    field(declarator, "name") if declarator.type == "variable_declarator" else None
                )
                if name is not None and name.type == "identifier":
                    names.append(text(name))
        elif stmt.type in _NAMED:
            name = field(stmt, "name")
            if name is not None:
                names.append(text(name))
    return names
