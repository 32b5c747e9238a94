"""The import statements of a Python file, with what the analyzer needs to judge them.

An import inside a ``try`` whose handler catches ``ImportError`` (or a parent
of it), inside ``with suppress(ImportError)`` or ``with raises(ImportError)``
(a test that expects the import to fail), or in a function marked to be
expected to fail or skipped (``xfail``, ``XFAIL``, ``expectedFailure``,
``skip``), is optional by design and is marked so: it may be reported, never
as a contradiction.
"""

import ast
import builtins
from collections.abc import Iterator
from typing import NamedTuple


class ImportedName(NamedTuple):
    name: str
    line: int


class PyImport(NamedTuple):
    """``import module`` (``names`` empty) or ``from <level dots><module> import names``."""

    line: int
    end_line: int
    level: int
    module: str
    names: tuple[ImportedName, ...]
    is_from: bool
    optional: bool

    @property
    def label(self) -> str:
        return "." * self.level + self.module

    @property
    def statement(self) -> str:
        if not self.is_from:
            return f"import {self.module}"
        listed = ", ".join(n.name for n in self.names)
        return f"from {self.label} import {listed}"


def imports_of_tree(tree: ast.Module) -> list[PyImport]:
    return list(_visit(tree.body, optional=False))


def _visit(body: list[ast.stmt], optional: bool) -> Iterator[PyImport]:
    """Statements only: an import is a statement, so expressions are never entered."""
    for node in body:
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield from _sites(node, optional)
        elif isinstance(node, ast.Try | ast.TryStar):
            guarded = optional or any(_catches(h.type) for h in node.handlers)
            yield from _visit(node.body, guarded)
            for handler in node.handlers:
                yield from _visit(handler.body, optional)
            yield from _visit(node.orelse + node.finalbody, optional)
        elif isinstance(node, ast.With | ast.AsyncWith):
            suppressed = any(_is_suppress(item.context_expr) for item in node.items)
            yield from _visit(node.body, optional or suppressed)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            expected = any(_expects_failure(d) for d in node.decorator_list)
            yield from _visit(node.body, optional or expected)
        elif isinstance(node, ast.Match):
            for case in node.cases:
                yield from _visit(case.body, optional)
        else:
            for field in ("body", "orelse", "finalbody"):
                inner = getattr(node, field, None)
                if isinstance(inner, list):
                    yield from _visit(inner, optional)


def _sites(node: ast.Import | ast.ImportFrom, optional: bool) -> Iterator[PyImport]:
    end = node.end_lineno or node.lineno
    if isinstance(node, ast.Import):
        for alias in node.names:
            yield PyImport(node.lineno, end, 0, alias.name, (), False, optional)
        return
    names = tuple(ImportedName(a.name, getattr(a, "lineno", node.lineno)) for a in node.names)
    yield PyImport(node.lineno, end, node.level, node.module or "", names, True, optional)


def _catches(kind: ast.expr | None) -> bool:
    if kind is None:
        return True
    if isinstance(kind, ast.Tuple):
        return any(_catches(e) for e in kind.elts)
    name = kind.attr if isinstance(kind, ast.Attribute) else getattr(kind, "id", None)
    known = getattr(builtins, name, None) if isinstance(name, str) else None
    if isinstance(known, type) and issubclass(known, BaseException):
        return issubclass(ModuleNotFoundError, known)
    # A project's own exception class cannot be a parent of ImportError; a
    # variable we cannot see through (a tuple of exceptions) maybe is.
    return not (isinstance(name, str) and name[:1].isupper() and not name.isupper())


def _is_suppress(expr: ast.expr) -> bool:
    """``suppress(ImportError)``, or ``raises(ImportError)`` / ``assertRaises(...)``: the
    import's failure is discarded, or expected."""
    if not isinstance(expr, ast.Call):
        return False
    func = expr.func
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
    guards = ("suppress", "raises", "assertRaises", "assertRaisesRegex")
    return name in guards and any(_catches(arg) for arg in expr.args)


_EXPECTED_FAILURE = frozenset({"xfail", "XFAIL", "expectedFailure", "skip", "SKIP"})


def _expects_failure(decorator: ast.expr) -> bool:
    """``@pytest.mark.xfail``, ``@XFAIL``, ``@unittest.expectedFailure``, ``@skip(...)``."""
    target = decorator.func if isinstance(decorator, ast.Call) else decorator
    name = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", None)
    return name in _EXPECTED_FAILURE
