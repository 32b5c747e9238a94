"""The names a JS/TS module exports, read from its tree-sitter tree (never run).

Named declarations (destructured ``const { a, b } = ...`` included), type
declarations, ``export { a as b }``, ``export * as ns`` and re-exports count;
``export * from`` specifiers are returned for the resolver to follow. A
``.d.ts`` without export declarations exports every top-level declaration
(TypeScript's export-context rule), a JS module exports its JSDoc
``@typedef`` / ``@callback`` types, and ``export default class Foo`` exports
no ``Foo``. A CommonJS module's set is listed when it is fully enumerable
(``js_commonjs``). ``export =``, CommonJS that is not, a module mixing
CommonJS with ES exports, AMD ``define()``, a parse error where an export could
hide, or a file that is not a module at all leave the set uncertain. A parse
error inside a declaration's body (a type literal, a function body) hides no
export: the declaration's name and export status are read before it
(``_open_error``).
"""

import re
from typing import TYPE_CHECKING, NamedTuple

from tribunal.lang.js import syntax as js
from tribunal.util.lazyre import lazy

if TYPE_CHECKING:
    from tree_sitter import Node, Tree

_NAMED = frozenset(
    {"function_declaration", "generator_function_declaration", "class_declaration",
     "abstract_class_declaration", "interface_declaration", "type_alias_declaration",
     "enum_declaration", "internal_module", "module", "function_signature"}
)  # fmt: skip
_VARIABLES = frozenset({"lexical_declaration", "variable_declaration"})
_COMMONJS = """
(member_expression object: (identifier) @m property: (property_identifier) @p
  (#eq? @m "module") (#eq? @p "exports")) @cjs
((identifier) @cjs (#eq? @cjs "exports"))
(call_expression function: (identifier) @d (#eq? @d "define")) @cjs
"""


class ExportSet(NamedTuple):
    names: frozenset[str]
    stars: tuple[str, ...] = ()
    uncertain: str | None = None
    #: The names come from a ``.d.ts``'s ``export = Namespace``: certain for TypeScript
    #: importers only (a JavaScript importer gets whatever the runtime module is).
    typescript_only: bool = False


def read_exports(
    tree: "Tree",
    language: str,
    declaration_file: bool = False,
    *,
    jsdoc: bool = True,
    commonjs: bool = True,
) -> ExportSet:
    """``declaration_file``: a ``.d.ts``, where declarations may be exported implicitly.
    ``jsdoc=False`` leaves out JSDoc types, which exist only for TypeScript's ``checkJs``.
    ``commonjs=False`` never lists a CommonJS set (an installed package: its build may
    differ from what the file shows)."""
    root = tree.root_node
    error = _open_error(root)
    if error is not None:
        return ExportSet(frozenset(), uncertain=error)
    if declaration_file:
        equals = export_equals(root)
        if equals is not None:
            return equals
    names: set[str] = set(implicit_exports(root) if declaration_file else ())
    stars: list[str] = []
    uncertain: str | None = None
    is_module = False
    for node in root.named_children:
        if node.type in ("import_statement", "export_statement"):
            is_module = True
        if node.type != "export_statement":
            continue
        uncertain = uncertain or _export(node, names, stars)
    system = _commonjs(root, language) if uncertain is None else None
    if system == "amd" or (system == "commonjs" and (is_module or not commonjs)):
        uncertain = "it uses CommonJS or AMD exports"
    elif system == "commonjs":
        from tribunal.analyzers.hallucinated_symbol.js_commonjs import commonjs_exports

        enumerated, why = commonjs_exports(root)
        names.update(enumerated or ())
        uncertain = None if enumerated is not None else f"its CommonJS exports: {why}"
        is_module = True
    if uncertain is None and not is_module:
        uncertain = "it has no import or export: a script, or a module this reader cannot see"
    if jsdoc and language == "javascript" and b"@" in (root.text or b""):
        typedefs = jsdoc_types((root.text or b"").decode("utf-8", "replace"))
        if typedefs is None:
            uncertain = uncertain or "it declares JSDoc types this reader cannot name"
        names.update(typedefs or ())
    return ExportSet(frozenset(names), tuple(stars), uncertain)


_JSDOC_TYPE = lazy(r"@(?:typedef|callback)\b")
_IDENTIFIER = lazy(r"\s*([A-Za-z_$][\w$]*)")
_MAX_JSDOC_TYPE = 4000


_EXPORT_WORD = re.compile(rb"\bexport\b")


