"""The Python half: which imports the change touched, and what it removed.

An import is in scope when the diff adds, changes or deletes a line of its
statement, or when its file moved (every relative import then means something
new). What the change removed — deleted or renamed modules, names a changed
module no longer defines — is what the broken-importers rule looks for in the
files the diff did not touch.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from tribunal.analyzers.hallucinated_symbol.language import ImportHalf, Removal
from tribunal.analyzers.hallucinated_symbol.python_imports import PyImport, imports_of_tree
from tribunal.analyzers.hallucinated_symbol.python_names import IMPLICIT, own_names
from tribunal.analyzers.hallucinated_symbol.tree import Side
from tribunal.change.diff.model import FileChange
from tribunal.lang.paths import language_of
from tribunal.lang.treepaths import parent_dir
from tribunal.lang.trees import python_tree

if TYPE_CHECKING:
    from tribunal.analyzers.hallucinated_symbol.python_judge import PySide
    from tribunal.analyzers.hallucinated_symbol.python_resolve import PyModule

LANGUAGE = "python"
GLOBS = ("*.py", "*.pyi")


class PythonImports(ImportHalf[PyImport, "PySide"]):
    """Python imports of a run: touched ones judged at head, removals found for the rest."""

    language: str = LANGUAGE
    globs: tuple[str, ...] = GLOBS

    def _resolution(self, side: Side) -> PySide:
        # Roots, manifests and the installed environment load only once an import is judged.
        from tribunal.analyzers.hallucinated_symbol.python_judge import PySide

        return PySide(self.run, side)

    def _read_imports(self, side: Side, path: str) -> list[PyImport] | None:
        source = self.run.tree(side).read(path)
        tree = python_tree(source) if source is not None else None
        return imports_of_tree(tree) if tree is not None else None

    def mentions(self, imp: PyImport, words: frozenset[str]) -> bool:
        parts = set(imp.module.split(".")) | {n.name for n in imp.names}
        return not parts.isdisjoint(words)

    # -- what the change removed -------------------------------------------------------

    def _is_ours(self, path: str) -> bool:
        return language_of(path) == LANGUAGE

    def _module_stem(self, path: str) -> str:
        name = path.rpartition("/")[2]
        stem = name.rpartition(".")[0]
        return parent_dir(path).rpartition("/")[2] if stem == "__init__" else stem

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


def _as_module(path: str) -> PyModule:
    # Loaded with the resolvers: only a module that may have lost names gets here.
    from tribunal.analyzers.hallucinated_symbol.python_resolve import PyModule

    is_init = path.rpartition("/")[2].startswith("__init__.")
    return PyModule(path, (path,), parent_dir(path) if is_init else None)
