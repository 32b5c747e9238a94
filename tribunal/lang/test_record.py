"""One test on one side of a change, as the test differ compares it.

Built per language (``test_records`` for Python, ``js_records`` for JS/TS) and lined
up by ``test_diff``: the type sits below all three so each imports it downward.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable
from typing import Any, ClassVar, Final


class TestRecord:
    """One test on one side of the change.

    Compared by identity. A plain class so that the pre-commit hook's start-up
    needs no ``dataclasses`` (see ``tribunal.findings``). A record is a compact
    summary: ``test`` and ``index`` point into its file's tree, so they are
    found again on each use (``locate``) from the run's tree cache, which
    parses the file again only if the tree was dropped; a change's records
    never hold every test file's tree at once. Take both from one record in
    one go (``judge_test(r.test, r.index)``): a tree parsed again in between
    would give objects of two trees.
    """

    __test__: ClassVar[bool] = False  # a name pytest would otherwise try to collect

    __slots__ = (
        "_locate",
        "body",
        "conditional_skip",
        "end",
        "head_path",
        "language",
        "line",
        "name",
        "ordinal",
        "path",
        "skipped",
        "start",
        "xfailed",
    )

    path: Final[str]  # where the test is on its own side
    head_path: Final[str]  # the changed file's head path: the same for both sides of one file
    name: Final[str]
    ordinal: Final[int]  # 0 for the first test of this name in the file, 1 for the next...
    start: Final[int]
    end: Final[int]
    line: Final[int]  # where to report it
    skipped: Final[bool]
    xfailed: Final[bool]
    conditional_skip: Final[str | None]  # a skip whose condition is not a literal, as written
    body: Final[str]  # normalized code of the test, for rename and move detection
    language: Final[str]

    def __init__(
        self,
        path: str,
        head_path: str,
        name: str,
        ordinal: int,
        start: int,
        end: int,
        line: int,
        skipped: bool,
        xfailed: bool,
        conditional_skip: str | None,
        body: str,
        language: str,
        locate: Callable[[], tuple[Any, Any]],
    ) -> None:
        self.path = path
        self.head_path = head_path
        self.name = name
        self.ordinal = ordinal
        self.start = start
        self.end = end
        self.line = line
        self.skipped = skipped
        self.xfailed = xfailed
        self.conditional_skip = conditional_skip
        self.body = body
        self.language = language
        self._locate = locate

    @property
    def test(self) -> Any:
        """The PyTestCase or JsTestCase."""
        return self._locate()[0]

    @property
    def index(self) -> Any:
        """The module index that judges it."""
        return self._locate()[1]

    @property
    def label(self) -> str:
        return f"{self.path}::{self.name}"

    @property
    def disabled(self) -> bool:
        return self.skipped or self.xfailed


def ordinals(names: Iterable[str]) -> list[int]:
    """For each name, how many earlier entries share it (0, 0, 1, ...)."""
    seen: dict[str, int] = defaultdict(int)
    out = []
    for name in names:
        out.append(seen[name])
        seen[name] += 1
    return out