def export_equals(root: "Node") -> ExportSet | None:
    """``export = X`` in a ``.d.ts`` where ``X`` is one namespace declared once in the file,
    beside no other export: its members, fully expanded, plus ``default`` (interop). None
    when the file has no ``export =``; uncertain for anything else (a class's statics, an
    interface, declaration merging, a re-export)."""
    statements = [n for n in root.named_children if n.type != "comment"]
    equals = [n for n in statements if n.type == "export_statement" and _has_equals(n)]
    if not equals:
        return None
    uncertain = ExportSet(frozenset({"default"}), uncertain="it uses `export =`")
    value = equals[0].named_children[-1] if equals[0].named_children else None
    others = [n for n in statements if n.type == "export_statement" and n is not equals[0]]
    if len(equals) > 1 or others or value is None or value.type != "identifier":
        return uncertain
    name = js.text(value)
    bound = [n for n in statements if name in declared_names(n)]
    if len(bound) != 1:
        return uncertain  # merged declarations (a function and a namespace), or none
    namespace = bound[0].named_children[0] if bound[0].type == "ambient_declaration" else bound[0]
    body = namespace.child_by_field_name("body") if namespace.type == "internal_module" else None
    if body is None or body.has_error:
        return uncertain
    members: set[str] = {"default"}
    for member in body.named_children:
        inner = (
            member.child_by_field_name("declaration") if member.type == "export_statement" else None
        )
        members.update(declared_names(inner or member))
        if member.type == "export_statement" and inner is None:
            clause = [c for c in member.named_children if c.type == "export_clause"]
            if not clause:
                return uncertain
            members.update(_clause_names(clause[0]))
    return ExportSet(frozenset(members), typescript_only=True)


def _has_equals(node: "Node") -> bool:
    return any(c.type == "=" for c in node.children)


def _open_error(root: "Node") -> str | None:
    """Why the file's parse errors may hide exports; None when every one sits inside the
    body of a top-level declaration whose name and export status the tree still shows.

    tree-sitter-typescript 0.23.2 (the newest) rejects some valid TypeScript, such as a
    call signature on its own line after a member without ``;`` in a type literal.
    """
    for error in js.error_nodes(root):
        if _type_only_star(error):
            continue
        top = error
        while top.parent is not None and top.parent != root:
            top = top.parent
        if top.parent is None or top == error or top.is_error:
            return "it has a syntax error at the top level, where an export could hide"
        exported = top.type == "export_statement"
        declaration = top.child_by_field_name("declaration") if exported else top
        if declaration is None or not declared_names(declaration):
            return "it has a syntax error this parser cannot read"
        if error.parent in (top, declaration):
            return "it has a syntax error this parser cannot read"
        rest = (top.text or b"")[len(b"export") if exported else 0 :]
        if _EXPORT_WORD.search(rest):
            line = js.first_line(top)
            return f"a syntax error in its statement at line {line} may hide an export"
    return None


def _type_only_star(error: "Node") -> bool:
    """``export type * from`` (TypeScript 5.0), whose ``type`` the grammar reads as an ERROR:
    the statement is still a star re-export, of types only."""
    parent = error.parent
    return (
        parent is not None
        and parent.type == "export_statement"
        and js.text(error) == "type"
        and parent.child_by_field_name("source") is not None
        and any(c.type in ("*", "namespace_export") for c in parent.children)
    )


def jsdoc_types(text: str) -> list[str] | None:
    """Types a JS module exports through JSDoc ``@typedef`` / ``@callback`` (for TypeScript's
    ``checkJs``); None when a tag's name cannot be read."""
    out = []
    for match in _JSDOC_TYPE().finditer(text):
        index = match.end()
        while index < len(text) and text[index] in " \t":
            index += 1
        if text.startswith("{", index):
            index = _after_braces(text, index)
        name = _IDENTIFIER().match(text, index) if index >= 0 else None
        if name is None:
            return None
        out.append(name[1])
    return out


def _after_braces(text: str, index: int) -> int:
    """Where the ``{...}`` group opening at ``index`` ends; -1 when it does not close soon.

    Bounded: a JSDoc type is short, and a scan to the end of the text from
    every tag of a file full of unclosed ``@typedef {`` would be quadratic.
    """
    depth = 0
    for offset, char in enumerate(text[index : index + _MAX_JSDOC_TYPE]):
        depth += {"{": 1, "}": -1}.get(char, 0)
        if depth == 0:
            return index + offset + 1
    return -1


