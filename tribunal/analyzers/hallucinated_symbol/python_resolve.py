"""Find Python modules in a tree the way the import system's path finder would.

At one directory a regular package (``x/__init__.py``) wins over a module
(``x.py``, ``x.pyi``), which wins over a namespace package (a bare directory).
A module's names are the union of its ``.py`` and ``.pyi`` files, with star
imports followed inside the same tree. Nothing is imported: every answer comes
from listings and ASTs, cached for the run.
"""

from collections.abc import Sequence
from typing import NamedTuple

from tribunal.analyzers.hallucinated_symbol.python_names import (
    IMPLICIT,
    ModuleNames,
    StarImport,
    own_names,
)
from tribunal.analyzers.hallucinated_symbol.tree import FileTree
from tribunal.lang.treepaths import join, relative_base


class PyModule(NamedTuple):
    """A module found in a tree. ``files`` are its sources; packages have ``package_dir``."""

    name: str
    files: tuple[str, ...]
    package_dir: str | None

    @property
    def is_package(self) -> bool:
        return self.package_dir is not None

    @property
    def namespace(self) -> bool:
        return self.package_dir is not None and not self.files

    @property
    def stub_only(self) -> bool:
        """Only a ``.pyi`` exists: the runtime module is compiled and may hold more."""
        return bool(self.files) and all(f.endswith(".pyi") for f in self.files)


class Missing(NamedTuple):
    """How far a dotted path got: ``parent`` (None at the root) lacks ``part``."""

    parent: PyModule | None
    part: str
    directory: str
    not_a_package: bool = False


class Names(NamedTuple):
    names: frozenset[str]
    uncertain: str | None = None


