"""The JS/TS half: which imports the change touched, and what it removed.

An import or re-export is in scope when the diff adds, changes or deletes a
line of its statement, or when its file moved. What the change removed —
deleted or moved modules, names a changed module no longer exports — is what
the broken-importers rule looks for in files the diff did not touch.
"""

from __future__ import annotations

from collections.abc import Iterator

from tribunal.analyzers.hallucinated_symbol.js_exports import read_exports
from tribunal.analyzers.hallucinated_symbol.js_imports import JsImport, read_imports
from tribunal.analyzers.hallucinated_symbol.js_judge import ScriptSide, is_declaration
from tribunal.analyzers.hallucinated_symbol.js_sfc import component_imports
from tribunal.analyzers.hallucinated_symbol.language import ImportHalf, Removal
from tribunal.analyzers.hallucinated_symbol.tree import Side
from tribunal.change.diff.model import FileChange
from tribunal.lang.paths import is_js_family, language_of
from tribunal.lang.sfc import is_sfc
from tribunal.lang.treepaths import parent_dir
from tribunal.lang.trees import js_tree
from tribunal.util.lazyre import lazy

_GLOBS = ("*.js", "*.jsx", "*.mjs", "*.cjs", "*.ts", "*.tsx", "*.mts", "*.cts", "*.vue", "*.svelte")
_STEM = lazy(r"(\.d)?\.[cm]?[jt]sx?$|\.vue$|\.svelte$")


class ScriptImports(ImportHalf[JsImport, ScriptSide]):
    """JS/TS imports of a run: touched ones judged at head, removals found for the rest."""

    language: str = "javascript"
    globs: tuple[str, ...] = _GLOBS
    languages: tuple[str, ...] = ("javascript", "typescript", "tsx")

    def _resolution(self, side: Side) -> ScriptSide:
        return ScriptSide(self.run, side)

    def _read_imports(self, side: Side, path: str) -> list[JsImport] | None:
        language = language_of(path)
        source = self.run.tree(side).read(path)
        if source is not None and is_sfc(path):
            return component_imports(source)
        if source is None or not is_js_family(language):
            return None
        assert language is not None
        tree = js_tree(source, language)
        declaration = is_declaration(path)
        key = (side, path, declaration)
        if key not in self.run.own_exports:  # asked for later by importers and removals
            self.run.own_exports[key] = read_exports(tree, language, declaration)
        return read_imports(tree, language)

    def mentions(self, imp: JsImport, words: frozenset[str]) -> bool:
        stems = {_STEM().sub("", part) for part in imp.specifier.split("/")}
        return not words.isdisjoint(stems | {n.name for n in imp.names})

    # -- what the change removed -------------------------------------------------------

    def _is_ours(self, path: str) -> bool:
        return is_js_family(language_of(path)) or is_sfc(path)

    def _module_stem(self, path: str) -> str:
        return module_stem(path)

    def _names_gone(self, fc: FileChange) -> Iterator[Removal]:
        assert fc.old_path is not None
        if not self._is_ours(fc.path):
            return
        before = self.base.exports(self.base.tree, fc.old_path).names
        after = self.head.exports(self.head.tree, fc.path).names
        for name in sorted(before - after - {"default"}):
            yield Removal(name, f"{fc.path} no longer exports {name!r} (changed by this change)")


def module_stem(path: str) -> str:
    """What a specifier names a module file by: ``a/b.ts`` -> ``b``; ``a/index.ts`` -> ``a``."""
    stem = _STEM().sub("", path.rpartition("/")[2])
    return parent_dir(path).rpartition("/")[2] if stem == "index" else stem