def _export(node: "Node", names: set[str], stars: list[str]) -> str | None:
    """Add what one ``export`` statement exports; the reason when it defies enumeration."""
    children = {c.type for c in node.children}
    if "=" in children:
        return "it uses `export =`"
    declaration = node.child_by_field_name("declaration")
    if "default" in children:
        names.add("default")  # ``export default class Foo`` exports no ``Foo``
    elif declaration is not None:
        names.update(declared_names(declaration))
    source = node.child_by_field_name("source")
    for child in node.named_children:
        if child.type == "export_clause":
            names.update(_clause_names(child))
        elif child.type == "namespace_export":
            names.update(js.text(c) for c in child.named_children if c.type == "identifier")
    if source is not None and "*" in children and "namespace_export" not in children:
        specifier = js.string_value(source)
        if specifier is None:
            return "it re-exports from a computed specifier"
        stars.append(specifier)
    return None


def declared_names(node: "Node") -> list[str]:
    """Names a declaration binds (``declare`` wrappers and destructuring included)."""
    if node.type == "ambient_declaration":
        return [n for child in node.named_children for n in declared_names(child)]
    if node.type in _NAMED:
        name = node.child_by_field_name("name")
        if name is not None and name.type == "nested_identifier":
            return [js.text(name).split(".", 1)[0].strip()]  # ``namespace A.B`` declares ``A``
        return [js.text(name)] if name is not None and name.type != "string" else []
    if node.type in _VARIABLES:
        out: list[str] = []
        for declarator in node.named_children:
            if declarator.type == "variable_declarator":
                target = declarator.child_by_field_name("name")
                out += pattern_names(target) if target is not None else []
        return out
    if node.type == "import_alias":
        return [js.text(c) for c in node.named_children[:1] if c.type == "identifier"]
    return []


def implicit_exports(root: "Node") -> list[str]:
    """What a ``.d.ts`` exports without ``export``: every top-level declaration, unless the
    file has an export declaration (``export {}``, ``export *``, ``export =``, ``export
    default <expr>``), which turns that off (TypeScript's "export context" rule)."""
    statements = root.named_children
    if any(_is_export_declaration(node) for node in statements):
        return []
    out: list[str] = []
    for node in statements:
        if node.type != "export_statement":
            out += declared_names(node)
    return out


def _is_export_declaration(node: "Node") -> bool:
    if node.type != "export_statement":
        return False
    kinds = {c.type for c in node.children}
    if kinds & {"export_clause", "*", "=", "namespace_export"}:
        return True
    return "default" in kinds and node.child_by_field_name("declaration") is None


def pattern_names(node: "Node") -> list[str]:
    """Identifiers a binding pattern binds: ``{ a, b: c, ...d }``, ``[e, , f = 1]``."""
    if node.type in ("identifier", "shorthand_property_identifier_pattern"):
        return [js.text(node)]
    if node.type == "pair_pattern":
        value = node.child_by_field_name("value")
        return pattern_names(value) if value is not None else []
    if node.type in ("assignment_pattern", "object_assignment_pattern"):
        left = node.child_by_field_name("left")
        if left is None and node.named_children:
            left = node.named_children[0]
        return pattern_names(left) if left is not None else []
    out: list[str] = []
    if node.type in ("object_pattern", "array_pattern", "rest_pattern"):
        for child in node.named_children:
            out += pattern_names(child)
    return out


def _clause_names(clause: "Node") -> list[str]:
    out = []
    for spec in clause.named_children:
        if spec.type != "export_specifier":
            continue
        node = spec.child_by_field_name("alias") or spec.child_by_field_name("name")
        if node is not None:
            out.append(js.string_value(node) if node.type == "string" else js.text(node))
    return [n for n in out if n]


def _commonjs(root: "Node", language: str) -> str | None:
    """``amd`` for a ``define()`` call, ``commonjs`` for ``module.exports`` / ``exports``."""
    source = root.text or b""
    if b"exports" not in source and b"define" not in source:
        return None  # the query matches only those words as written: skip compiling it
    found = None
    for node in js.captures(js.query(language, _COMMONJS), root).get("cjs", []):
        parent = node.parent
        if (
            node.type == "identifier"
            and parent is not None
            and parent.type in ("import_specifier", "export_specifier")
        ):
            continue
        if node.type == "call_expression":
            return "amd"
        found = "commonjs"
    return found
