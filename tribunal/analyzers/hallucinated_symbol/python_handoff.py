"""``globals()`` handed to code of the repository that only sets literal names.

``install(globals())`` may add any name to the module, unless the callee is
readable and bounds it: a plain function defined in the same module or
imported relatively (``from ._compat import install``), whose parameter that
receives the namespace is only read or written under literal keys
(``ns["x"] = ...``, ``ns.update(x=...)``, ``ns.setdefault("x", ...)``) and is
never rebound, aliased, returned or handed on. Those keys are then the names
the call adds (issue 17's "the callee is in the repository and only sets
literal names"). Anything else keeps the module open.
"""

from __future__ import annotations

import ast
from collections.abc import Callable

from tribunal.analyzers.hallucinated_symbol.python_dynamic import writes_through

#: (level, module, name) of a relative ``from ... import name`` -> that module's function.
CalleeReader = Callable[[int, str, str], ast.FunctionDef | ast.AsyncFunctionDef | None]
FunctionNode = ast.FunctionDef | ast.AsyncFunctionDef


def handed_names(
    call: ast.Call, arg: ast.expr, tree: ast.Module, read: CalleeReader | None
) -> list[str] | None:
    """The names ``call`` adds through ``arg`` (``globals()``); None when they are open."""
    if not isinstance(call.func, ast.Name):
        return None
    function = _callee(call.func.id, tree, read)
    if function is None:
        return None
    param = _parameter(function, call, arg)
    return None if param is None else writes_through(function, param)


def _callee(name: str, tree: ast.Module, read: CalleeReader | None) -> FunctionNode | None:
    """The one definition of ``name`` at module level, here or behind a relative import."""
    found: list[FunctionNode] = []
    imported: tuple[int, str] | None = None
    bindings = 0
    for stmt in tree.body:
        if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef) and stmt.name == name:
            found.append(stmt)
            bindings += 1
        elif isinstance(stmt, ast.ImportFrom):
            for alias in stmt.names:
                if (alias.asname or alias.name) == name:
                    bindings += 1
                    if stmt.level > 0 and alias.asname in (None, name):
                        imported = (stmt.level, stmt.module or "")
        elif any(
            isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Store)
            for n in ast.walk(stmt)
        ):
            bindings += 1
    if bindings != 1:
        return None
    if found:
        return found[0]
    if imported is None or read is None:
        return None
    return read(imported[0], imported[1], name)


def _parameter(function: FunctionNode, call: ast.Call, arg: ast.expr) -> str | None:
    args = function.args
    positional = [a.arg for a in (*args.posonlyargs, *args.args)]
    if any(isinstance(a, ast.Starred) for a in call.args):
        return None
    for index, given in enumerate(call.args):
        if given is arg:
            return positional[index] if index < len(positional) else None
    for keyword in call.keywords:
        if keyword.value is arg and keyword.arg is not None:
            names = positional + [a.arg for a in args.kwonlyargs]
            return keyword.arg if keyword.arg in names else None
    return None
