"""What each language half gives the two rules: its imports, what touched them, what was removed.

``PythonImports`` and ``ScriptImports`` implement ``Language``; the
touched-imports rule asks them for the imports a diff touched, and the
broken-importers rule (loaded only when something was removed) for the
``Removal``s and for judging imports on either side.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Generic, NamedTuple, Protocol, TypeVar

from tribunal.analyzers.hallucinated_symbol.outcome import Outcome
from tribunal.analyzers.hallucinated_symbol.tree import Side
from tribunal.diff.model import FileChange

Imp = TypeVar("Imp")


class Removal(NamedTuple):
    """A word an importer would mention (a name, a module's file stem) and what removed it."""

    word: str
    culprit: str


class Language(Protocol, Generic[Imp]):
    language: str
    globs: tuple[str, ...]

    def removals(self) -> Iterable[Removal]: ...

    def imports(self, side: Side, path: str) -> list[Imp] | None: ...

    def touched(self, fc: FileChange) -> list[Imp]: ...

    def judge(self, side: Side, path: str, imp: Imp) -> list[Outcome]: ...

    def mentions(self, imp: Imp, words: frozenset[str]) -> bool: ...
