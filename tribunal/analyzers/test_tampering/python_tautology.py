"""Python assertions that cannot fail, judged on literals only.

``assert True``, ``assert "text"``, ``assert (x, "message")`` (a non-empty
tuple is always true), ``self.assertTrue(1)``, ``self.assertEqual(1, 1)``.
Not ``assert x == x`` or ``assertEqual(a, a)``: NaN and ``__eq__`` make them
fallible. ``assert e or True`` (and ``assertTrue(e or True)``) cannot fail on
its condition either: ``e`` may still raise, but that is no check
(``or_true``). The walk helpers here are shared with ``python_swallow``.
"""

import ast
from collections.abc import Iterator
from typing import NamedTuple

from tribunal.lang.python.consts import Raises, Unknown, evaluate
from tribunal.lang.python.index import FuncDef

_TRUE_CALLS = frozenset({"assertTrue", "assert_", "failUnless"})
_FALSE_CALLS = frozenset({"assertFalse", "failIf"})
_EQUAL_CALLS = frozenset({"assertEqual", "assertEquals", "failUnlessEqual"})
_NOT_EQUAL_CALLS = frozenset({"assertNotEqual", "assertNotEquals", "failIfEqual"})
_LITERAL_NODES = (
    ast.Constant,
    ast.BoolOp,
    ast.BinOp,
    ast.UnaryOp,
    ast.Compare,
    ast.Tuple,
    ast.List,
    ast.Set,
    ast.Dict,
    ast.IfExp,
)
Nested = ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda | ast.ClassDef


class Spot(NamedTuple):
    line: int
    end: int
    text: str  # the assertion as written, for the finding and for base/head matching


def walk(node: ast.AST) -> Iterator[ast.AST]:
    """The nodes under ``node``, not entering nested functions, lambdas or classes."""
    stack = list(ast.iter_child_nodes(node))
    while stack:
        current = stack.pop()
        yield current
        if not isinstance(current, Nested):
            stack.extend(ast.iter_child_nodes(current))


def spot(node: ast.stmt | ast.expr) -> Spot:
    return Spot(node.lineno, node.end_lineno or node.lineno, ast.unparse(node))


def always_true(expr: ast.expr) -> bool:
    """Whether ``expr`` is made of literals and always true.

    A non-empty display (``(x, "message")``) is true whatever it holds; any
    other expression must be literals throughout: ``True or explode`` never
    evaluates ``explode`` in Python, but a test of an assertion rewriter
    means exactly that it might.
    """
    if isinstance(expr, ast.Tuple | ast.List | ast.Set) and expr.elts:
        return not any(isinstance(e, ast.Starred) for e in expr.elts)
    if isinstance(expr, ast.Dict) and expr.keys:
        return all(k is not None for k in expr.keys)
    known, value = _literal(expr)
    return known and bool(value)


def _literal(expr: ast.expr) -> tuple[bool, object]:
    """(True, value) for an expression of literals only; (False, None) otherwise."""
    if not all(isinstance(n, _LITERAL_NODES) for n in ast.walk(expr) if isinstance(n, ast.expr)):
        return False, None
    try:
        return True, evaluate(expr, {})
    except (Unknown, Raises):
        return False, None


def tautologies(fn: FuncDef) -> list[Spot]:
    """Assertions in ``fn`` (nested code included) that can never fail."""
    found = []
    for node in ast.walk(fn):
        if isinstance(node, ast.Assert) and always_true(node.test):
            found.append(spot(node))
        if isinstance(node, ast.Call) and _tautological_call(node):
            found.append(spot(node))
    return found


def or_true(fn: FuncDef) -> list[Spot]:
    """``assert e or True`` / ``self.assertTrue(e or 1)``: a truthy literal ``or``-ed in."""
    found = []
    for node in ast.walk(fn):
        if isinstance(node, ast.Assert | ast.Call):
            condition = _condition(node)
            if condition is not None and _or_true(condition) and not always_true(condition):
                found.append(spot(node))
    return found


def _condition(node: ast.Assert | ast.Call) -> ast.expr | None:
    if isinstance(node, ast.Assert):
        return node.test
    return node.args[0] if _owner_call(node) in _TRUE_CALLS and node.args else None


def _or_true(expr: ast.expr) -> bool:
    """``e or True``: a truthy literal after code. ``True or explode`` is not one: a test of
    an assertion rewriter means by it that ``explode`` is never evaluated."""
    if not isinstance(expr, ast.BoolOp) or not isinstance(expr.op, ast.Or):
        return False
    if always_true(expr.values[0]):
        return False
    return any(always_true(value) or _or_true(value) for value in expr.values[1:])


def _owner_call(call: ast.Call) -> str:
    func = call.func
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
        return func.attr if func.value.id in ("self", "cls") else ""
    return ""


def _tautological_call(call: ast.Call) -> bool:
    func = call.func
    if not (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)):
        return False
    if func.value.id not in ("self", "cls") or not call.args:
        return False
    if any(isinstance(a, ast.Starred) for a in call.args):
        return False
    name, args = func.attr, call.args
    if name in _TRUE_CALLS:
        return always_true(args[0])
    known, value = _literal(args[0])
    if name in _FALSE_CALLS:
        return known and not value
    if name == "assertIsNone":
        return isinstance(args[0], ast.Constant) and args[0].value is None
    if name == "assertIsNotNone":
        return known and value is not None
    if len(args) < 2 or name not in _EQUAL_CALLS | _NOT_EQUAL_CALLS:
        return False
    known_right, right = _literal(args[1])
    if not (known and known_right):
        return False
    try:
        equal = bool(value == right)
    except Exception:
        return False
    return equal if name in _EQUAL_CALLS else not equal
