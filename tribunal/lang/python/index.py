"""What a Python module binds at its top level, read from the AST alone.

Test discovery and assertion detection both need to know what a name in a
test file refers to: an imported module or function (``pytest.raises`` under
any alias), a function defined anywhere in the same file (a helper that may
assert), or a class (a ``unittest.TestCase`` subclass and its ``setUp``).
Nothing is imported or executed; a name Tribunal cannot resolve stays unknown.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from functools import cached_property
from typing import Final

FuncDef = ast.FunctionDef | ast.AsyncFunctionDef

#: Classes from the standard library whose instances run no setup of their own.
PLAIN_TESTCASES = frozenset(
    {
        "unittest.TestCase",
        "unittest.case.TestCase",
        "unittest.IsolatedAsyncioTestCase",
        "unittest.async_case.IsolatedAsyncioTestCase",
    }
)


def dotted(expr: ast.expr) -> str | None:
    """``a.b.c`` for a chain of attributes on a name; None for anything else."""
    parts: list[str] = []
    while isinstance(expr, ast.Attribute):
        parts.append(expr.attr)
        expr = expr.value
    if not isinstance(expr, ast.Name):
        return None
    parts.append(expr.id)
    return ".".join(reversed(parts))


def top_level(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """Statements of a module or class body, including those under if/try/with."""
    for stmt in body:
        yield stmt
        if isinstance(stmt, ast.If | ast.With | ast.AsyncWith):
            yield from top_level(stmt.body)
            yield from top_level(getattr(stmt, "orelse", []))
        elif isinstance(stmt, ast.Try | ast.TryStar):
            for part in (stmt.body, stmt.orelse, stmt.finalbody):
                yield from top_level(part)
            for handler in stmt.handlers:
                yield from top_level(handler.body)


def bound_names(stmt: ast.stmt) -> list[str]:
    """Names a statement binds in its own scope (not inside nested functions)."""
    if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return [stmt.name]
    if isinstance(stmt, ast.Import | ast.ImportFrom):
        return [(a.asname or a.name).split(".")[0] for a in stmt.names if a.name != "*"]
    names: list[str] = []
    for node in ast.walk(stmt):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store | ast.Del):
            names.append(node.id)
    return names


class ModuleIndex:
    """The top-level bindings of one module; build with ``ModuleIndex.build``.

    Compared by identity. A plain class so that the pre-commit hook's start-up
    needs no ``dataclasses`` (see ``tribunal.findings``).
    """

    tree: Final[ast.Module]
    imports: Final[Mapping[str, str]]
    functions: Final[Mapping[str, tuple[FuncDef, ...]]]
    classes: Final[Mapping[str, tuple[ast.ClassDef, ...]]]
    binding_counts: Final[Mapping[str, int]]
    future_annotations: Final[bool]
    unconditional: Final[frozenset[str]]  # names a statement directly in the module body binds

    def __init__(
        self,
        tree: ast.Module,
        imports: Mapping[str, str],
        functions: Mapping[str, tuple[FuncDef, ...]],
        classes: Mapping[str, tuple[ast.ClassDef, ...]],
        binding_counts: Mapping[str, int],
        future_annotations: bool,
        unconditional: frozenset[str],
    ) -> None:
        self.tree = tree
        self.imports = imports
        self.functions = functions
        self.classes = classes
        self.binding_counts = binding_counts
        self.future_annotations = future_annotations
        self.unconditional = unconditional
        self._methods: dict[tuple[int, str], FuncDef | None] = {}

    #: The text the tree was parsed from, when known: what ``compile_error`` compiles.
    source: bytes | str | None = None

    @classmethod
    def build(cls, tree: ast.Module, source: bytes | str | None = None) -> ModuleIndex:
        """The index of ``tree``; ``source``, the text it was parsed from, when known."""
        imports: dict[str, str] = {}
        functions: dict[str, list[FuncDef]] = {}
        classes: dict[str, list[ast.ClassDef]] = {}
        counts: dict[str, int] = {}
        future = False
        for stmt in top_level(tree.body):
            if isinstance(stmt, ast.Import | ast.ImportFrom):
                imports.update(_import_names(stmt))
                future = future or _is_future_annotations(stmt)
            elif isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef):
                functions.setdefault(stmt.name, []).append(stmt)
            elif isinstance(stmt, ast.ClassDef):
                classes.setdefault(stmt.name, []).append(stmt)
            if isinstance(stmt, ast.If | ast.With | ast.AsyncWith | ast.Try | ast.TryStar):
                continue  # their bodies are visited on their own
            for name in bound_names(stmt):
                counts[name] = counts.get(name, 0) + 1
        index = cls(
            tree=tree,
            imports=imports,
            functions={k: tuple(v) for k, v in functions.items()},
            classes={k: tuple(v) for k, v in classes.items()},
            binding_counts=counts,
            future_annotations=future,
            unconditional=frozenset(n for stmt in tree.body for n in _direct_names(stmt)),
        )
        index.source = source
        return index

    def qualify(self, expr: ast.expr) -> str | None:
        """The dotted name with its first part replaced by what it was imported as."""
        name = dotted(expr)
        if name is None:
            return None
        head, dot, rest = name.partition(".")
        origin = self.imports.get(head)
        return name if origin is None else origin + dot + rest

    def is_imported(self, expr: ast.expr) -> bool:
        """Whether the chain starts at an imported name (a module, not a local object)."""
        name = dotted(expr)
        return name is not None and name.partition(".")[0] in self.imports

    def helper(self, name: str) -> FuncDef | None:
        """The module-level function ``name`` when it is the name's only binding.

        A function defined under ``if``/``try`` may not exist when the test runs,
        so it is not returned (calling it might raise NameError).
        """
        defs = self.functions.get(name, ())
        if len(defs) != 1 or self.binding_counts.get(name) != 1:
            return None
        if name in self.rebound_elsewhere or self.star_import_after(defs[0]):
            return None
        return defs[0] if name in self.unconditional else None

    @cached_property
    def rebound_elsewhere(self) -> frozenset[str]:
        """Module names a ``global`` statement lets some function rebind at run time."""
        return frozenset(
            name
            for node in ast.walk(self.tree)
            if isinstance(node, ast.Global)
            for name in node.names
        )

    @cached_property
    def star_imports(self) -> tuple[int, ...]:
        """Lines of ``from m import *`` at module level: each may rebind any name."""
        return tuple(
            stmt.lineno
            for stmt in top_level(self.tree.body)
            if isinstance(stmt, ast.ImportFrom) and any(a.name == "*" for a in stmt.names)
        )

    @cached_property
    def compile_error(self) -> str | None:
        """Why CPython's compiler rejects a module its parser accepted, if it does.

        ``def f(a, a)``, ``break`` outside a loop and ``global x`` after ``x =``
        parse but do not compile: pytest then fails the module at collection, so
        none of its tests can be called certain to pass. Asked only when a
        verdict depends on it (compiling costs a few milliseconds). The source
        text is compiled when it is known, as Python itself would: compiling the
        tree instead re-validates it recursively, which fails on a deep
        expression (2,000 terms) that the compiler accepts from text.
        """
        import warnings

        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                code = self.tree if self.source is None else self.source
                compile(code, "<test module>", "exec", dont_inherit=True)
        except SyntaxError as exc:
            return f"line {exc.lineno}: {exc.msg}"
        except (ValueError, TypeError, RecursionError, MemoryError) as exc:
            return f"{type(exc).__name__}: {exc}"
        return None

    def star_import_after(self, fn: FuncDef) -> bool:
        """Whether a star import below ``fn`` may replace it before a test calls it."""
        return any(line > fn.lineno for line in self.star_imports)

    def local_class(self, expr: ast.expr) -> ast.ClassDef | None:
        """A same-file top-level class that ``expr`` names unambiguously."""
        if not isinstance(expr, ast.Name) or expr.id in self.imports:
            return None
        found = self.classes.get(expr.id, ())
        return found[0] if len(found) == 1 and self.binding_counts.get(expr.id) == 1 else None

    def lineage(self, cls: ast.ClassDef) -> tuple[list[ast.ClassDef], list[str]]:
        """The class and its same-file ancestors, plus the dotted names of other bases."""
        seen: list[ast.ClassDef] = []
        foreign: list[str] = []
        stack = [cls]
        while stack:
            current = stack.pop(0)
            if any(current is s for s in seen):
                continue
            seen.append(current)
            for base in current.bases:
                local = self.local_class(base)
                if local is not None:
                    stack.append(local)
                else:
                    foreign.append(self.qualify(base) or ast.unparse(base))
        return seen, foreign

    def method(self, cls: ast.ClassDef, name: str) -> FuncDef | None:
        """``name`` as defined in ``cls`` or its same-file ancestors (first found).

        None when the class body binds the name any other way too (``check =
        staticmethod(...)``): which binding wins is not worth guessing.
        """
        key = (id(cls), name)
        if key not in self._methods:
            self._methods[key] = self._find_method(cls, name)
        return self._methods[key]

    def _find_method(self, cls: ast.ClassDef, name: str) -> FuncDef | None:
        for klass in self.lineage(cls)[0]:
            bindings = [s for s in top_level(klass.body) if name in bound_names(s)]
            if bindings:
                last = bindings[-1]
                plain = all(isinstance(b, ast.FunctionDef | ast.AsyncFunctionDef) for b in bindings)
                return (
                    last
                    if plain and isinstance(last, ast.FunctionDef | ast.AsyncFunctionDef)
                    else None
                )
        return None

    @cached_property
    def base_names(self) -> frozenset[str]:
        """Every plain name used as a class base anywhere in the module."""
        return frozenset(
            base.id
            for node in ast.walk(self.tree)
            if isinstance(node, ast.ClassDef)
            for base in node.bases
            if isinstance(base, ast.Name)
        )

    def is_subclassed(self, cls: ast.ClassDef) -> bool:
        """Whether a class in this file may derive from ``cls`` (by its name)."""
        return cls.name in self.base_names


def class_methods(cls: ast.ClassDef) -> dict[str, FuncDef]:
    """Functions defined directly in a class body; a later definition wins."""
    return {
        stmt.name: stmt
        for stmt in top_level(cls.body)
        if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef)
    }


def _direct_names(stmt: ast.stmt) -> list[str]:
    if isinstance(stmt, ast.If | ast.With | ast.AsyncWith | ast.Try | ast.TryStar):
        return []
    return bound_names(stmt)


def _import_names(stmt: ast.Import | ast.ImportFrom) -> dict[str, str]:
    out: dict[str, str] = {}
    if isinstance(stmt, ast.Import):
        for alias in stmt.names:
            if alias.asname:
                out[alias.asname] = alias.name
            else:
                first = alias.name.split(".")[0]
                out[first] = first
        return out
    module = "." * stmt.level + (stmt.module or "")
    for alias in stmt.names:
        if alias.name != "*":
            out[alias.asname or alias.name] = f"{module}.{alias.name}" if module else alias.name
    return out


def _is_future_annotations(stmt: ast.Import | ast.ImportFrom) -> bool:
    return (
        isinstance(stmt, ast.ImportFrom)
        and stmt.module == "__future__"
        and any(a.name == "annotations" for a in stmt.names)
    )
