"""Named declarations of a JS/TS module, with qualified names, from a tree-sitter tree.

Shared by the analyzers that compare declarations base vs head
(comment-code-drift, the ``no-default-flip`` claim): functions, classes and
their members, ``const f = () => ...`` and object-literal methods, variables at
module level, and TypeScript interfaces, type aliases, enums and namespaces.
Anonymous functions (callbacks) have no stable name and are not listed.
"""

import re
from collections.abc import Iterable, Iterator
from typing import NamedTuple

from tree_sitter import Node

from tribunal.change.model import Source
from tribunal.lang.js.syntax import field, find, first_line, last_line, text
from tribunal.lang.trees import js_derived

FUNCTIONS = frozenset(
    {"function_declaration", "generator_function_declaration", "function_expression",
     "generator_function", "arrow_function", "function"}
)  # fmt: skip
CLASSES = frozenset({"class_declaration", "abstract_class_declaration", "class"})
TYPES = frozenset({"interface_declaration", "type_alias_declaration", "enum_declaration"})
_VARIABLES = frozenset({"lexical_declaration", "variable_declaration"})
_PASS_THROUGH = frozenset({"export_statement", "ambient_declaration"})
_OPAQUE = "(comment) @comment (string) @string (template_string) @verbatim (regex) @verbatim"
_SPACE = re.compile(rb"\s+")
_AROUND_PUNCTUATION = re.compile(rb" ?([^\w$ ]) ?")


class JsDecl(NamedTuple):
    qualname: str
    name: str
    kind: str  # "function" | "class" | "method" | "variable" | "type" | "namespace"
    node: Node
    function: Node | None  # the node that holds ``parameters``, for functions and methods

    @property
    def first_line(self) -> int:
        return first_line(self.node)

    @property
    def last_line(self) -> int:
        return last_line(self.node)


def js_decls(root: Node) -> Iterator[JsDecl]:
    """Every named declaration, outermost first."""
    yield from _statements(root.named_children, "", top=True)


def declarations(source: Source, language: str) -> list[JsDecl]:
    """``js_decls`` of a file's tree, computed once per tree and shared by analyzers."""
    return js_derived(source, language, "js_decls", lambda tree: list(js_decls(tree.root_node)))


def normalized(decl: JsDecl, language: str) -> str:
    """The declaration's code without comments or layout; a class without its members."""
    node = decl.node
    if decl.kind == "class":
        parts = [c for c in node.children if c.type != "class_body"]
        return " ".join(code_text(part, language) for part in parts)
    return code_text(node, language)


def normalized_up_to_locals(decl: JsDecl, language: str) -> str:
    """``normalized``, with a function's locals renamed canonically (``js_rename``)."""
    if decl.function is None or decl.kind == "class":
        return normalized(decl, language)
    from tribunal.lang.js.rename import renamable_locals

    renames = renamable_locals(decl.function)
    body = field(decl.function, "body")
    if not renames or body is None:
        return normalized(decl, language)
    return code_text(decl.node, language, renames, body)


def code_text(
    node: Node, language: str, renames: dict[str, str] | None = None, within: Node | None = None
) -> str:
    """A node's code in a canonical form: comments dropped, layout and quote style ignored.

    ``f(a,b)`` and ``f( a, b ) // note`` read the same; ``'x'`` and ``"x"`` too.
    Comments and strings are found by one query (``js.find``); the rest is byte
    slicing. With ``renames``, identifiers so named inside ``within`` are
    written under their new name.
    """
    raw = node.text or b""
    base = node.start_byte
    found = find(language, _OPAQUE, node)
    if renames and within is not None:
        found["rename"] = find(language, "(identifier) @i", within).get("i", [])
    spans = sorted((n.start_byte, n.end_byte, kind) for kind, nodes in found.items() for n in nodes)
    pieces: list[bytes] = []
    at = base
    for start, end, kind in spans:
        if start < at:
            continue  # inside a template string already taken whole
        pieces.append(_squeeze(raw[at - base : start - base]))
        if kind == "string":
            pieces.append(b'"' + raw[start - base + 1 : end - base - 1] + b'"')
        elif kind == "verbatim":
            pieces.append(raw[start - base : end - base])
        elif kind == "rename":
            name = raw[start - base : end - base]
            new = (renames or {}).get(name.decode("utf-8", "replace"))
            pieces.append(new.encode() if new is not None else name)
        at = end
    pieces.append(_squeeze(raw[at - base :]))
    return _join(p for p in pieces if p).decode("utf-8", "replace")


def _join(pieces: Iterable[bytes]) -> bytes:
    """Join squeezed pieces with the spacing ``_squeeze`` would have given them whole.

    A removed comment splits the code into pieces; a space is kept only between
    two word characters, so ``x; // note\n}`` and ``x;}`` read the same.
    """
    out = bytearray()
    for piece in pieces:
        word_left = out and _AROUND_PUNCTUATION.fullmatch(out[-1:]) is None
        if word_left and _AROUND_PUNCTUATION.fullmatch(piece[:1]) is None:
            out += b" "
        out += piece
    return bytes(out)


