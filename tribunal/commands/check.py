"""``tribunal check``: analyze a change and report; gate only with ``--hard-fail``."""

from __future__ import annotations

import argparse
import os
import sys
from typing import TYPE_CHECKING, Any

from tribunal.commands.changeargs import add_change_flags, add_cwd_flag, start_dir
from tribunal.errors import ExitCode, InputError

if TYPE_CHECKING:
    from tribunal.findings import Report

FORMATS = ("text", "md", "json", "sarif")

HELP = """\
Analyze a change and report findings.

Which change:
  --base REF --head REF  from the merge base of REF and HEAD-REF to HEAD-REF,
                         both read from git's object database (never from disk)
  --base REF             the working tree against REF
  (nothing)              the working tree against HEAD
  --staged               the index against HEAD: exactly what `git commit` records
                         (honours $GIT_INDEX_FILE; this is what the pre-commit hook uses)
  --diff FILE | -        a unified diff (git or `diff -u`); a file on disk is used as
                         the new content only when it matches the diff

In working-tree modes, untracked files that are not ignored count as added
(they are what an agent most often forgets to stage). Ignored files never count.
"""


def add_parser(sub: Any, epilog: str) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "check",
        help="analyze a change and report findings",
        description=HELP,
        epilog=epilog,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_change_flags(
        p, base_help="base revision (see above)", head_help="head revision; needs --base"
    )
    p.add_argument("--claims", metavar="FILE", help="claims file (a ```tribunal block, or all)")
    p.add_argument("--pr-body", metavar="FILE", help="PR body; only its ```tribunal block")
    p.add_argument(
        "--config",
        metavar="FILE",
        help="config file (default: tribunal.yml; also $TRIBUNAL_CONFIG)",
    )
    p.add_argument("--format", choices=FORMATS, default="text", help="output format")
    p.add_argument(
        "--hard-fail",
        action="store_true",
        help="exit 1 when any finding is CONTRADICTED (default: report only)",
    )
    p.add_argument(
        "--no-skip-generated",
        action="store_true",
        help="also analyze generated paths (also $TRIBUNAL_NO_SKIP_GENERATED=1)",
    )
    add_cwd_flag(p)
    p.set_defaults(func=run)


def run(ns: argparse.Namespace) -> int:
    from tribunal.change import Change
    from tribunal.config import load_config
    from tribunal.engine import analyze
    from tribunal.gitcmd import Git, find_repo_root
    from tribunal.render import render
    from tribunal.sources import Selection, build_change

    cwd = start_dir(ns.cwd)
    root = find_repo_root(cwd)
    config = load_config(ns.config, root, cwd)
    for flag, name in (("--claims", ns.claims), ("--pr-body", ns.pr_body)):
        if name is not None and not (cwd / name).is_file():
            raise InputError(f"{name}: {flag} file does not exist")
    sel = Selection(base=ns.base, head=ns.head, staged=ns.staged, diff=ns.diff)
    with Git(root or cwd) as git:
        change: Change = build_change(sel, git if root else None, root, cwd, config)
        change.skip_generated = not (
            ns.no_skip_generated or _env_flag("TRIBUNAL_NO_SKIP_GENERATED")
        )
        if config.enabled("claim-reconciliation"):
            from tribunal.claims.sources import load_claims

            change.claims = load_claims(change, claims_file=ns.claims, pr_body=ns.pr_body, cwd=cwd)
        report = analyze(change)
    _emit(render(report, ns.format, color=_use_color(sys.stdout), hard_fail=ns.hard_fail))
    _report_crashes(report)
    return exit_code(report, hard_fail=ns.hard_fail)


def _emit(text: str) -> None:
    """Write the report; a reader that went away (``| head -1``) is not an error.

    The exit code still reflects the findings, so a gate in a pipeline holds.
    """
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except BrokenPipeError:
        from tribunal.cli import silence_stdout

        silence_stdout()


def _report_crashes(report: Report) -> None:
    """One line per analyzer crash on stderr; the tracebacks go to a bug-report file."""
    for error in report.errors:
        print(f"tribunal: error: {error.message}", file=sys.stderr)
    if report.errors:
        from tribunal.crashlog import write_bug_report

        path = write_bug_report("\n\n".join(e.traceback for e in report.errors))
        if path is not None:
            print(f"tribunal: tracebacks written to {path}", file=sys.stderr)


def exit_code(report: Report, *, hard_fail: bool) -> int:
    """1 for a gated CONTRADICTED, else 3 if an analyzer crashed, else 0."""
    from tribunal.findings import Verdict

    if hard_fail and report.count(Verdict.CONTRADICTED):
        return ExitCode.CONTRADICTED
    if report.errors:
        return ExitCode.INTERNAL
    return ExitCode.OK


def _env_flag(name: str) -> bool:
    return os.environ.get(name, "").strip().lower() in ("1", "true", "yes", "on")


def _use_color(stream: Any) -> bool:
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("TERM") == "dumb":
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())
