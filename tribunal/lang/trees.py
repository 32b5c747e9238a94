"""Parsed trees of file contents, shared by every analyzer of a run within one memory bound.

A tree costs forty to sixty times its file's bytes (a 1 KiB module: ~50 KiB of
``ast`` nodes, ~35 KiB of tree-sitter tree), so a run must not keep every tree
it parses: a 20,000-file commit would hold gigabytes. Trees live in one
least-recently-used cache for the process (``tribunal.lru``), bounded by an
estimate of their bytes and by a count, and keyed by content and language: the
claims verifiers, risky-diff-no-test, comment-code-drift and the rest parse each
side of a file once between them while it stays in the cache, a file whose
base and head are equal (a rename) is parsed once, and a file read again after
its ``Source`` was dropped finds its tree still there. What analyzers compute
from a tree and want to share (``derived``: test lists, declarations, decorator
spans) is kept in the same entry and goes with it, so nothing that points into
a tree outlives the bound. Parsers themselves come from ``tribunal.lang.js``.
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
DEFAULT_MIB = 64
#: At most this many trees, whatever their size.
MAX_TREES = 4096
#: Bytes of tree per byte of source, measured on real files (see the module docstring).
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


_cache: BoundedCache[tuple[str, bytes], _Parsed] = BoundedCache(MAX_TREES, _budget_mib() << 20)


def python_tree(source: Source) -> ast.Module | None:
    """The module's AST, or None when it does not parse (never raises for bad code)."""
    return cast("ast.Module | None", _entry(source.data, "python", source.path).tree)


def js_tree(source: Source, language: str) -> Tree:
    """The tree-sitter tree of a JS/TS file in ``language`` (always a tree; check ERRORs)."""
    return js_tree_of(source.data, language)


def js_tree_of(data: bytes, language: str) -> Tree:
    """``js_tree`` for bytes that have no ``Source`` (the same cache entry)."""
    return cast("Tree", _entry(data, language, "").tree)


def python_derived(source: Source, name: Hashable, compute: Callable[[ast.Module | None], T]) -> T:
    """``compute(tree)``, kept with the tree under ``name`` (one name per kind of result).

    ``compute`` may read only the tree and the name: the entry is shared by
    every file with the same content, whatever its path.
    """
    entry = _entry(source.data, "python", source.path)
    return _derived(entry, name, lambda: compute(cast("ast.Module | None", entry.tree)))


def js_derived(source: Source, language: str, name: Hashable, compute: Callable[[Tree], T]) -> T:
    """``compute(tree)`` for a JS/TS file, kept with its tree under ``name``."""
    entry = _entry(source.data, language, "")
    return _derived(entry, name, lambda: compute(cast("Tree", entry.tree)))


def configure(max_trees: int = MAX_TREES, max_mib: int | None = None) -> None:
    """Set the bound (tests, and ``$TRIBUNAL_TREE_CACHE_MIB`` at start-up)."""
    _cache.resize(max_trees, (max_mib if max_mib is not None else _budget_mib()) << 20)


def forget() -> None:
    """Drop every tree (a run over; tests that count what is alive)."""
    _cache.clear()


def stats() -> CacheStats:
    return _cache.stats()


def _entry(data: bytes, language: str, path: str) -> _Parsed:
    return _cache.get_or_make(
        (language, data), lambda: _parse(data, language, path), lambda e: e.cost
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