def _squeeze(code: bytes) -> bytes:
    return _AROUND_PUNCTUATION.sub(_kept, _SPACE.sub(b" ", code)).strip()


def _kept(match: re.Match[bytes]) -> bytes:
    """The punctuation without its spaces (a function: 3x faster than ``rb"\\1"`` on 3.11)."""
    return match[1]


def _statements(nodes: list[Node], prefix: str, *, top: bool) -> Iterator[JsDecl]:
    for node in nodes:
        if node.type in _PASS_THROUGH:
            yield from _exported(node, prefix, top=top)
        else:
            yield from _declaration(node, prefix, top=top)


def _exported(node: Node, prefix: str, *, top: bool) -> Iterator[JsDecl]:
    is_default = any(c.type == "default" for c in node.children)
    for child in node.named_children:
        if is_default and child.type in FUNCTIONS | CLASSES and field(child, "name") is None:
            kind = "class" if child.type in CLASSES else "function"
            function = child if kind == "function" else None
            yield JsDecl(f"{prefix}default", "default", kind, child, function)
            if kind == "class":
                yield from _class_members(child, f"{prefix}default.")
        else:
            yield from _declaration(child, prefix, top=top)


def _declaration(node: Node, prefix: str, *, top: bool) -> Iterator[JsDecl]:
    kind = node.type
    name_node = field(node, "name")
    name = text(name_node) if name_node is not None else ""
    if kind in FUNCTIONS and name:
        yield JsDecl(f"{prefix}{name}", name, "function", node, node)
        yield from _body(node, f"{prefix}{name}.<locals>.")
    elif kind in CLASSES and name:
        yield JsDecl(f"{prefix}{name}", name, "class", node, None)
        yield from _class_members(node, f"{prefix}{name}.")
    elif kind in TYPES and name:
        yield JsDecl(f"{prefix}{name}", name, "type", node, None)
    elif kind in ("internal_module", "module") and name:
        yield JsDecl(f"{prefix}{name}", name, "namespace", node, None)
        body = field(node, "body")
        if body is not None:
            yield from _statements(body.named_children, f"{prefix}{name}.", top=top)
    elif kind in _VARIABLES:
        for declarator in node.named_children:
            if declarator.type == "variable_declarator":
                yield from _variable(declarator, prefix, top=top)
    elif kind in _PASS_THROUGH:
        yield from _exported(node, prefix, top=top)


def _variable(node: Node, prefix: str, *, top: bool) -> Iterator[JsDecl]:
    name_node, value = field(node, "name"), field(node, "value")
    if name_node is None or name_node.type != "identifier":
        return
    name = text(name_node)
    qualname = f"{prefix}{name}"
    if value is not None and value.type in FUNCTIONS:
        yield JsDecl(qualname, name, "function", node, value)
        yield from _body(value, f"{qualname}.<locals>.")
    elif value is not None and value.type in CLASSES:
        yield JsDecl(qualname, name, "class", value, None)
        yield from _class_members(value, f"{qualname}.")
    elif top:
        yield JsDecl(qualname, name, "variable", node, None)
        if value is not None and value.type == "object":
            yield from _object_members(value, f"{qualname}.")


def _body(function: Node, prefix: str) -> Iterator[JsDecl]:
    body = field(function, "body")
    if body is not None and body.type == "statement_block":
        yield from _statements(body.named_children, prefix, top=False)


def _class_members(node: Node, prefix: str) -> Iterator[JsDecl]:
    body = field(node, "body")
    for member in body.named_children if body is not None else []:
        name_node = field(member, "name")
        if name_node is None or name_node.type == "computed_property_name":
            continue
        name = text(name_node)
        if member.type == "method_definition":
            yield JsDecl(f"{prefix}{name}", name, "method", member, member)
        elif member.type in ("public_field_definition", "field_definition"):
            value = field(member, "value")
            function = value if value is not None and value.type in FUNCTIONS else None
            kind = "method" if function is not None else "variable"
            yield JsDecl(f"{prefix}{name}", name, kind, member, function)


def _object_members(node: Node, prefix: str) -> Iterator[JsDecl]:
    for member in node.named_children:
        if member.type == "method_definition":
            name_node = field(member, "name")
            if name_node is not None and name_node.type != "computed_property_name":
                name = text(name_node)
                yield JsDecl(f"{prefix}{name}", name, "method", member, member)
        elif member.type == "pair":
            key, value = field(member, "key"), field(member, "value")
            if key is None or key.type != "property_identifier" or value is None:
                continue
            if value.type in FUNCTIONS:
                yield JsDecl(f"{prefix}{text(key)}", text(key), "method", member, value)
