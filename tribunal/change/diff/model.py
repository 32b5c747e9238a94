"""What one changed file looks like to an analyzer.

Line numbers are 1-based. ``added`` holds new-file numbers, ``removed`` old-file
numbers, and ``removed_anchor`` says where in the new file each deletion sits
(the new-file line it follows; 0 = before the first line), so that a test whose
only change is a deleted assertion still counts as touched.
"""

import bisect
import enum
from collections.abc import Mapping, Sequence, Set
from functools import cached_property
from types import MappingProxyType
from typing import Any, NamedTuple


class Status(enum.Enum):
    """How git classifies a file's change."""

    ADDED = "added"
    MODIFIED = "modified"
    DELETED = "deleted"
    RENAMED = "renamed"
    COPIED = "copied"
    TYPE_CHANGED = "type-changed"
    MODE_ONLY = "mode-only"


class Hunk(NamedTuple):
    """One ``@@ -a,b +c,d @@`` header, as numbers."""

    old_start: int
    old_count: int
    new_start: int
    new_count: int


#: The default of the mapping fields, and what a parsed file with no such lines holds
#: (most files of a big change have no removed or context lines): shared, so read-only.
EMPTY: Mapping[int, Any] = MappingProxyType({})


class _FileChangeFields(NamedTuple):
    """The fields of ``FileChange``, whose docstring says why they stand apart."""

    path: str
    old_path: str | None
    status: Status
    old_blob: str | None = None
    new_blob: str | None = None
    old_mode: str | None = None
    new_mode: str | None = None
    hunks: tuple[Hunk, ...] = ()
    added: Set[int] = frozenset()
    removed: Set[int] = frozenset()
    removed_anchor: Mapping[int, int] = EMPTY
    added_text: Mapping[int, str] = EMPTY
    removed_text: Mapping[int, str] = EMPTY
    context_map: Mapping[int, int] = EMPTY
    binary: bool = False
    skip_reason: str | None = None
    context_text: Mapping[int, str] = EMPTY


class FileChange(_FileChangeFields):
    """One file of a diff.

    ``path`` is where the file lives in head (for a deletion: where it lived in
    base); ``old_path`` is its base path, None when the file is new. Blob ids are
    None when unknown (a plain ``diff -u``) or when the side is the working tree.
    ``skip_reason`` is set for files no analyzer should read (binary, symlink,
    submodule, over the size cap); such files carry no line sets.
    ``context_text`` holds the unchanged lines the diff showed (new-file numbers);
    git's own diffs are asked for without context, so it is usually empty.
    The parser stores line sets and texts compactly (``tribunal.change.diff.linetable``):
    they behave as frozensets and dicts, read-only.

    The fields live in a NamedTuple (compared and replaced as values,
    ``fc._replace(...)``); this subclass adds the methods and, having a
    ``__dict__``, caches the sorted line lists that ``touches`` searches.
    """

    @property
    def has_base(self) -> bool:
        return self.old_path is not None

    @property
    def has_head(self) -> bool:
        return self.status is not Status.DELETED

    @cached_property
    def _added_sorted(self) -> Sequence[int]:
        return _ascending(self.added)

    @cached_property
    def _removed_sorted(self) -> Sequence[int]:
        return _ascending(self.removed)

    @cached_property
    def _anchors_sorted(self) -> list[int]:
        return sorted(self.removed_anchor.values())

    def touches(
        self, new_start: int, new_end: int, old_span: tuple[int, int] | None = None
    ) -> bool:
        """Whether the diff adds, changes or deletes a line inside a head-file span.

        With ``old_span`` (the same construct's lines in base) deletions are
        measured exactly; without it, a deletion counts when it sits inside the
        span or right at its edges (a removed decorator, a removed last line).
        """
        if _any_between(self._added_sorted, new_start, new_end):
            return True
        if old_span is not None:
            return _any_between(self._removed_sorted, old_span[0], old_span[1])
        return _any_between(self._anchors_sorted, new_start - 1, new_end)

    def adds_within(self, new_start: int, new_end: int) -> bool:
        """Whether the diff adds a line in ``[new_start, new_end]`` (head numbers)."""
        return _any_between(self._added_sorted, new_start, new_end)

    def deletes_within(self, new_start: int, new_end: int) -> bool:
        """Whether a deletion sits after a head line in ``[new_start, new_end]``."""
        return _any_between(self._anchors_sorted, new_start, new_end)

    def removed_in_old_span(self, old_start: int, old_end: int) -> list[int]:
        """Old-file numbers of removed lines inside ``[old_start, old_end]``, ascending."""
        lines = self._removed_sorted
        low, high = bisect.bisect_left(lines, old_start), bisect.bisect_right(lines, old_end)
        return list(lines[low:high])

    def new_line_for(self, old_line: int) -> int | None:
        """Where an unchanged base line sits in head; None if the diff removed it."""
        if old_line in self.removed:
            return None
        if old_line in self.context_map:
            return self.context_map[old_line]
        shift = 0
        for hunk in self.hunks:
            old_end = hunk.old_start + max(hunk.old_count, 1) - 1
            if old_line <= old_end:
                break
            shift += hunk.new_count - hunk.old_count
        return old_line + shift


def _ascending(lines: Set[int]) -> Sequence[int]:
    """The numbers in ascending order; a parsed diff's line sets already are (no copy)."""
    from tribunal.change.diff.linetable import LineSet

    return lines.ordered() if isinstance(lines, LineSet) else sorted(lines)


def _any_between(ordered: Sequence[int], low: int, high: int) -> bool:
    """Whether the sorted list holds a value in ``[low, high]``."""
    index = bisect.bisect_left(ordered, low)
    return index < len(ordered) and ordered[index] <= high
