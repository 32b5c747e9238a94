"""A default as the claims compare it, and the value of a Python literal.

Shared by the readers of Python defaults (``defaults_py``, ``defaults_calls``) and of
JS/TS ones (``defaults_js``, ``defaults_props``), below all of them.
"""

import ast
from collections.abc import Hashable
from typing import NamedTuple


class Default(NamedTuple):
    """One default. ``value`` is None when the default is not a literal."""

    function: str  # the function, class or ``<module>`` it belongs to
    param: str  # the parameter, field, option or constant it is the default of
    value: Hashable | None
    text: str
    line: int
    body: str = ""  # the function's code, to tell a moved function from a namesake
    kind: str = "parameter"  # parameter, field, option, constant, prop, initializer
    end_line: int = 0  # the last line of the construct that holds it (0: ``line``)
    #: Why a changed value may not change behaviour (React 19 ignores a function
    #: component's ``defaultProps``): a flip is then only UNVERIFIED.
    doubt: str = ""


def literal_value(node: ast.expr) -> Hashable | None:
    """A hashable, type-tagged form of a literal expression; None if it is not a literal."""
    if isinstance(node, ast.Constant):
        return (type(node.value).__name__, node.value)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        inner = literal_value(node.operand)
        if isinstance(inner, tuple) and inner[0] in ("int", "float", "complex"):
            sign = -1 if isinstance(node.op, ast.USub) else 1
            return (inner[0], sign * inner[1])
        return None
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        items = [literal_value(e) for e in node.elts]
        if any(i is None for i in items):
            return None
        kind = type(node).__name__.lower()
        return (kind, frozenset(items) if kind == "set" else tuple(items))
    if isinstance(node, ast.Dict):
        keys = [literal_value(k) if k is not None else None for k in node.keys]
        values = [literal_value(v) for v in node.values]
        if any(x is None for x in (*keys, *values)):
            return None
        built = dict(zip(keys, values, strict=True))  # a repeated key keeps its last value
        return ("dict", frozenset(built.items()))
    return None
