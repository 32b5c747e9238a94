"""How many test items a parametrized Python test expands to, when that is literal.

``@pytest.mark.parametrize("x", [1, 2, 3])`` makes three tests of one
function; deleting a case deletes a test as surely as deleting a function
does, and it is the quiet way to drop the one case that fails. The count is
the product over every ``parametrize`` that reaches the function: its own
decorators, those of its classes (and their same-file bases), and the
``pytestmark`` of those classes and of the module, which pytest applies as
if they decorated it. Moving a list from a decorator into a ``pytestmark``
changes no count. It is known only when every ``argvalues`` is a literal
list or tuple (no ``*unpacking``) and every mark is spelled out where it is
applied; a mark kept in a variable or imported (``@cases``, ``pytestmark =
MARKS``) or a ``pytestmark`` assigned twice or augmented makes it None, and
nothing is claimed.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable

from tribunal.lang.python.index import ModuleIndex, top_level
from tribunal.lang.python.marks import Effect, classify
from tribunal.lang.test_record import TestRecord


def item_count(record: TestRecord) -> int | None:
    """The number of items pytest collects for a Python test; None when not literal."""
    if record.language != "python":
        return None
    index: ModuleIndex = record.index
    lineages = (index.lineage(c)[0] for c in getattr(record.test, "classes", ()))
    classes = list({id(k): k for lineage in lineages for k in lineage}.values())
    counts = [
        None if _hidden_decorator(d, index) else _cases(d)
        for owner in (*classes, record.test.node)
        for d in owner.decorator_list
    ]
    for body in (index.tree.body, *(c.body for c in classes)):
        applied = _pytestmark(body)
        if applied is None:
            return None
        counts += [_cases(mark) if _spelled_mark(mark, index) else None for mark in applied]
    return _product(counts)


def _pytestmark(body: list[ast.stmt]) -> list[ast.expr] | None:
    """The marks a module's or class's ``pytestmark`` applies; None when not readable."""
    found: list[list[ast.expr]] = []
    for stmt in top_level(body):
        if not isinstance(stmt, ast.Assign | ast.AnnAssign | ast.AugAssign):
            continue
        targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
        if not any(isinstance(t, ast.Name) and t.id == "pytestmark" for t in targets):
            continue
        value = stmt.value
        if isinstance(stmt, ast.AugAssign) or value is None:
            return None
        found.append(list(value.elts) if isinstance(value, ast.List | ast.Tuple) else [value])
    if len(found) > 1:
        return None  # which assignment wins is decided when the module runs
    return found[0] if found else []


def _cases(mark: ast.expr) -> int | None:
    """Cases one mark multiplies by: 1 unless it is a ``parametrize``."""
    if not isinstance(mark, ast.Call) or _name(mark.func) != "parametrize":
        return 1
    values = mark.args[1] if len(mark.args) > 1 else None
    for keyword in mark.keywords:
        if keyword.arg == "argvalues":
            values = keyword.value
    if not isinstance(values, ast.List | ast.Tuple):
        return None
    if any(isinstance(element, ast.Starred) for element in values.elts):
        return None
    return len(values.elts)


def _spelled_mark(mark: ast.expr, index: ModuleIndex) -> bool:
    """A ``pytestmark`` element written as ``pytest.mark.<name>`` (called or not).

    Anything else there (``MARKS``, ``make_marks()``, ``*common``) is a mark
    object built elsewhere, which may be a ``parametrize``.
    """
    target = mark.func if isinstance(mark, ast.Call) else mark
    parts = (index.qualify(target) or "").split(".")
    return len(parts) >= 2 and parts[-2] == "mark"


def _hidden_decorator(decorator: ast.expr, index: ModuleIndex) -> bool:
    """``@cases`` where ``cases`` is a mark object kept in a variable or imported.

    Such a name may hold a ``parametrize``. A decorator that is called
    (``@retry(3)``), defined in the module, a builtin or a mark pytest or
    unittest spell out reads as what it is.
    """
    if isinstance(decorator, ast.Call) or classify(decorator, index).effect is not Effect.SETUP:
        return False
    root = decorator
    while isinstance(root, ast.Attribute):
        root = root.value
    if not isinstance(root, ast.Name):
        return True
    name = root.id
    if name in index.functions or name in index.classes:
        return False
    return name in index.imports or name in index.binding_counts


def _product(counts: Iterable[int | None]) -> int | None:
    total = 1
    for count in counts:
        if count is None:
            return None
        total *= count
    return total


def _name(node: ast.expr) -> str:
    if isinstance(node, ast.Attribute):
        return node.attr
    return node.id if isinstance(node, ast.Name) else ""
