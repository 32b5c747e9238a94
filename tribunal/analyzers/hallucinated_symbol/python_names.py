"""The names a Python module defines at module level, read from its AST (never run).

Every branch of every module-level ``if`` / ``try`` / ``match`` / loop counts,
so a name defined only under ``TYPE_CHECKING`` or only in an
``except ImportError`` fallback is defined. Names listed in a static
``__all__`` count too. A module that can grow names in ways the AST cannot
enumerate (module ``__getattr__``, ``globals()`` written, aliased or handed to
other code, ``exec``, its own module object reached through
``sys.modules[__name__]`` or ``import_module(__name__)``, a frame's
``f_globals``) is marked uncertain; star imports are returned for the resolver
to follow. A ``__getattr__`` that answers only literal names, and writes to
the namespace under literal keys, add those names instead of a doubt.
"""

import ast
import re
from typing import TYPE_CHECKING, NamedTuple

from tribunal.lang.trees import python_tree

if TYPE_CHECKING:
    from tribunal.analyzers.hallucinated_symbol.python_handoff import CalleeReader
    from tribunal.analyzers.hallucinated_symbol.tree import FileTree

#: Attributes every module has without defining them.
IMPLICIT = frozenset(
    {
        "__name__", "__doc__", "__file__", "__spec__", "__loader__", "__package__",
        "__builtins__", "__dict__", "__path__", "__cached__", "__annotations__",
    }
)  # fmt: skip

_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)
_ALL_METHODS = ("extend", "append", "__iadd__")
#: Only a module mentioning one of these needs the full walk for dynamic definitions.
_DYNAMIC_HINT = re.compile(
    r"\b(?:global|exec|globals|locals|vars|setattr|modules|import_module|__import__|f_globals)\b"
)


class StarImport(NamedTuple):
    """``from <module> import *`` at module level: ``level`` dots, then ``module``."""

    level: int
    module: str


class ModuleNames(NamedTuple):
    """What one module file defines; ``uncertain`` names why the set may be incomplete.

    ``exported`` is the union of every static ``__all__`` (None without one);
    ``all_dynamic`` says some ``__all__`` could not be read statically, which
    leaves what ``from module import *`` brings unknown.
    """

    names: frozenset[str]
    stars: tuple[StarImport, ...] = ()
    exported: frozenset[str] | None = None
    all_dynamic: bool = False
    uncertain: str | None = None
    #: Names added at run time in ways the code bounds: a module ``__getattr__`` that answers
    #: only literal names (``python_getattr``), namespace writes under literal keys.
    runtime_names: frozenset[str] = frozenset()

    def star_exports(self) -> frozenset[str] | None:
        """What ``from this import *`` binds (before its own stars); None if unknown."""
        if self.all_dynamic:
            return None
        if self.exported is not None:
            return self.exported
        return frozenset(n for n in self.names if not n.startswith("_"))


def module_names(text: str, filename: str = "<module>") -> ModuleNames:
    """The module-level names of ``text``; a file that does not parse is uncertain."""
    try:
        tree = ast.parse(text, filename)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        tree = None
    return names_of_tree(tree, text)


def own_names(tree: "FileTree", path: str) -> ModuleNames:
    """What the file at ``path`` in ``tree`` defines itself (star imports listed, not followed)."""
    source = tree.read(path)
    if source is None:
        return ModuleNames(frozenset(), uncertain="it could not be read")
    return names_of_tree(python_tree(source), source.text, _callee_reader(tree, path))


def _callee_reader(tree: "FileTree", path: str) -> "CalleeReader":
    """Functions of the modules ``path`` imports relatively, read from ``tree``."""

    def read(level: int, module: str, name: str) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
        directory = path.rpartition("/")[0]
        for _ in range(level - 1):
            directory = directory.rpartition("/")[0]
        stem = "/".join(p for p in (directory, module.replace(".", "/")) if p)
        for candidate in (f"{stem}.py", f"{stem}/__init__.py"):
            source = tree.read(candidate)
            parsed = python_tree(source) if source is not None else None
            if parsed is None:
                continue
            defs = [
                s for s in parsed.body
                if isinstance(s, ast.FunctionDef | ast.AsyncFunctionDef) and s.name == name
            ]  # fmt: skip
            return defs[0] if len(defs) == 1 else None
        return None

    return read


