"""Find the tests in a Python module the way pytest and unittest would collect them.

Discovery is shared by every analyzer that reasons about tests (assertion-free
tests, test tampering, the ``added-test`` claim): parse once, index once, then
``discover_tests`` lists each test with its span (decorators included), the
classes around it, whether it is skipped, and what runs with it outside its
body (fixtures, ``setUp``, autouse fixtures, wrapping decorators).
``tests_of`` does all three for a run's ``Source``, once per file side.
"""

import ast
import warnings
from collections.abc import Iterator
from typing import Final, NamedTuple

from tribunal.change.model import Source
from tribunal.lang.python.index import FuncDef, ModuleIndex, bound_names
from tribunal.lang.python.pytest_naming import DEFAULT_NAMING, PytestNaming, is_test_file
from tribunal.lang.python.scope import (
    ClassScope,
    body_skip,
    class_scope,
    function_marks,
    module_scope,
)
from tribunal.lang.trees import python_derived, python_tree

__all__ = [
    "DEFAULT_NAMING",
    "ModuleIndex",
    "Parsed",
    "PyTestCase",
    "PyTests",
    "PytestNaming",
    "discover_tests",
    "is_test_file",
    "parse_module",
    "parse_source",
    "parsed",
    "tests_of",
]


class Parsed(NamedTuple):
    tree: ast.Module | None
    error: str | None = None  # why the source does not parse
    error_line: int | None = None


def parse_source(data: bytes | str) -> Parsed:
    """Parse with the running Python's own parser; bytes honour coding cookies and BOMs.

    Warnings the parser raises about the code (invalid escapes) are the
    project's business: silenced, so that ``-W error`` cannot turn them into a
    parse failure and they never clutter the hook's output.
    """
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return Parsed(ast.parse(data))
    except SyntaxError as exc:
        return Parsed(None, f"{type(exc).__name__}: {exc.msg}", exc.lineno)
    except (ValueError, RecursionError, MemoryError) as exc:
        return Parsed(None, f"{type(exc).__name__}: {exc}")


def parse_module(data: bytes | str) -> ast.Module | None:
    return parse_source(data).tree


def parsed(source: Source) -> Parsed:
    """``parse_source`` for a run's ``Source``, sharing the run's tree (``trees.python_tree``).

    Only a file that does not parse is parsed again, to word the error.
    """
    tree = python_tree(source)
    return Parsed(tree) if tree is not None else parse_source(source.data)


class PyTests(NamedTuple):
    """One side of a test file: its index and its tests in source order (skipped ones too)."""

    module: ModuleIndex
    tests: "tuple[PyTestCase, ...]"


def tests_of(source: Source, naming: PytestNaming = DEFAULT_NAMING) -> PyTests | None:
    """Parse, index and discover once per tree for every analyzer; None when it does not parse.

    Kept with the file's tree (``tribunal.lang.trees``), within the run's memory
    bound. ``parsed`` says why a file does not parse.
    """
    return python_derived(
        source, ("pytests", naming), lambda tree: _discover(tree, naming, source.data)
    )


def _discover(tree: ast.Module | None, naming: PytestNaming, data: bytes) -> PyTests | None:
    if tree is None:
        return None
    index = ModuleIndex.build(tree, data)
    return PyTests(index, tuple(discover_tests(index, naming)))


class PyTestCase:
    """One collected test function or method.

    ``setup`` lists code outside the body that runs with the test and might
    fail (fixture parameters, ``usefixtures``, ``setUp``, autouse fixtures,
    wrapping decorators); ``caveats`` lists reasons the body alone does not
    decide the outcome (expected failure, a later definition shadowing this
    one, a generator). Either makes an empty body UNVERIFIED, not CONTRADICTED.

    Compared by identity. A plain class so that the pre-commit hook's start-up
    needs no ``dataclasses`` (see ``tribunal.findings``).
    """

    __slots__ = (
        "caveats",
        "classes",
        "end",
        "name",
        "node",
        "qualname",
        "setup",
        "skip_reason",
        "start",
        "unittest",
    )

    name: Final[str]
    qualname: Final[str]
    node: Final[FuncDef]
    start: Final[int]  # first line, decorators included
    end: Final[int]
    classes: Final[tuple[ast.ClassDef, ...]]
    unittest: Final[bool]
    skip_reason: Final[str | None]
    setup: Final[tuple[str, ...]]
    caveats: Final[tuple[str, ...]]

    def __init__(
        self,
        name: str,
        qualname: str,
        node: FuncDef,
        start: int,
        end: int,
        classes: tuple[ast.ClassDef, ...] = (),
        unittest: bool = False,
        skip_reason: str | None = None,
        setup: tuple[str, ...] = (),
        caveats: tuple[str, ...] = (),
    ) -> None:
        self.name = name
        self.qualname = qualname
        self.node = node
        self.start = start
        self.end = end
        self.classes = classes
        self.unittest = unittest
        self.skip_reason = skip_reason
        self.setup = setup
        self.caveats = caveats

    @property
    def line(self) -> int:
        """The ``def`` line, where people expect a test to be reported."""
        return self.node.lineno

    @property
    def cls(self) -> ast.ClassDef | None:
        return self.classes[-1] if self.classes else None

    @property
    def is_async(self) -> bool:
        return isinstance(self.node, ast.AsyncFunctionDef)

    @property
    def has_setup(self) -> bool:
        return bool(self.setup)


