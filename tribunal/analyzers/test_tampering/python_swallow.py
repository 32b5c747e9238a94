"""Python assertions whose failure is caught and discarded.

An assertion is swallowed when a ``try`` around it has a handler that
certainly catches its failure (bare ``except``, ``BaseException``,
``Exception``, ``AssertionError``; pytest's own failures only by the first
two) and whose body certainly neither re-raises nor records the failure;
when the ``finally`` block returns (which discards any exception); or when
``contextlib.suppress`` discards it; or when the handler can only skip the
test or mark it as expected to fail (``pytest.skip``, ``pytest.xfail``,
``self.skipTest``). A handler that may record the failure
for a later check, or a ``try`` whose ``else`` fails the test, is only
"caught" (UNVERIFIED); a class Tribunal cannot resolve is not judged.
"""

import ast
import builtins
from collections.abc import Iterator
from typing import NamedTuple

from tribunal.analyzers.test_tampering.python_tautology import Nested, Spot, always_true, spot, walk
from tribunal.lang.python.asserts import MOCK_ASSERTS, PYTEST_CHECKS
from tribunal.lang.python.index import FuncDef, ModuleIndex, dotted

_BUILTIN_EXCEPTIONS = frozenset(
    name
    for name, value in vars(builtins).items()
    if isinstance(value, type) and issubclass(value, BaseException)
)
#: Exception classes that catch an ``AssertionError`` / pytest's ``Failed`` (a BaseException).
_CATCH_ASSERTION = frozenset({"BaseException", "Exception", "AssertionError"})
_CATCH_PYTEST = frozenset({"BaseException"})
_SKIPS = frozenset({"pytest.skip", "pytest.xfail"})
_LOGGERS = frozenset({"logging", "logger", "log", "LOGGER", "LOG", "_log", "_logger"})


class Swallow(NamedTuple):
    spot: Spot
    handler_line: int
    handler: str  # ``except Exception`` / ``finally: return``
    certain: bool  # False: the handler catches it but may still fail the test
    why: str


def swallowed(fn: FuncDef, index: ModuleIndex, cls: ast.ClassDef | None) -> list[Swallow]:
    """Assertions in ``fn``'s own body whose failure a surrounding ``try`` catches."""
    custom = cls is not None and _sets_failure_exception(cls)
    out = []
    for node, family, trys in _guarded(fn, [], index, custom):
        fate = _fate(trys, family, index)
        if fate is not None:
            out.append(Swallow(spot(node), *fate))
    return out


Guard = ast.Try | ast.TryStar | ast.With | ast.AsyncWith
Guarded = tuple[ast.stmt | ast.expr, str, list[Guard]]


