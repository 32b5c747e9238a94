"""The Python half: which imports the change touched, and what it removed.

An import is in scope when the diff adds, changes or deletes a line of its
statement, or when its file moved (every relative import then means something
new). What the change removed — deleted or renamed modules, names a changed
module no longer defines — is what the broken-importers rule looks for in the
files the diff did not touch.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cached_property
from typing import TYPE_CHECKING

from tribunal.analyzers.hallucinated_symbol.context import Run
from tribunal.analyzers.hallucinated_symbol.language import Removal
from tribunal.analyzers.hallucinated_symbol.outcome import Outcome, statement_touched
from tribunal.analyzers.hallucinated_symbol.pathutil import parent_dir
from tribunal.analyzers.hallucinated_symbol.python_imports import PyImport, imports_of_tree
from tribunal.analyzers.hallucinated_symbol.python_names import IMPLICIT, own_names
from tribunal.analyzers.hallucinated_symbol.tree import Side
from tribunal.diff.model import FileChange, Status
from tribunal.findings import Finding, Verdict
from tribunal.lang.trees import python_tree
from tribunal.paths import language_of

if TYPE_CHECKING:
    from tribunal.analyzers.hallucinated_symbol.python_judge import PySide
    from tribunal.analyzers.hallucinated_symbol.python_resolve import PyModule

LANGUAGE = "python"
GLOBS = ("*.py", "*.pyi")


class PythonImports:
    """Python imports of a run: touched ones judged at head, removals found for the rest."""

    language: str = LANGUAGE
    globs: tuple[str, ...] = GLOBS

    def __init__(self, run: Run) -> None:
        self.run = run
        self._parsed: dict[tuple[Side, str], list[PyImport] | None] = {}

    @cached_property
    def head(self) -> PySide:
        return self._resolution("head")

    @cached_property
    def base(self) -> PySide:
        return self._resolution("base")

    def _resolution(self, side: Side) -> PySide:
        # Roots, manifests and the installed environment load only once an import is judged.
        from tribunal.analyzers.hallucinated_symbol.python_judge import PySide

        return PySide(self.run, side)

    def side(self, side: Side) -> PySide:
        return self.head if side == "head" else self.base

    def imports(self, side: Side, path: str) -> list[PyImport] | None:
        key = (side, path)
        if key not in self._parsed:
            source = self.run.tree(side).read(path)
            tree = python_tree(source) if source is not None else None
            self._parsed[key] = imports_of_tree(tree) if tree is not None else None
        return self._parsed[key]

    def touched(self, fc: FileChange) -> list[PyImport]:
        imports = self.imports("head", fc.path) or []
        if fc.status in (Status.RENAMED, Status.COPIED):
            return imports
        return [imp for imp in imports if statement_touched(fc, imp.line, imp.end_line)]

    def judge_file(self, fc: FileChange) -> Iterator[Finding]:
        """Findings for the imports the change touched in ``fc`` (head side)."""
        seen: set[tuple[int, str]] = set()
        for imp in self.touched(fc):
            for outcome in self.head.judge(fc.path, imp):
                if outcome.verdict is Verdict.PASS or (outcome.line, outcome.title) in seen:
                    continue
                seen.add((outcome.line, outcome.title))
                yield outcome.finding(fc.path, LANGUAGE)

    def judge(self, side: Side, path: str, imp: PyImport) -> list[Outcome]:
        return self.side(side).judge(path, imp)

    def mentions(self, imp: PyImport, words: frozenset[str]) -> bool:
        parts = set(imp.module.split(".")) | {n.name for n in imp.names}
        return not parts.isdisjoint(words)

    # -- what the change removed -------------------------------------------------------

    def removals(self) -> Iterator[Removal]:
        for fc in self.run.change.files:
            if fc.skip_reason is not None or fc.old_path is None:
                continue
            if language_of(fc.old_path) != LANGUAGE:
                continue
            if fc.status is Status.DELETED or fc.path != fc.old_path:
                yield self._module_gone(fc)
            if fc.status is not Status.DELETED:
                yield from self._names_gone(fc)

    def _module_gone(self, fc: FileChange) -> Removal:
        old = fc.old_path or fc.path
        stem = _module_stem(old)
        what = "deleted" if fc.status is Status.DELETED else f"moved to {fc.path}"
        return Removal(stem, f"{old} was {what} by this change")

    def _names_gone(self, fc: FileChange) -> Iterator[Removal]:
        assert fc.old_path is not None
        if not self._may_lose_names(fc.old_path, fc.path):
            return
        before = self.base.resolver.names(_as_module(fc.old_path)).names
        after = self.head.resolver.names(_as_module(fc.path)).names
        for name in sorted(before - after - IMPLICIT):
            yield Removal(name, f"{fc.path} no longer defines {name!r} (changed by this change)")

    def _may_lose_names(self, old_path: str, path: str) -> bool:
        """Whether the module may define fewer names at head, from its own two files alone.

        Its names are its own definitions plus what its star imports bring;
        with no star import at base, a name can go only if its own
        definitions lost it, and no resolver (roots, listings) is needed.
        """
        before = own_names(self.run.tree("base"), old_path)
        if before.stars:
            return True
        return not before.names <= own_names(self.run.tree("head"), path).names | IMPLICIT


def _module_stem(path: str) -> str:
    name = path.rpartition("/")[2]
    stem = name.rpartition(".")[0]
    return parent_dir(path).rpartition("/")[2] if stem == "__init__" else stem


def _as_module(path: str) -> PyModule:
    # Loaded with the resolvers: only a module that may have lost names gets here.
    from tribunal.analyzers.hallucinated_symbol.python_resolve import PyModule

    is_init = path.rpartition("/")[2].startswith("__init__.")
    return PyModule(path, (path,), parent_dir(path) if is_init else None)
