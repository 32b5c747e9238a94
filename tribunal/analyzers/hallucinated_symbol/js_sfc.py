"""Single-file components (``.vue``, ``.svelte``) as modules: their imports and exports.

A component's ``<script>`` blocks are read as JS/TS (``tribunal.lang.sfc``):
their imports are judged like any module's, on the component's own lines. As a
target, a component always has a default export (the component); named
exports come only from Vue's plain ``<script>`` (never ``<script setup>``,
never props) and Svelte's module script (``context="module"``, ``module``),
never from the instance script (``export let`` declares props). A block in a
``lang`` Tribunal cannot parse, or with ``src=``, leaves the named exports
uncertain.
"""

from __future__ import annotations

from tribunal.analyzers.hallucinated_symbol.js_exports import ExportSet, read_exports
from tribunal.analyzers.hallucinated_symbol.js_imports import JsImport, JsName, read_imports
from tribunal.change.model import Source
from tribunal.lang.sfc import ScriptBlock, script_blocks, unreadable
from tribunal.lang.trees import js_tree


def component_imports(source: Source) -> list[JsImport]:
    """The imports of every readable script block, on the component's lines."""
    out: list[JsImport] = []
    for block in script_blocks(source):
        if block.language is None:
            continue
        for imp in read_imports(js_tree(block.source, block.language), block.language):
            out.append(_shifted(imp, block.line_offset))
    return out


def component_exports(source: Source, path: str) -> ExportSet:
    """``default`` and the named exports of the block that may have them."""
    names = {"default"}
    stars: list[str] = []
    for block in script_blocks(source):
        if not _may_export(block, path):
            continue
        why = unreadable(block)
        if why is not None or block.language is None:
            return ExportSet(frozenset(names), uncertain=why)
        found = read_exports(js_tree(block.source, block.language), block.language, jsdoc=False)
        if found.uncertain and "no import or export" not in found.uncertain:
            return ExportSet(frozenset(names | found.names), uncertain=found.uncertain)
        names |= found.names
        stars += found.stars
    uncertain = f"its script re-exports everything of {stars[0]!r}" if stars else None
    return ExportSet(frozenset(names), uncertain=uncertain)


def _may_export(block: ScriptBlock, path: str) -> bool:
    if path.lower().endswith(".svelte"):
        return block.module
    return not block.setup


def _shifted(imp: JsImport, offset: int) -> JsImport:
    names = tuple(JsName(n.name, n.line + offset) for n in imp.names)
    return imp._replace(line=imp.line + offset, end_line=imp.end_line + offset, names=names)
