"""What the two halves of the selection rule share: a narrowing, and how it is reported.

``selection`` reads pytest's config and ``selection_js`` Jest's and Vitest's; both say
what is no longer collected as ``Narrowing``s and report them the same way, and
``selection`` asks ``js_config`` whether to load the JS/TS half at all.
"""

import posixpath
from collections.abc import Sequence
from typing import NamedTuple

from tribunal.analyzers.test_tampering.common import listing, make
from tribunal.change.diff.model import FileChange
from tribunal.change.model import Source
from tribunal.findings import Finding, Verdict
from tribunal.util.lazyre import lazy

_JEST_CONFIG = lazy(r"^jest\.config\.(?:[cm]?[jt]s|json)$")
_VITEST_CONFIG = lazy(r"^(?:vitest|vite)\.(?:config|workspace)\.(?:[cm]?[jt]s|json)$")


class Narrowing(NamedTuple):
    """One way the head config collects fewer tests than the base did."""

    needle: str  # text to find the line by
    text: str  # what is no longer collected, as a phrase


def js_config(path: str) -> str | None:
    """``"package.json"``, ``"jest"`` or ``"vitest"`` for a file that selects JS/TS tests."""
    name = posixpath.basename(path)
    if name == "package.json":
        return name
    if _JEST_CONFIG().match(name):
        return "jest"
    return "vitest" if _VITEST_CONFIG().match(name) else None


def report(
    fc: FileChange, head: Source | None, found: Sequence[Narrowing], language: str | None
) -> Finding:
    line = line_of(fc, head, found[0].needle) if head is not None else None
    return make(
        Verdict.UNVERIFIED,
        fc.path,
        line,
        f"test selection narrowed: {found[0].text}",
        "This change makes the test runner collect fewer tests: "
        + listing([n.text for n in found], 6)
        + ". Tests no longer collected no longer guard anything.",
        language,
    )


def line_of(fc: FileChange, head: Source, needle: str) -> int | None:
    """The first added line mentioning ``needle``, else any line that does, else the first added."""
    if needle:
        for number in sorted(fc.added):
            if needle in head.line(number):
                return number
        for number, text in enumerate(head.lines, 1):
            if needle in text:
                return number
    return min(fc.added, default=None)
