"""The export set of a JS/TS module, read statically.

Every ``export`` form: declarations (values and TypeScript types), ``export
default``, ``export { a as b }`` with or without ``from``, ``export * as ns``,
and ``export * from './x'``, which is followed into the file it names when
that file is in the tree. What cannot be enumerated becomes a doubt: an
``export *`` from a package or an unresolvable path, ``export =``, CommonJS
``module.exports`` / ``exports.x``, and syntax the parser could not read.
"""

from __future__ import annotations

import posixpath
from typing import TYPE_CHECKING

from tribunal.analyzers.hallucinated_symbol.js_exports import declared_names, implicit_exports
from tribunal.claims.surface_py import Reader, Surface
from tribunal.lang.js import field, text
from tribunal.lang.trees import js_tree
from tribunal.paths import is_js_family, language_of

if TYPE_CHECKING:
    from tree_sitter import Node

_EXTENSIONS = (".ts", ".tsx", ".d.ts", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts")
_NAMED = frozenset(
    {"function_declaration", "generator_function_declaration", "function_signature",
     "class_declaration", "abstract_class_declaration", "interface_declaration",
     "type_alias_declaration", "enum_declaration", "internal_module", "module"}
)  # fmt: skip
_MAX_DEPTH = 8


def module_exports(path: str, read: Reader, _seen: frozenset[str] = frozenset()) -> Surface:
    """The names ``path`` exports on the side ``read`` reads from."""
    source = read(path)
    language = language_of(path)
    if source is None or language is None or not is_js_family(language):
        return Surface(doubts=[f"{path}: could not be read"])
    root = js_tree(source, language).root_node
    out = Surface()
    if path.endswith((".d.ts", ".d.mts", ".d.cts")):
        out.names.update(implicit_exports(root))
    if root.has_error:
        out.doubts.append(f"{path}: has syntax the parser could not read")
    for statement in root.named_children:
        if statement.type == "export_statement":
            _export(statement, path, read, _seen | {path}, out)
        elif statement.type == "expression_statement" and _is_commonjs(statement):
            out.doubts.append(f"{path}: exports through CommonJS (module.exports / exports.x)")
    return out


def _export(node: Node, path: str, read: Reader, seen: frozenset[str], out: Surface) -> None:
    kinds = {child.type for child in node.children}
    declaration = field(node, "declaration")
    if "default" in kinds:
        out.names.add("default")
    elif "=" in kinds:
        out.doubts.append(f"{path}: uses `export =`")
    elif declaration is not None:
        out.names.update(_declared(declaration))
    elif "export_clause" in kinds:
        clause = next(c for c in node.named_children if c.type == "export_clause")
        for spec in clause.named_children:
            name = field(spec, "alias") or field(spec, "name")
            if name is not None:
                out.names.add(text(name).strip("'\""))
    elif "namespace_export" in kinds:
        namespace = next(c for c in node.named_children if c.type == "namespace_export")
        out.names.update(text(c) for c in namespace.named_children)
    elif "*" in kinds:
        _star(node, path, read, seen, out)
    else:
        out.doubts.append(f"{path}: an export form Tribunal does not read: {text(node)[:60]}")


def _star(node: Node, path: str, read: Reader, seen: frozenset[str], out: Surface) -> None:
    spec = _source(node)
    target = resolve(path, spec, read) if spec else None
    if target is None or target in seen or len(seen) > _MAX_DEPTH:
        out.doubts.append(f"{path}: `export * from '{spec}'` could not be followed")
        return
    inner = module_exports(target, read, seen)
    out.names.update(n for n in inner.names if n != "default")
    out.doubts += inner.doubts


def resolve(path: str, spec: str, read: Reader) -> str | None:
    """The file a relative module specifier names, as bundlers and ``tsc`` look for it."""
    if not spec.startswith("."):
        return None
    stem = posixpath.normpath(posixpath.join(posixpath.dirname(path), spec))
    candidates = [stem] if posixpath.splitext(stem)[1] else []
    for js_ext, ts_exts in ((".js", (".ts", ".tsx")), (".mjs", (".mts",)), (".cjs", (".cts",))):
        if stem.endswith(js_ext):
            candidates += [stem[: -len(js_ext)] + ext for ext in ts_exts]
    candidates += [stem + ext for ext in _EXTENSIONS]
    candidates += [f"{stem}/index{ext}" for ext in _EXTENSIONS]
    return next((c for c in candidates if read(c) is not None), None)


def _declared(node: Node) -> set[str]:
    """Names a declaration binds: the reader hallucinated-symbol uses, so both agree."""
    return set(declared_names(node))


def _source(node: Node) -> str:
    source = field(node, "source")
    return text(source)[1:-1] if source is not None else ""


def _is_commonjs(statement: Node) -> bool:
    expression = statement.named_children[0] if statement.named_children else None
    if expression is None or expression.type != "assignment_expression":
        return False
    left = field(expression, "left")
    target = text(left) if left is not None else ""
    return target == "module.exports" or target.startswith(("exports.", "module.exports."))
