"""A syntax tree as text for comparison, written without recursion.

``ast.dump`` recurses once per level of the tree, so a valid module with a
deep expression (``X = 1+1+...`` with 2,000 terms) makes it raise
``RecursionError``; its output also differs between Python versions (3.13
leaves out empty fields). ``canonical`` walks with an explicit stack: two
nodes give the same text exactly when they have the same types, fields and
values, whatever their positions in the file.
"""

from __future__ import annotations

import ast

_MISSING = object()


class _Text(str):
    """Text already produced, as opposed to a value still to write."""

    __slots__ = ()


def canonical(node: ast.AST | list[ast.AST]) -> str:
    """``node`` (or a list of nodes) as text: types, field names and values, no positions."""
    out: list[str] = []
    stack: list[object] = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, _Text):
            out.append(item)
        elif isinstance(item, ast.AST):
            parts: list[object] = [_Text(f"{type(item).__name__}(")]
            for index, name in enumerate(item._fields):
                value = getattr(item, name, _MISSING)
                prefix = ", " if index else ""
                if value is _MISSING:
                    parts.append(_Text(f"{prefix}{name}=?"))
                else:
                    parts += [_Text(f"{prefix}{name}="), value]
            parts.append(_Text(")"))
            stack.extend(reversed(parts))
        elif isinstance(item, list):
            parts = [_Text("[")]
            for index, value in enumerate(item):
                parts += [_Text(", "), value] if index else [value]
            parts.append(_Text("]"))
            stack.extend(reversed(parts))
        else:
            out.append(repr(item))
    return "".join(out)
