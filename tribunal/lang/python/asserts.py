"""Find the assertions a Python test can reach.

An assertion is anything that makes a test fail on purpose: ``assert``,
``self.assert*``/``self.fail*``, ``pytest.raises``/``warns``/``fail``/
``deprecated_call`` (under any import alias, also as context managers), mock
``assert_*`` methods, any other ``assert*``-named call, and ``raise``. Helpers
defined in the same file are followed wherever they are defined (module
functions, ``self.method()``, nested functions), to a bounded depth and safe
against cycles. A misspelled mock assertion (``m.called_once_with()``) is not
an assertion; it is reported separately so the finding can say so.
"""

import ast
from collections.abc import Iterable
from typing import NamedTuple

from tribunal.lang.python.index import FuncDef, ModuleIndex
from tribunal.lang.python.purity import short
from tribunal.lang.python.slips import (
    MOCK_ASSERTS,
    Misspelling,
    always_true,
    inert_check,
    literal_truthy,
    misspelled_mock_assert,
    operands,
)

__all__ = [
    "MOCK_ASSERTS",
    "PYTEST_CHECKS",
    "Assertion",
    "AssertionScan",
    "Misspelling",
    "misspelled_mock_assert",
    "scan_assertions",
]

MAX_DEPTH = 8

PYTEST_CHECKS = frozenset(
    {"pytest.raises", "pytest.warns", "pytest.fail", "pytest.deprecated_call"}
)
#: Soft assertions: recorded where they run, failing the test when it ends (pytest-assume).
#: Not ``hypothesis.assume``, which discards the example instead of failing.
SOFT_CHECKS = frozenset({"pytest.assume"})
_TERMINAL = (ast.Return, ast.Raise, ast.Continue, ast.Break)


class Assertion(NamedTuple):
    line: int
    kind: str  # "assert", "raise", "pytest", "unittest", "mock", "assert-named"
    text: str
    via: str = ""  # "helper `check` (line 30)" when reached through a helper


class AssertionScan(NamedTuple):
    assertions: tuple[Assertion, ...]
    misspellings: tuple[Misspelling, ...]
    tautologies: tuple[int, ...]  # lines of ``assert`` statements that can never fail
    #: False when the body nests too deeply to read whole: what was found stands, but an
    #: empty ``assertions`` then proves nothing
    complete: bool = True


def scan_assertions(
    fn: FuncDef,
    index: ModuleIndex,
    cls: ast.ClassDef | None = None,
    tautologies: frozenset[int] = frozenset(),
) -> AssertionScan:
    """Assertions reachable from ``fn``'s body; ``tautologies`` are assert nodes to discount."""
    scanner = _Scanner(index, cls, tautologies)
    complete = True
    try:
        scanner.function(fn, "", 0)
    except RecursionError:
        complete = False
    return AssertionScan(
        tuple(scanner.found),
        tuple(dict.fromkeys(scanner.misspelled)),
        tuple(sorted(set(scanner.tautology_lines))),
        complete,
    )


