"""Can anything in a test fail? A straight-line walk over its body.

CONTRADICTED needs a syntactic certainty that nothing in the test can fail:
every statement is a literal assignment, arithmetic or a comparison on
literals (or on locals bound from them), an ``assert`` that is always true, or
a call to a same-file helper that itself cannot fail with the literal
arguments it is given (its return value is then a literal too: a helper that
builds a payload and returns it). The walk stops at the
first statement it cannot prove harmless and reports it as the ``Blocker``:
a call, an import, a loop, a ``with``, a subscript, anything it does not know.
Methods followed through ``self`` are listed in ``Purity.methods``: a subclass
in this file makes them unknown here, one in another file is
``pytest_project``'s to look for.
"""

import ast
import enum
from collections.abc import Mapping, Sequence
from typing import NamedTuple

from tribunal.lang.python.consts import Raises, Unknown, augmented, evaluate
from tribunal.lang.python.index import PLAIN_TESTCASES, FuncDef, ModuleIndex, bound_names

MAX_HELPER_DEPTH = 6


class Blocker(NamedTuple):
    """The first thing in a test that might fail, as a phrase: ``calls `f()```."""

    line: int
    text: str


class Purity(NamedTuple):
    blocker: Blocker | None
    tautologies: frozenset[int]  # id() of ``assert`` nodes that can never fail
    helpers: tuple[str, ...] = ()  # harmless helpers that were followed
    methods: tuple[str, ...] = ()  # those reached through ``self``: a subclass may override them


class _Flow(enum.Enum):
    RETURNED = "returned"


Outcome = Blocker | _Flow | None


def examine(fn: FuncDef, index: ModuleIndex, cls: ast.ClassDef | None) -> Purity:
    """Walk a test body; ``blocker`` is None when nothing in it can fail."""
    walker = _Walker(index, cls)
    try:
        outcome = walker.body(fn, {})
    except RecursionError:
        outcome = Blocker(fn.lineno, "is too deeply nested to analyze")
    blocker = outcome if isinstance(outcome, Blocker) else None
    helpers, methods = tuple(dict.fromkeys(walker.helpers)), tuple(dict.fromkeys(walker.methods))
    return Purity(blocker, frozenset(walker.tautologies), helpers, methods)


class _Frame:
    """One function being walked: literal-bound locals and harmless nested defs."""

    def __init__(self, fn: FuncDef, env: dict[str, object], local_names: frozenset[str]) -> None:
        self.fn = fn
        self.env = env
        self.funcs: dict[str, FuncDef] = {}
        self.locals = local_names
        self.result: object = None  # what a ``return`` gave (None when it fell off the end)


