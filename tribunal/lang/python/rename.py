"""A function's code with its local variables renamed canonically (alpha-equivalence).

``total = 0; for item in xs: total += item`` and ``acc = 0; for x in xs: acc += x``
are the same code: a rename of locals changes no behaviour and no caller. Names
are renamed, in order of first appearance, only where they certainly mean the
function's own local: bound in its own scope (assigned, a loop or ``with``
target, an ``except ... as``, a nested ``def`` or ``class``), not a parameter
(a parameter's name is part of the signature), not declared ``global`` or
``nonlocal``, not bound by an import or a ``match`` pattern, and read in a
nested scope only where that scope does not bind the name itself. A function
that can see its own names as data (``locals()``, ``vars()``, ``eval``,
``exec``, ``dir()``) is not renamed at all. Whatever is not renamed must match
exactly, so a doubt can only make two bodies differ, never make different
code look the same.
"""

from __future__ import annotations

import ast
import copy

_SCOPES = (
    ast.FunctionDef,
    ast.AsyncFunctionDef,
    ast.Lambda,
    ast.ClassDef,
    ast.ListComp,
    ast.SetComp,
    ast.DictComp,
    ast.GeneratorExp,
)
_INTROSPECTION = frozenset({"locals", "vars", "eval", "exec"})
FunctionNode = ast.FunctionDef | ast.AsyncFunctionDef


def renamed_locals(node: FunctionNode) -> FunctionNode | None:
    """A copy of ``node`` with its locals renamed ``<local0>``...; None if nothing may be."""
    names = _renamable(node)
    if not names or _introspects(node):
        return None
    twin = copy.deepcopy(node)
    mapping: dict[str, str] = {}
    for stmt in twin.body:
        _rename(stmt, names, mapping, frozenset())
    return twin


def _renamable(node: FunctionNode) -> frozenset[str]:
    bound: set[str] = set()
    fixed = set(_parameters(node.args))
    for child in _own_scope(node.body):
        name, renamable = _binding(child)
        if name is not None:
            (bound if renamable else fixed).add(name)
        elif isinstance(child, ast.Global | ast.Nonlocal):
            fixed.update(child.names)
    return frozenset(bound - fixed)


def _binding(node: ast.AST) -> tuple[str | None, bool]:
    """The name ``node`` binds in its scope, and whether this module can rename it there."""
    if isinstance(node, ast.Name):
        return (None if isinstance(node.ctx, ast.Load) else node.id), True
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return node.name, True
    if isinstance(node, ast.ExceptHandler):
        return node.name, True
    if isinstance(node, ast.alias):
        return (node.asname or node.name).split(".")[0], False
    if isinstance(node, ast.MatchAs | ast.MatchStar):
        return node.name, False
    if isinstance(node, ast.MatchMapping):
        return node.rest, False
    return None, False


def _own_scope(body: list[ast.stmt]) -> list[ast.AST]:
    """Every node of the function's own scope: nested scopes are entered only for their name."""
    out: list[ast.AST] = []
    stack: list[ast.AST] = list(reversed(body))
    while stack:
        node = stack.pop()
        out.append(node)
        if isinstance(node, _SCOPES):
            continue
        stack.extend(reversed(list(ast.iter_child_nodes(node))))
    return out


def _rename(
    node: ast.AST, names: frozenset[str], mapping: dict[str, str], hidden: frozenset[str]
) -> None:
    """Rename ``names`` in ``node`` and below, except where a nested scope binds them."""
    if isinstance(node, ast.Name):
        if node.id in names and node.id not in hidden:
            node.id = mapping.setdefault(node.id, f"<local{len(mapping)}>")
        return
    holder = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.ExceptHandler)
    if isinstance(node, holder) and node.name in names and node.name not in hidden:
        node.name = mapping.setdefault(node.name, f"<local{len(mapping)}>")
    inner = hidden | _binds(node) if isinstance(node, _SCOPES) else hidden
    for child in ast.iter_child_nodes(node):
        _rename(child, names, mapping, inner)


def _binds(scope: ast.AST) -> frozenset[str]:
    """Names a nested scope binds for itself (its reads of them are not the outer local)."""
    out: set[str] = set()
    args = getattr(scope, "args", None)
    if isinstance(args, ast.arguments):
        out.update(_parameters(args))
    body = getattr(scope, "body", None)
    if isinstance(scope, ast.ListComp | ast.SetComp | ast.DictComp | ast.GeneratorExp):
        nodes: list[ast.AST] = [gen.target for gen in scope.generators]
        nodes = [n for target in nodes for n in ast.walk(target)]
    elif isinstance(body, list):
        nodes = _own_scope(body)
    else:
        nodes = []
    for node in nodes:
        name, _ = _binding(node)
        if name is not None:
            out.add(name)
        elif isinstance(node, ast.Global | ast.Nonlocal):
            out.update(node.names)  # nonlocal: the outer name, but never renamed here
    return frozenset(out)


def _parameters(args: ast.arguments) -> list[str]:
    params = [*args.posonlyargs, *args.args, *args.kwonlyargs]
    params += [a for a in (args.vararg, args.kwarg) if a is not None]
    return [a.arg for a in params]


def _introspects(node: ast.AST) -> bool:
    for child in ast.walk(node):
        if isinstance(child, ast.Call) and isinstance(child.func, ast.Name):
            name = child.func.id
            if name in _INTROSPECTION or (name == "dir" and not child.args):
                return True
    return False
