"""A least-recently-used cache bounded by entries and by an estimate of bytes, thread-safe.

A run keeps file contents and parsed trees only while analyzers still use them:
the change's sources and the parsed trees each live in one of these, so peak
memory follows the largest files and the bound, not the number of files in the
change. Every lens of a convene shares the run's caches, so one bound covers
them all, from whichever thread they run.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, NamedTuple, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class CacheStats(NamedTuple):
    """What a cache holds now and did so far (for tests and benchmarks)."""

    entries: int
    cost: int
    hits: int
    misses: int
    evictions: int


class BoundedCache(Generic[K, V]):
    """Values by key; the least recently used go first once a bound is passed.

    ``make`` runs outside the lock (parsing takes milliseconds; other threads
    keep reading meanwhile). Two threads missing the same key at once both make
    it and the second result is kept: correct, only once-in-a-while wasteful.
    The newest entry always stays, however costly, so a file larger than the
    bound is still analyzed (and then alone in memory).
    """

    def __init__(self, max_entries: int, max_cost: int) -> None:
        self._entries: OrderedDict[K, tuple[V, int]] = OrderedDict()
        self._lock = threading.Lock()
        self._cost = 0
        self._hits = self._misses = self._evictions = 0
        self.max_entries = max_entries
        self.max_cost = max_cost

    def get_or_make(self, key: K, make: Callable[[], V], cost: Callable[[V], int]) -> V:
        with self._lock:
            found = self._entries.get(key)
            if found is not None:
                self._entries.move_to_end(key)
                self._hits += 1
                return found[0]
            self._misses += 1
        value = make()
        self.put(key, value, cost(value))
        return value

    def get(self, key: K) -> tuple[V] | None:
        """``(value,)`` when cached (so a cached None is told from a miss), else None."""
        with self._lock:
            found = self._entries.get(key)
            if found is None:
                return None
            self._entries.move_to_end(key)
            self._hits += 1
            return (found[0],)

    def __contains__(self, key: K) -> bool:
        """Whether ``key`` is cached; neither a use nor a hit."""
        with self._lock:
            return key in self._entries

    def put(self, key: K, value: V, cost: int) -> None:
        with self._lock:
            old = self._entries.pop(key, None)
            if old is not None:
                self._cost -= old[1]
            self._entries[key] = (value, cost)
            self._cost += cost
            self._shrink()

    def discard(self, key: K) -> None:
        with self._lock:
            old = self._entries.pop(key, None)
            if old is not None:
                self._cost -= old[1]

    def resize(self, max_entries: int, max_cost: int) -> None:
        with self._lock:
            self.max_entries, self.max_cost = max_entries, max_cost
            self._shrink()

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self._cost = 0

    def stats(self) -> CacheStats:
        with self._lock:
            return CacheStats(
                len(self._entries), self._cost, self._hits, self._misses, self._evictions
            )

    def _shrink(self) -> None:
        entries = self._entries
        while len(entries) > 1 and (len(entries) > self.max_entries or self._cost > self.max_cost):
            _, (_, cost) = entries.popitem(last=False)
            self._cost -= cost
            self._evictions += 1
