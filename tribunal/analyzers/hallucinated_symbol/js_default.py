"""Whether a missing default export is certain: only where no interop can synthesize one.

Seed 001 never flags a default import, because CommonJS interop
(``esModuleInterop``, ``allowSyntheticDefaultImports``, bundlers, Node's ESM
loader) hands ``module.exports`` to ``import x``. No interop applies when both
files are TypeScript or ES-module sources of the repository and the target is
not CommonJS-format: TypeScript 5 then reports TS1192 ("has no default
export") under every ``module`` / ``esModuleInterop`` setting, and the bundlers
and Node give ``undefined`` or a link error. The target's format is CommonJS
when it is ``.cjs`` / ``.cts``, or, under ``module`` / ``moduleResolution``
``node16`` / ``nodenext``, a ``.ts`` / ``.js`` file whose nearest
``package.json`` does not say ``"type": "module"`` (an ESM importer then gets
``module.exports`` as its default). A JS file is an ES-module source only when
its nearest ``package.json`` says ``"type": "module"`` or it is ``.mjs``.
``certain_format`` returns why a default cannot be synthesized, or None.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tribunal.analyzers.hallucinated_symbol.tsconfig import TsConfig
from tribunal.lang.paths import language_of
from tribunal.lang.treepaths import parent_dir

#: ``module`` / ``moduleResolution`` values under which Node decides a file's format.
_NODE_FORMATS = frozenset({"node16", "node18", "node20", "nodenext"})
_DECLARATION = (".d.ts", ".d.mts", ".d.cts")
_TS = (".ts", ".tsx", ".mts")
_JS = (".js", ".jsx", ".mjs")

#: The nearest ``package.json`` above a directory: (its directory, its contents) or None.
Nearest = Callable[[str], tuple[str, dict[str, Any]] | None]


def certain_format(importer: str, target: str, config: TsConfig, nearest: Nearest) -> str | None:
    """Why ``target`` cannot get a synthesized default when ``importer`` imports it."""
    if config.uncertain is not None:
        return None
    if not (_source(importer, nearest) and _source(target, nearest)):
        return None
    if target.endswith((".mts", ".mjs")):
        return f"{target} is an ES module"
    node_format = {config.module or "", config.module_resolution or ""} & _NODE_FORMATS
    esm = _type_module(target, nearest)
    if node_format and not esm:
        return None  # CommonJS under Node's rules: an ESM importer gets module.exports
    how = 'under its package\'s "type": "module"' if esm else "with ES export syntax"
    return f"{target} is an ES module {how}"


def _source(path: str, nearest: Nearest) -> bool:
    """A TypeScript source, or an ES-module JavaScript source (not a declaration file)."""
    if path.endswith(_DECLARATION) or language_of(path) is None:
        return False
    if path.endswith(_TS):
        return True
    return path.endswith(".mjs") or (path.endswith(_JS) and _type_module(path, nearest))


def _type_module(path: str, nearest: Nearest) -> bool:
    found = nearest(parent_dir(path))
    return found is not None and found[1].get("type") == "module"
