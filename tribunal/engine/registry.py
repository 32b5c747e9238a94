"""The analyzer contract and the explicit table of built-in analyzers.

The table holds only names and module paths so that validating config, or
printing ``--help``, never imports an analyzer: each is imported when it runs.
"""

import enum
import importlib
from collections.abc import Iterable
from typing import TYPE_CHECKING, NamedTuple, Protocol, cast

if TYPE_CHECKING:
    from tribunal.change.model import Change
    from tribunal.findings import Finding


class Kind(enum.Enum):
    CLAIM_INDEPENDENT = "claim-independent"
    CLAIM_RECONCILIATION = "claim-reconciliation"


class Analyzer(Protocol):
    """What an analyzer module provides: ``run(change)`` yielding findings."""

    def run(self, change: "Change") -> "Iterable[Finding]": ...


class AnalyzerSpec(NamedTuple):
    id: str
    title: str
    kind: Kind
    module: str
    description: str
    #: Relative work on a big change (0: claims only, 1: risky files only, 2: every changed
    #: file, both sides), as ``bench.perf`` measures it: a shared run starts the heaviest.
    cost: int = 2

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
        AnalyzerSpec(
            "claim-reconciliation",
            "Claims the change makes about itself",
            Kind.CLAIM_RECONCILIATION,
            "tribunal.analyzers.claim_reconciliation",
            "Each claim (claims file, PR body, commit trailers) checked against the diff.",
            cost=0,
        ),
        AnalyzerSpec(
            "risky-diff-no-test",
            "Risky change without a test",
            Kind.CLAIM_INDEPENDENT,
            "tribunal.analyzers.risky_diff_no_test",
            "A security-relevant area changed with no correlated asserting test (never blocks).",
            cost=1,
        ),
        AnalyzerSpec(
            "comment-code-drift",
            "Comments about changed code",
            Kind.CLAIM_INDEPENDENT,
            "tribunal.analyzers.comment_code_drift",
            "A comment that mentions a declaration the change edited or removed (never blocks).",
        ),
        AnalyzerSpec(
            "hallucinated-symbol",
            "Imports of things that do not exist",
            Kind.CLAIM_INDEPENDENT,
            "tribunal.analyzers.hallucinated_symbol",
            "A touched import, or an importer the change broke, naming a missing module or name.",
        ),
        AnalyzerSpec(
            "test-tampering",
            "Tests weakened to pass",
            Kind.CLAIM_INDEPENDENT,
            "tribunal.analyzers.test_tampering",
            "A test whose checks the diff removed, made tautological, swallowed, skipped or "
            "focused away.",
        ),
    )
}

#: Findings about the run itself rather than the code (suppressions added).
SUPPRESSION_ID = "suppression"
#: A change's own tribunal.yml that would weaken the trusted one: reported,
#: never gating (a team must be able to push its own config change).
WEAKENED_ID = "gate-weakened"
