"""Memos that live exactly as long as one ``Change``.

A ``Change`` is mutable, so the memo is keyed by its identity and dropped
(through a weak reference) when the change is.
Analyzers use it for facts about the head tree that many files share
(pytest config, conftest.py contents).
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

from tribunal.change.model import Change
from tribunal.change.snapshot import EmptySnapshot

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class PerChange(Generic[K, V]):
    """A memo that lives as long as one ``Change`` (keyed by its identity)."""

    def __init__(self) -> None:
        self._tables: dict[int, tuple[weakref.ref[Change], dict[K, V]]] = {}

    def get(self, change: Change, key: K, compute: Callable[[], V]) -> V:
        slot = id(change)
        entry = self._tables.get(slot)
        if entry is None or entry[0]() is not change:
            entry = (weakref.ref(change, self._forget(slot)), {})
            self._tables[slot] = entry
        table = entry[1]
        if key not in table:
            table[key] = compute()
        return table[key]

    def _forget(self, slot: int) -> Callable[[weakref.ref[Change]], None]:
        def forget(_ref: weakref.ref[Change]) -> None:
            self._tables.pop(slot, None)

        return forget


def head_tree_known(change: Change) -> bool:
    """False for a bare diff: files outside the diff cannot be read."""
    return change.head is not None and not isinstance(change.head, EmptySnapshot)
