"""Statements that read like checks but check nothing, and what was probably meant.

``m.called_once_with(1)`` (a misspelled mock assertion), ``m.assert_called_once``
without parentheses, ``pytest.raises(E)`` or ``self.assertRaises(E)`` on a line
of their own (a context manager built and dropped), ``assert (x == 1, "msg")``
(a non-empty tuple) and ``assert x or "msg"`` are all always satisfied. They
are not assertions; the finding names each one so the author can fix it.
"""

import ast
from typing import NamedTuple

from tribunal.lang.python.consts import Raises, Unknown, evaluate
from tribunal.lang.python.index import ModuleIndex
from tribunal.lang.python.purity import short

MOCK_ASSERTS = (
    "assert_called",
    "assert_called_once",
    "assert_called_with",
    "assert_called_once_with",
    "assert_any_call",
    "assert_has_calls",
    "assert_not_called",
    "assert_awaited",
    "assert_awaited_once",
    "assert_awaited_with",
    "assert_awaited_once_with",
    "assert_any_await",
    "assert_has_awaits",
    "assert_not_awaited",
)
#: Checks that only work as ``with`` blocks, and how many positional arguments they take
#: before the optional function to call (``pytest.raises(E, f, *args)`` calls ``f``).
_CONTEXT_ONLY = {
    "pytest.raises": 1,
    "pytest.warns": 1,
    "pytest.deprecated_call": 0,
    "assertRaises": 1,
    "assertRaisesRegex": 2,
    "assertWarns": 1,
    "assertWarnsRegex": 2,
    "assertLogs": 99,
    "assertNoLogs": 99,
}
#: Mock assertions without their ``assert_`` prefix: ``m.called_once_with()`` is the classic
#: slip. The one-word forms (``called``, ``awaited``) are too common elsewhere to flag.
_MOCK_BARE = {name.removeprefix("assert_"): name for name in MOCK_ASSERTS if name.count("_") > 1}


class Misspelling(NamedTuple):
    """Something written as a check that checks nothing (the finding says so)."""

    line: int
    written: str  # "m.called_once_with"
    meant: str  # "assert_called_once_with"
    #: "name" (misspelled), "uncalled" (no parentheses), "unused" (a context manager on its
    #: own line), "always-true" (``assert (x, "msg")``, ``assert x or "msg"``)
    kind: str = "name"


def misspelled_mock_assert(name: str) -> str | None:
    """The real Mock assertion ``name`` looks like a misspelling of, if any."""
    if name in MOCK_ASSERTS:
        return None
    if name in _MOCK_BARE:
        return _MOCK_BARE[name]
    import difflib

    candidates = MOCK_ASSERTS if name.startswith("assert") else tuple(_MOCK_BARE)
    close = difflib.get_close_matches(name, candidates, n=1, cutoff=0.85)
    if not close:
        return None
    return close[0] if close[0] in MOCK_ASSERTS else _MOCK_BARE[close[0]]


def inert_check(expr: ast.expr, index: ModuleIndex) -> Misspelling | None:
    """A statement that reads like a check but checks nothing.

    ``pytest.raises(E)`` or ``self.assertRaises(E)`` on its own line builds a
    context manager and drops it; ``m.assert_called_once`` without ``()`` only
    reads the method.
    """
    if isinstance(expr, ast.Attribute) and _reads_like_assert(expr.attr):
        written = short(expr)
        return Misspelling(expr.lineno, written, f"{written}()", "uncalled")
    if not isinstance(expr, ast.Call) or any(isinstance(a, ast.Starred) for a in expr.args):
        return None
    func = expr.func
    name = index.qualify(func) or ""
    key = name if name in _CONTEXT_ONLY else ""
    on_self = isinstance(func, ast.Attribute) and _is_self(func.value)
    if not key and on_self and isinstance(func, ast.Attribute) and func.attr in _CONTEXT_ONLY:
        key = func.attr
    if not key or len(expr.args) > _CONTEXT_ONLY[key]:
        return None
    if any(k.arg is None for k in expr.keywords):
        return None  # ``**kwargs`` may carry the function to call
    written = short(expr)
    return Misspelling(expr.lineno, written, f"with {written}: ...", "unused")


def _is_self(node: ast.expr) -> bool:
    return isinstance(node, ast.Name) and node.id in ("self", "cls")


def _reads_like_assert(attr: str) -> bool:
    return attr.startswith("assert") and attr != "assert"


def operands(expr: ast.expr) -> list[ast.AST]:
    if isinstance(expr, ast.Call):
        return [*expr.args, *(k.value for k in expr.keywords)]
    return [expr.value] if isinstance(expr, ast.Attribute) else []


def always_true(stmt: ast.Assert) -> str | None:
    """``assert (x == 1, "msg")`` or ``assert x or "msg"``: true whatever ``x`` is.

    Returns the assert as it was probably meant. A non-empty tuple, list, set
    or dict display is always truthy; so is an ``or`` with a truthy literal.
    """
    test = stmt.test
    if isinstance(test, ast.Tuple | ast.List | ast.Set):
        if not any(not isinstance(e, ast.Starred) for e in test.elts):
            return None  # ``(*items,)`` may be empty
        first = test.elts[0]
        if len(test.elts) == 2 and not isinstance(first, ast.Starred):
            return f"assert {short(first)}, {short(test.elts[1])}"
        return f"assert {short(first)}"
    if isinstance(test, ast.Dict) and any(k is not None for k in test.keys):
        return f"assert {short(test)}"
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.Or):
        for position, value in enumerate(test.values[1:], start=1):
            if literal_truthy(value):
                checked = ast.BoolOp(ast.Or(), test.values[:position])
                before = test.values[0] if position == 1 else checked
                message = f", {short(value)}" if _is_str(value) else ""
                return f"assert {short(before)}{message}"
    return None


def _is_str(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str)


def literal_truthy(test: ast.expr) -> bool:
    """``assert True``, ``assert 1 == 1``: asserts on literals that can never fail."""
    try:
        return bool(evaluate(test, {}))
    except (Unknown, Raises):
        return False
