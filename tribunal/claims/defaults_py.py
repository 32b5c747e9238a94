"""Defaults of a Python module, as values.

Covers positional (and positional-only) defaults, keyword-only defaults, and
the fields of dataclass-like classes (``@dataclass``, attrs, ``NamedTuple``,
pydantic models, msgspec ``Struct``), which are the defaults of the generated
``__init__``; the ``default=`` of every other call (Django model and form
fields, SQLAlchemy columns, marshmallow, ``argparse`` / ``click`` options:
``defaults_calls``); and module constants named ``DEFAULT_*``. A default
that names a module constant of the same file (``timeout=DEFAULT_TIMEOUT``)
has that constant's value.

A default is compared as a *value*, not as text: ``'x'`` and ``"x"`` are the
same, and so are ``0x10`` and ``16``. The type is part of the value, as Python
sees it: ``30`` and ``30.0`` are different defaults (an ``int`` and a
``float``: ``range(timeout)`` or ``"%d" % timeout`` tell them apart), and so
are ``True`` and ``1``, and ``()`` and ``[]``. A default that is not a literal
(a name, a call) has no value we can know; it is compared by its normalized
expression only to say that *something* changed.
"""

import ast
from collections.abc import Hashable, Iterator

from tribunal.claims.default_values import Default, literal_value
from tribunal.lang.python.astdump import canonical
from tribunal.lang.python.decls import python_decls

_DATACLASS_DECORATORS = frozenset({"dataclass", "define", "frozen", "mutable", "attrs", "s"})
_MODEL_BASES = frozenset({"NamedTuple", "BaseModel", "BaseSettings", "Struct", "TypedDict"})


def python_defaults(tree: ast.Module) -> Iterator[Default]:
    """Every default in the module, with the qualified name of what holds it."""
    from tribunal.claims.defaults_calls import call_defaults, module_constants

    constants = module_constants(tree)
    fields: set[int] = set()
    for decl in python_decls(tree):
        if isinstance(decl.node, ast.FunctionDef | ast.AsyncFunctionDef):
            body = "\n".join(canonical(stmt) for stmt in decl.node.body)
            for default in _function(decl.node, decl.qualname):
                yield _resolved(default, constants)._replace(body=body)
        elif isinstance(decl.node, ast.ClassDef) and _dataclass_like(decl.node):
            for default, value in _fields(decl.node, f"{decl.qualname}.__init__"):
                fields.add(id(value))
                yield _resolved(default, constants)
        elif decl.kind == "assignment" and "." not in decl.qualname:
            yield from _constant(decl.node, decl.name)
    for default in call_defaults(tree, fields):
        yield _resolved(default, constants)


def _constant(node: ast.AST, name: str) -> Iterator[Default]:
    """``DEFAULT_TIMEOUT = 30``; ``DEFAULTS = {"timeout": 30}`` as one default per key."""
    value = node.value if isinstance(node, ast.Assign | ast.AnnAssign) else None
    if value is None or "default" not in name.lower():
        return
    if isinstance(value, ast.Dict) and value.keys:
        keys = [k.value for k in value.keys if isinstance(k, ast.Constant)]
        if len(keys) == len(value.keys) and all(isinstance(k, str) for k in keys):
            for key, item in zip(keys, value.values, strict=True):
                label = str(key)
                yield _default("<module>", f"{name}.{label}", item)._replace(kind="constant")
            return
    yield _default("<module>", name, value)._replace(kind="constant")


def _resolved(default: Default, constants: dict[str, Hashable]) -> Default:
    """A default that names a module constant takes the constant's value."""
    if default.value is None and default.text in constants:
        return default._replace(value=constants[default.text])
    return default


def _function(node: ast.FunctionDef | ast.AsyncFunctionDef, name: str) -> Iterator[Default]:
    args = node.args
    positional = [*args.posonlyargs, *args.args]
    for arg, default in zip(
        positional[len(positional) - len(args.defaults) :], args.defaults, strict=True
    ):
        yield _default(name, arg.arg, default)
    for arg, kw_default in zip(args.kwonlyargs, args.kw_defaults, strict=True):
        if kw_default is not None:
            yield _default(name, arg.arg, kw_default)


def _fields(node: ast.ClassDef, name: str) -> Iterator[tuple[Default, ast.expr]]:
    """Annotated class attributes that are ``__init__`` parameters.

    Not a ``ClassVar``, not ``field(init=False)``, and, for models (pydantic,
    ``NamedTuple``), not an underscored private attribute.
    """
    model = not _decorated(node)
    for stmt in node.body:
        if not (
            isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name) and stmt.value
        ):
            continue
        if _is_class_var(stmt.annotation) or _not_in_init(stmt.value):
            continue
        if model and stmt.target.id.startswith("_"):
            continue
        field = _default(name, stmt.target.id, _field_default(stmt.value))
        yield field._replace(kind="field", end_line=stmt.end_lineno or stmt.lineno), stmt.value


def _is_class_var(annotation: ast.expr) -> bool:
    target = annotation.value if isinstance(annotation, ast.Subscript) else annotation
    if isinstance(target, ast.Constant) and isinstance(target.value, str):
        return "ClassVar" in target.value  # a string annotation
    return _call_name(target) == "ClassVar"


def _not_in_init(value: ast.expr) -> bool:
    """``field(init=False, ...)`` / ``attr.ib(init=False)``: not a parameter at all."""
    if not isinstance(value, ast.Call):
        return False
    return any(
        k.arg == "init" and isinstance(k.value, ast.Constant) and k.value.value is False
        for k in value.keywords
    )


def _decorated(node: ast.ClassDef) -> bool:
    for decorator in node.decorator_list:
        target = decorator.func if isinstance(decorator, ast.Call) else decorator
        if _call_name(target) in _DATACLASS_DECORATORS:
            return True
    return False


def _field_default(value: ast.expr) -> ast.expr:
    """``field(default=30)`` / ``attr.ib(default=30)`` / ``Field(30)`` -> ``30``."""
    if isinstance(value, ast.Call) and _call_name(value.func) in ("field", "ib", "attrib", "Field"):
        for keyword in value.keywords:
            if keyword.arg == "default":
                return keyword.value
        if _call_name(value.func) == "Field" and value.args:
            return value.args[0]
    return value


def _default(function: str, param: str, node: ast.expr) -> Default:
    end = node.end_lineno or node.lineno
    return Default(
        function, param, literal_value(node), ast.unparse(node), node.lineno, end_line=end
    )


def _dataclass_like(node: ast.ClassDef) -> bool:
    return _decorated(node) or any(_call_name(base) in _MODEL_BASES for base in node.bases)


def _call_name(node: ast.expr) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return ""
