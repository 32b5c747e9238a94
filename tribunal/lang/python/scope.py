"""What surrounds a test: module, class and decorator context.

pytest and unittest run code around a test body: fixtures it takes, marks on
it or its class or module, ``setUp``-style methods, autouse fixtures,
decorators that wrap it. Each is collected here as a human-readable reason,
because any of them can fail even when the body cannot.
"""

import ast
from typing import NamedTuple

from tribunal.lang.python.index import (
    PLAIN_TESTCASES,
    FuncDef,
    ModuleIndex,
    class_methods,
    top_level,
)
from tribunal.lang.python.marks import Effect, Mark, classify, is_autouse_fixture, marks_in
from tribunal.lang.python.pytest_naming import PytestNaming

MODULE_SETUP = frozenset(
    {"setup_module", "teardown_module", "setup_function", "teardown_function"}
    | {"setUpModule", "tearDownModule", "setup", "teardown"}
)
CLASS_SETUP = frozenset(
    {"setUp", "tearDown", "setUpClass", "tearDownClass", "asyncSetUp", "asyncTearDown"}
    | {"setup_method", "teardown_method", "setup_class", "teardown_class"}
    | {"setup", "teardown", "setUpTestData"}
    # unittest runs every test through these; a same-file override wraps the test body
    | {"run", "__call__", "debug", "doCleanups", "doClassCleanups", "_callSetUp"}
    | {"_callTestMethod", "_callTearDown", "_callCleanup", "_callAsyncTestMethod"}
    # unittest builds one instance per test and looks the method up by name
    | {"__init__", "__new__", "__getattribute__"}
)
_RUNTIME_SKIPS = frozenset({"pytest.skip", "pytest.xfail"})


class ClassScope(NamedTuple):
    """The context tests inherit from their module and enclosing classes."""

    classes: tuple[ast.ClassDef, ...] = ()
    unittest: bool = False
    skip: str | None = None
    setup: tuple[str, ...] = ()
    caveats: tuple[str, ...] = ()
    parametrized: tuple[str, ...] = ()
    runs_coroutines: bool = False  # an IsolatedAsyncioTestCase: async tests run natively
    event_loop: tuple[str, ...] = ()  # ``asyncio`` / ``anyio`` marks that apply


class FunctionMarks(NamedTuple):
    skip: str | None
    setup: tuple[str, ...]
    caveats: tuple[str, ...]


class _Collected:
    """Reasons gathered while reading marks, turned into a scope at the end."""

    def __init__(self, parent: ClassScope | None = None) -> None:
        self.skip = parent.skip if parent else None
        self.setup = list(parent.setup) if parent else []
        self.caveats = list(parent.caveats) if parent else []
        self.parametrized = list(parent.parametrized) if parent else []
        self.event_loop = list(parent.event_loop) if parent else []

    def add(self, mark: Mark, where: str) -> None:
        if mark.effect is Effect.SKIP:
            self.skip = self.skip or f"skipped by {mark.text}{where}"
        elif mark.effect is Effect.XFAIL:
            self.caveats.append(f"{mark.text}{where} expects it to fail, so an empty body fails")
        elif mark.effect is Effect.USEFIXTURES:
            self.setup.append(f"{mark.text}{where} runs fixture setup")
        elif mark.effect is Effect.PARAMETRIZE:
            self.parametrized.extend(mark.names)
            if mark.flag:
                self.setup.append(f"{mark.text}{where} may feed it fixtures or marks")
        elif mark.effect in (Effect.SETUP, Effect.FIXTURE):
            self.setup.append(f"{mark.text}{where}")
        elif mark.effect is Effect.EVENT_LOOP:
            self.event_loop.append(f"{mark.text}{where}")

    def scope(
        self, classes: tuple[ast.ClassDef, ...] = (), unittest: bool = False, native: bool = False
    ) -> ClassScope:
        return ClassScope(
            classes=classes,
            unittest=unittest,
            runs_coroutines=native,
            skip=self.skip,
            setup=tuple(self.setup),
            caveats=tuple(self.caveats),
            parametrized=tuple(self.parametrized),
            event_loop=tuple(self.event_loop),
        )


