"""The pre-commit hook: ``tribunal check --staged``, gating.

It analyzes exactly what is being committed (the index git is writing, via
``$GIT_INDEX_FILE``, so ``git commit -a`` and ``git commit PATH`` are judged as
recorded) with the working tree's config. A CONTRADICTED finding blocks the
commit; UNVERIFIED findings are printed and never block. A clean run prints one
line. Configuration and internal errors also block (fail closed); the caller
turns those into one clear message.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TextIO

from tribunal.errors import ExitCode, GitError
from tribunal.findings import Report, Verdict
from tribunal.hooks.output import bypass_hint, finding_lines, write_lines


def run_pre_commit(cwd: Path, out: TextIO | None = None) -> int:
    from tribunal.config import load_config
    from tribunal.engine import analyze
    from tribunal.envflag import skips_generated
    from tribunal.gitcmd import Git, find_repo_root
    from tribunal.sources import Selection, build_change

    stream = out or sys.stdout
    root = find_repo_root(cwd)
    if root is None:
        raise GitError(f"{cwd}: not inside a git work tree")
    config = load_config(None, root, cwd)
    with Git(root) as git:
        change = build_change(Selection(staged=True), git, root, cwd, config)
        change.skip_generated = skips_generated()
        report = analyze(change)
    write_lines(stream, report_lines(report))
    if report.errors:
        from tribunal.crashlog import report_crashes

        report_crashes(report.errors, "internal error", sys.stderr)
        print(bypass_hint("pre-commit"), file=sys.stderr)
        return ExitCode.INTERNAL
    return ExitCode.CONTRADICTED if report.count(Verdict.CONTRADICTED) else ExitCode.OK


def report_lines(report: Report) -> list[str]:
    """One line when clean; otherwise a headline, the findings, and (if blocked) the way out."""
    files = report.files_analyzed
    size = f"{files} file{'s' * (files != 1)}, {report.duration_ms:.0f} ms"
    contradicted = report.count(Verdict.CONTRADICTED)
    unverified = report.count(Verdict.UNVERIFIED)
    if not contradicted and not unverified:
        return [f"tribunal: ✓ staged changes: nothing CONTRADICTED or UNVERIFIED ({size})"]
    if contradicted:
        head = f"tribunal: ✗ commit blocked: {contradicted} CONTRADICTED"
        head += f", {unverified} UNVERIFIED (not blocking)" if unverified else ""
    else:
        head = f"tribunal: ? {unverified} UNVERIFIED (not blocking)"
    lines = [f"{head} ({size})"]
    ordered = sorted(report.findings, key=lambda f: -f.verdict)
    for finding in ordered:
        if finding.verdict is not Verdict.PASS:
            lines += finding_lines(finding, finding.verdict.name)
    if contradicted:
        lines.append(bypass_hint("pre-commit"))
    return lines