def discover_tests(index: ModuleIndex, naming: PytestNaming = DEFAULT_NAMING) -> list[PyTestCase]:
    """Every test in the module, in source order (nested classes included)."""
    module = module_scope(index)
    return list(_walk_body(index.tree.body, index, naming, module))


def _walk_body(
    body: list[ast.stmt], index: ModuleIndex, naming: PytestNaming, scope: ClassScope
) -> Iterator[PyTestCase]:
    facts = _BodyFacts.of(body)
    for position, stmt in enumerate(body):
        if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef):
            wanted = stmt.name.startswith("test") if scope.unittest else naming.function(stmt.name)
            if wanted:
                yield _make_test(stmt, index, scope, facts.notes(position, stmt.name))
        elif isinstance(stmt, ast.ClassDef):
            inner = class_scope(stmt, index, naming, scope)
            if inner is not None:
                yield from _walk_body(stmt.body, index, naming, inner)
        elif isinstance(stmt, ast.If | ast.Try | ast.TryStar):
            for part in _branches(stmt):
                yield from _walk_body(part, index, naming, scope)


class _Notes(NamedTuple):
    rebound: int | None  # line where a later statement binds the test's name again
    disabled: int | None  # line of ``test_x.__test__ = ...``


class _BodyFacts(NamedTuple):
    """Per statement list, computed once: which definitions are shadowed or disabled."""

    rebound: dict[int, int]
    disabled: dict[str, int]

    @classmethod
    def of(cls, body: list[ast.stmt]) -> "_BodyFacts":
        rebound: dict[int, int] = {}
        next_binding: dict[str, int] = {}
        for position in range(len(body) - 1, -1, -1):
            stmt = body[position]
            name = stmt.name if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef) else ""
            if name in next_binding:
                rebound[position] = next_binding[name]
            for name in bound_names(stmt):
                next_binding[name] = stmt.lineno
        disabled = {
            target.value.id: stmt.lineno
            for stmt in body
            if isinstance(stmt, ast.Assign)
            for target in stmt.targets
            if isinstance(target, ast.Attribute)
            and target.attr == "__test__"
            and isinstance(target.value, ast.Name)
        }
        return cls(rebound, disabled)

    def notes(self, position: int, name: str) -> _Notes:
        return _Notes(self.rebound.get(position), self.disabled.get(name))


def _branches(stmt: ast.If | ast.Try | ast.TryStar) -> list[list[ast.stmt]]:
    if isinstance(stmt, ast.If):
        if isinstance(stmt.test, ast.Constant):  # ``if False:`` defines nothing at run time
            return [stmt.body if stmt.test.value else stmt.orelse]
        return [stmt.body, stmt.orelse]
    return [stmt.body, *(h.body for h in stmt.handlers), stmt.orelse, stmt.finalbody]


def _make_test(node: FuncDef, index: ModuleIndex, scope: ClassScope, notes: _Notes) -> PyTestCase:
    marks = function_marks(node, index, bool(scope.classes), scope)
    setup = (*scope.setup, *marks.setup)
    caveats = [*scope.caveats, *marks.caveats]
    if notes.rebound is not None:
        caveats.append(
            f"`{node.name}` is bound again at line {notes.rebound}, so pytest does not run "
            "this definition"
        )
    if _has_doctest(node):
        caveats.append("its docstring holds doctest examples, which a doctest runner checks")
    if _is_generator(node):
        caveats.append("it is a generator (contains `yield`); pytest does not run yield tests")
    returned = _returns_value(node)
    if returned is not None:
        caveats.append(
            f"it returns a value (line {returned}), which pytest warns about and may fail on"
        )
    start = min([node.lineno, *(d.lineno for d in node.decorator_list)])
    names = [c.name for c in scope.classes]
    return PyTestCase(
        name=node.name,
        qualname=".".join([*names, node.name]),
        node=node,
        start=start,
        end=node.end_lineno or node.lineno,
        classes=scope.classes,
        unittest=scope.unittest,
        skip_reason=scope.skip
        or marks.skip
        or (f"`{node.name}.__test__` is set at line {notes.disabled}" if notes.disabled else None)
        or body_skip(node, index),
        setup=tuple(dict.fromkeys(setup)),
        caveats=tuple(dict.fromkeys(caveats)),
    )


def _has_doctest(node: FuncDef) -> bool:
    """``>>>`` (doctest) or ``In [1]:`` (IPython) examples: the docstring is the test."""
    doc = ast.get_docstring(node, clean=False) or ""
    return any(line.lstrip().startswith((">>>", "In [")) for line in doc.splitlines())


def _returns_value(node: FuncDef) -> int | None:
    """The line of a ``return <value>`` in the test's own body (not in nested functions)."""
    stack: list[ast.AST] = list(node.body)
    while stack:
        current = stack.pop()
        if isinstance(current, ast.Return) and current.value is not None:
            value = current.value
            if not (isinstance(value, ast.Constant) and value.value is None):
                return current.lineno
        if isinstance(current, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda):
            continue
        stack.extend(ast.iter_child_nodes(current))
    return None


def _is_generator(node: FuncDef) -> bool:
    stack: list[ast.AST] = list(node.body)
    while stack:
        current = stack.pop()
        if isinstance(current, ast.Yield | ast.YieldFrom):
            return True
        if isinstance(current, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda):
            continue
        stack.extend(ast.iter_child_nodes(current))
    return False
