"""Every statement of a JS/TS file that names a module, read from its tree-sitter tree.

All forms are read, because every one of them fails when its path names no
file: ``import { a }``, default, namespace, type-only and side-effect imports,
``export ... from`` (``export *`` included), ``import x = require('./x')``, and
``require('./x')`` / ``import('./x')`` calls with one literal argument.
``names`` are the named bindings to check; ``default`` says the statement asks
for the default export (``import x``, ``{ default as x }``, ``export {
default } from``). A call inside a ``try`` block, or one whose failure the code
expects (``expect(() => require(...)).toThrow()``), or that a file-existence
test guards, is ``guarded``: at most UNVERIFIED. A statement with an ERROR or
MISSING node in or around it is ``broken``: at most UNVERIFIED.
"""

from typing import TYPE_CHECKING, NamedTuple

from tribunal.lang.js import syntax as js
from tribunal.util.lazyre import lazy

if TYPE_CHECKING:
    from tree_sitter import Node, Tree

_QUERY = """
(import_statement) @stmt
(export_statement source: (_)) @stmt
(call_expression function: (import)) @call
(call_expression function: (identifier) @fn (#eq? @fn "require")) @call
"""
_AMBIENT = frozenset({"ambient_declaration", "module", "internal_module"})
#: Calls whose argument's failure is the point (``expect(() => require('./x')).toThrow()``).
_EXPECTS_FAILURE = lazy(r"\b(?:expect|throws|rejects|assert\w*|doesNotThrow)\b")
_STOP = frozenset({"program", "function_declaration", "class_body", "method_definition"})

#: How a statement names its module, for the finding's text.
KINDS = ("import", "export", "import-require", "require", "dynamic-import")


class JsName(NamedTuple):
    name: str
    line: int


class JsImport(NamedTuple):
    """One statement or call with a module specifier and what it asks of the module."""

    line: int
    end_line: int
    specifier: str
    names: tuple[JsName, ...]
    reexport: bool
    star: bool
    broken: bool
    kind: str = "import"
    default: bool = False
    #: Why the import may fail on purpose (a try, an expected throw); None when it may not.
    guarded: str | None = None

    @property
    def statement(self) -> str:
        if self.kind == "require":
            return f"require({self.specifier!r})"
        if self.kind == "dynamic-import":
            return f"import({self.specifier!r})"
        if self.kind == "import-require":
            return f"import ... = require({self.specifier!r})"
        verb = "export" if self.reexport else "import"
        listed = [n.name for n in self.names]
        if self.default:
            listed.insert(0, "default")
        if self.star:
            return f"{verb} * from {self.specifier!r}"
        if not listed:
            return f"{verb} {self.specifier!r}"
        return f"{verb} {{ {', '.join(listed)} }} from {self.specifier!r}"


def read_imports(tree: "Tree", language: str) -> list[JsImport]:
    found = js.find(language, _QUERY, tree.root_node)
    out = []
    for node in found.get("stmt", []):
        if not _in_ambient(node):
            parsed = _statement(node)
            out += [parsed] if parsed is not None else []
    for node in found.get("call", []):
        if not _in_ambient(node):
            called = _call(node)
            out += [called] if called is not None else []
    return sorted(out, key=lambda i: (i.line, i.end_line))


def _statement(node: "Node") -> JsImport | None:
    source = node.child_by_field_name("source")
    kind = "export" if node.type == "export_statement" else "import"
    if source is None:
        clause = next((c for c in node.named_children if c.type == "import_require_clause"), None)
        source = clause.child_by_field_name("source") if clause is not None else None
        kind = "import-require"
    specifier = js.string_value(source) if source is not None else None
    if specifier is None:
        return None
    names: list[JsName] = []
    star = default = False
    for child in node.named_children:
        if child.type in ("named_imports", "import_clause"):
            names += _specifiers(child, "import_specifier")
            default = default or _asks_default(child, "import_specifier")
        elif child.type == "export_clause":
            names += _specifiers(child, "export_specifier")
            default = default or _asks_default(child, "export_specifier")
        elif child.type == "namespace_export":
            star = True
    if kind == "export" and not names and any(c.type == "*" for c in node.children):
        star = True
    return JsImport(
        js.first_line(node),
        js.last_line(node),
        specifier,
        tuple(names),
        reexport=kind == "export",
        star=star,
        broken=_broken(node),
        kind=kind,
        default=default,
    )