def _guarded(
    node: ast.AST, trys: list[Guard], index: ModuleIndex, custom: bool
) -> Iterator[Guarded]:
    """Assertions under ``node`` that sit in the body of at least one ``try``."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, Nested):
            continue
        if isinstance(child, ast.Try | ast.TryStar):
            for stmt in child.body:
                yield from _guarded_stmt(stmt, [*trys, child], index, custom)
            for part in (child.handlers, child.orelse, child.finalbody):
                for sub in part:
                    yield from _guarded_stmt(sub, trys, index, custom)
            continue
        if isinstance(child, ast.With | ast.AsyncWith) and _suppressing(child, index):
            for item in child.items:
                yield from _guarded_stmt(item, trys, index, custom)
            for stmt in child.body:
                yield from _guarded_stmt(stmt, [*trys, child], index, custom)
            continue
        yield from _guarded_stmt(child, trys, index, custom)


def _suppressing(block: ast.With | ast.AsyncWith, index: ModuleIndex) -> list[ast.expr]:
    """The exception classes a ``with contextlib.suppress(...)`` block discards."""
    out: list[ast.expr] = []
    for item in block.items:
        call = item.context_expr
        if isinstance(call, ast.Call) and index.qualify(call.func) == "contextlib.suppress":
            out += call.args
    return out


def _guarded_stmt(
    node: ast.AST, trys: list[Guard], index: ModuleIndex, custom: bool
) -> Iterator[Guarded]:
    if trys and isinstance(node, ast.stmt | ast.expr):
        family = _failure_family(node, index, custom)
        if family is not None:
            yield node, family, trys
    if not isinstance(node, Nested):
        yield from _guarded(node, trys, index, custom)


def _failure_family(node: ast.AST, index: ModuleIndex, custom: bool) -> str | None:
    """What an assertion raises when it fails: ``assertion``, ``pytest``, ``assert-named``."""
    if isinstance(node, ast.Assert):
        return None if always_true(node.test) else "assertion"
    if not isinstance(node, ast.Call):
        return None
    func = node.func
    name = index.qualify(func) or ""
    if name in PYTEST_CHECKS:
        return "pytest"
    last = func.attr if isinstance(func, ast.Attribute) else name.rsplit(".", 1)[-1]
    on_self = isinstance(func, ast.Attribute) and dotted(func.value) in ("self", "cls")
    if on_self and last.startswith(("assert", "fail")):
        return None if custom else "assertion"
    if isinstance(func, ast.Attribute) and last in MOCK_ASSERTS:
        return "assertion"
    if last.lower().startswith("assert") and not index.functions.get(last):
        return "assert-named"
    return None


Fate = tuple[int, str, bool, str]  # (handler line, handler, certain, why)


def _fate(trys: list[Guard], family: str, index: ModuleIndex) -> Fate | None:
    """Where the failure ends when the innermost guard that catches it discards it (or may)."""
    for block in reversed(trys):
        if isinstance(block, ast.With | ast.AsyncWith):
            stop, fate = _suppress_fate(block, family, index)
        else:
            stop, fate = _try_fate(block, family, index)
        if stop:
            return fate
    return None


def _suppress_fate(
    block: ast.With | ast.AsyncWith, family: str, index: ModuleIndex
) -> tuple[bool, Fate | None]:
    answers = {_catches(e, family, index) for e in _suppressing(block, index)}
    if "yes" in answers:
        text = "with " + ", ".join(ast.unparse(i.context_expr) for i in block.items)
        return True, (block.lineno, text, True, "`suppress` discards it")
    return "maybe" in answers, None


def _try_fate(
    block: ast.Try | ast.TryStar, family: str, index: ModuleIndex
) -> tuple[bool, Fate | None]:
    """(stop here, fate): a handler or ``finally`` of this ``try`` decides, or it propagates."""
    for handler in block.handlers:
        catches = _catches(handler.type, family, index)
        if catches == "no":
            continue
        if catches == "maybe":
            return True, None  # an exception class Tribunal cannot resolve: not judged
        effect = _handler_effect(handler, index)
        text = _handler_text(handler)
        if effect == "swallow" and _fails(block.orelse, index):
            why = "its `else` fails the test when nothing is raised, so it may be a negative check"
            return True, (handler.lineno, text, False, why)
        if effect == "swallow":
            return True, (handler.lineno, text, True, "its handler neither re-raises nor fails")
        if effect == "skip":
            why = "its handler can only skip the test or mark it as expected to fail"
            return True, (handler.lineno, text, True, why)
        if effect == "unknown":
            why = "its handler runs code that may or may not fail the test"
            return True, (handler.lineno, text, False, why)
        break  # re-raised: a ``finally`` or the next ``try`` outward decides
    final = _discarding_finally(block)
    if final is not None:
        return True, (
            final,
            "finally: return",
            True,
            "its `finally` block returns, which discards it",
        )
    return False, None


def _catches(expr: ast.expr | None, family: str, index: ModuleIndex) -> str:
    """``yes``, ``no`` or ``maybe``: does ``except <expr>`` catch this family of failure?"""
    if expr is None:
        return "yes"
    if isinstance(expr, ast.Tuple):
        answers = {_catches(e, family, index) for e in expr.elts}
        return "yes" if "yes" in answers else "no" if answers == {"no"} else "maybe"
    name = index.qualify(expr) or ""
    name = name.removeprefix("builtins.")
    if name not in _BUILTIN_EXCEPTIONS or name in index.binding_counts:
        return "maybe"
    if family == "pytest":
        return "yes" if name in _CATCH_PYTEST else "no"
    if family == "assert-named" and name == "AssertionError":
        return "maybe"  # a helper named assert_* may raise something else
    return "yes" if name in _CATCH_ASSERTION else "no"


def _handler_effect(handler: ast.ExceptHandler, index: ModuleIndex) -> str:
    """``reraise`` (raises or asserts), ``swallow`` (certainly neither), ``skip`` (only skips
    or xfails: the failure becomes a skip, never a failure) or ``unknown``."""
    if _fails(handler.body, index):
        return "reraise"
    if all(_harmless(stmt) for stmt in handler.body):
        return "swallow"
    skips = [stmt for stmt in handler.body if _skips(stmt, index)]
    if skips and all(_harmless(stmt) or stmt in skips for stmt in handler.body):
        return "skip"
    return "unknown"


def _skips(stmt: ast.stmt, index: ModuleIndex) -> bool:
    """``pytest.skip(...)``, ``pytest.xfail(...)`` or ``self.skipTest(...)`` as a statement."""
    if not (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call)):
        return False
    func = stmt.value.func
    if isinstance(func, ast.Attribute) and dotted(func.value) == "self":
        return func.attr == "skipTest"
    return index.qualify(func) in _SKIPS


def _fails(body: list[ast.stmt], index: ModuleIndex) -> bool:
    """Whether the statements raise, assert or call a failing check somewhere."""
    for stmt in body:
        for node in [stmt, *walk(stmt)]:
            if isinstance(node, ast.Raise):
                return True
            if isinstance(node, ast.Assert) and not always_true(node.test):
                return True
            if isinstance(node, ast.Call) and _failure_family(node, index, False) is not None:
                return True
    return False


def _harmless(stmt: ast.stmt) -> bool:
    """A statement that cannot fail the test or record the failure for a later check."""
    if isinstance(stmt, ast.Pass | ast.Continue | ast.Break):
        return True
    if isinstance(stmt, ast.Return):
        return stmt.value is None or isinstance(stmt.value, ast.Constant | ast.Name)
    if not isinstance(stmt, ast.Expr):
        return False
    value = stmt.value
    if isinstance(value, ast.Constant):
        return True
    return isinstance(value, ast.Call) and _is_print_or_log(value)


def _is_print_or_log(call: ast.Call) -> bool:
    name = dotted(call.func) or ""
    if name != "print" and not (name.count(".") == 1 and name.split(".")[0] in _LOGGERS):
        return False
    return all(_plain(arg) for arg in [*call.args, *(k.value for k in call.keywords)])


def _plain(expr: ast.expr) -> bool:
    if isinstance(expr, ast.JoinedStr):
        return all(
            _plain(v.value) if isinstance(v, ast.FormattedValue) else True for v in expr.values
        )
    return isinstance(expr, ast.Constant) or dotted(expr) is not None


def _discarding_finally(block: ast.Try | ast.TryStar) -> int | None:
    """The line of a ``return``/``break``/``continue`` directly in ``finally``."""
    for stmt in block.finalbody:
        if isinstance(stmt, ast.Return | ast.Break | ast.Continue):
            return stmt.lineno
    return None


def _handler_text(handler: ast.ExceptHandler) -> str:
    return f"except {ast.unparse(handler.type)}" if handler.type is not None else "except"


def _sets_failure_exception(cls: ast.ClassDef) -> bool:
    """``failureException = ...`` in the class: its assert* methods raise something else."""
    return any(
        isinstance(stmt, ast.Assign)
        and any(isinstance(t, ast.Name) and t.id == "failureException" for t in stmt.targets)
        for stmt in cls.body
    )
