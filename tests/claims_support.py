"""Shared driver for the claims tests: one claim, made in a claims file, judged on a range.

The range is committed and analyzed by ``tests.engine_helpers`` (the real
engine in-process, claims loaded the way ``tribunal check`` loads them).
"""

from __future__ import annotations

from tests.engine_helpers import Files, run_range
from tests.gitrepo import GitRepo
from tribunal.findings import Finding, Verdict


def claim_verdict(
    repo: GitRepo, base: Files, head: Files, claim: str, **kwargs: str
) -> tuple[Verdict, Finding]:
    """The single claim-reconciliation finding for ``claim`` made in a claims file."""
    found = run_range(repo, base, head, "claim-reconciliation", claims=claim, **kwargs)
    assert len(found) == 1, [f.title for f in found]
    return found[0].verdict, found[0]