class _Scanner:
    def __init__(
        self, index: ModuleIndex, cls: ast.ClassDef | None, discounted: frozenset[int]
    ) -> None:
        self.index = index
        self.cls = cls
        self.discounted = discounted
        self.found: list[Assertion] = []
        self.misspelled: list[Misspelling] = []
        self.tautology_lines: list[int] = []
        self.visited: set[int] = set()

    def function(self, fn: FuncDef, via: str, depth: int) -> None:
        if id(fn) in self.visited or depth > MAX_DEPTH:
            return
        self.visited.add(id(fn))
        nested = {s.name: s for s in _nested_defs(fn.body)}
        context = _Context(fn, via, depth, nested, _shadowing_names(fn))
        self.block(fn.body, context)

    def block(self, stmts: list[ast.stmt], ctx: "_Context") -> None:
        for stmt in stmts:
            self.stmt(stmt, ctx)
            if isinstance(stmt, _TERMINAL):
                break  # what follows in this block never runs

    def stmt(self, stmt: ast.stmt, ctx: "_Context") -> None:
        if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            self.expressions([*stmt.decorator_list], ctx)
            return  # a nested body runs only when referenced (followed from there)
        if isinstance(stmt, ast.Assert):
            self.assert_stmt(stmt, ctx)
            return
        if isinstance(stmt, ast.Expr):
            slip = inert_check(stmt.value, self.index)
            if slip is not None:
                self.misspelled.append(slip)
                self.expressions(operands(stmt.value), ctx)
                return
        if isinstance(stmt, ast.Raise):
            self.add(stmt, "raise", ctx)
        if isinstance(stmt, ast.If) and isinstance(stmt.test, ast.Constant):
            self.block(stmt.body if stmt.test.value else stmt.orelse, ctx)
            return
        for name, value in ast.iter_fields(stmt):
            if isinstance(value, list) and value and isinstance(value[0], ast.stmt):
                self.block(value, ctx)
            elif name == "handlers":
                for handler in value:
                    self.expressions([handler.type] if handler.type else [], ctx)
                    self.block(handler.body, ctx)
            elif name == "cases":
                for case in value:
                    self.expressions([case.guard] if case.guard else [], ctx)
                    self.block(case.body, ctx)
            else:
                self.expressions(_expressions_in(value), ctx)

    def assert_stmt(self, stmt: ast.Assert, ctx: "_Context") -> None:
        if id(stmt) in self.discounted or literal_truthy(stmt.test):
            self.tautology_lines.append(stmt.lineno)
            self.expressions([stmt.test], ctx)
            return
        meant = always_true(stmt)
        if meant is not None:
            written = short(stmt).splitlines()[0]
            self.misspelled.append(Misspelling(stmt.lineno, written, meant, "always-true"))
            self.expressions([stmt.test], ctx)
            return
        self.add(stmt, "assert", ctx)

    def expressions(self, exprs: Iterable[ast.AST], ctx: "_Context") -> None:
        for expr in exprs:
            for node in ast.walk(expr):
                if isinstance(node, ast.Call):
                    self.call(node, ctx)
                elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
                    self.follow_name(node.id, ctx)
                elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
                    self.follow_method(node, ctx)

    def call(self, call: ast.Call, ctx: "_Context") -> None:
        func = call.func
        name = self.index.qualify(func) or ""
        last = func.attr if isinstance(func, ast.Attribute) else name.rsplit(".", 1)[-1]
        if name in PYTEST_CHECKS or name in SOFT_CHECKS:
            self.add(call, "pytest", ctx)
        elif self.local_callable(func, ctx):
            return  # judged by its body, which ``expressions`` follows (even ``self.assert_ok``)
        elif _is_self_assert(func, ctx):
            self.add(call, "unittest", ctx)
        elif isinstance(func, ast.Attribute) and not self.index.is_imported(func):
            meant = misspelled_mock_assert(last)
            if meant is not None:
                self.misspelled.append(Misspelling(call.lineno, short(func), meant))
            elif last in MOCK_ASSERTS:
                self.add(call, "mock", ctx)
            elif last.lower().startswith("assert"):
                self.add(call, "assert-named", ctx)
        elif last.lower().startswith("assert"):
            self.add(call, "assert-named", ctx)

    def local_callable(self, func: ast.expr, ctx: "_Context") -> bool:
        if isinstance(func, ast.Name):
            return func.id in ctx.nested or (
                func.id not in ctx.shadowed and bool(self.index.functions.get(func.id))
            )
        return self._method(func, ctx) is not None

    def follow_name(self, name: str, ctx: "_Context") -> None:
        if name in ctx.nested:
            self.function(ctx.nested[name], ctx.deeper(name, ctx.nested[name]), ctx.depth + 1)
        elif name not in ctx.shadowed:
            for helper in self.index.functions.get(name, ()):
                self.function(helper, ctx.deeper(name, helper), ctx.depth + 1)

    def follow_method(self, node: ast.Attribute, ctx: "_Context") -> None:
        method = self._method(node, ctx)
        if method is not None:
            self.function(method, ctx.deeper(f"self.{node.attr}", method), ctx.depth + 1)

    def _method(self, func: ast.expr, ctx: "_Context") -> FuncDef | None:
        if not (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)):
            return None
        if self.cls is None or func.value.id not in ("self", "cls"):
            return None
        return self.index.method(self.cls, func.attr)

    def add(self, node: ast.stmt | ast.expr, kind: str, ctx: "_Context") -> None:
        self.found.append(Assertion(node.lineno, kind, short(node).splitlines()[0], ctx.via))


class _Context(NamedTuple):
    fn: FuncDef
    via: str
    depth: int
    nested: dict[str, FuncDef]
    shadowed: frozenset[str]

    def deeper(self, name: str, target: FuncDef) -> str:
        step = f"`{name}` (line {target.lineno})"
        return f"{self.via} -> {step}" if self.via else step


def _is_self_assert(func: ast.expr, ctx: _Context) -> bool:
    return (
        isinstance(func, ast.Attribute)
        and isinstance(func.value, ast.Name)
        and func.value.id in ("self", "cls")
        and func.attr.startswith(("assert", "fail"))
    )


def _nested_defs(body: list[ast.stmt]) -> list[FuncDef]:
    out: list[FuncDef] = []
    stack = list(body)
    while stack:
        stmt = stack.pop()
        if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef):
            out.append(stmt)
        elif not isinstance(stmt, ast.ClassDef):
            stack.extend(c for c in ast.iter_child_nodes(stmt) if isinstance(c, ast.stmt))
    return out


def _shadowing_names(fn: FuncDef) -> frozenset[str]:
    """Local names (parameters, assignments, imports) that hide module-level helpers."""
    args = fn.args
    names = {a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)}
    names |= {a.arg for a in (args.vararg, args.kwarg) if a is not None}
    for node in ast.walk(fn):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, ast.Import | ast.ImportFrom):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
    return frozenset(names)


def _expressions_in(value: object) -> list[ast.AST]:
    if isinstance(value, ast.expr | ast.withitem | ast.comprehension | ast.keyword):
        return [value]
    if isinstance(value, list):
        return [v for v in value if isinstance(v, ast.expr | ast.withitem | ast.keyword)]
    return []
