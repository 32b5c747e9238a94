"""Ambient module declarations: ``declare module 'x' { ... }`` and ``declare module '*.svg'``.

TypeScript accepts an import of a module that no file provides when a
declaration file of the program declares it: an exact name wins before
resolution is even tried (for non-relative specifiers), and a wildcard
pattern (``*.svg``, ``virtual:*``) answers when resolution fails. Bundler
plugins, code generators and asset loaders rely on this, so a specifier that a
declaration names is never reported as certainly missing. The declarations are
found by one ``git grep`` of the head tree, run only when a contradiction is
about to be reported, and read with tree-sitter.

A relative ``declare module './x'`` inside a module is an augmentation: it
cannot make a missing file exist, but it adds names to ``./x``, so a name that
file lacks is not certainly missing when an augmentation resolves to it.
"""

from collections.abc import Callable
from functools import cached_property
from typing import NamedTuple

from tribunal.analyzers.hallucinated_symbol.context import Run
from tribunal.git.treegrep import grep_files
from tribunal.lang.js import syntax as js
from tribunal.lang.paths import language_of
from tribunal.lang.trees import js_tree

#: Files read for declarations; a repository with more gets no contradiction from them.
MAX_FILES = 300
_GLOBS = ("*.ts", "*.tsx", "*.mts", "*.cts")
_QUERY = "(module name: (string) @name)"


class Declared(NamedTuple):
    """The declared names: ``exact`` ones, wildcard ``patterns``, relative ``augmentations``
    as (declaring file, specifier); ``doubt`` if unknown."""

    exact: frozenset[str]
    patterns: tuple[str, ...]
    augmentations: tuple[tuple[str, str], ...] = ()
    doubt: str | None = None


class AmbientModules:
    """The ambient module declarations of the head tree, found on first use."""

    def __init__(self, run: Run) -> None:
        self.run = run

    @cached_property
    def declared(self) -> Declared:
        files = grep_files(self.run.change, ("declare module",), _GLOBS)
        if files is None:
            return Declared(frozenset(), (), doubt="git could not search for `declare module`")
        if len(files) > MAX_FILES:
            return Declared(frozenset(), (), doubt=f"{len(files)} files declare ambient modules")
        names: set[str] = set()
        augmentations: list[tuple[str, str]] = []
        for path in files:
            found = self._names_in(path)
            names |= found
            augmentations += sorted((path, n) for n in found if n.startswith("."))
        exact = frozenset(n for n in names if "*" not in n)
        patterns = tuple(sorted(n for n in names if "*" in n))
        return Declared(exact, patterns, tuple(augmentations))

    def _names_in(self, path: str) -> set[str]:
        source = self.run.tree("head").read(path)
        language = language_of(path)
        if source is None or language is None:
            return set()
        root = js_tree(source, language).root_node
        found = js.find(language, _QUERY, root).get("name", [])
        return {value for node in found if (value := js.string_value(node)) is not None}

    def doubt(self, specifier: str) -> str | None:
        """Why ``specifier`` may be provided by a declaration rather than a file."""
        declared = self.declared
        if declared.doubt is not None:
            return declared.doubt
        if specifier in declared.exact and not specifier.startswith("."):
            return f"an ambient `declare module '{specifier}'` declares it"
        for pattern in declared.patterns:
            if _matches(pattern, specifier):
                return f"the ambient `declare module '{pattern}'` matches it"
        return None

    def augmented(self, target: str, resolve: Callable[[str, str], str | None]) -> str | None:
        """Why names missing from the file ``target`` may be added by an augmentation;
        ``resolve(importer, specifier)`` is the judge's resolution, to a path or None."""
        declared = self.declared
        if declared.doubt is not None:
            return declared.doubt
        for path, specifier in declared.augmentations:
            if resolve(path, specifier) == target:
                return f"`declare module '{specifier}'` in {path} may add names to it"
        return None


def _matches(pattern: str, specifier: str) -> bool:
    """TypeScript's pattern rule: one ``*``, a prefix and a suffix around it."""
    prefix, _, suffix = pattern.partition("*")
    return (
        len(specifier) >= len(prefix) + len(suffix)
        and specifier.startswith(prefix)
        and specifier.endswith(suffix)
    )
