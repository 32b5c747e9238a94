"""Parsed trees of file contents, shared by every analyzer of a run within one memory bound.

A tree costs forty to sixty times its file's bytes (a 1 KiB module: ~50 KiB of
``ast`` nodes, ~35 KiB of tree-sitter tree), so a run must not keep every tree
it parses: a 20,000-file commit would hold gigabytes. A change's trees live in
one cache of its own (``Change.tree_cache``, a ``tribunal.util.lru.BoundedCache``),
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
process. Parsers themselves come from ``tribunal.lang.js.syntax``; the bound and the caches
themselves from ``tribunal.lang.tree_cache``.
"""

from __future__ import annotations

import warnings
import weakref
from collections.abc import Callable, Hashable
from typing import TYPE_CHECKING, TypeVar, cast

from tribunal.change.model import Source
from tribunal.lang.tree_cache import Parsed, orphans
from tribunal.util.lru import BoundedCache, CacheStats

if TYPE_CHECKING:
    import ast

    from tree_sitter import Tree

T = TypeVar("T")


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


def stats(source: Source | None = None) -> CacheStats:
    """The cache ``source``'s trees go in (its change's), or the one for other sources."""
    return _cache_of(source).stats()


def _cache_of(source: Source | None) -> BoundedCache[tuple[str, bytes], Parsed]:
    trees = source.trees if source is not None else None
    return trees if trees is not None else orphans


#: The last few entries asked for, newest last: (bytes, language, cache, weak entry).
_Recent = tuple[bytes, str, BoundedCache[tuple[str, bytes], Parsed], "weakref.ref[Parsed]"]
_recent: tuple[_Recent, ...] = ()
_RECENT = 4


def _entry(source: Source, language: str) -> Parsed:
    """The file's entry; the last few are found by identity, without the cache's lock.

    Analyzers ask for the same file's tree and derived results many times in a
    row (a test record finds its test again at each use): tens of thousands
    of lookups in a big change. The memo holds at most ``_RECENT`` trees beyond
    the entries weakly, so a tree the cache dropped is not kept alive by it;
    threads replace it whole, so a race only loses a memo.
    """
    global _recent
    data, cache = source.data, _cache_of(source)
    for held, lang, where, ref in _recent:
        if held is data and lang == language and where is cache:
            found = ref()
            if found is not None:
                return found
    entry = cache.get_or_make(
        (language, data), lambda: _parse(data, language, source.path), lambda e: e.cost
    )
    _recent = (*_recent[1 - _RECENT :], (data, language, cache, weakref.ref(entry)))
    return entry


def _derived(entry: Parsed, name: Hashable, compute: Callable[[], T]) -> T:
    if name not in entry.derived:
        entry.derived[name] = compute()
    return cast("T", entry.derived[name])


def _parse(data: bytes, language: str, path: str) -> Parsed:
    if language != "python":
        from tribunal.lang.js import syntax as js

        return Parsed(js.parse(data, language), language, len(data))
    import ast  # not at import: a JS/TS-only change never parses Python

    tree: ast.Module | None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # invalid escapes in the user's code are not ours
            tree = ast.parse(data, filename=path or "<unknown>", type_comments=False)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        tree = None
    return Parsed(tree, language, len(data))
