"""Statements through which a Python module can gain names its AST never binds.

``exec`` on the module namespace, ``globals()`` written, aliased or handed to
other code, the module's own object reached through ``sys.modules[__name__]``
or ``import_module(__name__)`` (anything may then be set on it), a module
replaced in ``sys.modules``, and a frame's ``f_globals``. Reading
``globals()`` or ``f_globals`` (``.get``, ``in``, ``[name]``) adds nothing and
is not a doubt; writing them under literal keys (``globals()["x"] = ...``,
``.update(x=...)``, ``.update({"x": ...})``, ``.setdefault("x", ...)``) adds
exactly those names (``bounded_writes``).
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Mapping

#: What may be done with ``globals()`` without adding names to the module.
_READ_ONLY = frozenset({"get", "keys", "items", "values", "copy", "__contains__", "__getitem__"})


def bounded_writes(node: ast.AST, parents: Mapping[int, ast.AST], top: bool) -> list[str] | None:
    """The names ``node`` adds when it is a namespace use the code bounds: a read (none), or a
    write under literal keys; None when it is no such use (``dynamic_reason`` decides)."""
    return _bounded(node, parents, lambda expr: _is_namespace(expr, top))


def writes_through(
    function: ast.FunctionDef | ast.AsyncFunctionDef, param: str
) -> list[str] | None:
    """The literal keys ``function`` writes into its parameter ``param`` when every use of it
    is bounded (a read or a literal-key write); None when one is not (or it is rebound)."""
    parents = {id(c): n for n in ast.walk(function) for c in ast.iter_child_nodes(n)}

    def is_param(expr: ast.expr) -> bool:
        return isinstance(expr, ast.Name) and expr.id == param

    out: list[str] = []
    for node in ast.walk(function):
        if isinstance(node, ast.Global | ast.Nonlocal) and param in node.names:
            return None
        if not (isinstance(node, ast.Name) and node.id == param):
            continue
        if not isinstance(node.ctx, ast.Load):
            return None  # rebound or deleted: later uses are something else
        parent = parents.get(id(node))
        if isinstance(parent, ast.Subscript) and parent.value is node:
            written = (
                _bounded(parent, parents, is_param) if isinstance(parent.ctx, ast.Store) else []
            )
        else:
            written = _bounded(node, parents, is_param)
        if written is None:
            return None
        out += written
    return out


def _bounded(
    node: ast.AST, parents: Mapping[int, ast.AST], is_namespace: Callable[[ast.expr], bool]
) -> list[str] | None:
    if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Store):
        if is_namespace(node.value):
            key = _literal_key(node.slice)
            return [key] if key is not None else None
        return None
    if not (isinstance(node, ast.expr) and is_namespace(node)):
        return None
    parent = parents.get(id(node))
    if isinstance(parent, ast.Subscript) and parent.value is node:
        bounded = isinstance(parent.ctx, ast.Load) or _literal_key(parent.slice) is not None
        return [] if bounded else None  # a literal write's name comes with its Subscript
    if isinstance(parent, ast.Compare) and node in parent.comparators:
        return []
    if isinstance(parent, ast.Attribute) and parent.attr in _READ_ONLY:
        return []
    call = parents.get(id(parent)) if isinstance(parent, ast.Attribute) else None
    if isinstance(call, ast.Call) and call.func is parent:
        assert isinstance(parent, ast.Attribute)
        return _literal_call_keys(parent.attr, call)
    return None


def _is_namespace(node: ast.expr, top: bool) -> bool:
    """``globals()`` (``locals()`` / ``vars()`` at module level) or a frame's ``f_globals``."""
    if isinstance(node, ast.Attribute) and node.attr == "f_globals":
        return True
    return _is_namespace_call(node, top)


