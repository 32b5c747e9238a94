"""Verdicts, findings and the report: the values every part of Tribunal passes on.

They are NamedTuples, not dataclasses, as is every value the pre-commit hook's
path builds: importing ``dataclasses`` (it pulls in ``inspect``) costs ~6 ms of
a commit's start-up, plus ~0.4 ms per class it processes.
"""

from __future__ import annotations

import enum
from typing import NamedTuple


class Verdict(enum.IntEnum):
    """Ordered so that ``max`` gives the worst: PASS < UNVERIFIED < CONTRADICTED."""

    PASS = 0
    UNVERIFIED = 1
    CONTRADICTED = 2

    @property
    def label(self) -> str:
        return self.name


class Finding(NamedTuple):
    """One judgement about one place in the change.

    ``fingerprint`` is a digest of the flagged span's normalized content, filled
    in by the engine, so that machine outputs can track a finding across runs
    even when it moves down a line.
    """

    analyzer: str
    verdict: Verdict
    file: str
    line: int | None
    title: str
    detail: str
    end_line: int | None = None
    claim: str | None = None
    source: str | None = None
    language: str | None = None
    suppressed: str | None = None
    fingerprint: str = ""


class AnalyzerError(NamedTuple):
    """An analyzer that crashed: reported, never turned into a verdict."""

    analyzer: str
    file: str | None
    message: str
    traceback: str = ""


class RangeInfo(NamedTuple):
    """What was compared, for the report header and machine outputs."""

    kind: str  # "range" | "worktree" | "staged" | "diff"
    base: str | None = None
    head: str | None = None
    merge_base: str | None = None
    description: str = ""


class Report(NamedTuple):
    """Everything a renderer needs; renderers never look at the change itself."""

    findings: tuple[Finding, ...]
    analyzers: tuple[str, ...]
    files_analyzed: int
    range: RangeInfo
    duration_ms: float
    errors: tuple[AnalyzerError, ...] = ()
    skipped: tuple[tuple[str, str], ...] = ()
    notes: tuple[str, ...] = ()

    def count(self, verdict: Verdict) -> int:
        return sum(1 for f in self.findings if f.verdict is verdict)

    @property
    def counts(self) -> dict[str, int]:
        return {v.name: self.count(v) for v in Verdict}

    @property
    def worst(self) -> Verdict:
        return max((f.verdict for f in self.findings), default=Verdict.PASS)