def module_scope(index: ModuleIndex) -> ClassScope:
    """Skips and setup that apply to every test in the module."""
    found = _Collected()
    for stmt in top_level(index.tree.body):
        value = _pytestmark(stmt)
        if value is not None:
            for mark in marks_in(value, index):
                found.add(mark, f" (module pytestmark, line {stmt.lineno})")
        if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef):
            reason = _setup_function(stmt, index, MODULE_SETUP, "in this module")
            if reason:
                found.setup.append(reason)
        if _names_target(stmt, "pytest_plugins"):
            found.setup.append(f"`pytest_plugins` (line {stmt.lineno}) loads plugin fixtures")
        assigned = assigned_autouse(stmt)
        if assigned:
            found.setup.append(f"{assigned} in this module")
    for stmt in index.tree.body:
        if _module_skip(stmt, index):
            found.skip = found.skip or f"the module skips itself at line {stmt.lineno}"
    return found.scope()


class FixtureImport(NamedTuple):
    module: str  # as written, leading dots included
    name: str  # "*" for a star import
    line: int


def fixture_imports(index: ModuleIndex) -> list[FixtureImport]:
    """Imports that may bring autouse fixtures into the module.

    pytest applies an autouse fixture wherever its name is visible, imports
    included: ``from tests.fixtures import *``, or a name imported and never
    used (the usual way to share a fixture). Whether one is a fixture takes
    reading the other file, which ``pytest_project`` does.
    """
    used = {
        node.id
        for node in ast.walk(index.tree)
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)
    }
    found = []
    for stmt in top_level(index.tree.body):
        if not isinstance(stmt, ast.ImportFrom) or stmt.module == "__future__":
            continue
        module = "." * stmt.level + (stmt.module or "")
        for alias in stmt.names:
            if alias.name == "*" or (alias.asname or alias.name) not in used:
                found.append(FixtureImport(module, alias.name, stmt.lineno))
    return found


def class_scope(
    cls: ast.ClassDef, index: ModuleIndex, naming: PytestNaming, parent: ClassScope
) -> ClassScope | None:
    """The scope of a collected test class; None when pytest would not collect it."""
    if parent.unittest:
        return None  # unittest never collects classes nested in a TestCase
    lineage, foreign = index.lineage(cls)
    is_unittest = any(name.rsplit(".", 1)[-1].endswith("TestCase") for name in foreign)
    if not _collectable(cls, lineage, naming, is_unittest):
        return None
    found = _Collected(parent)
    where = f" (on class {cls.name})"
    for klass in lineage:
        for dec in klass.decorator_list:
            found.add(classify(dec, index), where)
        for stmt in klass.body:
            value = _pytestmark(stmt)
            if value is not None:
                for mark in marks_in(value, index):
                    found.add(mark, f" (class pytestmark, line {stmt.lineno})")
        for method in class_methods(klass).values():
            reason = _setup_function(method, index, CLASS_SETUP, f"in class {klass.name}")
            if reason:
                found.setup.append(reason)
        for stmt in top_level(klass.body):
            assigned = assigned_autouse(stmt)
            if assigned:
                found.setup.append(f"{assigned} in class {klass.name}")
    for name in foreign:
        if name not in PLAIN_TESTCASES and name not in ("object", "builtins.object"):
            found.setup.append(f"class {cls.name} inherits from `{name}`, defined elsewhere")
    if cls.keywords:
        found.setup.append(f"class {cls.name} is created with {ast.unparse(cls.keywords[0])}")
    native = any(name.endswith("IsolatedAsyncioTestCase") for name in foreign)
    return found.scope((*parent.classes, cls), is_unittest, native)