class Resolver:
    """Module lookups and name sets over one tree, with absolute imports from ``roots``."""

    def __init__(self, tree: FileTree, roots: Sequence[str]) -> None:
        self.tree = tree
        self.roots = tuple(roots)
        self._files: dict[str, ModuleNames] = {}
        self._names: dict[tuple[str, ...], Names] = {}
        self._active: set[tuple[str, ...]] = set()

    def child(self, directory: str, part: str, dotted: str) -> PyModule | None:
        """The module ``part`` directly inside ``directory``, by import precedence."""
        path = join(directory, part)
        inits = tuple(f for f in (f"{path}/__init__.py", f"{path}/__init__.pyi") if self._is(f))
        if inits:
            return PyModule(dotted, inits, path)
        files = tuple(f for f in (f"{path}.py", f"{path}.pyi") if self._is(f))
        if files:
            return PyModule(dotted, files, None)
        if part.isidentifier() and self.tree.is_dir(path):
            return PyModule(dotted, (), path)
        target = self.tree.link_target(path) if self.tree.is_file(path) else None
        if target is not None and target != path and self.tree.is_dir(target):
            return self.package_at(target, dotted)
        return None

    def _is(self, path: str) -> bool:
        return self.tree.is_file(path)

    def locate(self, start: str, parts: Sequence[str], prefix: str = "") -> PyModule | Missing:
        """Walk ``parts`` down from directory ``start``; ``prefix`` only names the result."""
        current: PyModule | None = None
        directory = start
        for part in parts:
            if current is not None and current.package_dir is None:
                return Missing(current, part, directory, not_a_package=True)
            dotted = f"{current.name}.{part}" if current else f"{prefix}{part}"
            found = self.child(directory, part, dotted)
            if found is None:
                return Missing(current, part, directory)
            current, directory = found, found.package_dir or ""
        assert current is not None
        return current

    def package_at(self, directory: str, name: str) -> PyModule:
        """The package a relative import names by its directory."""
        inits = (f"{directory}/__init__.py", f"{directory}/__init__.pyi")
        return PyModule(name, tuple(f for f in inits if self._is(f)), directory)

    def absolute(self, dotted: str) -> list[PyModule | Missing]:
        """One answer per root that holds the top-level name (none: not in this tree)."""
        parts = dotted.split(".")
        out: list[PyModule | Missing] = []
        for root in self.roots:
            if self.child(root, parts[0], parts[0]) is not None:
                out.append(self.locate(root, parts))
        return out

    def file_names(self, path: str) -> ModuleNames:
        if path not in self._files:
            self._files[path] = own_names(self.tree, path)
        return self._files[path]

    def names(self, module: PyModule) -> Names:
        """Everything ``module`` defines, star imports followed; cycles make it uncertain.

        Only an answer that followed star imports or joined files is kept: one file's
        names are kept already (``file_names``), and keeping their union with
        ``IMPLICIT`` too would hold a second set per module of a big change.
        """
        if len(module.files) == 1:
            found = self.file_names(module.files[0])
            if not found.stars:
                return Names(found.names | IMPLICIT, found.uncertain)
        key = (*module.files, module.package_dir or "")
        if key in self._names:
            return self._names[key]
        if key in self._active:
            return Names(frozenset(), "its star imports form a cycle")
        self._active.add(key)
        try:
            result = self._collect(module)
        finally:
            self._active.discard(key)
        self._names[key] = result
        return result

    def _collect(self, module: PyModule) -> Names:
        names: set[str] = set(IMPLICIT)
        starred: set[str] = set()  # an own ``__getattr__`` is judged by ``names_of_tree``
        uncertain: str | None = None
        for path in module.files:
            found = self.file_names(path)
            names |= found.names
            uncertain = uncertain or found.uncertain
            for star in found.stars:
                exported, why = self._star(path, star)
                names |= exported
                uncertain = uncertain or why
                starred |= exported
        if uncertain is None and "__getattr__" in starred:
            uncertain = "a module-level __getattr__ reaches it through a star import"
        return Names(frozenset(names), uncertain)

    def _star(self, path: str, star: StarImport) -> tuple[frozenset[str], str | None]:
        target = self.star_target(path, star)
        label = "." * star.level + star.module
        if target is None:
            return frozenset(), f"it star-imports {label!r}, which cannot be followed"
        exported, why = self.star_exports(target)
        return exported, why

    def star_target(self, path: str, star: StarImport) -> PyModule | None:
        if star.level:
            directory = relative_base(path, star.level)
            if directory is None:
                return None
            if not star.module:
                return self.package_at(directory, "." * star.level)
            found = self.locate(directory, star.module.split("."))
            return found if isinstance(found, PyModule) else None
        hits = [m for m in self.absolute(star.module) if isinstance(m, PyModule)]
        return hits[0] if len(hits) == 1 else None

    def star_exports(self, module: PyModule) -> tuple[frozenset[str], str | None]:
        """What ``from module import *`` binds: its static ``__all__``, else its public names.

        When that cannot be known exactly the answer errs on the side of more
        names (every name the module has) and says why it is uncertain.
        """
        full = self.names(module)
        listed: set[str] = set()
        has_all = dynamic = False
        for path in module.files:
            found = self.file_names(path)
            dynamic = dynamic or found.all_dynamic
            if found.exported is not None:
                has_all = True
                listed |= found.exported
        if dynamic:
            return full.names, full.uncertain or f"{module.name!r} computes its __all__"
        if has_all:
            return frozenset(listed), full.uncertain
        return frozenset(n for n in full.names if not n.startswith("_")), full.uncertain

    def submodules(self, module: PyModule) -> frozenset[str]:
        """Names importable as submodules of a package (for suggestions)."""
        if module.package_dir is None:
            return frozenset()
        out = set()
        for entry in self.tree.children(module.package_dir):
            stem = entry.removesuffix(".pyi").removesuffix(".py")
            listed = stem != entry or self.tree.is_dir(join(module.package_dir, entry))
            if stem.isidentifier() and stem != "__init__" and listed:
                out.add(stem)
        return frozenset(out)
