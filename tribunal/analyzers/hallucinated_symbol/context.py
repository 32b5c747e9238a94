"""State shared by one run of the analyzer: trees, git answers, the project environment.

Everything here is computed on first use and kept for the run only, so the
cost of a run follows the imports it judges, not the size of the repository.
"""

from __future__ import annotations

from functools import cached_property
from typing import TYPE_CHECKING

from tribunal.analyzers.hallucinated_symbol.gitquery import IgnoreOracle
from tribunal.analyzers.hallucinated_symbol.tree import Side, TreeView
from tribunal.change.model import Change

if TYPE_CHECKING:
    from tribunal.analyzers.hallucinated_symbol.js_exports import ExportSet
    from tribunal.analyzers.hallucinated_symbol.packages import ProjectEnv


class Run:
    def __init__(self, change: Change) -> None:
        self.change = change
        self.ignore = IgnoreOracle(change)
        self._trees: dict[Side, TreeView] = {}
        #: What each JS/TS file of a side exports itself (no ``export *`` followed), by
        #: (side, path, read as a declaration file), noted while its tree was at hand: a
        #: compact summary, so a file judged early and asked about late is not parsed again.
        self.own_exports: dict[tuple[Side, str, bool], ExportSet] = {}

    def tree(self, side: Side) -> TreeView:
        if side not in self._trees:
            self._trees[side] = TreeView(self.change, side)
        return self._trees[side]

    @cached_property
    def python_env(self) -> ProjectEnv | None:
        # Manifest readers (tomllib, configparser) load only when an import needs them.
        from tribunal.analyzers.hallucinated_symbol.packages import find_project_env

        return find_project_env(self.change.root)

    def close(self) -> None:
        """Release what the run made outside the repository (the ignore oracle's scratch)."""
        self.ignore.close()

    def side_label(self, side: Side) -> str:
        snap = self.change.head if side == "head" else self.change.base
        label = getattr(snap, "label", None)
        return f"the {side} tree ({label})" if label else f"the {side} tree"