def function_marks(
    node: FuncDef, index: ModuleIndex, method: bool, scope: ClassScope
) -> FunctionMarks:
    """Skips, setup and caveats that the test's own decorators and parameters add."""
    found = _Collected()
    for dec in node.decorator_list:
        mark = classify(dec, index)
        if mark.effect is Effect.FIXTURE:
            return FunctionMarks(f"it is a fixture ({mark.text}), not a test", (), ())
        found.add(mark, "")
    static = any(index.qualify(d) == "staticmethod" for d in node.decorator_list)
    params = _params(node, drop_first=method and not static)
    if method and not static and not (node.args.posonlyargs or node.args.args or node.args.vararg):
        found.caveats.append("it takes no `self`, so calling it as a method raises TypeError")
    positional_only = _required_positional_only(node, drop_first=method and not static)
    if positional_only:
        found.caveats.append(
            f"its positional-only parameter `{positional_only[0]}` is never passed, "
            "so calling it raises TypeError"
        )
    loops = [*scope.event_loop, *found.event_loop]
    if isinstance(node, ast.AsyncFunctionDef) and not scope.runs_coroutines and not loops:
        found.setup.append(
            "it is async: an async plugin runs it in an event loop it sets up "
            "(and recent pytest fails async tests no plugin handles)"
        )
    elif loops and not isinstance(node, ast.AsyncFunctionDef):
        found.setup.append(f"{loops[0]} (a plugin handles it)")
    covered = {*found.parametrized, *scope.parametrized}
    fixtures = [p for p in params if p not in covered]
    if fixtures and scope.unittest:
        names = ", ".join(f"`{p}`" for p in fixtures)
        found.caveats.append(f"unittest calls it without {names}, so it raises TypeError")
    elif fixtures:
        names = ", ".join(f"`{p}`" for p in fixtures)
        found.setup.append(f"it takes {names}, so fixture or parameter setup runs first")
    extra = [p for p in dict.fromkeys(found.parametrized) if p not in params]
    if extra:
        found.caveats.append(f"it is parametrized with {', '.join(extra)}, which it does not take")
    return FunctionMarks(found.skip, tuple(found.setup), tuple(found.caveats))


def body_skip(node: FuncDef, index: ModuleIndex) -> str | None:
    """A skip the body performs before anything else (``pytest.skip``, ``skipTest``)."""
    body = node.body
    if body and _is_docstring(body[0]):
        body = body[1:]
    if not body:
        return None
    first = body[0]
    call = None
    if isinstance(first, ast.Expr) and isinstance(first.value, ast.Call):
        call = first.value.func
    elif isinstance(first, ast.Raise) and first.exc is not None:
        exc = first.exc.func if isinstance(first.exc, ast.Call) else first.exc
        name = index.qualify(exc) or ""
        if name.endswith(("SkipTest", "skip.Exception")):
            return f"skipped in its body at line {first.lineno}"
    if call is None:
        return None
    name = index.qualify(call) or ""
    if name in _RUNTIME_SKIPS or name in ("self.skipTest", "cls.skipTest"):
        return f"skipped in its body at line {first.lineno}"
    return None


def _collectable(
    cls: ast.ClassDef, lineage: list[ast.ClassDef], naming: PytestNaming, is_unittest: bool
) -> bool:
    flag = _test_flag(lineage)
    if flag is False:
        return False
    if is_unittest or flag is True:
        return True
    if not naming.cls(cls.name):
        return False
    return not any(n in class_methods(k) for k in lineage for n in ("__init__", "__new__"))


def _test_flag(lineage: list[ast.ClassDef]) -> bool | None:
    """The class's ``__test__`` when it is set to a literal bool."""
    for klass in lineage:
        for stmt in klass.body:
            if isinstance(stmt, ast.Assign) and _names_target(stmt, "__test__"):
                if isinstance(stmt.value, ast.Constant) and isinstance(stmt.value.value, bool):
                    return stmt.value.value
                return False  # computed: treat as not collected, never judged
    return None


