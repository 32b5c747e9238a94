"""One side's changed lines of a file, stored as two arrays and one string.

A 20,000-file commit adds most of a million lines. Kept as a dict of line
strings plus a frozenset of numbers, they cost ~150 bytes of bookkeeping
each, more than the text itself; here a line costs its characters and four
bytes (its end in the text), and the numbers of a run of lines (a new file, a
hunk's worth) cost nothing more than a ``range``. ``LineTable`` is the
``Mapping[int, str]`` a ``FileChange`` exposes as ``added_text`` /
``removed_text``, and ``LineSet`` the set of numbers it exposes as ``added`` /
``removed``: both read-only, both behaving as the dict and frozenset they
replace (membership, iteration in ascending order, length, equality, set
operations).
"""

from __future__ import annotations

from array import array
from bisect import bisect_left
from collections.abc import Iterable, Iterator, Mapping, Sequence, Set
from itertools import accumulate, pairwise
from typing import TypeVar

S = TypeVar("S")


class _Numbered:
    """Membership, order and size over sorted line numbers (a ``range`` or an array)."""

    __slots__ = ("_numbers",)
    _numbers: Sequence[int]

    def __contains__(self, number: object) -> bool:
        return isinstance(number, int) and _find(self._numbers, number) >= 0

    def __iter__(self) -> Iterator[int]:
        return iter(self._numbers)

    def __len__(self) -> int:
        return len(self._numbers)


class LineTable(_Numbered, Mapping[int, str]):
    """Line number -> text, for the lines of one side of a file's diff."""

    __slots__ = ("_ends", "_text")

    def __init__(self, lines: Mapping[int, str]) -> None:
        numbers = list(lines)
        if any(a >= b for a, b in pairwise(numbers)):
            numbers.sort()
        texts = [lines[n] for n in numbers]
        self._numbers = _compact(numbers)
        self._text = "".join(texts)
        self._ends = array("I" if len(self._text) < 1 << 32 else "Q", accumulate(map(len, texts)))

    def __getitem__(self, number: int) -> str:
        index = _find(self._numbers, number)
        if index < 0:
            raise KeyError(number)
        start = self._ends[index - 1] if index else 0
        return self._text[start : self._ends[index]]

    def __repr__(self) -> str:
        return f"LineTable({dict(self.items())!r})"

    def numbers(self) -> LineSet:
        """The line numbers, as a set sharing this table's storage."""
        return LineSet(self._numbers)


class LineSet(_Numbered, Set[int]):
    """A read-only set of line numbers, sorted; set operations give frozensets."""

    __slots__ = ()

    def __init__(self, numbers: Sequence[int]) -> None:
        self._numbers = numbers

    @classmethod
    def _from_iterable(cls, values: Iterable[S]) -> frozenset[S]:
        return frozenset(values)

    def __repr__(self) -> str:
        return f"LineSet({set(self._numbers)!r})"

    def ordered(self) -> Sequence[int]:
        """The numbers in ascending order (read-only: the set's own storage)."""
        return self._numbers

    __hash__ = Set._hash


def joined(lines: Mapping[int, str]) -> str:
    """The lines' text in one string, for a quick "is X anywhere in them?" before a closer look.

    A LineTable gives its stored text as is (lines run together, no separator);
    a word found only across two lines is a false hint, never a missed one.
    """
    if isinstance(lines, LineTable):
        return lines._text
    return "\n".join(lines.values())


def _compact(numbers: list[int]) -> Sequence[int]:
    """Sorted line numbers as a ``range`` when they run without a gap, else an array."""
    if numbers and numbers[-1] - numbers[0] == len(numbers) - 1:
        return range(numbers[0], numbers[-1] + 1)
    return array("I" if not numbers or numbers[-1] < 1 << 32 else "Q", numbers)


def _find(numbers: Sequence[int], number: int) -> int:
    index = bisect_left(numbers, number)
    return index if index < len(numbers) and numbers[index] == number else -1
