"""The public surface of a Python module, read statically.

A static ``__all__`` when the module has one; otherwise the module-level names
not starting with ``_`` that it defines (def, class, assignment, type alias)
or re-exports explicitly (``from .a import b as b``, ``import x as x``, or any
``from`` import in an ``__init__.py``). A plain ``import logging`` is not
surface, and neither are ``__future__`` imports or what only an ``if
TYPE_CHECKING:`` block binds (it never runs); a module-level ``del`` removes
a name. Anything that makes the surface dynamic (a computed ``__all__``, an
unresolvable star import, and whatever ``names_of_tree`` of hallucinated-symbol
finds uncertain: a module ``__getattr__`` open to any name, ``globals()`` /
``vars()`` written under computed keys, ``exec``, ``setattr`` on
``sys.modules[__name__]``, ``f_globals``) is recorded in ``dynamic``: a name
may hide behind it. Names the code bounds (a ``__getattr__`` answering literal
names, literal-key namespace writes) are surface like static ones.
"""

from __future__ import annotations

import ast
import posixpath
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from tribunal.analyzers.hallucinated_symbol.python_names import names_of_tree
from tribunal.change.model import Source
from tribunal.lang.treepaths import python_module_file, relative_base
from tribunal.lang.trees import python_tree

Reader = Callable[[str], Source | None]

_MAX_STAR_DEPTH = 8


@dataclass
class Surface:
    """``names`` are public; ``imported`` are public-looking names bound by plain imports."""

    names: set[str] = field(default_factory=set)
    imported: set[str] = field(default_factory=set)
    doubts: list[str] = field(default_factory=list)
    #: Run-time machinery that may add names the code does not bound (an open ``__getattr__``):
    #: it can make a name exist, never hide a static one.
    dynamic: list[str] = field(default_factory=list)


def module_surface(path: str, read: Reader, _seen: frozenset[str] = frozenset()) -> Surface:
    """The surface of the module at ``path`` on the side ``read`` reads from."""
    source = read(path)
    if source is None:
        return Surface(doubts=[f"{path}: could not be read"])
    tree = python_tree(source)
    if tree is None:
        return Surface(doubts=[f"{path}: does not parse"])
    walker = _Walker(path, read, _seen | {path})
    surface = walker.surface(tree)
    names = names_of_tree(tree, source.text)
    if walker.dunder_all is None:
        surface.names |= {n for n in names.runtime_names if _public(n)}
    if names.uncertain is not None:
        surface.dynamic.append(f"{path}: may gain names at run time: {names.uncertain}")
    return surface


class _Walker:
    def __init__(self, path: str, read: Reader, seen: frozenset[str]) -> None:
        self.path = path
        self.read = read
        self.seen = seen
        self.is_package = posixpath.basename(path) in ("__init__.py", "__init__.pyi")
        self.out = Surface()
        self.dunder_all: set[str] | None = None

    def surface(self, tree: ast.Module) -> Surface:
        for node in _module_level(tree.body):
            self._visit(node)
        if self.dunder_all is not None:
            self.out.names = self.dunder_all
        self.out.names = {n for n in self.out.names if self.dunder_all is not None or _public(n)}
        self.out.imported = {n for n in self.out.imported if _public(n)} - self.out.names
        return self.out

    def _visit(self, node: ast.stmt) -> None:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            self._define(node.name)
        elif isinstance(node, ast.Assign | ast.AnnAssign | ast.AugAssign):
            self._assignment(node)
        elif isinstance(node, ast.Import):
            self._import(node)
        elif isinstance(node, ast.ImportFrom):
            self._import_from(node)
        elif isinstance(node, ast.Expr):
            self._expression(node.value)
        elif isinstance(node, ast.Delete):
            for target in node.targets:
                for deleted in _bound_names(target):
                    self.out.names.discard(deleted)
        elif type(node).__name__ == "TypeAlias":
            alias = getattr(node, "name", None)
            if isinstance(alias, ast.Name):
                self._define(alias.id)

    def _define(self, name: str) -> None:
        self.out.names.add(name)

    def _doubt(self, why: str) -> None:
        self.out.doubts.append(f"{self.path}: {why}")

    def _assignment(self, node: ast.Assign | ast.AnnAssign | ast.AugAssign) -> None:
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        for target in targets:
            if isinstance(target, ast.Name) and target.id == "__all__":
                self._set_all(node)
                continue
            if isinstance(node, ast.AnnAssign) and node.value is None:
                continue
            for name in _bound_names(target):
                self._define(name)

    def _set_all(self, node: ast.Assign | ast.AnnAssign | ast.AugAssign) -> None:
        names = _string_list(node.value)
        if names is None:
            self._doubt("__all__ is computed, not a literal list")
            return
        if isinstance(node, ast.AugAssign):
            self.dunder_all = (self.dunder_all or set()) | names
        else:
            self.dunder_all = names

    def _expression(self, value: ast.expr) -> None:
        if not isinstance(value, ast.Call) or not isinstance(value.func, ast.Attribute):
            return
        owner, method = value.func.value, value.func.attr
        if isinstance(owner, ast.Name) and owner.id == "__all__":
            names = _all_call_names(method, value.args)
            if names is None:
                self._doubt(f"__all__.{method}(...) is not a literal addition")
            else:
                self.dunder_all = (self.dunder_all or set()) | names

    def _import(self, node: ast.Import) -> None:
        for alias in node.names:
            if alias.asname is not None and (self.is_package or alias.asname == alias.name):
                self._define(alias.asname)
            else:
                self.out.imported.add(alias.asname or alias.name.split(".")[0])

    def _import_from(self, node: ast.ImportFrom) -> None:
        if node.module == "__future__":
            return  # compiler directives, not names anyone imports from here
        for alias in node.names:
            if alias.name == "*":
                self._star(node)
                continue
            bound = alias.asname or alias.name
            if self.is_package or alias.asname == alias.name:
                self._define(bound)
            else:
                self.out.imported.add(bound)

    def _star(self, node: ast.ImportFrom) -> None:
        target = resolve_module(self.path, node.level, node.module, self.read)
        if target is None or target in self.seen or len(self.seen) > _MAX_STAR_DEPTH:
            self._doubt(f"star import from {'.' * node.level}{node.module or ''} not resolved")
            return
        inner = module_surface(target, self.read, self.seen)
        self.out.names |= inner.names
        self.out.doubts += inner.doubts
        self.out.dynamic += inner.dynamic


