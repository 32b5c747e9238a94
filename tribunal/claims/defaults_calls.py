"""Defaults passed to calls: framework fields and command-line options.

A ``default=`` keyword (and ``initial=`` of a Django form field,
``server_default=`` of a SQLAlchemy column, marshmallow's ``load_default=`` /
``dump_default=``) sets the default of whatever the call declares: a Django
model field (``active = models.BooleanField(default=True)``), an option
(``parser.add_argument("--timeout", default=30)``, ``@click.option(...)``).
Each is named by what it declares: the assignment target it is the value of,
else its first option string (``--dry-run`` -> ``dry_run``), else the called
name; and placed in the class or function it sits in (``<module>`` at the top).
"""

from __future__ import annotations

import ast
from collections.abc import Hashable, Iterator

from tribunal.claims.default_values import Default, literal_value

#: Keywords whose value is the default of what the call declares.
DEFAULT_KEYWORDS = frozenset(
    {
        "default",
        "default_factory",
        "initial",
        "server_default",
        "db_default",
        "load_default",
        "dump_default",
    }
)
_Frame = tuple[ast.AST, str, bool]  # node, qualified name of its scope, directly in a class


def call_defaults(tree: ast.Module, skip: set[int]) -> Iterator[Default]:
    """Every default keyword of every call outside ``skip`` (ids of calls read elsewhere)."""
    names: dict[int, str] = {}
    stack: list[_Frame] = [(stmt, "<module>", False) for stmt in reversed(tree.body)]
    while stack:
        node, scope, in_class = stack.pop()
        if isinstance(node, ast.Assign | ast.AnnAssign) and isinstance(node.value, ast.Call):
            target = _target_name(node)
            if target is not None:
                names[id(node.value)] = target
        if isinstance(node, ast.Call) and id(node) not in skip:
            yield from _of_call(node, scope, names.get(id(node)), in_class)
        inner, child_class = _scope_of(node, scope)
        for child in reversed(list(ast.iter_child_nodes(node))):
            direct = child_class or (in_class and isinstance(node, ast.Assign | ast.AnnAssign))
            stack.append((child, inner, direct and not isinstance(child, ast.expr_context)))


def module_constants(tree: ast.Module) -> dict[str, Hashable]:
    """Top-level ``NAME = <literal>`` bound exactly once: names a default may use."""
    bound: dict[str, int] = {}
    values: dict[str, Hashable] = {}
    if _rebinds_anything(tree):
        return {}
    for stmt in tree.body:
        for name, value in _bindings(stmt):
            bound[name] = bound.get(name, 0) + 1
            literal = literal_value(value) if value is not None else None
            if literal is not None:
                values[name] = literal
    return {name: value for name, value in values.items() if bound[name] == 1}


def _rebinds_anything(tree: ast.Module) -> bool:
    """A star import or ``globals()`` may rebind any module name."""
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and any(a.name == "*" for a in node.names):
            return True
        called = (
            node.func.id if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) else ""
        )
        if called in ("globals", "exec", "vars"):
            return True
    return False


def _bindings(stmt: ast.stmt) -> Iterator[tuple[str, ast.expr | None]]:
    if isinstance(stmt, ast.Assign):
        for target in stmt.targets:
            for node in ast.walk(target):
                if isinstance(node, ast.Name):
                    simple = isinstance(target, ast.Name) and len(stmt.targets) == 1
                    yield node.id, stmt.value if simple else None
    elif isinstance(stmt, ast.AnnAssign | ast.AugAssign) and isinstance(stmt.target, ast.Name):
        value = stmt.value if isinstance(stmt, ast.AnnAssign) else None
        yield stmt.target.id, value
    elif isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        yield stmt.name, None
    elif isinstance(stmt, ast.Import | ast.ImportFrom):
        for alias in stmt.names:
            yield (alias.asname or alias.name).split(".")[0], None
    else:
        for node in ast.walk(stmt):  # bound inside if/for/with/try: not a single binding
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                yield node.id, None


def _of_call(call: ast.Call, scope: str, target: str | None, in_class: bool) -> Iterator[Default]:
    for keyword in call.keywords:
        if keyword.arg not in DEFAULT_KEYWORDS:
            continue
        name = target or _option_name(call) or f"{_called(call.func)}()"
        kind = "field" if in_class and target else "option"
        if keyword.arg != "default":
            kind = f"{kind} {keyword.arg}"
        value = keyword.value
        yield Default(
            scope,
            name,
            literal_value(value),
            ast.unparse(value),
            value.lineno,
            kind=kind,
            end_line=call.end_lineno or call.lineno,
        )


def _target_name(node: ast.Assign | ast.AnnAssign) -> str | None:
    targets = node.targets if isinstance(node, ast.Assign) else [node.target]
    if len(targets) != 1:
        return None
    target = targets[0]
    if isinstance(target, ast.Name):
        return target.id
    return target.attr if isinstance(target, ast.Attribute) else None


def _option_name(call: ast.Call) -> str | None:
    """``("-t", "--timeout")`` -> ``timeout``: the long option, else the first string."""
    strings = [
        a.value for a in call.args if isinstance(a, ast.Constant) and isinstance(a.value, str)
    ]
    if not strings:
        return None
    chosen = next((s for s in strings if s.startswith("--")), strings[0])
    return chosen.lstrip("-").replace("-", "_") or None


def _called(func: ast.expr) -> str:
    if isinstance(func, ast.Attribute):
        return func.attr
    return func.id if isinstance(func, ast.Name) else "call"


def _scope_of(node: ast.AST, scope: str) -> tuple[str, bool]:
    """The scope name for ``node``'s children, and whether they sit directly in a class."""
    prefix = "" if scope == "<module>" else f"{scope}."
    if isinstance(node, ast.ClassDef):
        return f"{prefix}{node.name}", True
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
        return f"{prefix}{node.name}", False
    return scope, False
