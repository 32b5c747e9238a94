"""The names a module-level ``__getattr__`` (PEP 562) can answer, when the code bounds them.

A ``__getattr__`` that answers only for literal names and raises for the rest
adds exactly those names, so the module's names stay enumerable::

    def __getattr__(name):
        if name == "__version__":            # or: name in ("a", "b"), name in _LAZY
            return _read_version()
        raise AttributeError(name)

Read: ``if`` / ``elif`` tests that compare the parameter with string literals
(``==``, ``in`` a literal tuple/list/set, ``in`` a module-level dict or set
with literal keys bound once), joined by ``or``; a ``try`` whose body only
looks the parameter up in such a dict and whose handlers raise. Any other way
to reach a ``return`` (or the end of the function: it returns None, which is
a value) leaves the names open: a lazy loader may answer anything.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable

_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)
_MUTATORS = frozenset(
    {"update", "setdefault", "pop", "popitem", "clear", "add", "discard", "remove", "extend",
     "append", "insert", "__setitem__", "__ior__"}
)  # fmt: skip


def getattr_names(tree: ast.Module) -> frozenset[str] | None:
    """What every module-level ``__getattr__`` answers; None when any is open or not a def."""
    defs = list(_getattr_bindings(tree.body))
    if not defs or any(d is None for d in defs):
        return None
    tables = _literal_tables(tree)
    served: set[str] = set()
    for node in defs:
        assert node is not None
        names = _function_names(node, tables)
        if names is None:
            return None
        served |= names
    return frozenset(served)


def _getattr_bindings(body: Iterable[ast.stmt]) -> Iterable[ast.FunctionDef | None]:
    """Each module-level binding of ``__getattr__``: its def, or None for any other binding."""
    for stmt in body:
        if isinstance(stmt, ast.FunctionDef) and stmt.name == "__getattr__":
            yield stmt if not stmt.decorator_list else None
        elif isinstance(stmt, ast.AsyncFunctionDef | ast.ClassDef) and stmt.name == "__getattr__":
            yield None
        elif isinstance(stmt, _SCOPES):
            continue
        else:
            if any(isinstance(n, ast.Name) and n.id == "__getattr__" for n in _stores(stmt)):
                yield None
            for field in ("body", "orelse", "finalbody"):
                yield from _getattr_bindings(getattr(stmt, field, None) or [])
            for handler in getattr(stmt, "handlers", None) or []:
                yield from _getattr_bindings(handler.body)


def _stores(stmt: ast.stmt) -> list[ast.AST]:
    out: list[ast.AST] = []
    targets: list[ast.expr] = []
    if isinstance(stmt, ast.Assign):
        targets = list(stmt.targets)
    elif isinstance(stmt, ast.AnnAssign | ast.AugAssign):
        targets = [stmt.target]
    elif isinstance(stmt, ast.Import | ast.ImportFrom):
        return [ast.Name(id=a.asname or a.name.split(".")[0]) for a in stmt.names]
    for target in targets:
        out += list(ast.walk(target))
    return out


def _literal_tables(tree: ast.Module) -> dict[str, frozenset[str]]:
    """Module names bound once to a dict / set / tuple / list whose keys are string literals."""
    bound: dict[str, int] = {}
    values: dict[str, ast.expr] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store | ast.Del):
            bound[node.id] = bound.get(node.id, 0) + 1
        if isinstance(node, ast.Subscript | ast.Attribute) and isinstance(node.value, ast.Name):
            mutated = isinstance(node, ast.Attribute) and node.attr in _MUTATORS
            if mutated or isinstance(node.ctx, ast.Store | ast.Del):
                bound[node.value.id] = 2  # changed in place (``T["x"] = ``, ``T.update``)
    for stmt in tree.body:
        value = stmt.value if isinstance(stmt, ast.Assign | ast.AnnAssign) else None
        targets = stmt.targets if isinstance(stmt, ast.Assign) else [getattr(stmt, "target", None)]
        for target in targets:
            if isinstance(target, ast.Name) and value is not None:
                values[target.id] = value
    out = {}
    for name, value in values.items():
        keys = _literal_strings(value.keys if isinstance(value, ast.Dict) else value)
        if bound.get(name) == 1 and keys is not None:
            out[name] = frozenset(keys)
    return out


def _literal_strings(value: object) -> list[str] | None:
    if isinstance(value, ast.Set | ast.Tuple | ast.List):
        value = value.elts
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Name):
        if value.func.id in ("frozenset", "set", "tuple") and len(value.args) == 1:
            return _literal_strings(value.args[0])
        return None
    if not isinstance(value, list):
        return None
    out = []
    for item in value:
        if not (isinstance(item, ast.Constant) and isinstance(item.value, str)):
            return None
        out.append(item.value)
    return out


def _function_names(node: ast.FunctionDef, tables: dict[str, frozenset[str]]) -> set[str] | None:
    args = node.args.posonlyargs + node.args.args
    if len(args) != 1 or node.args.vararg or node.args.kwarg:
        return None
    served: set[str] = set()
    return served if _closed(node.body, args[0].arg, tables, served) else None


def _closed(
    body: list[ast.stmt], param: str, tables: dict[str, frozenset[str]], served: set[str]
) -> bool:
    """Whether every path through ``body`` that answers a name is guarded by a literal test
    of ``param`` (adding the names to ``served``) and every other path raises."""
    for stmt in body:
        if isinstance(stmt, ast.Raise):
            return True
        if isinstance(stmt, ast.If):
            names = _tested_names(stmt.test, param, tables)
            if names is not None:
                served |= names
                if not stmt.orelse:
                    continue
                return _closed(stmt.orelse, param, tables, served)
            return False
        if isinstance(stmt, ast.Try) and _closed_try(stmt, param, tables, served):
            return True
        if not _inert(stmt, param):
            return False
    return False  # falling off the end returns None: an answer for every name


def _closed_try(
    stmt: ast.Try, param: str, tables: dict[str, frozenset[str]], served: set[str]
) -> bool:
    """``try: return f(TABLE[name]) except KeyError: raise AttributeError(name)``."""
    uses = [n for s in stmt.body for n in ast.walk(s) if isinstance(n, ast.Name) and n.id == param]
    lookups = [
        n
        for s in stmt.body
        for n in ast.walk(s)
        if isinstance(n, ast.Subscript)
        and isinstance(n.value, ast.Name)
        and n.value.id in tables
        and isinstance(n.slice, ast.Name)
        and n.slice.id == param
    ]
    if not lookups or len(uses) != len(lookups) or stmt.orelse or stmt.finalbody:
        return False
    if not all(h.body and isinstance(h.body[-1], ast.Raise) for h in stmt.handlers):
        return False
    for lookup in lookups:
        assert isinstance(lookup.value, ast.Name)
        served |= tables[lookup.value.id]
    return True


def _inert(stmt: ast.stmt, param: str) -> bool:
    """A statement that neither answers nor uses the name: a docstring, an import, a global."""
    if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant):
        return True
    return isinstance(stmt, ast.Import | ast.ImportFrom | ast.Global | ast.Pass)


def _tested_names(test: ast.expr, param: str, tables: dict[str, frozenset[str]]) -> set[str] | None:
    """The literal names ``test`` lets through, when it is only such comparisons."""
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.Or):
        out: set[str] = set()
        for value in test.values:
            names = _tested_names(value, param, tables)
            if names is None:
                return None
            out |= names
        return out
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1):
        return None
    left, right, op = test.left, test.comparators[0], test.ops[0]
    if isinstance(op, ast.Eq):
        for one, other in ((left, right), (right, left)):
            if _is(one, param) and isinstance(other, ast.Constant) and isinstance(other.value, str):
                return {other.value}
        return None
    if isinstance(op, ast.In) and _is(left, param):
        if isinstance(right, ast.Name) and right.id in tables:
            return set(tables[right.id])
        strings = _literal_strings(right)
        return set(strings) if strings is not None else None
    return None


def _is(node: ast.expr, param: str) -> bool:
    return isinstance(node, ast.Name) and node.id == param
