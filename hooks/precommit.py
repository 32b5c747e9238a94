"""The pre-commit hook: ``tribunal check --staged``, gating.

It analyzes exactly what is being committed (the index git is writing, via
``$GIT_INDEX_FILE``, so ``git commit -a`` and ``git commit PATH`` are judged as
recorded) with the working tree's config. A CONTRADICTED finding blocks the
commit; UNVERIFIED findings are printed and never block. A clean run prints one
line. Configuration and internal errors also block (fail closed); the caller
turns those into one clear message.

Under the pre-commit framework it also serves CI: ``pre-commit run --from-ref A
--to-ref B`` sets ``PRE_COMMIT_FROM_REF``/``PRE_COMMIT_TO_REF`` and the hook judges
that range (as ``tribunal check --base A --head B``, claims from its commit
messages included); with nothing staged (``pre-commit run --all-files`` on a clean
checkout) it says in one line what it judges and how to check a range, instead of
a vacuous pass. Files the config's ``files:``/``exclude:`` filter out are skipped
(see ``tribunal.hooks.prefilter``).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from tribunal.errors import ExitCode, GitError
from tribunal.findings import Report, Verdict
from tribunal.hooks.output import bypass_hint, finding_lines, write_lines
from tribunal.hooks.prefilter import CONFIG_NAME as _CONFIG_NAME
from tribunal.hooks.prefilter import SKIP_REASON as _EXCLUDED

if TYPE_CHECKING:
    from tribunal.change import Change
    from tribunal.sources import Selection

#: What the hook says when it has nothing to judge: never a green "0 files".
NOTHING_STAGED = (
    "tribunal: nothing staged, nothing judged: this hook judges the staged changes of a "
    "commit; in CI judge a range instead: `pre-commit run --from-ref BASE --to-ref HEAD`, "
    "`tribunal check --base BASE --head HEAD --hard-fail`, `tribunal verify-pushes`, "
    "or the GitHub Action"
)


def run_pre_commit(
    cwd: Path,
    out: TextIO | None = None,
    *,
    config_file: str | None = None,
    environ: Mapping[str, str] | None = None,
) -> int:
    from tribunal.config import load_config
    from tribunal.engine import analyze
    from tribunal.envflag import skips_generated
    from tribunal.gitcmd import Git, find_repo_root
    from tribunal.sources import build_change

    stream = out or sys.stdout
    root = find_repo_root(cwd)
    if root is None:
        raise GitError(f"{cwd}: not inside a git work tree")
    config = load_config(config_file, root, cwd)
    selection, what = _selection(os.environ if environ is None else environ)
    with Git(root) as git:
        change = build_change(selection, git, root, cwd, config)
        if selection.staged and not change.files:
            write_lines(stream, [NOTHING_STAGED])
            return ExitCode.OK
        change.skip_generated = skips_generated()
        _skip_filtered(change, root)
        if selection.head is not None and config.enabled("claim-reconciliation"):
            from tribunal.claims.sources import load_claims

            change.claims = load_claims(change, cwd=cwd)
        report = analyze(change)
    write_lines(stream, report_lines(report, what))
    if report.errors:
        from tribunal.crashlog import report_crashes

        report_crashes(report.errors, "internal error", sys.stderr)
        print(bypass_hint("pre-commit"), file=sys.stderr)
        return ExitCode.INTERNAL
    return ExitCode.CONTRADICTED if report.count(Verdict.CONTRADICTED) else ExitCode.OK


def _selection(environ: Mapping[str, str]) -> tuple[Selection, str]:
    """The range pre-commit names (``--from-ref``/``--to-ref``), else the index."""
    from tribunal.sources import Selection

    base, head = environ.get("PRE_COMMIT_FROM_REF"), environ.get("PRE_COMMIT_TO_REF")
    if base and head:
        return Selection(base=base, head=head), f"{base}...{head}"
    return Selection(staged=True), "staged changes"


def _skip_filtered(change: Change, root: Path) -> None:
    """Mark the files the pre-commit config filters out as skipped, never judged."""
    from tribunal.hooks.prefilter import load_filter

    allowed = load_filter(root)
    if allowed.is_empty:
        return
    change.files = tuple(
        fc
        if fc.skip_reason is not None or allowed.allows(fc.path)
        else fc._replace(skip_reason=_EXCLUDED)
        for fc in change.files
    )


def report_lines(report: Report, what: str = "staged changes") -> list[str]:
    """One line when clean; otherwise a headline, the findings, and (if blocked) the way out."""
    files = report.files_analyzed
    size = f"{files} file{'s' * (files != 1)}, {report.duration_ms:.0f} ms"
    excluded = sum(1 for _, reason in report.skipped if reason == _EXCLUDED)
    size += f", {excluded} excluded by {_CONFIG_NAME}" if excluded else ""
    contradicted = report.count(Verdict.CONTRADICTED)
    unverified = report.count(Verdict.UNVERIFIED)
    if not contradicted and not unverified:
        return [f"tribunal: ✓ {what}: nothing CONTRADICTED or UNVERIFIED ({size})"]
    if contradicted:
        blocked = "commit blocked" if what == "staged changes" else f"{what} blocked"
        head = f"tribunal: ✗ {blocked}: {contradicted} CONTRADICTED"
        head += f", {unverified} UNVERIFIED (not blocking)" if unverified else ""
    else:
        head = f"tribunal: ? {unverified} UNVERIFIED (not blocking)"
    lines = [f"{head} ({size})"]
    ordered = sorted(report.findings, key=lambda f: -f.verdict)
    for finding in ordered:
        if finding.verdict is not Verdict.PASS:
            lines += finding_lines(finding, finding.verdict.name)
    if contradicted and what == "staged changes":
        lines.append(bypass_hint("pre-commit"))
    return lines
