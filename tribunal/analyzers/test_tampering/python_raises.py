"""An expected-exception check replaced by a ``try`` that passes when the error comes.

``with pytest.raises(ValueError): parse(x)`` fails when ``parse`` does not
raise; ``try: parse(x) except ValueError: pass`` passes either way. The
replacement removes the check only when nothing fails the test in the other
case: no ``self.fail``/``pytest.fail``, ``assert False``, ``raise`` or falsy
``assertTrue`` follows the call inside the ``try``, or sits in its ``else:``.
Certain when the base test expected that exception (``pytest.raises``,
``assertRaises``, ``assertRaisesRegex``, ``assertRaisesMessage``; context
manager or call form), the head test no longer does, and a head ``try``
around code the base checked catches it with a handler that does nothing.
"""

import ast
from collections.abc import Iterator
from typing import NamedTuple

from tribunal.lang.python.index import ModuleIndex
from tribunal.lang.test_record import TestRecord

_RAISES = frozenset(
    {"pytest.raises", "assertRaises", "assertRaisesRegex", "assertRaisesRegexp",
     "assertRaisesMessage", "failUnlessRaises"}
)  # fmt: skip
_FAILS = frozenset({"fail", "pytest.fail", "fail_"})


class Replaced(NamedTuple):
    line: int
    end: int
    expected: str  # the exception as written
    before: str  # the base check, as written


def replaced_raises(old: TestRecord, new: TestRecord) -> Iterator[Replaced]:
    """Head ``try`` blocks that stand where a base expected-exception check was."""
    before = list(_expectations(old.test.node, old.index))
    after = {key for key, _, _ in _expectations(new.test.node, new.index)}
    gone = [(key, code, text) for key, code, text in before if key not in after]
    if not gone:
        return
    for node in ast.walk(new.test.node):
        if not isinstance(node, ast.Try) or _checks_otherwise(node):
            continue
        body = {ast.dump(stmt) for stmt in node.body}
        for key, code, text in gone:
            if _passing_handler(node, key) and (not code or body & code):
                yield Replaced(node.lineno, node.end_lineno or node.lineno, key, text)
                break


def _expectations(fn: ast.AST, index: ModuleIndex) -> Iterator[tuple[str, set[str], str]]:
    """(exception, code it wraps, text) of each expected-exception check in ``fn``."""
    for node in ast.walk(fn):
        if isinstance(node, ast.With | ast.AsyncWith):
            for item in node.items:
                call = item.context_expr
                if isinstance(call, ast.Call) and _is_raises(call, index) and call.args:
                    code = {ast.dump(stmt) for stmt in node.body}
                    yield ast.unparse(call.args[0]), code, ast.unparse(call)
        elif isinstance(node, ast.Call) and _is_raises(node, index) and len(node.args) >= 2:
            yield ast.unparse(node.args[0]), set(), ast.unparse(node)


def _is_raises(call: ast.Call, index: ModuleIndex) -> bool:
    func = call.func
    owner = (
        func.value.id
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)
        else ""
    )
    if owner == "self" and isinstance(func, ast.Attribute) and func.attr in _RAISES:
        return True
    return index.qualify(func) in _RAISES


def _passing_handler(node: ast.Try, expected: str) -> bool:
    """A handler catching ``expected`` (alone or in a tuple) whose body does nothing."""
    for handler in node.handlers:
        if handler.type is None:
            continue
        caught = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
        if expected in {ast.unparse(c) for c in caught} and all(_inert(s) for s in handler.body):
            return True
    return False


def _inert(stmt: ast.stmt) -> bool:
    if isinstance(stmt, ast.Pass):
        return True
    return isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant)


def _checks_otherwise(node: ast.Try) -> bool:
    """Something in the ``try`` body or its ``else:`` fails the test when nothing is raised."""
    for stmt in [*node.body, *node.orelse]:
        for child in ast.walk(stmt):
            if isinstance(child, ast.Raise):
                return True
            if isinstance(child, ast.Assert) and _falsy(child.test):
                return True
            if isinstance(child, ast.Call) and _fails(child):
                return True
    return False


def _falsy(expr: ast.expr) -> bool:
    return isinstance(expr, ast.Constant) and not expr.value


def _fails(call: ast.Call) -> bool:
    func = call.func
    name = (
        func.attr
        if isinstance(func, ast.Attribute)
        else func.id
        if isinstance(func, ast.Name)
        else ""
    )
    if name in _FAILS or ast.unparse(func) in _FAILS:
        return True
    return name in ("assertTrue", "assert_") and bool(call.args) and _falsy(call.args[0])