def names_of_tree(
    tree: ast.Module | None, text: str, callees: "CalleeReader | None" = None
) -> ModuleNames:
    """The module-level names of a parsed module (None: it did not parse). ``callees`` reads
    the functions relative imports bind, for ``globals()`` handed to one (``python_handoff``)."""
    if tree is None:
        return ModuleNames(frozenset(), uncertain="it does not parse with this Python")
    collector = _Collector(tree, callees)
    collector.block(tree.body)
    if _DYNAMIC_HINT.search(text):
        collector.scan_dynamic(tree)
    listed = collector.listed
    names = collector.names | (listed or set())
    uncertain = collector.uncertain
    runtime = set(collector.written)
    if "__getattr__" in names:
        from tribunal.analyzers.hallucinated_symbol.python_getattr import getattr_names

        answered = getattr_names(tree)
        if answered is None:
            uncertain = uncertain or "it defines a module-level __getattr__ open to any name"
        runtime |= answered or set()
    dynamic = collector.all_dynamic or (listed is None and "__all__" in names)
    exported = frozenset(listed) if listed is not None else None
    return ModuleNames(
        frozenset(names | runtime),
        tuple(collector.stars),
        exported,
        dynamic,
        uncertain,
        frozenset(runtime),
    )


class _Collector:
    def __init__(self, tree: ast.Module, callees: "CalleeReader | None") -> None:
        self.tree = tree
        self.callees = callees
        self.names: set[str] = set()
        self.stars: list[StarImport] = []
        self.listed: set[str] | None = None
        self.all_dynamic = False
        self.uncertain: str | None = None
        self.written: set[str] = set()

    def block(self, body: list[ast.stmt]) -> None:
        for stmt in body:
            self.statement(stmt)

    def statement(self, stmt: ast.stmt) -> None:
        if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            self.names.add(stmt.name)
        elif isinstance(stmt, ast.Import):
            for alias in stmt.names:
                self.names.add(alias.asname or alias.name.partition(".")[0])
        elif isinstance(stmt, ast.ImportFrom):
            self.import_from(stmt)
        elif isinstance(stmt, ast.Assign | ast.AugAssign | ast.AnnAssign):
            self.assignment(stmt)
        elif isinstance(stmt, ast.Expr):
            self.all_call(stmt.value)
        elif type(stmt).__name__ == "TypeAlias":
            self.target(getattr(stmt, "name"))  # noqa: B009  (Python 3.12+ only)
        else:
            self.compound(stmt)
        self.walrus(stmt)

    def import_from(self, stmt: ast.ImportFrom) -> None:
        for alias in stmt.names:
            if alias.name == "*":
                self.stars.append(StarImport(stmt.level, stmt.module or ""))
            else:
                self.names.add(alias.asname or alias.name)

    def assignment(self, stmt: ast.Assign | ast.AugAssign | ast.AnnAssign) -> None:
        targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
        for target in targets:
            self.target(target)
        if any(isinstance(t, ast.Name) and t.id == "__all__" for t in targets):
            self.all_value(stmt.value)

    def target(self, node: ast.expr) -> None:
        if isinstance(node, ast.Name):
            self.names.add(node.id)
        elif isinstance(node, ast.Tuple | ast.List):
            for element in node.elts:
                self.target(element)
        elif isinstance(node, ast.Starred):
            self.target(node.value)

    def all_value(self, value: ast.expr | None) -> None:
        """Every static ``__all__`` operation adds to one union (branches included)."""
        strings = _static_strings(value)
        if strings is None:
            self.all_dynamic = True
            return
        self.listed = (self.listed or set()) | set(strings)

    def all_call(self, value: ast.expr) -> None:
        if not (
            isinstance(value, ast.Call)
            and isinstance(value.func, ast.Attribute)
            and isinstance(value.func.value, ast.Name)
            and value.func.value.id == "__all__"
            and value.func.attr in _ALL_METHODS
            and len(value.args) == 1
        ):
            return
        arg = value.args[0]
        if value.func.attr == "append":
            arg = ast.List(elts=[arg], ctx=ast.Load())
        self.all_value(arg)

    def compound(self, stmt: ast.stmt) -> None:
        if isinstance(stmt, ast.For | ast.AsyncFor):
            self.target(stmt.target)
        elif isinstance(stmt, ast.With | ast.AsyncWith):
            for item in stmt.items:
                if item.optional_vars is not None:
                    self.target(item.optional_vars)
        elif isinstance(stmt, ast.Global):
            self.names.update(stmt.names)
        elif isinstance(stmt, ast.Match):
            for case in stmt.cases:
                self.pattern(case.pattern)
                self.block(case.body)
        for field in ("body", "orelse", "finalbody"):
            self.block(getattr(stmt, field, None) or [])
        for handler in getattr(stmt, "handlers", None) or []:
            if handler.name:
                self.names.add(handler.name)
            self.block(handler.body)

    def pattern(self, node: ast.pattern) -> None:
        for sub in ast.walk(node):
            name = getattr(sub, "name", None) or getattr(sub, "rest", None)
            if isinstance(name, str):
                self.names.add(name)

    def walrus(self, stmt: ast.stmt) -> None:
        """``(x := ...)`` anywhere outside a nested scope binds ``x`` in the module."""
        for node in _walk_module_scope(stmt):
            if isinstance(node, ast.NamedExpr) and isinstance(node.target, ast.Name):
                self.names.add(node.target.id)

    def scan_dynamic(self, tree: ast.Module) -> None:
        """``global`` writes in functions and anything that defies enumeration."""
        # Loaded for a module whose text hints at such writes only (most modules have none).
        from tribunal.analyzers.hallucinated_symbol.python_dynamic import (
            bounded_writes,
            dynamic_reason,
        )

        top = {id(n) for stmt in tree.body for n in _walk_flat(stmt)}
        parents = {id(c): n for n in ast.walk(tree) for c in ast.iter_child_nodes(n)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Global):
                self.names.update(node.names)
            written = bounded_writes(node, parents, id(node) in top)
            if written is None:
                written = self.handed(node, parents.get(id(node)))
            if written is not None:
                self.written.update(written)
                continue
            reason = dynamic_reason(node, parents.get(id(node)), id(node) in top)
            if reason is not None and self.uncertain is None:
                self.uncertain = reason

    def handed(self, node: ast.AST, parent: ast.AST | None) -> list[str] | None:
        """``install(globals())`` where ``install`` only sets literal names (their names)."""
        if not isinstance(parent, ast.Call) or not isinstance(node, ast.expr):
            return None
        if not (isinstance(node, ast.Call) and _is_globals(node)) or node is parent.func:
            return None
        from tribunal.analyzers.hallucinated_symbol.python_handoff import handed_names

        return handed_names(parent, node, self.tree, self.callees)


