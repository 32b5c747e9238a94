"""Parsed trees of file contents, shared by every analyzer of a run within one memory bound.

A tree costs forty to sixty times its file's bytes (a 1 KiB module: ~50 KiB of
``ast`` nodes, ~35 KiB of tree-sitter tree), so a run must not keep every tree
it parses: a 20,000-file commit would hold gigabytes. A change's trees live in
one cache of its own (``Change.tree_cache``, a ``tribunal.lru.BoundedCache``),
bounded by an estimate of their bytes and by a count, shared by every analyzer
and every lens of the run from any thread, and keyed by language and content:
the analyzers parse each side of a file once between them while it stays in the
cache, a file whose base and head are equal (a rename) is parsed once, and a
file read again after the change dropped its ``Source`` finds its tree still
there. The first trees of a run stay for the whole run (the next analyzer walks
the same files); the rest of the bound is least-recently-used. What analyzers
compute from a tree and share (``python_derived``/``js_derived``: test lists,
declarations, decorator spans) is kept in the same entry and goes with it, so
nothing that points into a tree outlives the bound. A ``Source`` made outside
a change (a package's file read from disk) uses one bounded cache for the
process. Parsers themselves come from ``tribunal.lang.js``.
"""

from __future__ import annotations

import ast
import os
import warnings
from collections.abc import Callable, Hashable
from typing import TYPE_CHECKING, TypeVar, cast

from tribunal.change import Source
from tribunal.lru import BoundedCache, CacheStats

if TYPE_CHECKING:
    from tree_sitter import Tree

T = TypeVar("T")

#: Memory (MiB, estimated) the run may keep in parsed trees; ``$TRIBUNAL_TREE_CACHE_MIB``.
CACHE_ENV = "TRIBUNAL_TREE_CACHE_MIB"
DEFAULT_MIB = 24
#: At most this many trees, whatever their size.
MAX_TREES = 4096
#: Bytes of tree per byte of source, measured (``ast``: ~53, tree-sitter: ~40).
_PYTHON_FACTOR = 56
_JS_FACTOR = 40


class _Parsed:
    """One file's tree, its estimated size, and what analyzers derived from it."""

    __slots__ = ("cost", "derived", "tree")

    def __init__(self, tree: object, language: str, size: int) -> None:
        self.tree = tree
        factor = _PYTHON_FACTOR if language == "python" else _JS_FACTOR
        self.cost = (factor + 1) * size + 1024  # the key holds the file's bytes too
        self.derived: dict[Hashable, object] = {}


def _budget_mib() -> int:
    value = os.environ.get(CACHE_ENV, "").strip()
    return int(value) if value.isdigit() and int(value) > 0 else DEFAULT_MIB


class _Bounds:
    """What ``configure`` set: the bounds of caches made from now on."""

    max_trees = MAX_TREES
    max_mib: int | None = None


#: A share of the bound that the first trees of a run keep (``tribunal.lru``).
PROTECTED_SHARE = 0.75


def new_cache() -> BoundedCache[tuple[str, bytes], _Parsed]:
    """A cache for one run's trees (``Change.tree_cache``), within the configured bound."""
    mib = _Bounds.max_mib if _Bounds.max_mib is not None else _budget_mib()
    return BoundedCache(_Bounds.max_trees, mib << 20, PROTECTED_SHARE)


#: Trees of sources made outside a change (a package's file read from disk).
_orphans = new_cache()


def python_tree(source: Source) -> ast.Module | None:
    """The module's AST, or None when it does not parse (never raises for bad code)."""
    return cast("ast.Module | None", _entry(source, "python").tree)


def js_tree(source: Source, language: str) -> Tree:
    """The tree-sitter tree of a JS/TS file in ``language`` (always a tree; check ERRORs)."""
    return cast("Tree", _entry(source, language).tree)


def python_derived(source: Source, name: Hashable, compute: Callable[[ast.Module | None], T]) -> T:
    """``compute(tree)``, kept with the tree under ``name`` (one name per kind of result).

    ``compute`` may read only the tree and the name: the entry is shared by
    every file with the same content, whatever its path.
    """
    entry = _entry(source, "python")
    return _derived(entry, name, lambda: compute(cast("ast.Module | None", entry.tree)))


def js_derived(source: Source, language: str, name: Hashable, compute: Callable[[Tree], T]) -> T:
    """``compute(tree)`` for a JS/TS file, kept with its tree under ``name``."""
    entry = _entry(source, language)
    return _derived(entry, name, lambda: compute(cast("Tree", entry.tree)))


def configure(max_trees: int = MAX_TREES, max_mib: int | None = None) -> None:
    """Bound the caches made from now on (``max_mib`` None: ``$TRIBUNAL_TREE_CACHE_MIB``)."""
    _Bounds.max_trees, _Bounds.max_mib = max_trees, max_mib
    mib = max_mib if max_mib is not None else _budget_mib()
    _orphans.resize(max_trees, mib << 20)


def stats(source: Source | None = None) -> CacheStats:
    """The cache ``source``'s trees go in (its change's), or the one for other sources."""
    return _cache_of(source).stats()


def _cache_of(source: Source | None) -> BoundedCache[tuple[str, bytes], _Parsed]:
    trees = source.trees if source is not None else None
    return trees if trees is not None else _orphans


def _entry(source: Source, language: str) -> _Parsed:
    data = source.data
    return _cache_of(source).get_or_make(
        (language, data), lambda: _parse(data, language, source.path), lambda e: e.cost
    )


def _derived(entry: _Parsed, name: Hashable, compute: Callable[[], T]) -> T:
    if name not in entry.derived:
        entry.derived[name] = compute()
    return cast("T", entry.derived[name])


def _parse(data: bytes, language: str, path: str) -> _Parsed:
    if language != "python":
        from tribunal.lang import js

        return _Parsed(js.parse(data, language), language, len(data))
    tree: ast.Module | None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # invalid escapes in the user's code are not ours
            tree = ast.parse(data, filename=path or "<unknown>", type_comments=False)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        tree = None
    return _Parsed(tree, language, len(data))
