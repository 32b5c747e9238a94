"""The caches parsed trees are kept in, and the memory bound they share.

Apart from ``tribunal.lang.trees`` (which parses a ``Source`` into them) so that a
change can make its own cache (``Change.tree_cache``) without importing the module
that imports the change: the cache knows bytes and costs, not files.
"""

from __future__ import annotations

import os
from collections.abc import Hashable

from tribunal.util.lru import BoundedCache

#: Memory (MiB, estimated) the run may keep in parsed trees; ``$TRIBUNAL_TREE_CACHE_MIB``.
CACHE_ENV = "TRIBUNAL_TREE_CACHE_MIB"
DEFAULT_MIB = 24
#: At most this many trees, whatever their size.
MAX_TREES = 4096
#: Bytes of tree per byte of source, measured (``ast``: ~53, tree-sitter: ~40).
_PYTHON_FACTOR = 56
_JS_FACTOR = 40


class Parsed:
    """One file's tree, its estimated size, and what analyzers derived from it."""

    __slots__ = ("__weakref__", "cost", "derived", "tree")

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


#: A share of the bound that the first trees of a run keep (``tribunal.util.lru``).
PROTECTED_SHARE = 0.75


def new_cache() -> BoundedCache[tuple[str, bytes], Parsed]:
    """A cache for one run's trees (``Change.tree_cache``), within the configured bound."""
    mib = _Bounds.max_mib if _Bounds.max_mib is not None else _budget_mib()
    return BoundedCache(_Bounds.max_trees, mib << 20, PROTECTED_SHARE)


#: Trees of sources made outside a change (a package's file read from disk).
orphans = new_cache()


def configure(max_trees: int = MAX_TREES, max_mib: int | None = None) -> None:
    """Bound the caches made from now on (``max_mib`` None: ``$TRIBUNAL_TREE_CACHE_MIB``)."""
    _Bounds.max_trees, _Bounds.max_mib = max_trees, max_mib
    mib = max_mib if max_mib is not None else _budget_mib()
    orphans.resize(max_trees, mib << 20)