class _Walker:
    def __init__(self, index: ModuleIndex, cls: ast.ClassDef | None) -> None:
        self.index = index
        self.cls = cls
        self.stack: list[FuncDef] = []
        self.tautologies: set[int] = set()
        self.helpers: list[str] = []
        self.methods: list[str] = []

    def body(self, fn: FuncDef, env: dict[str, object]) -> Outcome:
        return self.run(fn, env)[1]

    def run(self, fn: FuncDef, env: dict[str, object]) -> tuple[object, Outcome]:
        """(the value it returns, the outcome) of walking ``fn`` with ``env`` bound."""
        frame = _Frame(fn, env, _locals_of(fn))
        outcome = self.block(fn.body, frame)
        return frame.result, outcome

    def block(self, stmts: list[ast.stmt], frame: _Frame) -> Outcome:
        for stmt in stmts:
            outcome = self.stmt(stmt, frame)
            if outcome is not None:
                return outcome
        return None

    def stmt(self, stmt: ast.stmt, frame: _Frame) -> Outcome:
        if isinstance(stmt, ast.Pass):
            return None
        if isinstance(stmt, ast.Expr):
            if isinstance(stmt.value, ast.Call):
                return self.call(stmt.value, frame)
            return self.value(stmt.value, frame)[1]
        if isinstance(stmt, ast.Assign | ast.AnnAssign | ast.AugAssign):
            return self.assign(stmt, frame)
        if isinstance(stmt, ast.Assert):
            return self.assertion(stmt, frame)
        if isinstance(stmt, ast.Return):
            if stmt.value is not None:
                frame.result, blocker = self.value(stmt.value, frame)
                if blocker is not None:
                    return blocker
            return _Flow.RETURNED
        if isinstance(stmt, ast.If):
            test, blocker = self.value(stmt.test, frame)
            if blocker is not None:
                return blocker
            return self.block(stmt.body if test else stmt.orelse, frame)
        if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef):
            return self.nested_def(stmt, frame)
        return Blocker(stmt.lineno, describe_statement(stmt))

    def value(self, expr: ast.expr, frame: _Frame) -> tuple[object, Blocker | None]:
        if isinstance(expr, ast.Call):
            return self.call_value(expr, frame)
        try:
            return evaluate(expr, frame.env), None
        except Raises as exc:
            text = f"evaluates `{short(expr)}`, which raises {exc.error}"
            return None, Blocker(expr.lineno, text)
        except Unknown:
            return None, Blocker(expr.lineno, describe_expression(expr, frame.env))

    def assign(self, stmt: ast.Assign | ast.AnnAssign | ast.AugAssign, frame: _Frame) -> Outcome:
        if isinstance(stmt, ast.AnnAssign) and stmt.value is None:
            return None if isinstance(stmt.target, ast.Name) else _blocker(stmt)
        if isinstance(stmt, ast.AugAssign):
            return self.augmented(stmt, frame)
        assert stmt.value is not None
        targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
        value, blocker = self.value(stmt.value, frame)
        if blocker is not None:
            return blocker
        for target in targets:
            problem = _bind(target, value, frame)
            if problem is not None:
                return Blocker(stmt.lineno, problem)
        return None

    def augmented(self, stmt: ast.AugAssign, frame: _Frame) -> Outcome:
        """``x op= v`` on a literal-bound local, in place as Python does it (aliases see it)."""
        target = stmt.target
        if not isinstance(target, ast.Name):
            return _blocker(stmt)
        value, blocker = self.value(stmt.value, frame)
        if blocker is not None:
            return blocker
        text = f"`{short(stmt)}`"
        if target.id not in frame.env:
            return Blocker(stmt.lineno, f"runs {text}, on a name not bound from a literal")
        try:
            result = augmented(stmt.op, frame.env[target.id], value)
        except Raises as exc:
            return Blocker(stmt.lineno, f"runs {text}, which raises {exc.error}")
        except Unknown:
            return Blocker(stmt.lineno, f"runs {text}")
        frame.funcs.pop(target.id, None)
        frame.env[target.id] = result
        return None

    def assertion(self, stmt: ast.Assert, frame: _Frame) -> Outcome:
        value, blocker = self.value(stmt.test, frame)
        if blocker is not None:
            return Blocker(stmt.lineno, f"asserts `{short(stmt.test)}`")
        if not value:
            return Blocker(stmt.lineno, f"asserts `{short(stmt.test)}`, which always fails")
        self.tautologies.add(id(stmt))
        return None

    def nested_def(self, fn: FuncDef, frame: _Frame) -> Outcome:
        annotated = _annotations(fn) and not self.index.future_annotations
        if fn.decorator_list or annotated:
            return Blocker(fn.lineno, f"defines `{fn.name}` with decorators or annotations")
        for default in (*fn.args.defaults, *(d for d in fn.args.kw_defaults if d)):
            blocker = self.value(default, frame)[1]
            if blocker is not None:
                return blocker
        frame.env.pop(fn.name, None)
        frame.funcs[fn.name] = fn
        return None

    def call(self, call: ast.Call, frame: _Frame) -> Outcome:
        return self.call_value(call, frame)[1]

    def call_value(self, call: ast.Call, frame: _Frame) -> tuple[object, Blocker | None]:
        """A call is harmless only if it is a same-file helper that cannot fail with the
        literal arguments it is given; its value is what the helper returns."""
        blocker = Blocker(call.lineno, f"calls `{short(call)}`")
        found = self.resolve(call.func, frame)
        if found is None or len(self.stack) >= MAX_HELPER_DEPTH or found[0] in self.stack:
            return None, blocker
        fn, method = found
        args: list[object] = []
        kwargs: dict[str, object] = {}
        for arg in call.args:
            if isinstance(arg, ast.Starred):
                return None, blocker
            value, problem = self.value(arg, frame)
            if problem is not None:
                return None, problem
            args.append(value)
        for keyword in call.keywords:
            if keyword.arg is None:
                return None, blocker
            value, problem = self.value(keyword.value, frame)
            if problem is not None:
                return None, problem
            kwargs[keyword.arg] = value
        env = _parameters(fn, method, args, kwargs)
        if env is None:
            return None, blocker
        self.stack.append(fn)
        try:
            result, outcome = self.run(fn, env)
        finally:
            self.stack.pop()
        if isinstance(outcome, Blocker):
            text = f"calls `{short(call)}`, which {outcome.text} (line {outcome.line})"
            return None, Blocker(call.lineno, text)
        self.helpers.append(f"`{fn.name}` (line {fn.lineno})")
        if method:
            self.methods.append(fn.name)
        return result, None

    def resolve(self, func: ast.expr, frame: _Frame) -> tuple[FuncDef, bool] | None:
        if isinstance(func, ast.Name):
            if func.id in frame.funcs:
                return frame.funcs[func.id], False
            if func.id in frame.locals:
                return None
            helper = self.index.helper(func.id)
            return None if helper is None else (helper, False)
        if not (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)):
            return None
        if self.cls is None or func.value.id != _first_param(frame.fn):
            return None
        foreign = self.index.lineage(self.cls)[1]
        if any(name not in PLAIN_TESTCASES and name != "object" for name in foreign):
            return None
        if self.index.is_subclassed(self.cls):
            return None
        method = self.index.method(self.cls, func.attr)
        return None if method is None else (method, True)


