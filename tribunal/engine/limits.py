"""Which analyzers a change leaves unable to run, or to run fully, and why: said in the report.

A bare ``--diff`` (outside a repository, or one whose HEAD does not hold the
diff's preimage: ``diff_anchor``) has no tree around its files. Resolving an
import needs that tree, so hallucinated-symbol judges nothing; reading the
``conftest.py`` files above a test needs it too. Saying so is the difference
between a gate that passed and one that could not look.
"""

from __future__ import annotations

from collections.abc import Sequence

from tribunal.change.model import Change
from tribunal.change.snapshot import EmptySnapshot

_WHY = "only a diff was given, and no commit of a repository here holds its preimage"
_LIMITS = {
    "hallucinated-symbol": "did not run: {why}, so no import can be resolved against the files "
    "around it (run it in the checkout the diff was made from, at the commit it applies to)",
    "assertion-free-test": "judged the tests from the diff alone: {why}, so conftest.py files "
    "and other setup around them could not be read",
}


def unavailable(change: Change, analyzers: Sequence[str]) -> tuple[str, ...]:
    """One note per analyzer in ``analyzers`` that the change keeps from running fully."""
    bare = change.range.kind == "diff" and (
        change.head is None or isinstance(change.head, EmptySnapshot)
    )
    if not bare:
        return ()
    return tuple(
        f"{analyzer} {text.format(why=_WHY)}."
        for analyzer, text in _LIMITS.items()
        if analyzer in analyzers
    )
