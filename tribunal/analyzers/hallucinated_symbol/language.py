"""What each language half gives the two rules: its imports, what touched them, what was removed.

``PythonImports`` and ``ScriptImports`` implement ``Language``; the
touched-imports rule asks them for the imports a diff touched, and the
broken-importers rule (loaded only when something was removed) for the
``Removal``s and for judging imports on either side. What the two halves do
alike (parse once per side and path, pick the touched statements, judge them
at head, list what the change deleted or moved) is ``ImportHalf``; each half
adds only how its language reads, resolves and names a module.
"""

from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator
from functools import cached_property
from typing import Any, Generic, NamedTuple, Protocol, TypeVar

from tribunal.analyzers.hallucinated_symbol.context import Run
from tribunal.analyzers.hallucinated_symbol.outcome import Outcome, statement_touched
from tribunal.analyzers.hallucinated_symbol.tree import Side
from tribunal.change.diff.model import FileChange, Status
from tribunal.findings import Finding, Verdict
from tribunal.lang.paths import language_of

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


class Statement(Protocol):
    """Where an import statement sits: all that the shared rules need of one."""

    @property
    def line(self) -> int: ...

    @property
    def end_line(self) -> int: ...


Stmt = TypeVar("Stmt", bound=Statement)
Stmt_contra = TypeVar("Stmt_contra", contravariant=True)


class Resolution(Protocol[Stmt_contra]):
    """One side's resolver (``PySide``, ``ScriptSide``): the outcomes of one import."""

    def judge(self, path: str, imp: Stmt_contra) -> list[Outcome]: ...


SideT = TypeVar("SideT", bound=Resolution[Any])


class ImportHalf(ABC, Generic[Stmt, SideT]):
    """Touched imports judged at head, removals found for the rest, for one language."""

    language: str
    globs: tuple[str, ...]

    def __init__(self, run: Run) -> None:
        self.run = run
        self._parsed: dict[tuple[Side, str], list[Stmt] | None] = {}

    @cached_property
    def head(self) -> SideT:
        return self._resolution("head")

    @cached_property
    def base(self) -> SideT:
        return self._resolution("base")

    def side(self, side: Side) -> SideT:
        return self.head if side == "head" else self.base

    def imports(self, side: Side, path: str) -> list[Stmt] | None:
        """The import statements of ``path`` on ``side``; None when it cannot be read."""
        key = (side, path)
        if key not in self._parsed:
            self._parsed[key] = self._read_imports(side, path)
        return self._parsed[key]

    def touched(self, fc: FileChange) -> list[Stmt]:
        """Imports whose statement the diff touched; all of them when the file moved."""
        imports = self.imports("head", fc.path) or []
        if fc.status in (Status.RENAMED, Status.COPIED):
            return imports
        return [imp for imp in imports if statement_touched(fc, imp.line, imp.end_line)]

    def judge_file(self, fc: FileChange) -> Iterator[Finding]:
        """Findings for the imports the change touched in ``fc`` (head side)."""
        language = language_of(fc.path) or self.language
        seen: set[tuple[int, str]] = set()
        for imp in self.touched(fc):
            for outcome in self.head.judge(fc.path, imp):
                if outcome.verdict is Verdict.PASS or (outcome.line, outcome.title) in seen:
                    continue
                seen.add((outcome.line, outcome.title))
                yield outcome.finding(fc.path, language)

    def judge(self, side: Side, path: str, imp: Stmt) -> list[Outcome]:
        return self.side(side).judge(path, imp)

    def removals(self) -> Iterator[Removal]:
        """Modules of this language the change deleted or moved, and names they lost."""
        for fc in self.run.change.files:
            if fc.skip_reason is not None or fc.old_path is None:
                continue
            if not self._is_ours(fc.old_path):
                continue
            if fc.status is Status.DELETED or fc.path != fc.old_path:
                what = "deleted" if fc.status is Status.DELETED else f"moved to {fc.path}"
                stem = self._module_stem(fc.old_path)
                yield Removal(stem, f"{fc.old_path} was {what} by this change")
            if fc.status is not Status.DELETED:
                yield from self._names_gone(fc)

    # -- what each language supplies ---------------------------------------------------

    @abstractmethod
    def _resolution(self, side: Side) -> SideT:
        """The side's resolver, built on first use (roots, manifests, listings)."""

    @abstractmethod
    def _read_imports(self, side: Side, path: str) -> list[Stmt] | None: ...

    @abstractmethod
    def _is_ours(self, path: str) -> bool:
        """Whether ``path`` is a module of this language."""

    @abstractmethod
    def _module_stem(self, path: str) -> str:
        """The word an importer names the module at ``path`` by."""

    @abstractmethod
    def _names_gone(self, fc: FileChange) -> Iterator[Removal]:
        """Names a kept (maybe moved) module defined at base and no longer does."""
