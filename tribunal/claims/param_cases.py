"""How many test items a parametrized Python test expands to, when that is literal.

``@pytest.mark.parametrize("x", [1, 2, 3])`` makes three tests of one
function; deleting a case deletes a test as surely as deleting a function
does, and it is the quiet way to drop the one case that fails. The count is
the product over every ``parametrize`` on the function and its classes, and
it is known only when every ``argvalues`` is a literal list or tuple (no
``*unpacking``); otherwise None, and nothing is claimed.
"""

from __future__ import annotations

import ast
from collections.abc import Sequence

from tribunal.lang.test_diff import TestRecord


def item_count(record: TestRecord) -> int | None:
    """The number of items pytest collects for a Python test; None when not literal."""
    if record.language != "python":
        return None
    owners: Sequence[ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef] = (
        *getattr(record.test, "classes", ()),
        record.test.node,
    )
    total = 1
    for owner in owners:
        for decorator in owner.decorator_list:
            count = _cases(decorator)
            if count is None:
                return None
            total *= count
    return total


def _cases(decorator: ast.expr) -> int | None:
    """Cases one decorator multiplies by: 1 unless it is a ``parametrize``."""
    if not isinstance(decorator, ast.Call) or _name(decorator.func) != "parametrize":
        return 1
    values = decorator.args[1] if len(decorator.args) > 1 else None
    for keyword in decorator.keywords:
        if keyword.arg == "argvalues":
            values = keyword.value
    if not isinstance(values, ast.List | ast.Tuple):
        return None
    if any(isinstance(element, ast.Starred) for element in values.elts):
        return None
    return len(values.elts)


def _name(node: ast.expr) -> str:
    if isinstance(node, ast.Attribute):
        return node.attr
    return node.id if isinstance(node, ast.Name) else ""
