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

A table whose text is long is kept compressed (``util.packed``, its line ends with it):
those are the whole new files of a vendored drop or a generated code set, which
would otherwise keep the change's whole text in memory for the run, though an
analyzer reads one file at a time. The last few tables read are kept open
(``_OPEN``), so an analyzer going through a file's lines pays one
decompression, not one per line.
"""

from __future__ import annotations

import threading
from array import array
from bisect import bisect_left
from collections.abc import Iterable, Iterator, Mapping, Sequence, Set
from itertools import accumulate, pairwise
from typing import TypeVar

from tribunal.util.packed import PACK_FROM, pack, unpack

S = TypeVar("S")

#: How many compressed tables stay open at once (an analyzer reads a file or two at a time).
_OPEN_TABLES = 4


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

    __slots__ = ("_ends", "_packed", "_text")
    _ends: Sequence[int]

    def __init__(self, lines: Mapping[int, str]) -> None:
        numbers = list(lines)
        if any(a >= b for a, b in pairwise(numbers)):
            numbers.sort()
        texts = [lines[n] for n in numbers]
        self._numbers = _compact(numbers)
        text = "".join(texts)
        ends = array("I" if len(text) < 1 << 32 else "Q", accumulate(map(len, texts)))
        self._packed: bytes | None = None
        self._text, self._ends = text, ends
        if len(text) >= PACK_FROM and ends.typecode == "I":
            self._packed = _pack(ends, text)
            self._text, self._ends = "", ()

    def __getitem__(self, number: int) -> str:
        index = _find(self._numbers, number)
        if index < 0:
            raise KeyError(number)
        ends, text = self._opened()
        start = ends[index - 1] if index else 0
        return text[start : ends[index]]

    def __repr__(self) -> str:
        return f"LineTable({dict(self.items())!r})"

    def numbers(self) -> LineSet:
        """The line numbers, as a set sharing this table's storage."""
        return LineSet(self._numbers) if self._numbers else EMPTY_LINES

    def _opened(self) -> tuple[Sequence[int], str]:
        """The line ends and the text, decompressed when the table is kept compressed."""
        if self._packed is None:
            return self._ends, self._text
        return _open(self, self._packed)


_OPEN: dict[int, tuple[LineTable, Sequence[int], str]] = {}
_OPEN_LOCK = threading.Lock()


def _pack(ends: array[int], text: str) -> bytes:
    return pack(ends.tobytes() + text.encode("utf-8", "surrogatepass"))


def _open(table: LineTable, packed: bytes) -> tuple[Sequence[int], str]:
    """``table``'s ends and text, from the few kept open or decompressed now."""
    key = id(table)
    with _OPEN_LOCK:
        kept = _OPEN.pop(key, None)
        if kept is not None:
            _OPEN[key] = kept  # now the most recently read
            return kept[1], kept[2]
    raw = unpack(packed)
    split = len(table) * 4
    ends = array("I")
    ends.frombytes(raw[:split])
    text = raw[split:].decode("utf-8", "surrogatepass")
    with _OPEN_LOCK:
        _OPEN[key] = (table, ends, text)  # the table itself keeps its id from being reused
        while len(_OPEN) > _OPEN_TABLES:
            del _OPEN[next(iter(_OPEN))]
    return ends, text


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
        return lines._opened()[1]
    return "\n".join(lines.values())


def _compact(numbers: list[int]) -> Sequence[int]:
    """Sorted line numbers as a ``range`` when they run without a gap, else an array."""
    if numbers and numbers[-1] - numbers[0] == len(numbers) - 1:
        return range(numbers[0], numbers[-1] + 1)
    return array("I" if not numbers or numbers[-1] < 1 << 32 else "Q", numbers)


def _find(numbers: Sequence[int], number: int) -> int:
    index = bisect_left(numbers, number)
    return index if index < len(numbers) and numbers[index] == number else -1


#: No lines, shared: most files of a big change remove none (and a new one has no base).
EMPTY_LINES = LineSet(range(0))
EMPTY_TABLE = LineTable({})