def _literal_call_keys(method: str, call: ast.Call) -> list[str] | None:
    if method == "setdefault" and call.args:
        key = _literal_key(call.args[0])
        return [key] if key is not None else None
    if method != "update" or len(call.args) > 1:
        return None
    keys = [k.arg for k in call.keywords]
    if any(k is None for k in keys):
        return None  # ``update(**other)``
    out = [k for k in keys if k is not None]
    if call.args:
        mapping = call.args[0]
        if not isinstance(mapping, ast.Dict):
            return None
        for key_node in mapping.keys:
            key = _literal_key(key_node) if key_node is not None else None
            if key is None:
                return None
            out.append(key)
    return out


def _literal_key(node: ast.AST) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def dynamic_reason(node: ast.AST, parent: ast.AST | None, top: bool) -> str | None:
    """Why ``node`` (whose parent is ``parent``; ``top``: at module level) may add names."""
    return _dynamic_reason(node, top) or _escape_reason(node, parent, top)


def _dynamic_reason(node: ast.AST, top: bool) -> str | None:
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        if node.func.id == "exec" and (top or any(_is_namespace_call(a, True) for a in node.args)):
            return "it calls exec() on the module namespace"
        if node.func.id == "setattr" and node.args and _mentions_sys_modules(node.args[0]):
            return "it sets attributes on sys.modules[...]"
    if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Store):
        if _is_namespace_call(node.value, top):
            return "it writes to globals()[...]"
        if _mentions_sys_modules(node.value):
            return "it replaces a module in sys.modules"
    if _is_self_module(node):
        return "it reaches its own module object (sys.modules[__name__] or import_module)"
    if isinstance(node, ast.Attribute) and node.attr == "f_globals":
        return "it reads a frame's f_globals, which can add names to a module"
    return None


def _escape_reason(node: ast.AST, parent: ast.AST | None, top: bool) -> str | None:
    """``globals()`` used other than for reading: updated, aliased or handed to code."""
    if not isinstance(node, ast.expr) or not _is_namespace_call(node, top):
        return None
    if isinstance(parent, ast.Subscript) and parent.value is node:
        return None  # a write is _dynamic_reason's; a read adds nothing
    if isinstance(parent, ast.Attribute) and parent.attr in _READ_ONLY:
        return None
    if isinstance(parent, ast.Compare) and node in parent.comparators:
        return None  # ``name in globals()``
    if isinstance(parent, ast.Attribute):
        return f"it updates globals() (.{parent.attr})"
    return "it hands its namespace (globals()) to other code, which may add names"


def _is_namespace_call(node: ast.expr, top: bool) -> bool:
    """``globals()`` anywhere; ``locals()`` / ``vars()`` only at module level, where they are it."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
        return False
    if node.args or node.keywords:
        return False
    return node.func.id == "globals" or (top and node.func.id in ("locals", "vars"))


def _mentions_sys_modules(node: ast.expr) -> bool:
    return any(isinstance(sub, ast.Attribute) and sub.attr == "modules" for sub in ast.walk(node))


def _is_self_module(node: ast.AST) -> bool:
    """``sys.modules[__name__]``, ``sys.modules.get(__name__)``, ``import_module(__name__)``."""
    if isinstance(node, ast.Subscript) and _is_modules(node.value):
        return _mentions_own_name(node.slice)
    if not (isinstance(node, ast.Call) and node.args):
        return False
    func = node.func
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
    if name in ("import_module", "__import__"):
        return _mentions_own_name(node.args[0])
    if isinstance(func, ast.Attribute) and _is_modules(func.value):
        return _mentions_own_name(node.args[0])
    return False


def _is_modules(node: ast.expr) -> bool:
    return (isinstance(node, ast.Attribute) and node.attr == "modules") or (
        isinstance(node, ast.Name) and node.id == "modules"
    )


def _mentions_own_name(node: ast.AST) -> bool:
    """``__name__`` or ``__spec__.name`` itself (``__name__ + '.sub'`` is a submodule)."""
    if isinstance(node, ast.Name):
        return node.id == "__name__"
    return (
        isinstance(node, ast.Attribute)
        and node.attr == "name"
        and isinstance(node.value, ast.Name)
        and node.value.id == "__spec__"
    )
