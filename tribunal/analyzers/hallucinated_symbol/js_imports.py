"""The import and re-export statements of a JS/TS file, read from its tree-sitter tree.

Default imports, namespace imports, side-effect imports, ``{ default as x }``
and ``import x = require()`` carry no name to check and are never judged;
``export * from`` is judged for its path only. A statement with an ERROR or
MISSING node in or around it is marked ``broken``: at most UNVERIFIED.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from tribunal.lang import js

if TYPE_CHECKING:
    from tree_sitter import Node, Tree

_QUERY = "(import_statement) @stmt (export_statement source: (_)) @stmt"
_AMBIENT = frozenset({"ambient_declaration", "module", "internal_module"})


@dataclass(frozen=True)
class JsName:
    name: str
    line: int


@dataclass(frozen=True)
class JsImport:
    """One statement with a module specifier; ``names`` are the named bindings it asks for."""

    line: int
    end_line: int
    specifier: str
    names: tuple[JsName, ...]
    reexport: bool
    star: bool
    broken: bool

    @property
    def judged(self) -> bool:
        """Whether the statement names anything checkable (named bindings, ``export *``)."""
        return bool(self.names) or self.star

    @property
    def statement(self) -> str:
        verb = "export" if self.reexport else "import"
        listed = "*" if self.star else "{ " + ", ".join(n.name for n in self.names) + " }"
        return f"{verb} {listed} from {self.specifier!r}"


def read_imports(tree: Tree, language: str) -> list[JsImport]:
    found = js.captures(js.query(language, _QUERY), tree.root_node).get("stmt", [])
    out = []
    for node in found:
        if _in_ambient(node):
            continue
        parsed = _statement(node)
        if parsed is not None:
            out.append(parsed)
    return sorted(out, key=lambda i: i.line)


def _statement(node: Node) -> JsImport | None:
    source = node.child_by_field_name("source")
    specifier = js.string_value(source) if source is not None else None
    if specifier is None:
        return None
    reexport = node.type == "export_statement"
    names: list[JsName] = []
    star = False
    for child in node.named_children:
        if child.type in ("named_imports", "import_clause"):
            names += _specifiers(child, "import_specifier")
        elif child.type == "export_clause":
            names += _specifiers(child, "export_specifier")
        elif child.type == "namespace_export":
            star = True
    if reexport and not names and any(c.type == "*" for c in node.children):
        star = True
    broken = node.has_error or js.inside_error(node) or bool(js.error_nodes(node))
    return JsImport(
        js.first_line(node), js.last_line(node), specifier, tuple(names), reexport, star, broken
    )


def _specifiers(container: Node, kind: str) -> list[JsName]:
    out = []
    for node in _descendants(container, kind):
        name = node.child_by_field_name("name")
        if name is None:
            continue
        text = js.string_value(name) if name.type == "string" else js.text(name)
        if text and text != "default":
            out.append(JsName(text, js.first_line(node)))
    return out


def _descendants(node: Node, kind: str) -> list[Node]:
    out = []
    for child in node.named_children:
        if child.type == kind:
            out.append(child)
        elif child.type in ("named_imports", "import_clause"):
            out += _descendants(child, kind)
    return out


def _in_ambient(node: Node) -> bool:
    parent = node.parent
    while parent is not None:
        if parent.type in _AMBIENT:
            return True
        parent = parent.parent
    return False