def _setup_function(fn: FuncDef, index: ModuleIndex, names: frozenset[str], where: str) -> str:
    if is_autouse_fixture(fn, index):
        return f"autouse fixture `{fn.name}` (line {fn.lineno}) runs around the tests {where}"
    if fn.name in names:
        return f"`{fn.name}` (line {fn.lineno}) runs with the tests {where}"
    return ""


def assigned_autouse(stmt: ast.stmt) -> str:
    """``reset = pytest.fixture(autouse=True)(_reset)``: an autouse fixture made by a call.

    Any ``autouse=`` keyword that is not literally false, in a statement other
    than a ``def`` (whose decorators ``classify`` reads), counts.
    """
    if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return ""
    if isinstance(stmt, ast.If | ast.With | ast.AsyncWith | ast.Try | ast.TryStar):
        return ""  # ``top_level`` yields the statements inside on their own
    for node in ast.walk(stmt):
        if isinstance(node, ast.keyword) and node.arg == "autouse":
            value = node.value
            if not (isinstance(value, ast.Constant) and value.value in (False, None, 0)):
                return f"an autouse fixture made at line {stmt.lineno} runs around the tests"
    return ""


def _pytestmark(stmt: ast.stmt) -> ast.expr | None:
    if isinstance(stmt, ast.Assign | ast.AnnAssign) and _names_target(stmt, "pytestmark"):
        return stmt.value
    return None


def _names_target(stmt: ast.stmt, name: str) -> bool:
    if isinstance(stmt, ast.Assign):
        return any(isinstance(t, ast.Name) and t.id == name for t in stmt.targets)
    if isinstance(stmt, ast.AnnAssign | ast.AugAssign):
        return isinstance(stmt.target, ast.Name) and stmt.target.id == name
    return False


def _module_skip(stmt: ast.stmt, index: ModuleIndex) -> bool:
    if not (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call)):
        return False
    call = stmt.value
    if index.qualify(call.func) != "pytest.skip":
        return False
    return any(
        k.arg == "allow_module_level" and isinstance(k.value, ast.Constant) and k.value.value
        for k in call.keywords
    )


def _params(node: FuncDef, drop_first: bool) -> list[str]:
    """The arguments pytest fills with fixtures: those without a default.

    pytest (``getfuncargnames``) passes only positional-or-keyword and
    keyword-only parameters that have no default; ``x=1``, ``*args`` and
    ``**kwargs`` are left to Python, so they run no setup.
    """
    args = node.args
    positional = [*args.posonlyargs, *args.args]
    first = positional[0] if drop_first and positional else None
    optional = _with_default(node)
    names = [a.arg for a in args.args if a is not first and id(a) not in optional]
    kw_pairs = zip(args.kwonlyargs, args.kw_defaults, strict=True)
    names += [a.arg for a, default in kw_pairs if default is None]
    return names


def _with_default(node: FuncDef) -> set[int]:
    """``id()`` of the positional parameters that have a default (the last ones)."""
    positional = [*node.args.posonlyargs, *node.args.args]
    count = len(node.args.defaults)
    return {id(a) for a in positional[len(positional) - count :]} if count else set()


def _required_positional_only(node: FuncDef, drop_first: bool) -> list[str]:
    """Positional-only parameters without a default: pytest never passes them."""
    args = node.args
    positional = [*args.posonlyargs, *args.args]
    optional = _with_default(node)
    found = [a for a in args.posonlyargs if id(a) not in optional]
    if drop_first and found and found[0] is positional[0]:
        found = found[1:]
    return [a.arg for a in found]


def _is_docstring(stmt: ast.stmt) -> bool:
    return (
        isinstance(stmt, ast.Expr)
        and isinstance(stmt.value, ast.Constant)
        and isinstance(stmt.value.value, str)
    )
