"""Named declarations of a Python module, with qualified names and spans.

One walk shared by the analyzers that compare declarations base vs head
(comment-code-drift, the ``no-default-flip`` claim): functions and methods,
classes, and simple ``NAME = value`` assignments at module or class level.
Nested functions are named ``outer.<locals>.inner`` as Python does.
"""

import ast
import copy
from collections.abc import Iterator
from typing import NamedTuple

from tribunal.lang.python.astdump import canonical

FunctionNode = ast.FunctionDef | ast.AsyncFunctionDef


class PyDecl(NamedTuple):
    qualname: str
    name: str
    kind: str  # "function" | "class" | "assignment"
    node: ast.AST
    first_line: int  # decorators included
    last_line: int


def python_decls(tree: ast.Module) -> Iterator[PyDecl]:
    """Every declaration, outermost first."""
    yield from _walk(tree.body, "", in_function=False)


def normalized(decl: PyDecl) -> str:
    """The declaration's code without comments, formatting or docstring.

    A class is its header and class-level statements other than methods,
    nested classes and attributes, which are declarations of their own: a
    method's body edit changes the method, not every mention of its class.
    """
    return _dump(decl.node)


def normalized_up_to_locals(decl: PyDecl) -> str:
    """``normalized``, with a function's locals renamed canonically (``py_rename``)."""
    if isinstance(decl.node, ast.FunctionDef | ast.AsyncFunctionDef):
        from tribunal.lang.python.rename import renamed_locals

        twin = renamed_locals(decl.node)
        if twin is not None:
            return _dump(twin)
    return _dump(decl.node)


def _dump(node: ast.AST) -> str:
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        shallow = copy.copy(node)
        body = node.body[1:] if docstring_node(node) is not None else node.body
        if isinstance(node, ast.ClassDef):
            body = [s for s in body if not _is_member(s)]
        shallow.body = body
        node = shallow
    return canonical(node)


def docstring_node(node: ast.AST) -> ast.Constant | None:
    """The docstring literal of a module, class or function, if it has one."""
    body = getattr(node, "body", None)
    if not isinstance(body, list) or not body:
        return None
    first = body[0]
    if not isinstance(first, ast.Expr) or not isinstance(first.value, ast.Constant):
        return None
    return first.value if isinstance(first.value.value, str) else None


def _walk(body: list[ast.stmt], prefix: str, *, in_function: bool) -> Iterator[PyDecl]:
    for node in body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            name = f"{prefix}{node.name}"
            yield _decl(name, node.name, "function", node)
            yield from _walk(node.body, f"{name}.<locals>.", in_function=True)
        elif isinstance(node, ast.ClassDef):
            name = f"{prefix}{node.name}"
            yield _decl(name, node.name, "class", node)
            yield from _walk(node.body, f"{name}.", in_function=in_function)
        elif isinstance(node, ast.Assign | ast.AnnAssign) and not in_function:
            target = node.targets[0] if isinstance(node, ast.Assign) else node.target
            single = not isinstance(node, ast.Assign) or len(node.targets) == 1
            if isinstance(target, ast.Name) and single:
                yield _decl(f"{prefix}{target.id}", target.id, "assignment", node)
        elif isinstance(node, ast.If | ast.Try | ast.With):
            for part in _blocks(node):
                yield from _walk(part, prefix, in_function=in_function)


def _blocks(node: ast.If | ast.Try | ast.With) -> Iterator[list[ast.stmt]]:
    yield node.body
    yield getattr(node, "orelse", [])
    yield getattr(node, "finalbody", [])
    for handler in getattr(node, "handlers", []):
        yield handler.body


def _decl(qualname: str, name: str, kind: str, node: ast.stmt) -> PyDecl:
    decorators = getattr(node, "decorator_list", [])
    first = min([node.lineno, *(d.lineno for d in decorators)])
    return PyDecl(qualname, name, kind, node, first, node.end_lineno or node.lineno)


def _is_member(stmt: ast.stmt) -> bool:
    if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return True
    if isinstance(stmt, ast.Assign):
        return len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name)
    return isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name)