def _is_globals(node: ast.Call) -> bool:
    return isinstance(node.func, ast.Name) and node.func.id == "globals" and not node.args


def _walk_flat(stmt: ast.stmt) -> list[ast.AST]:
    """Nodes of ``stmt`` and of its nested blocks, outside function and class bodies."""
    out: list[ast.AST] = []
    stack: list[ast.AST] = [stmt]
    while stack:
        node = stack.pop()
        out.append(node)
        if not isinstance(node, _SCOPES):
            stack.extend(ast.iter_child_nodes(node))
    return out


def _walk_module_scope(stmt: ast.stmt) -> list[ast.AST]:
    """Nodes of ``stmt`` outside function and class bodies (but inside comprehensions)."""
    out: list[ast.AST] = []
    stack: list[ast.AST] = [stmt]
    while stack:
        node = stack.pop()
        out.append(node)
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (*_SCOPES, ast.stmt)):
                continue
            stack.append(child)
    return out


def _static_strings(value: ast.expr | None) -> list[str] | None:
    """The strings of a literal list/tuple (or a sum of them); None when not static."""
    if isinstance(value, ast.List | ast.Tuple | ast.Set):
        out = []
        for element in value.elts:
            if not (isinstance(element, ast.Constant) and isinstance(element.value, str)):
                return None
            out.append(element.value)
        return out
    if isinstance(value, ast.BinOp) and isinstance(value.op, ast.Add):
        left, right = _static_strings(value.left), _static_strings(value.right)
        return None if left is None or right is None else left + right
    return None