def resolve_module(path: str, level: int, module: str | None, read: Reader) -> str | None:
    """The file an import names (``pkg/a.py`` or ``pkg/a/__init__.py``), if the tree has it.

    Relative imports resolve from the importing file; absolute ones are tried
    against each ancestor directory of the importing file (``src/`` layouts
    included), nearest last, so ``from pkg.core import *`` finds ``src/pkg/core.py``.
    """
    parts = module.split(".") if module else []
    if level == 0:
        if not parts:
            return None
        folders = posixpath.dirname(path).split("/") if "/" in path else []
        bases = ["/".join(folders[:n]) for n in range(len(folders) + 1)]
    else:
        base = relative_base(path, level)
        bases = [base] if base is not None else []
    return python_module_file(bases, parts, read, stubs=True)


def _module_level(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """Statements that run at import: the body, and the bodies of if/try/with blocks."""
    for node in body:
        yield node
        if isinstance(node, ast.If) and (_is_type_checking(node.test) or _is_main(node.test)):
            yield from _module_level(node.orelse)  # the body never runs on import
        elif isinstance(node, ast.If | ast.With | ast.AsyncWith | ast.For | ast.While):
            yield from _module_level(node.body)
            yield from _module_level(getattr(node, "orelse", []))
        elif isinstance(node, ast.Try | getattr(ast, "TryStar", ast.Try)):
            for part in (node.body, node.orelse, node.finalbody):
                yield from _module_level(part)
            for handler in node.handlers:
                yield from _module_level(handler.body)


def _is_type_checking(test: ast.expr) -> bool:
    name = test.attr if isinstance(test, ast.Attribute) else getattr(test, "id", "")
    return name == "TYPE_CHECKING"


def _is_main(test: ast.expr) -> bool:
    """``if __name__ == "__main__":`` (either order): a script's block, never run on import."""
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1):
        return False
    if not isinstance(test.ops[0], ast.Eq):
        return False
    sides = [test.left, test.comparators[0]]
    named = any(isinstance(x, ast.Name) and x.id == "__name__" for x in sides)
    return named and any(isinstance(x, ast.Constant) and x.value == "__main__" for x in sides)


def _all_call_names(method: str, args: list[ast.expr]) -> set[str] | None:
    """Names ``__all__.extend([...])`` or ``__all__.append("x")`` add; None otherwise."""
    if len(args) != 1:
        return None
    if method == "extend":
        return _string_list(args[0])
    if method == "append" and isinstance(args[0], ast.Constant) and _is_str(args[0]):
        return {str(args[0].value)}
    return None


def _bound_names(target: ast.expr) -> Iterator[str]:
    if isinstance(target, ast.Name):
        yield target.id
    elif isinstance(target, ast.Tuple | ast.List):
        for element in target.elts:
            yield from _bound_names(element)
    elif isinstance(target, ast.Starred):
        yield from _bound_names(target.value)


def _string_list(node: ast.expr | None) -> set[str] | None:
    if isinstance(node, ast.List | ast.Tuple | ast.Set):
        strings = [e.value for e in node.elts if isinstance(e, ast.Constant)]
        found = {v for v in strings if isinstance(v, str)}
        literal = len(strings) == len(node.elts) and all(isinstance(v, str) for v in strings)
        return found if literal else None
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _string_list(node.left), _string_list(node.right)
        return left | right if left is not None and right is not None else None
    return None


def _is_str(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str)


def _public(name: str) -> bool:
    return not name.startswith("_")
