"""A Hypothesis assertion turned into ``assume`` of the same expression.

``assert f(x) >= 0`` in a ``@given`` test fails on a counterexample;
``assume(f(x) >= 0)`` discards that example and carries on, so the change
stopped checking the property. Certain when ``assume`` resolves to
``hypothesis.assume`` and ``given`` to ``hypothesis.given`` through the
file's imports, the test is decorated with ``@given`` on both sides, and the
base asserted exactly the expression (AST equality) that head assumes and no
longer asserts. Hypothesis may still fail the test with its
``filter_too_much`` health check when nearly every example is discarded: that
checks how often the property holds, never that it holds. ``pytest.assume``
(pytest-assume) is a soft assertion, not a filter: it is not this rule's.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from tribunal.lang.python.index import ModuleIndex
from tribunal.lang.test_record import TestRecord


def assumed(old: TestRecord, new: TestRecord) -> Iterator[tuple[int, int, str]]:
    """(line, end line, text) of each head ``assume(E)`` where base asserted ``E``."""
    if not (_given(old.test.node, old.index) and _given(new.test.node, new.index)):
        return
    before = {ast.dump(e) for e in _asserted(old.test.node)}
    after = {ast.dump(e) for e in _asserted(new.test.node)}
    for call in _assume_calls(new.test.node, new.index):
        expr = call.args[0]
        key = ast.dump(expr)
        if key in before and key not in after:
            yield call.lineno, call.end_lineno or call.lineno, ast.unparse(call)


def _given(node: ast.AST, index: ModuleIndex) -> bool:
    decorators = getattr(node, "decorator_list", [])
    for decorator in decorators:
        target = decorator.func if isinstance(decorator, ast.Call) else decorator
        if index.qualify(target) == "hypothesis.given":
            return True
    return False


def _asserted(node: ast.AST) -> Iterator[ast.expr]:
    for child in ast.walk(node):
        if isinstance(child, ast.Assert):
            yield child.test
        elif isinstance(child, ast.Call) and _self_assert_true(child):
            yield child.args[0]


def _self_assert_true(call: ast.Call) -> bool:
    func = call.func
    return (
        isinstance(func, ast.Attribute)
        and func.attr in ("assertTrue", "assert_")
        and isinstance(func.value, ast.Name)
        and func.value.id == "self"
        and len(call.args) >= 1
    )


def _assume_calls(node: ast.AST, index: ModuleIndex) -> Iterator[ast.Call]:
    for child in ast.walk(node):
        single = isinstance(child, ast.Call) and len(child.args) == 1 and not child.keywords
        if (
            single
            and isinstance(child, ast.Call)
            and index.qualify(child.func) == "hypothesis.assume"
        ):
            yield child
