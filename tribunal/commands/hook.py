"""``tribunal hook pre-commit`` and ``tribunal hook pre-push``: what the git hooks call.

Both fail closed: a configuration error (exit 2) or an internal error (exit 3)
blocks like a CONTRADICTED finding (exit 1), with one message that names the
problem and says that ``--no-verify`` bypasses the gate and is logged.
"""

from __future__ import annotations

import argparse
import os
import sys
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tribunal.errors import ExitCode, TribunalError

HELP = """\
Run a git hook. The pre-commit framework (.pre-commit-hooks.yaml) and the shims
written by `tribunal install` call these; you rarely need to.

  pre-commit   analyze the staged changes (as `tribunal check --staged`); block
               the commit on a CONTRADICTED finding
  pre-push     convene every pushed ref on a throwaway worktree, write
               summary.json, and reject the push unless it shows a unanimous
               verified pass (with plain git: REMOTE URL arguments and the
               ref lines on stdin; under pre-commit: the PRE_COMMIT_* variables)
"""


def add_parser(sub: Any, epilog: str) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "hook",
        help="run a git hook (what the installed hooks call)",
        description=HELP,
        epilog=epilog,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    hooks = p.add_subparsers(dest="hook", metavar="<hook>")
    pre_commit = hooks.add_parser("pre-commit", help="gate a commit on its staged changes")
    pre_commit.add_argument("files", nargs="*", help=argparse.SUPPRESS)
    pre_commit.set_defaults(func=run_pre_commit)
    pre_push = hooks.add_parser("pre-push", help="convene the pushed refs and gate the push")
    pre_push.add_argument("git_args", nargs="*", metavar="REMOTE URL", help="as git passes them")
    pre_push.set_defaults(func=run_pre_push)


def run_pre_commit(ns: argparse.Namespace) -> int:
    from tribunal.hooks.precommit import run_pre_commit as run

    return fail_closed("pre-commit", lambda: run(Path.cwd()))


def run_pre_push(ns: argparse.Namespace) -> int:
    def body() -> int:
        from tribunal.hooks.prepush import run_pre_push as run

        return run(Path.cwd(), list(ns.git_args), sys.stdin, os.environ, sys.stdout)

    return fail_closed("pre-push", body)


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
        from tribunal.crashlog import write_bug_report

        path = write_bug_report("".join(traceback.format_exception(exc)))
        where = f"; traceback written to {path}" if path else ""
        message = f"tribunal: internal error: {type(exc).__name__}: {exc}{where}"
        code = ExitCode.INTERNAL
    sys.stdout.flush()
    print(f"{message}\n{bypass_hint(stage)}", file=sys.stderr, flush=True)
    return code
