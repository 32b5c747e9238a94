"""The analyzer contract and the explicit table of built-in analyzers.

The table holds only names and module paths so that validating config, or
printing ``--help``, never imports an analyzer: each is imported when it runs.
"""

from __future__ import annotations

import enum
import importlib
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, cast

if TYPE_CHECKING:
    from tribunal.change import Change
    from tribunal.findings import Finding


class Kind(enum.Enum):
    CLAIM_INDEPENDENT = "claim-independent"
    CLAIM_RECONCILIATION = "claim-reconciliation"


class Analyzer(Protocol):
    """What an analyzer module provides: ``run(change)`` yielding findings."""

    def run(self, change: Change) -> Iterable[Finding]: ...


@dataclass(frozen=True)
class AnalyzerSpec:
    id: str
    title: str
    kind: Kind
    module: str
    description: str

    def load(self) -> Analyzer:
        return cast("Analyzer", importlib.import_module(self.module))


BUILTINS: dict[str, AnalyzerSpec] = {
    spec.id: spec
    for spec in (
        AnalyzerSpec(
            "assertion-free-test",
            "Tests that assert nothing",
            Kind.CLAIM_INDEPENDENT,
            "tribunal.analyzers.assertion_free_test",
            "A test the change touched that can never fail because it checks nothing.",
        ),
    )
}

#: Findings about the run itself rather than the code (suppressions added).
SUPPRESSION_ID = "suppression"
