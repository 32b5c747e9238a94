"""A cache bounded by entries and by an estimate of bytes, thread-safe.

A run keeps file contents and parsed trees only while analyzers still use them:
the change's sources and the parsed trees each live in one of these, so peak
memory follows the largest files and the bound, not the number of files in the
change. Every lens of a convene shares the run's caches, so one bound covers
them all, from whichever thread they run.

Analyzers walk a change one after another, each over every file: a loop
longer than the cache, which least-recently-used eviction turns into a miss on
every file for every analyzer. With ``protected_share``, the first entries up
to that share of the bound stay for the cache's life (the next analyzer finds
them), and only the rest of the bound is least-recently-used (the file being
judged, the modules it imports). A change that fits is cached whole either way.
"""

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
    """Values by key, within ``max_entries`` and ``max_cost`` (estimated bytes).

    ``make`` runs outside the lock (parsing takes milliseconds; other threads
    keep reading meanwhile). Two threads missing the same key at once both make
    it and the second result is kept: correct, only once-in-a-while wasteful.
    The newest entry always stays, however costly, so a file larger than the
    bound is still analyzed (and then alone in memory).
    """

    def __init__(self, max_entries: int, max_cost: int, protected_share: float = 0.0) -> None:
        self._kept: dict[K, tuple[V, int]] = {}
        self._recent: OrderedDict[K, tuple[V, int]] = OrderedDict()
        self._lock = threading.Lock()
        self._kept_cost = self._recent_cost = 0
        self._hits = self._misses = self._evictions = 0
        self._share = protected_share
        self.max_entries = max_entries
        self.max_cost = max_cost

    def get_or_make(self, key: K, make: Callable[[], V], cost: Callable[[V], int]) -> V:
        found = self.get(key)
        if found is not None:
            return found[0]
        with self._lock:
            self._misses += 1
        value = make()
        self.put(key, value, cost(value))
        return value

    def get(self, key: K) -> tuple[V] | None:
        """``(value,)`` when cached (so a cached None is told from a miss), else None."""
        with self._lock:
            found = self._kept.get(key)
            if found is None:
                found = self._recent.get(key)
                if found is None:
                    return None
                self._recent.move_to_end(key)
            self._hits += 1
            return (found[0],)

    def __contains__(self, key: K) -> bool:
        """Whether ``key`` is cached; neither a use nor a hit."""
        with self._lock:
            return key in self._kept or key in self._recent

    def put(self, key: K, value: V, cost: int) -> None:
        with self._lock:
            self._drop(key)
            if self._fits_kept(cost):
                self._kept[key] = (value, cost)
                self._kept_cost += cost
                return
            self._recent[key] = (value, cost)
            self._recent_cost += cost
            self._shrink()

    def discard(self, key: K) -> None:
        with self._lock:
            self._drop(key)

    def resize(self, max_entries: int, max_cost: int) -> None:
        """New bounds; what is kept beyond them becomes evictable, oldest first."""
        with self._lock:
            self.max_entries, self.max_cost = max_entries, max_cost
            while self._kept and (
                self._kept_cost > self._share * max_cost
                or len(self._kept) > self._share * max_entries
            ):
                key, entry = next(iter(self._kept.items()))
                del self._kept[key]
                self._kept_cost -= entry[1]
                self._recent[key] = entry
                self._recent.move_to_end(key, last=False)
                self._recent_cost += entry[1]
            self._shrink()

    def clear(self) -> None:
        with self._lock:
            self._kept.clear()
            self._recent.clear()
            self._kept_cost = self._recent_cost = 0

    def stats(self) -> CacheStats:
        with self._lock:
            return CacheStats(
                len(self._kept) + len(self._recent),
                self._kept_cost + self._recent_cost,
                self._hits,
                self._misses,
                self._evictions,
            )

    def _fits_kept(self, cost: int) -> bool:
        return (
            self._kept_cost + cost <= self._share * self.max_cost
            and len(self._kept) + 1 <= self._share * self.max_entries
        )

    def _drop(self, key: K) -> None:
        old = self._kept.pop(key, None)
        if old is not None:
            self._kept_cost -= old[1]
        old = self._recent.pop(key, None)
        if old is not None:
            self._recent_cost -= old[1]

    def _shrink(self) -> None:
        recent = self._recent
        while len(recent) > 1 and (
            len(recent) + len(self._kept) > self.max_entries
            or self._recent_cost + self._kept_cost > self.max_cost
        ):
            _, (_, cost) = recent.popitem(last=False)
            self._recent_cost -= cost
            self._evictions += 1