def _parameters(
    fn: FuncDef, method: bool, args: Sequence[object], kwargs: Mapping[str, object]
) -> dict[str, object] | None:
    """Locals a call with these literal arguments binds; None when it would not bind cleanly
    (a missing or extra argument raises TypeError: that call can fail)."""
    if fn.decorator_list or isinstance(fn, ast.AsyncFunctionDef):
        return None
    spec = fn.args
    if spec.vararg or spec.kwarg:
        return None
    positional = [*spec.posonlyargs, *spec.args]
    if method:
        if not positional:
            return None
        positional = positional[1:]
    if len(args) > len(positional):
        return None
    names = [a.arg for a in positional]
    count = min(len(spec.defaults), len(names))
    tail = zip(
        names[len(names) - count :], spec.defaults[len(spec.defaults) - count :], strict=True
    )
    defaults: dict[str, ast.expr] = dict(tail)
    keyword_defaults = zip(spec.kwonlyargs, spec.kw_defaults, strict=True)
    defaults |= {a.arg: d for a, d in keyword_defaults if d is not None}
    named = {a.arg for a in positional[len(args) :]} - {a.arg for a in spec.posonlyargs}
    named |= {a.arg for a in spec.kwonlyargs}
    if not set(kwargs) <= named:
        return None
    env: dict[str, object] = dict(zip(names[: len(args)], args, strict=True))
    env |= kwargs
    for arg in [*positional, *spec.kwonlyargs]:
        if arg.arg in env:
            continue
        if arg.arg not in defaults:
            return None  # a required argument not given
        try:
            value = evaluate(defaults[arg.arg], {})
        except (Unknown, Raises):
            continue
        if not isinstance(value, list | dict | set):
            env[arg.arg] = value  # a mutable default is shared by every call: not a literal
    return env


def _bind(target: ast.expr, value: object, frame: _Frame) -> str | None:
    """Bind a literal value; a phrase describing the failure when it would not bind."""
    if isinstance(target, ast.Name):
        frame.funcs.pop(target.id, None)
        frame.env[target.id] = value
        return None
    if not isinstance(target, ast.Tuple | ast.List) or any(
        isinstance(e, ast.Starred) for e in target.elts
    ):
        return f"assigns to `{short(target)}`"
    if not isinstance(value, tuple | list | str | bytes):
        return f"unpacks `{short(target)}` from a value that may not unpack"
    if len(value) != len(target.elts):
        return f"unpacks `{short(target)}`, which raises ValueError"
    for element, item in zip(target.elts, value, strict=True):
        problem = _bind(element, item, frame)
        if problem is not None:
            return problem
    return None


def _locals_of(fn: FuncDef) -> frozenset[str]:
    args = fn.args
    names = {a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)}
    names |= {a.arg for a in (args.vararg, args.kwarg) if a is not None}
    stack: list[ast.stmt] = list(fn.body)
    while stack:
        stmt = stack.pop()
        names.update(bound_names(stmt))
        if not isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            stack.extend(c for c in ast.iter_child_nodes(stmt) if isinstance(c, ast.stmt))
    return frozenset(names)


def _first_param(fn: FuncDef) -> str | None:
    positional = [*fn.args.posonlyargs, *fn.args.args]
    return positional[0].arg if positional else None


def _annotations(fn: FuncDef) -> bool:
    args = fn.args
    every = [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]
    return fn.returns is not None or any(a is not None and a.annotation for a in every)


def _blocker(stmt: ast.stmt) -> Blocker:
    return Blocker(stmt.lineno, describe_statement(stmt))


def describe_statement(stmt: ast.stmt) -> str:
    """What a statement does that might fail, as a phrase after "it"."""
    if isinstance(stmt, ast.Import | ast.ImportFrom):
        return f"imports (`{short(stmt)}`)"
    if isinstance(stmt, ast.For | ast.AsyncFor | ast.While):
        return f"loops (`{short(stmt).splitlines()[0]}`)"
    if isinstance(stmt, ast.With | ast.AsyncWith):
        return f"enters `{short(stmt).splitlines()[0]}`"
    if isinstance(stmt, ast.Try | ast.TryStar):
        return "runs a `try` block"
    if isinstance(stmt, ast.ClassDef):
        return f"defines class `{stmt.name}`"
    return f"runs `{short(stmt).splitlines()[0]}`"


def describe_expression(expr: ast.expr, env: dict[str, object]) -> str:
    """The first part of an expression that is not computable from literals."""
    for node in ast.walk(expr):
        if isinstance(node, ast.Call):
            return f"calls `{short(node)}`"
        if isinstance(node, ast.Await):
            return f"awaits `{short(node.value)}`"
        if isinstance(node, ast.Attribute | ast.Subscript):
            return f"reads `{short(node)}`"
        if isinstance(node, ast.Name) and node.id not in env:
            return f"uses `{node.id}`, which is not a local bound from a literal"
    return f"evaluates `{short(expr)}`"


def short(node: ast.AST, limit: int = 60) -> str:
    text = ast.unparse(node)
    return text if len(text) <= limit else text[: limit - 3] + "..."
