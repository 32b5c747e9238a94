"""The export set of a JS/TS module, read statically, for ``no-public-api-change``.

The names are the ones hallucinated-symbol reads (``read_exports``), so the two
agree on every form: declarations (values and TypeScript types), ``export
default``, ``export { a as b }``, ``export * as ns``, a ``.d.ts``'s implicit
exports. Added here: ``export * from './x'`` is followed into the file it names
when that file is in the tree. What ``read_exports`` cannot enumerate becomes a
doubt: ``export =``, CommonJS or AMD that is not fully enumerable (``js_commonjs``;
tsc's ``Object.defineProperty(exports, ...)`` output is), a parse error, and a file with
no import or export (a script: in TypeScript or a browser its top-level names
are globals, so they may be API), as does an ``export *`` that cannot be
followed. JSDoc ``@typedef`` names are left out: they are types only under
``checkJs``, so documenting a parameter must not read as a new export. A
single-file component (``.vue``, ``.svelte``) exports its component as
``default`` and what its Vue plain ``<script>`` / Svelte module script exports
(``js_sfc``); a script block it cannot read is a doubt.
"""

from __future__ import annotations

import posixpath

from tribunal.analyzers.hallucinated_symbol.js_exports import read_exports
from tribunal.claims.surface_py import Reader, Surface
from tribunal.lang.paths import is_js_family, language_of
from tribunal.lang.sfc import is_sfc
from tribunal.lang.trees import js_tree

_EXTENSIONS = (".ts", ".tsx", ".d.ts", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts")
_MAX_DEPTH = 8


def module_exports(path: str, read: Reader, _seen: frozenset[str] = frozenset()) -> Surface:
    """The names ``path`` exports on the side ``read`` reads from."""
    source = read(path)
    language = language_of(path)
    if source is not None and is_sfc(path):
        from tribunal.analyzers.hallucinated_symbol.js_sfc import component_exports

        found = component_exports(source, path)
        doubts = [f"{path}: its exports cannot be enumerated: {found.uncertain}"]
        return Surface(names=set(found.names), doubts=doubts if found.uncertain else [])
    if source is None or language is None or not is_js_family(language):
        return Surface(doubts=[f"{path}: could not be read"])
    declaration = path.endswith((".d.ts", ".d.mts", ".d.cts"))
    own = read_exports(js_tree(source, language), language, declaration, jsdoc=False)
    out = Surface(names=set(own.names) - {"__esModule"})  # an interop marker, not API
    if own.uncertain is not None:
        out.doubts.append(f"{path}: its exports cannot be enumerated: {own.uncertain}")
    for spec in own.stars:
        _star(spec, path, read, _seen | {path}, out)
    return out


def _star(spec: str, path: str, read: Reader, seen: frozenset[str], out: Surface) -> None:
    target = resolve(path, spec, read)
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
