"""``tribunal check``: analyze a change and report; gate only with ``--hard-fail``."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from tribunal.commands.changeargs import add_change_flags, add_cwd_flag, start_dir
from tribunal.commands.exitcodes import epilog as exit_codes
from tribunal.commands.helpformat import HelpFormatter
from tribunal.errors import ExitCode, InputError, UsageError
from tribunal.render import FORMATS
from tribunal.render.colormode import CHOICES as COLOR_CHOICES
from tribunal.render.colormode import use_color

if TYPE_CHECKING:
    from pathlib import Path

    from tribunal.change.model import Claim
    from tribunal.config.model import Config
    from tribunal.engine.runner import FileProgress
    from tribunal.findings import Finding, Report
    from tribunal.git.cmd import Git

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

Claims: a ```tribunal block in --claims FILE or --pr-body FILE, and a block or
`Tribunal-Claim: KEY` trailers in the commit messages of a range, are the
author's claims: each is verified and gates like any finding. A
```tribunal-proposed block (what `tribunal propose` writes) holds a model's
claims: they are verified and shown as advice (source: council), never counted
and never gating, until the author states them in one of the ways above.

In CI, on a pull request:
  tribunal check --base BASE_SHA --head HEAD_SHA --config-from-base --pr-body body.md
                 --format github --write md=report.md --write sarif=tribunal.sarif
--config-from-base reads tribunal.yml at the --base commit (the branch the change
merges into), never the change's own, so a pull request cannot switch its own
checks off; a config change that would weaken the gate is reported. It also
runs what the push gate's lenses run (a lens off in that config is off here);
the suite lens runs only at pre-push and in `tribunal verify-pushes`.
"""


def add_parser(sub: Any, epilog: str) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "check",
        help="analyze a change and report findings",
        description=HELP,
        epilog=exit_codes(
            "ran: report only, or no CONTRADICTED finding",
            "--hard-fail and a CONTRADICTED finding (or, with strict: true in\n"
            "the config, an UNVERIFIED one)",
            internal="internal error, or an analyzer crashed (its traceback is written)",
        ),
        formatter_class=HelpFormatter,
    )
    add_change_flags(
        p, base_help="base revision (see above)", head_help="head revision; needs --base"
    )
    p.add_argument("--claims", metavar="FILE", help="claims file (a ```tribunal block, or all)")
    p.add_argument("--pr-body", metavar="FILE", help="PR body; only its ```tribunal block")
    # A ```tribunal-proposed block (what `tribunal propose` writes) in either is advice.
    p.add_argument(
        "--config",
        metavar="FILE",
        help="config file (default: tribunal.yml; also $TRIBUNAL_CONFIG)",
    )
    p.add_argument(
        "--config-from-base",
        action="store_true",
        help="read tribunal.yml at the --base commit, not the change's own or from disk",
    )
    p.add_argument(
        "--format",
        choices=FORMATS,
        default="text",
        help="output format (github: workflow-command annotations)",
    )
    p.add_argument(
        "--write",
        metavar="FORMAT=FILE",
        action="append",
        default=[],
        type=_write_spec,
        help="also write the report in FORMAT to FILE (repeatable), e.g. --write md=report.md",
    )
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
    p.add_argument(
        "--color",
        choices=COLOR_CHOICES,
        default="auto",
        help="colour the text report (auto: on a terminal; honours NO_COLOR, FORCE_COLOR "
        "and CLICOLOR_FORCE)",
    )
    p.add_argument(
        "-q",
        "--quiet",
        action="store_true",
        help="text report: only the CONTRADICTED findings (and what blocks) and the exit line",
    )
    add_cwd_flag(p)
    p.set_defaults(func=run)


