"""Shared driver for the claims, risky-diff-no-test and comment-code-drift tests.

Commits a base and a head in a real repository and runs the real engine
in-process on the range, with claims loaded the way ``tribunal check`` loads
them (a claims file, and the head commit's message).
"""

from __future__ import annotations

import textwrap
from collections.abc import Mapping

from tests.gitrepo import GitRepo
from tribunal.claims.sources import load_claims
from tribunal.config import Config, parse_config
from tribunal.engine import analyze
from tribunal.findings import Finding, Verdict
from tribunal.gitcmd import Git
from tribunal.sources import Selection, build_change

Files = Mapping[str, str | bytes | None]


def src(text: str) -> str:
    return textwrap.dedent(text).lstrip("\n")


def run_range(
    repo: GitRepo,
    base: Files,
    head: Files,
    analyzer: str,
    *,
    claims: str | None = None,
    message: str = "head",
    config: str | None = None,
) -> list[Finding]:
    """Commit ``base`` then ``head``; the analyzer's findings for the range (no crashes allowed)."""
    base_sha = repo.commit(base, "base")
    head_sha = repo.commit(head, message)
    return findings_for(repo, base_sha, head_sha, analyzer, claims=claims, config=config)


def findings_for(
    repo: GitRepo,
    base: str,
    head: str,
    analyzer: str,
    *,
    claims: str | None = None,
    config: str | None = None,
) -> list[Finding]:
    cfg = parse_config(config, "tribunal.yml") if config else Config()
    claims_file = None
    if claims is not None:
        claims_file = repo.path.parent / "claims.md"
        claims_file.write_text(claims, encoding="utf-8")
    with Git(repo.path) as git:
        change = build_change(Selection(base=base, head=head), git, repo.path, repo.path, cfg)
        change.claims = load_claims(
            change, claims_file=str(claims_file) if claims_file else None, cwd=repo.path
        )
        report = analyze(change, only=[analyzer])
    assert report.errors == (), [e.traceback for e in report.errors]
    return [f for f in report.findings if f.analyzer == analyzer]


def claim_verdict(
    repo: GitRepo, base: Files, head: Files, claim: str, **kwargs: str
) -> tuple[Verdict, Finding]:
    """The single claim-reconciliation finding for ``claim`` made in a claims file."""
    found = run_range(repo, base, head, "claim-reconciliation", claims=claim, **kwargs)
    assert len(found) == 1, [f.title for f in found]
    return found[0].verdict, found[0]
