"""Helpers for the test-tampering tests (no tests here; the name keeps the files together).

Each scenario commits a base and a head in a real repository and runs the
real engine in-process on the range (``tests.engine_helpers.run_range``).
"""

from __future__ import annotations

from tests.engine_helpers import Files, run_range, src
from tests.gitrepo import GitRepo
from tribunal.findings import Finding

ID = "test-tampering"

__all__ = ["ID", "Files", "src", "tampering", "verdicts", "worst"]


def tampering(repo: GitRepo, base: Files, head: Files, config: str | None = None) -> list[Finding]:
    """Commit ``base`` then ``head``; the analyzer's findings for that range."""
    return run_range(repo, base, head, ID, config=config)


def verdicts(findings: list[Finding]) -> list[tuple[str, int | None, str]]:
    """``(verdict, line, title)`` of each finding, for compact assertions."""
    return [(f.verdict.name, f.line, f.title) for f in findings]


def worst(findings: list[Finding]) -> str:
    """The worst verdict's name; PASS when there is no finding."""
    return max(f.verdict for f in findings).name if findings else "PASS"
