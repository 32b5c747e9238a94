"""One convene: judge one pushed ref and write its ``summary.json``.

The analyzers read the pushed commit from the object database (``base..head``
as ``tribunal check --base --head`` would), never from the user's checkout.
A throwaway worktree of the pushed commit is made bare, materialized only as
far as a lens asks, and removed on every exit path; the suite lens, which runs
the project's code, gets a throwaway repository of its own (``suiterepo``). A
summary already written for the same range base, commit, config and tool
version is reused if it authenticates and every member completed; anything
else is convened again. Never while the suite lens is on: the suite runs as the
user, and such code can read the HMAC key and sign a summary for any commit, so
every push convenes. When the trusted config enables the LLM council (and the
user lets the diff be sent), it is consulted first (``advisory``), within its
own budget: its record goes in the summary's ``advisory`` section, which the
gate never reads, with the claims it proposed as the claim verifiers judged
them. Those are advice, never a lens's finding.
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, cast

from tribunal import __version__
from tribunal.audit.remote_state import RemoteState
from tribunal.change.model import Change
from tribunal.change.snapshot import CommitSnapshot, EmptySnapshot, Snapshot
from tribunal.config.model import Config
from tribunal.findings import Finding, RangeInfo
from tribunal.gate.decision import Expectation, member_reasons, mismatches
from tribunal.gate.summary import (
    ConfigRecord,
    FindingRecord,
    FindingVerdict,
    GateRecord,
    MemberRecord,
    RangeRecord,
    RefRecord,
    RemoteRecord,
    Summary,
    SummaryError,
    SummaryUnauthentic,
    TimingRecord,
    ToolRecord,
    load,
    public_url,
    summary_key,
    summary_path,
    user_key,
    write,
)
from tribunal.git.cmd import Git
from tribunal.hooks.members import Outcome, convene_members
from tribunal.hooks.progress import Progress
from tribunal.hooks.pushinfo import PushedRef
from tribunal.hooks.ranges import RangePlan, plan_push
from tribunal.hooks.repo import Repo
from tribunal.hooks.trust import TrustedConfig, trusted_config
from tribunal.lenses import LensPlan, configured_lenses, plan
from tribunal.worktree.sandbox import sandbox
from tribunal.worktree.signals import interrupts_as_exceptions

DEFAULT_BUDGET = 1800.0


@dataclass(frozen=True)
class Target:
    """A pushed ref and where it goes (``state``: what that remote is known to have)."""

    ref: PushedRef
    remote_name: str | None
    remote_url: str | None
    state: RemoteState | None = None


@dataclass(frozen=True)
class Convened:
    path: Path
    expected: Expectation
    key: bytes
    reused: bool


def convene(repo: Repo, git: Git, target: Target, progress: Progress) -> Convened | None:
    """Convene ``target`` (or reuse its summary); None when the remote has every commit."""
    head = target.ref.local_sha
    rng = plan_push(git, head, target.state, target.ref.remote_sha, target.ref.remote_ref)
    if rng is None:
        return None
    trusted = trusted_config(git, head, target.state)
    return convene_planned(repo, git, target, rng, trusted, progress)


def convene_planned(
    repo: Repo,
    git: Git,
    target: Target,
    rng: RangePlan,
    trusted: TrustedConfig,
    progress: Progress,
    *,
    council: bool = True,
) -> Convened:
    """Convene ``rng`` under ``trusted`` (or reuse its summary); also ``verify-pushes``.

    ``council=False`` skips the advisory council: CI re-running the gate must be
    deterministic, and a model's proposals could make it disagree with the push.
    """
    head = rng.head
    plans = [plan(lens, trusted.config) for lens in configured_lenses(trusted.config)]
    expected = Expectation(
        head,
        rng.base,
        trusted.config.digest,
        __version__,
        tuple(p.lens.id for p in plans),
        trusted.config.strict,
        target.remote_name,
    )
    key = user_key()
    name = summary_key(rng.base, head, expected.config_digest, __version__, target.remote_name)
    path = summary_path(repo.common_dir, name)
    runs_code = any(p.lens.kind == "suite" for p in plans)
    if not runs_code and _reusable(repo, git, target, path, key, expected):
        return Convened(path, expected, key, True)
    progress.say(f"convening {target.ref.local_ref or head[:12]} ({len(plans)} lenses)")
    with interrupts_as_exceptions():  # SIGTERM/SIGHUP unwind too: no half-written summary
        summary = _convene_fresh(repo, git, target, rng, trusted, plans, progress, council)
        write(path, summary, key)
    return Convened(path, expected, key, False)


def _reusable(
    repo: Repo, git: Git, target: Target, path: Path, key: bytes, expected: Expectation
) -> bool:
    if not path.exists():
        return False
    try:
        summary = load(path, key)
    except SummaryError as exc:
        print(f"tribunal: ignoring a cached summary: {exc}; convening again", file=sys.stderr)
        if isinstance(exc, SummaryUnauthentic):
            log_unauthentic(repo, git, path, expected.commit, target)
        return False
    return not mismatches(summary, expected) and all(m.verdict != "ERROR" for m in summary.members)


def log_unauthentic(repo: Repo, git: Git, path: Path, commit: str, target: Target) -> None:
    """Write a summary that failed authentication to the weakened-gate log, and say so."""
    from tribunal.audit.local import record_unauthentic
    from tribunal.audit.scan import warning_line

    try:
        written = record_unauthentic(
            repo.common_dir, git, path, commit, target.remote_name, target.ref.remote_ref
        )
    except Exception as exc:  # the gate goes on; only the record is lost
        print(f"tribunal: could not log the unauthenticated summary: {exc}", file=sys.stderr)
        return
    for record in written:
        print(warning_line(record, repo.common_dir), file=sys.stderr)


def _convene_fresh(
    repo: Repo,
    git: Git,
    target: Target,
    rng: RangePlan,
    trusted: TrustedConfig,
    plans: list[LensPlan],
    progress: Progress,
    council: bool = True,
) -> Summary:
    from tribunal.hooks.analyzer_child import CLAIMS_ANALYZER, analyzer_child

    started = time.monotonic()
    config = trusted.config
    claims_lens = any(CLAIMS_ANALYZER in p.runnable for p in plans)

    # The child builds the change: the parent needs only what ``suppressions`` says of it.
    def make_change() -> Change:
        return range_change(git, repo.workdir, config, rng)

    # Both run in the analyzers' child, under the convene's deadline: they parse text
    # the change holds (commit messages, the council's proposals against the diff).
    def claims(change: Change) -> None:
        if claims_lens:
            _attach_claims(change, repo.workdir)

    def judged(change: Change, advisory: dict[str, Any]) -> dict[str, Any]:
        return _judge_council_claims(change, advisory) if claims_lens else advisory

    def relaxed(outcome: Outcome) -> Outcome:  # and the pushed layout's second look
        if trusted.layout is None:
            return outcome
        return _with_pushed_layout(git, repo, rng, trusted.layout, [outcome])[0]

    analyzers = [p for p in plans if p.lens.kind == "analyzers"]
    noted: list[Finding] | None = None
    with analyzer_child(
        analyzers, make_change, claims, judged, relaxed, progress, suppressions
    ) as child:  # forked before any thread exists
        advisory = _consult_council(git, rng, config, progress) if council else None
        if child is not None:
            child.advise(advisory)
        making = time.monotonic()
        with sandbox(repo.workdir, repo.common_dir, rng.head) as box:
            sandbox_ms = _ms(making)
            budget = float((config.raw.get("convene") or {}).get("timeout", DEFAULT_BUDGET))
            outcomes = convene_members(plans, child, box, config, budget, progress)
        if child is not None:
            noted = child.noted
            if child.advice is not None:
                advisory = child.advice  # with the verdicts on its claims, when it got that far
    if noted is None:  # no analyzer lens, or the child died first: read the change here
        noted = suppressions(make_change())
    members = [_member(o) for o in outcomes]
    notes = [*trusted.notes, *noted]
    reasons = member_reasons(members, config.strict)
    return Summary(
        tool=ToolRecord(version=__version__),
        created=datetime.now(UTC).isoformat(timespec="seconds"),
        commit=rng.head,
        tree=git.text("rev-parse", f"{rng.head}^{{tree}}"),
        range=RangeRecord(base=rng.base, head=rng.head, commits=rng.commits, notes=list(rng.notes)),
        remote=RemoteRecord(name=target.remote_name, url=public_url(target.remote_url)),
        ref=RefRecord(local=target.ref.local_ref, remote=target.ref.remote_ref),
        config=_config_record(trusted, plans),
        members=members,
        notes=[finding_record(f) for f in notes],
        gate=GateRecord(decision="reject" if reasons else "pass", reasons=reasons),
        timings=TimingRecord(
            total_ms=_ms(started),
            sandbox_ms=sandbox_ms,
            members_ms=sum(o.duration_ms for o in outcomes),
        ),
        advisory=advisory,
    )


def _with_pushed_layout(
    git: Git, repo: Repo, rng: RangePlan, layout: Config, outcomes: list[Outcome]
) -> list[Outcome]:
    """CONTRADICTED findings the pushed layout keys would not repeat become UNVERIFIED."""
    from tribunal.engine.runner import analyze
    from tribunal.hooks.layout import relaxed

    def rejudge(analyzers: tuple[str, ...]) -> tuple[Finding, ...]:
        change = range_change(git, repo.workdir, layout, rng)
        if "claim-reconciliation" in analyzers:
            _attach_claims(change, repo.workdir)
        return analyze(change, only=analyzers).findings

    return relaxed(outcomes, rejudge)


def range_change(git: Git, root: Path, config: Config, rng: RangePlan) -> Change:
    """The pushed range as a Change; from the empty tree (a root) or a merged tree when needed."""
    from tribunal.engine.sources import Selection, build_change, empty_tree, git_diff

    if rng.base is not None and not rng.base_is_tree:
        return build_change(Selection(base=rng.base, head=rng.head), git, root, root, config)
    files = git_diff(git, "diff-tree", "-r", rng.base or empty_tree(git), rng.head)
    what = f"{rng.head[:12]} and its history" if rng.base is None else "what the push adds"
    info = RangeInfo("range", rng.base, rng.head, None, what)
    base: Snapshot = EmptySnapshot() if rng.base is None else CommitSnapshot(git, rng.base)
    head = CommitSnapshot(git, rng.head)
    return Change(tuple(files), base, head, root, config, info, git=git)


def suppressions(change: Change) -> list[Finding]:
    """The suppression comments ``change`` adds: notes on the summary, never hidden."""
    from tribunal.gate.suppress import added_suppressions

    return list(added_suppressions(change))


def _attach_claims(change: Change, cwd: Path) -> None:
    """Claims from the pushed commits' messages, as ``tribunal check`` gathers them."""
    from tribunal.claims.sources import load_claims

    change.claims = load_claims(change, claims_file=None, pr_body=None, cwd=cwd)