def run(ns: argparse.Namespace) -> int:
    from tribunal.change.model import Change
    from tribunal.config.load import load_config
    from tribunal.config.model import Config
    from tribunal.engine.runner import analyze
    from tribunal.engine.sources import Selection, build_change
    from tribunal.engine.workers import workers_for
    from tribunal.git.cmd import Git, find_repo
    from tribunal.render import render
    from tribunal.util.envflag import skips_generated

    cwd = start_dir(ns.cwd)
    if ns.quiet and ns.format != "text":
        raise UsageError(f"--quiet shortens the text report; --format {ns.format} has no such form")
    repo = find_repo(cwd)
    root = repo.root if repo is not None else None
    if ns.config_from_base:
        _check_config_from_base(ns)
    config = Config() if ns.config_from_base else load_config(ns.config, root, cwd)
    for flag, name in (("--claims", ns.claims), ("--pr-body", ns.pr_body)):
        if name is not None and not (cwd / name).is_file():
            raise InputError(f"{name}: {flag} file does not exist")
    sel = Selection(base=ns.base, head=ns.head, staged=ns.staged, diff=ns.diff)
    notes: tuple[Finding, ...] = ()
    where = ""
    with Git(root or cwd) as git:
        if ns.config_from_base and root is not None:
            config, notes, where = _base_config(git, ns.base, ns.head or "HEAD")
        change: Change = build_change(sel, git if root else None, root, cwd, config, repo)
        change.skip_generated = skips_generated(ns.no_skip_generated)
        proposed: tuple[Claim, ...] = ()
        if config.enabled("claim-reconciliation"):
            from tribunal.claims.sources import gather_claims

            gathered = gather_claims(change, claims_file=ns.claims, pr_body=ns.pr_body, cwd=cwd)
            change.claims, proposed = gathered.authored, gathered.proposed
        report = analyze(
            change,
            only=_gate_analyzers(change.config, ns.config_from_base),
            progress=_terminal_progress(),
            workers=workers_for(change),
        )
        if proposed and "claim-reconciliation" in report.analyzers:
            from tribunal.claims.advisory import judge_proposed

            report = report._replace(advisory=judge_proposed(change, proposed, change.claims))
    if ns.config_from_base:
        report = report._replace(
            findings=report.findings + notes, notes=(*report.notes, f"config: {where}")
        )
    gate = {"hard_fail": ns.hard_fail, "strict": change.config.strict}
    for fmt, path in ns.write:
        _write(cwd / path, render(report, fmt, **gate))
    color = use_color(ns.color, sys.stdout)
    if ns.quiet:
        from tribunal.render.quiet import render_quiet

        _emit(render_quiet(report, color=color, **gate))
    else:
        _emit(render(report, ns.format, color=color, **gate))
    if report.errors:
        from tribunal.util.crashlog import report_crashes

        report_crashes(report.errors, "error", sys.stderr)
    return exit_code(report, **gate)


def _terminal_progress() -> FileProgress | None:
    """How far a long run is, on stderr when it is a terminal (every few seconds, if slow)."""
    from tribunal.hooks.progress import Progress

    progress = Progress(sys.stderr)
    if not progress.enabled:
        return None
    return lambda analyzer, done, total: progress.files("check", analyzer, done, total)


def _write_spec(value: str) -> tuple[str, str]:
    """``md=report.md`` -> ``("md", "report.md")``; argparse turns the error into usage."""
    fmt, sep, path = value.partition("=")
    if not sep or fmt not in FORMATS or not path:
        raise argparse.ArgumentTypeError(
            f"{value!r}: expected FORMAT=FILE with FORMAT one of {', '.join(FORMATS)}"
        )
    return fmt, path


def _check_config_from_base(ns: argparse.Namespace) -> None:
    if ns.base is None or ns.staged or ns.diff is not None:
        raise UsageError("--config-from-base needs --base (and reads git, not --diff/--staged)")
    if ns.config is not None:
        raise UsageError("--config-from-base and --config name two configs: give one")


def _base_config(git: Git, base: str, head: str) -> tuple[Config, tuple[Finding, ...], str]:
    """The config at the base commit itself, and the change's weakenings of it.

    The base's tip, not the fork point: a branch made before the team
    tightened its config is still judged by the tightened one.
    ``$TRIBUNAL_CONFIG`` is ignored on purpose: in CI the change under review
    must not choose the rules it is judged by.
    """
    from tribunal.engine.sources import require_commit
    from tribunal.hooks.trust import trusted_config_at

    base_sha = require_commit(git, base, "--base")
    trusted = trusted_config_at(git, base_sha, require_commit(git, head, "--head"), base)
    return trusted.config, trusted.notes, trusted.source


def _gate_analyzers(config: Config, as_the_gate: bool) -> tuple[str, ...] | None:
    """With --config-from-base, what the push gate's lenses run (None: every enabled one)."""
    if not as_the_gate:
        return None
    from tribunal.lenses import gate_analyzers

    return gate_analyzers(config)


def _write(path: Path, text: str) -> None:
    try:
        path.write_text(text, encoding="utf-8", errors="surrogateescape")
    except OSError as exc:
        raise InputError(f"{path}: cannot write the report: {exc.strerror or exc}") from None


def _emit(text: str) -> None:
    """Write the report; a reader that went away (``| head -1``) is not an error
    (``tribunal.render.safeout``): the exit code still reflects the findings."""
    sys.stdout.write(text)
    sys.stdout.flush()


def exit_code(report: Report, *, hard_fail: bool, strict: bool = False) -> int:
    """1 when the report blocks (``gate.policy``), else 3 if an analyzer crashed, else 0."""
    from tribunal.gate.policy import blocking_verdict

    if blocking_verdict(report, hard_fail=hard_fail, strict=strict) is not None:
        return ExitCode.CONTRADICTED
    if report.errors:
        return ExitCode.INTERNAL
    return ExitCode.OK
