"""Verdicts, findings and the report: the values every part of Tribunal passes on.

They are NamedTuples, not dataclasses, as is every value the pre-commit hook's
path builds: importing ``dataclasses`` (it pulls in ``inspect``) costs ~6 ms of
a commit's start-up, plus ~0.4 ms per class it processes.

A module that defines a NamedTuple evaluates its annotations (it has no
``from __future__ import annotations``): ``typing`` compiles a field annotated
with a string into a ``ForwardRef`` as the class is made (and the run's first
``compile()`` builds every ``ast`` node type, ~2.5 ms). A name only
``TYPE_CHECKING`` imports is quoted where it is used (tests/test_cli.py checks
the modules a commit loads).
"""

import enum
from collections.abc import Mapping
from typing import Any, NamedTuple


class Verdict(enum.IntEnum):
    """Ordered so that ``max`` gives the worst: PASS < UNVERIFIED < CONTRADICTED."""

    PASS = 0
    UNVERIFIED = 1
    CONTRADICTED = 2

    @property
    def label(self) -> str:
        return self.name


class Related(NamedTuple):
    """Another place a grouped finding is about (a repository path; line 1-based or None)."""

    file: str
    line: int | None = None


class Finding(NamedTuple):
    """One judgement about one place in the change, or about several places at once.

    ``fingerprint`` is a digest of the flagged span's normalized content, filled
    in by the engine, so that machine outputs can track a finding across runs
    even when it moves down a line. A grouped finding (``tribunal.analyzers.grouping``)
    stands for many places: the first is ``file``/``line``, the others are
    ``related`` (and listed in ``detail``), and ``group`` is a stable key of
    what the places share, from which the fingerprint is made instead, so that
    it does not change when the group gains or loses a place.
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
    related: tuple[Related, ...] = ()
    group: str = ""


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


class AdvisoryClaim(NamedTuple):
    """A claim a model proposed, judged by a verifier: advice, never a finding.

    ``outcome`` is the verifier's answer in words ("holds", "unverified",
    "contradicted"), deliberately not a ``Verdict``: no policy and no lens
    counts it. ``where`` says where the proposal was read ("council", a claims
    file, ``commit:<id>``); ``adopt`` says how the author makes it theirs.
    """

    claim: str
    arg: str | None
    where: str
    line: int | None
    outcome: str
    title: str
    detail: str
    adopt: str
    source: str = "council"

    @property
    def label(self) -> str:
        return f"{self.claim}: {self.arg}" if self.arg else self.claim

    @property
    def sentence(self) -> str:
        """One line for people: what was proposed, what the verifier found, that it is advice."""
        said = {"holds": "holds", "unverified": "cannot be verified"}.get(
            self.outcome, "does not hold"
        )
        return (
            f"proposed claim '{self.label}' ({self.where}) {said} "
            f"(advice, not a finding): {self.title}"
        )

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "AdvisoryClaim | None":
        """The inverse of ``as_dict``; None for a dict that is not one."""
        try:
            return cls(**{name: data[name] for name in cls._fields})
        except (KeyError, TypeError):
            return None

    def as_dict(self) -> dict[str, object]:
        return {
            "claim": self.claim,
            "arg": self.arg,
            "source": self.source,
            "where": self.where,
            "line": self.line,
            "outcome": self.outcome,
            "title": self.title,
            "detail": self.detail,
            "adopt": self.adopt,
        }


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
    #: Claims a model proposed, verified: shown as advice, never counted (``AdvisoryClaim``).
    advisory: tuple[AdvisoryClaim, ...] = ()

    def count(self, verdict: Verdict) -> int:
        return sum(1 for f in self.findings if f.verdict is verdict)

    @property
    def counts(self) -> dict[str, int]:
        return {v.name: self.count(v) for v in Verdict}

    @property
    def worst(self) -> Verdict:
        return max((f.verdict for f in self.findings), default=Verdict.PASS)
