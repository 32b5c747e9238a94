"""One side's changed lines of a file, stored as two arrays and one string.

A 20,000-file commit adds most of a million lines. Kept as a dict of line
strings plus a frozenset of numbers, they cost ~150 bytes of bookkeeping
each, more than the text itself; here a line costs its characters and sixteen
bytes. ``LineTable`` is the ``Mapping[int, str]`` a ``FileChange`` exposes as
``added_text`` / ``removed_text``, and ``LineSet`` the set of numbers it
exposes as ``added`` / ``removed``: both read-only, both behaving as the dict
and frozenset they replace (membership, iteration in ascending order, length,
equality, set operations).
"""

from __future__ import annotations

from array import array
from bisect import bisect_left
from collections.abc import Iterable, Iterator, Mapping, Set
from itertools import accumulate, pairwise
from typing import TypeVar

S = TypeVar("S")


class LineTable(Mapping[int, str]):
    """Line number -> text, for the lines of one side of a file's diff."""

    __slots__ = ("_ends", "_numbers", "_text")

    def __init__(self, lines: Mapping[int, str]) -> None:
        numbers = list(lines)
        if any(a >= b for a, b in pairwise(numbers)):
            numbers.sort()
        texts = [lines[n] for n in numbers]
        self._numbers = array("q", numbers)
        self._ends = array("q", accumulate(map(len, texts)))
        self._text = "".join(texts)

    def __getitem__(self, number: int) -> str:
        index = _find(self._numbers, number)
        if index < 0:
            raise KeyError(number)
        start = self._ends[index - 1] if index else 0
        return self._text[start : self._ends[index]]

    def __contains__(self, number: object) -> bool:
        return isinstance(number, int) and _find(self._numbers, number) >= 0

    def __iter__(self) -> Iterator[int]:
        return iter(self._numbers)

    def __len__(self) -> int:
        return len(self._numbers)

    def __repr__(self) -> str:
        return f"LineTable({dict(self.items())!r})"

    def numbers(self) -> LineSet:
        """The line numbers, as a set sharing this table's storage."""
        return LineSet(self._numbers)


class LineSet(Set[int]):
    """A read-only set of line numbers over a sorted array; set operations give frozensets."""

    __slots__ = ("_numbers",)

    def __init__(self, numbers: array[int]) -> None:
        self._numbers = numbers

    @classmethod
    def _from_iterable(cls, values: Iterable[S]) -> frozenset[S]:
        return frozenset(values)

    def __contains__(self, number: object) -> bool:
        return isinstance(number, int) and _find(self._numbers, number) >= 0

    def __iter__(self) -> Iterator[int]:
        return iter(self._numbers)

    def __len__(self) -> int:
        return len(self._numbers)

    def __repr__(self) -> str:
        return f"LineSet({set(self._numbers)!r})"

    __hash__ = Set._hash


def _find(numbers: array[int], number: int) -> int:
    index = bisect_left(numbers, number)
    return index if index < len(numbers) and numbers[index] == number else -1
