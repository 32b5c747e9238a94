"""The JS/TS half: which imports the change touched, and what it removed.

An import or re-export is in scope when the diff adds, changes or deletes a
line of its statement, or when its file moved. What the change removed —
deleted or moved modules, names a changed module no longer exports — is what
the broken-importers rule looks for in files the diff did not touch.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cached_property

from tribunal.analyzers.hallucinated_symbol.context import Run
from tribunal.analyzers.hallucinated_symbol.js_imports import JsImport, read_imports
from tribunal.analyzers.hallucinated_symbol.js_judge import ScriptSide
from tribunal.analyzers.hallucinated_symbol.language import Removal
from tribunal.analyzers.hallucinated_symbol.outcome import Outcome, statement_touched
from tribunal.analyzers.hallucinated_symbol.pathutil import parent_dir
from tribunal.analyzers.hallucinated_symbol.tree import Side
from tribunal.diff.model import FileChange, Status
from tribunal.findings import Finding, Verdict
from tribunal.lang.trees import js_tree
from tribunal.paths import is_js_family, language_of

_GLOBS = ("*.js", "*.jsx", "*.mjs", "*.cjs", "*.ts", "*.tsx", "*.mts", "*.cts")
_STEM = re.compile(r"(\.d)?\.[cm]?[jt]sx?$")


class ScriptImports:
    """JS/TS imports of a run: touched ones judged at head, removals found for the rest."""

    language: str = "javascript"
    globs: tuple[str, ...] = _GLOBS
    languages: tuple[str, ...] = ("javascript", "typescript", "tsx")

    def __init__(self, run: Run) -> None:
        self.run = run
        self._parsed: dict[tuple[Side, str], list[JsImport] | None] = {}

    @cached_property
    def head(self) -> ScriptSide:
        return ScriptSide(self.run, "head")

    @cached_property
    def base(self) -> ScriptSide:
        return ScriptSide(self.run, "base")

    def side(self, side: Side) -> ScriptSide:
        return self.head if side == "head" else self.base

    def imports(self, side: Side, path: str) -> list[JsImport] | None:
        key = (side, path)
        if key not in self._parsed:
            language = language_of(path)
            source = self.run.tree(side).read(path)
            if source is None or not is_js_family(language):
                self._parsed[key] = None
            else:
                assert language is not None
                self._parsed[key] = read_imports(js_tree(source, language), language)
        return self._parsed[key]

    def touched(self, fc: FileChange) -> list[JsImport]:
        imports = self.imports("head", fc.path) or []
        if fc.status in (Status.RENAMED, Status.COPIED):
            return imports
        return [imp for imp in imports if statement_touched(fc, imp.line, imp.end_line)]

    def judge_file(self, fc: FileChange) -> Iterator[Finding]:
        language = language_of(fc.path) or self.language
        seen: set[tuple[int, str]] = set()
        for imp in self.touched(fc):
            for outcome in self.head.judge(fc.path, imp):
                if outcome.verdict is Verdict.PASS or (outcome.line, outcome.title) in seen:
                    continue
                seen.add((outcome.line, outcome.title))
                yield outcome.finding(fc.path, language)

    def judge(self, side: Side, path: str, imp: JsImport) -> list[Outcome]:
        return self.side(side).judge(path, imp)

    def mentions(self, imp: JsImport, words: frozenset[str]) -> bool:
        stems = {_STEM.sub("", part) for part in imp.specifier.split("/")}
        return not words.isdisjoint(stems | {n.name for n in imp.names})

    # -- what the change removed -------------------------------------------------------

    def removals(self) -> Iterator[Removal]:
        for fc in self.run.change.files:
            if fc.skip_reason is not None or fc.old_path is None:
                continue
            if not is_js_family(language_of(fc.old_path)):
                continue
            if fc.status is Status.DELETED or fc.path != fc.old_path:
                what = "deleted" if fc.status is Status.DELETED else f"moved to {fc.path}"
                yield Removal(module_stem(fc.old_path), f"{fc.old_path} was {what} by this change")
            if fc.status is not Status.DELETED and is_js_family(language_of(fc.path)):
                yield from self._names_gone(fc)

    def _names_gone(self, fc: FileChange) -> Iterator[Removal]:
        assert fc.old_path is not None
        before = self.base.exports(self.base.tree, fc.old_path).names
        after = self.head.exports(self.head.tree, fc.path).names
        for name in sorted(before - after - {"default"}):
            yield Removal(name, f"{fc.path} no longer exports {name!r} (changed by this change)")


def module_stem(path: str) -> str:
    """What a specifier names a module file by: ``a/b.ts`` -> ``b``; ``a/index.ts`` -> ``a``."""
    stem = _STEM.sub("", path.rpartition("/")[2])
    return parent_dir(path).rpartition("/")[2] if stem == "index" else stem
