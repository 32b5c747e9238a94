"""The pre-commit hook: ``tribunal check --staged``, gating.

It analyzes exactly what is being committed (the index git is writing, via
``$GIT_INDEX_FILE``, so ``git commit -a`` and ``git commit PATH`` are judged as
recorded) with the working tree's config. A CONTRADICTED finding blocks the
commit; UNVERIFIED findings are printed and never block. A clean run prints one
line; a long report is folded to fit a screen (``brief``), and
``tribunal hook report`` prints it in full. Configuration and internal errors
also block (fail closed); the caller turns those into one clear message.

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
from tribunal.hooks.brief import brief_lines, show_all, surrounding_rows
from tribunal.hooks.output import bypass_hint, write_lines
from tribunal.hooks.prefilter import CONFIG_NAME as _CONFIG_NAME
from tribunal.hooks.prefilter import SKIP_REASON as _EXCLUDED

if TYPE_CHECKING:
    from tribunal.change.model import Change
    from tribunal.engine.sources import Selection

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
    stream = out or sys.stdout
    env = os.environ if environ is None else environ
    report, what = _judged(cwd, config_file, env)
    if report is None:
        write_lines(stream, [NOTHING_STAGED])
        return ExitCode.OK
    write_lines(stream, report_lines(report, what, env))
    if report.errors:
        from tribunal.util.crashlog import report_crashes

        report_crashes(report.errors, "internal error", sys.stderr)
        print(bypass_hint("pre-commit"), file=sys.stderr)
        return ExitCode.INTERNAL
    return ExitCode.CONTRADICTED if report.count(Verdict.CONTRADICTED) else ExitCode.OK


def run_full_report(cwd: Path, env: Mapping[str, str], out: TextIO) -> int:
    """Every finding in full (``tribunal hook report``): what the commit hook folds away.

    The same change the hook judges: the staged changes, or under ``pre-commit
    run --from-ref A --to-ref B`` that range (after a commit that went through,
    ``--from-ref HEAD~1 --to-ref HEAD`` shows its findings). Report only: exit 0
    unless an analyzer crashed.
    """
    from tribunal.render import render

    report, _ = _judged(cwd, None, env)
    if report is None:
        write_lines(out, [NOTHING_STAGED])
        return ExitCode.OK
    write_lines(out, [render(report, "text", color=out.isatty()).rstrip("\n")])
    if report.errors:
        from tribunal.util.crashlog import report_crashes

        report_crashes(report.errors, "internal error", sys.stderr)
        return ExitCode.INTERNAL
    return ExitCode.OK


def _judged(
    cwd: Path, config_file: str | None, environ: Mapping[str, str]
) -> tuple[Report | None, str]:
    """The report on what the hook judges, and what that is; None when nothing is staged."""
    from tribunal.config.load import load_config
    from tribunal.engine.runner import analyze
    from tribunal.engine.sources import build_change
    from tribunal.git.cmd import Git, find_repo
    from tribunal.util.envflag import skips_generated

    repo = find_repo(cwd)
    if repo is None:
        raise GitError(f"{cwd}: not inside a git work tree")
    root = repo.root
    config = load_config(config_file, root, cwd)
    selection, what = _selection(environ)
    with Git(root) as git:
        change = build_change(selection, git, root, cwd, config, repo)
        if selection.staged and not change.files:
            return None, what
        change.skip_generated = skips_generated()
        _skip_filtered(change, root)
        if selection.head is not None and config.enabled("claim-reconciliation"):
            from tribunal.claims.sources import load_claims

            change.claims = load_claims(change, cwd=cwd)
        return analyze(change), what


def _selection(environ: Mapping[str, str]) -> tuple[Selection, str]:
    """The range pre-commit names (``--from-ref``/``--to-ref``), else the index."""
    from tribunal.engine.sources import Selection

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


def report_lines(
    report: Report, what: str = "staged changes", env: Mapping[str, str] | None = None
) -> list[str]:
    """One line when clean; otherwise a headline, the findings folded to fit a screen
    (``brief``), and (if a commit is blocked) the way out."""
    env = {} if env is None else env
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
    staged = what == "staged changes"
    tail = [bypass_hint("pre-commit")] if contradicted and staged else []
    command = show_all(env, committed=staged and not contradicted, unborn=report.range.base is None)
    return brief_lines(report, f"{head} ({size})", command, tail, surrounding_rows(env))