def _call(node: "Node") -> JsImport | None:
    """``require('./x')`` / ``import('./x')`` with exactly one literal argument; never a
    ``require`` that an enclosing function binds (a bundle's own module loader)."""
    function = node.child_by_field_name("function")
    if function is not None and function.type == "identifier" and _binds_require(node):
        return None
    arguments = node.child_by_field_name("arguments")
    args = arguments.named_children if arguments is not None else []
    if len(args) != 1 or args[0].type != "string":
        return None
    specifier = js.string_value(args[0])
    if specifier is None:
        return None
    kind = "dynamic-import" if function is not None and function.type == "import" else "require"
    line = js.first_line(node)
    return JsImport(
        line,
        js.last_line(node),
        specifier,
        (),
        reexport=False,
        star=False,
        broken=_broken(node),
        kind=kind,
        guarded=_guard(node),
    )


_FUNCTIONS = frozenset(
    {"function_declaration", "function_expression", "function", "arrow_function",
     "method_definition", "generator_function", "generator_function_declaration"}
)  # fmt: skip


def _binds_require(node: "Node") -> bool:
    """Whether ``require`` is a parameter of an enclosing function (browserify / webpack
    bundles pass their own) or declared at the top of the file."""
    parent = node.parent
    while parent is not None:
        if parent.type in _FUNCTIONS:
            params = parent.child_by_field_name("parameters") or parent.child_by_field_name(
                "parameter"
            )
            named = params is not None and b"require" in (params.text or b"")
            if named and params is not None and any(_is_require(n) for n in _walk(params)):
                return True
        if parent.type == "program":
            return any(_declares_require(child) for child in parent.named_children)
        parent = parent.parent
    return False


def _declares_require(statement: "Node") -> bool:
    if statement.type in ("function_declaration", "class_declaration"):
        name = statement.child_by_field_name("name")
        return name is not None and js.text(name) == "require"
    if statement.type in ("lexical_declaration", "variable_declaration"):
        for declarator in statement.named_children:
            name = declarator.child_by_field_name("name")
            if name is not None and any(_is_require(n) for n in _walk(name)):
                return True
    return False


def _is_require(node: "Node") -> bool:
    return node.type in ("identifier", "shorthand_property_identifier_pattern") and (
        js.text(node) == "require"
    )


def _walk(node: "Node") -> "list[Node]":
    out, stack = [], [node]
    while stack:
        current = stack.pop()
        out.append(current)
        stack.extend(current.named_children)
    return out


def _broken(node: "Node") -> bool:
    return node.has_error or js.inside_error(node) or bool(js.error_nodes(node))


def _guard(node: "Node") -> str | None:
    """Why a failing ``require`` / ``import()`` may be intended: where it sits."""
    child, parent = node, node.parent
    while parent is not None and parent.type not in _STOP:
        if parent.type == "try_statement" and parent.child_by_field_name("body") == child:
            return "it sits in a try block, which handles a failing load"
        if parent.type == "call_expression" and child != parent.child_by_field_name("function"):
            callee = parent.child_by_field_name("function")
            if callee is not None and _EXPECTS_FAILURE().search(js.text(callee)):
                return f"it is the argument of {js.text(callee)}(), which may expect it to fail"
        if parent.type in ("if_statement", "ternary_expression", "binary_expression"):
            condition = parent.child_by_field_name("condition")
            condition = condition or parent.child_by_field_name("left")
            if condition is not None and "exist" in js.text(condition).lower():
                return "a test for the file's existence guards it"
        child, parent = parent, parent.parent
    return None


def _asks_default(container: "Node", kind: str) -> bool:
    """``import x`` (an identifier in the clause) or ``{ default as x }`` / ``{ default }``."""
    if container.type == "import_clause" and any(
        c.type == "identifier" for c in container.named_children
    ):
        return True
    for node in _descendants(container, kind):
        name = node.child_by_field_name("name")
        if name is not None and _name_text(name) == "default":
            return True
    return False


def _specifiers(container: "Node", kind: str) -> list[JsName]:
    out = []
    for node in _descendants(container, kind):
        name = node.child_by_field_name("name")
        if name is None:
            continue
        text = _name_text(name)
        if text and text != "default":
            out.append(JsName(text, js.first_line(node)))
    return out


def _name_text(name: "Node") -> str | None:
    return js.string_value(name) if name.type == "string" else js.text(name)


def _descendants(node: "Node", kind: str) -> "list[Node]":
    out = []
    for child in node.named_children:
        if child.type == kind:
            out.append(child)
        elif child.type in ("named_imports", "import_clause"):
            out += _descendants(child, kind)
    return out


def _in_ambient(node: "Node") -> bool:
    parent = node.parent
    while parent is not None:
        if parent.type in _AMBIENT:
            return True
        parent = parent.parent
    return False
