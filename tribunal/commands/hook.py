"""``tribunal hook pre-commit`` and ``tribunal hook pre-push``: what the git hooks call.

Both fail closed: a configuration error (exit 2) or an internal error (exit 3)
blocks like a CONTRADICTED finding (exit 1), with one message that names the
problem and says that ``--no-verify`` bypasses the gate (and, for a push, is logged).
"""

from __future__ import annotations

import argparse
import os
import sys
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tribunal.commands.exitcodes import epilog as exit_codes
from tribunal.commands.helpformat import HelpFormatter
from tribunal.errors import ExitCode, TribunalError

HELP = """\
Run a git hook. The pre-commit framework (.pre-commit-hooks.yaml) and the shims
written by `tribunal install` call these; you rarely need to.

  pre-commit   analyze the staged changes (as `tribunal check --staged`); block
               the commit on a CONTRADICTED finding
  pre-push     convene every pushed ref on a throwaway worktree, write
               summary.json, and reject the push unless it shows a unanimous
               verified pass (with plain git, --plain: REMOTE URL arguments and
               the ref lines on stdin; under pre-commit: the PRE_COMMIT_*
               variables)
  reference-transaction
               record pushes whose commit got past the gate in the
               weakened-gate log (see `tribunal audit`); always exits 0
  report       print every finding of what the pre-commit hook judges, in
               full (the staged changes; under `pre-commit run --from-ref A
               --to-ref B`, that range); never blocks. The framework's
               manual-stage hook `tribunal-check` runs it
"""


def add_parser(sub: Any, epilog: str) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "hook",
        help="run a git hook (what the installed hooks call)",
        description=HELP,
        epilog=exit_codes(
            "nothing blocks (reference-transaction always exits 0)",
            "the hook blocks: a CONTRADICTED finding at pre-commit, a convene\n"
            "without a unanimous verified pass at pre-push",
            internal="internal error; blocks the commit or push (a bug report is written)",
        ),
        formatter_class=HelpFormatter,
    )
    hooks = p.add_subparsers(dest="hook", metavar="<hook>")
    pre_commit = hooks.add_parser(
        "pre-commit", help="gate a commit on its staged changes", formatter_class=HelpFormatter
    )
    pre_commit.add_argument(
        "--config",
        metavar="FILE",
        help="config file (default: tribunal.yml; also $TRIBUNAL_CONFIG); for `args:`",
    )
    # pre-commit passes file names only with pass_filenames: true, in pieces; the hook
    # judges the whole change and reads the framework's filter itself (hooks/prefilter.py).
    pre_commit.add_argument("files", nargs="*", help=argparse.SUPPRESS)
    pre_commit.set_defaults(func=run_pre_commit)
    pre_push = hooks.add_parser(
        "pre-push", help="convene the pushed refs and gate the push", formatter_class=HelpFormatter
    )
    pre_push.add_argument(
        "--plain",
        action="store_true",
        help="called by a plain git hook (`tribunal install`): the pushed refs come on stdin",
    )
    pre_push.add_argument("git_args", nargs="*", metavar="REMOTE URL", help="as git passes them")
    pre_push.set_defaults(func=run_pre_push)
    ref_tx = hooks.add_parser(
        "reference-transaction",
        help="record pushes that got past the gate (always exits 0)",
        formatter_class=HelpFormatter,
    )
    ref_tx.add_argument("state", help="as git passes it: prepared, committed or aborted")
    ref_tx.add_argument("git_pid", nargs="?", type=int, help=argparse.SUPPRESS)
    ref_tx.set_defaults(func=run_reference_transaction)
    report = hooks.add_parser(
        "report", help="every finding of the staged changes, in full", formatter_class=HelpFormatter
    )
    report.add_argument("files", nargs="*", help=argparse.SUPPRESS)
    report.set_defaults(func=run_report)


def run_pre_commit(ns: argparse.Namespace) -> int:
    from tribunal.hooks.precommit import run_pre_commit as run

    return fail_closed("pre-commit", lambda: run(Path.cwd(), config_file=ns.config))


def run_pre_push(ns: argparse.Namespace) -> int:
    def body() -> int:
        from tribunal.hooks.prepush import run_pre_push as run
        from tribunal.worktree.signals import interrupts_as_exceptions

        with interrupts_as_exceptions():  # SIGTERM/SIGHUP unwind too: nothing is left behind
            return run(
                Path.cwd(), list(ns.git_args), sys.stdin, os.environ, sys.stdout, plain=ns.plain
            )

    return fail_closed("pre-push", body)


def run_report(ns: argparse.Namespace) -> int:
    """Report only: findings never change the exit code; errors do (2 or 3)."""
    from tribunal.hooks.precommit import run_full_report

    try:
        return run_full_report(Path.cwd(), os.environ, sys.stdout)
    except TribunalError as exc:
        print(f"tribunal: error: {exc}", file=sys.stderr)
        return int(exc.exit_code)


def run_reference_transaction(ns: argparse.Namespace) -> int:
    """Never fails: a non-zero exit here would abort git's ref updates."""
    try:
        from tribunal.hooks.audit_hook import run_reference_transaction as run

        return run(Path.cwd(), ns.state, ns.git_pid, sys.stdin, sys.stderr)
    except BaseException as exc:  # not even Ctrl-C may turn into a failed ref update
        print(f"tribunal: the bypass audit hook failed: {exc!r}", file=sys.stderr)
        return ExitCode.OK


def fail_closed(stage: str, body: Callable[[], int]) -> int:
    """Run a hook; turn every failure into a blocking exit code with the way out."""
    from tribunal.hooks.output import bypass_hint

    sys.stdout.flush()
    try:
        return body()
    except TribunalError as exc:
        message = f"tribunal: error: {exc}"
        code = int(exc.exit_code)
    except Exception as exc:
        from tribunal.util.crashlog import write_bug_report

        path = write_bug_report("".join(traceback.format_exception(exc)))
        where = f"; traceback written to {path}" if path else ""
        message = f"tribunal: internal error: {type(exc).__name__}: {exc}{where}"
        code = ExitCode.INTERNAL
    sys.stdout.flush()
    print(f"{message}\n{bypass_hint(stage)}", file=sys.stderr, flush=True)
    return code