def _consult_council(
    git: Git, rng: RangePlan, config: Config, progress: Progress
) -> dict[str, Any] | None:
    """The council's advice (opt-in): before the lenses, so its claims can be verified."""
    from tribunal.hooks.advisory import consult_council

    return consult_council(git, rng, config, progress.say)


def _judge_council_claims(change: Change, advisory: dict[str, Any]) -> dict[str, Any]:
    """The council's claims, judged by the verifiers as advice: never the change's claims,
    never in a lens's verdict (a claim the author also makes is judged once, as theirs)."""
    from tribunal.claims.advisory import judge_proposed
    from tribunal.hooks.advisory import council_claims, with_verdicts

    return with_verdicts(advisory, judge_proposed(change, council_claims(advisory), change.claims))


def _member(outcome: Outcome) -> MemberRecord:
    lens = outcome.plan.lens
    return MemberRecord(
        lens=lens.id,
        title=lens.title,
        kind="suite" if lens.kind == "suite" else "analyzers",
        verdict=outcome.verdict,
        analyzers=list(outcome.plan.runnable),
        findings=[finding_record(f) for f in outcome.findings],
        duration_ms=round(outcome.duration_ms, 3),
        error=outcome.error,
        notes=list(outcome.notes),
    )


def finding_record(f: Finding) -> FindingRecord:
    return FindingRecord(
        analyzer=f.analyzer,
        verdict=cast(FindingVerdict, f.verdict.name),
        file=f.file,
        line=f.line,
        end_line=f.end_line,
        title=f.title,
        detail=f.detail,
        claim=f.claim,
        source=f.source,
        language=f.language,
        suppressed=f.suppressed,
        fingerprint=f.fingerprint,
    )


def _config_record(trusted: TrustedConfig, plans: list[LensPlan]) -> ConfigRecord:
    return ConfigRecord(
        digest=trusted.config.digest,
        source=trusted.source,
        commit=trusted.commit,
        strict=trusted.config.strict,
        lenses=[p.lens.id for p in plans],
    )


def _ms(started: float) -> float:
    return round((time.monotonic() - started) * 1000, 3)
