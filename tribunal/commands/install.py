"""``tribunal install`` and ``tribunal uninstall``: git hooks without the pre-commit framework."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from tribunal.commands.exitcodes import epilog as exit_codes
from tribunal.commands.helpformat import HelpFormatter
from tribunal.errors import ExitCode

INSTALL_HELP = """\
Write small pre-commit and pre-push hooks into this repository's hooks
directory (core.hooksPath is honoured) that run `tribunal hook pre-commit` and
`tribunal hook pre-push` with this Python. Unlike the pre-commit framework,
which shows a pre-push hook only the first ref with new commits, these see and
convene every ref of a push.

Also a reference-transaction hook that records pushes which got past the gate
(--no-verify, SKIP=tribunal-convene, a ref pre-commit did not convene) in the
weakened-gate log; it never fails a git command. --audit-only installs just
that one, for repositories whose gate runs under the pre-commit framework
(which cannot install it; tribunal-convene installs it on its first run).
The first install takes the existing reflogs as the audit's starting point;
later ones also scan them for pushes past the gate (see `tribunal audit`).

A hook that is already there and is not tribunal's is never overwritten: the
install stops and says so. With --force it is kept as <hook>.pre-tribunal and
run before tribunal's (and `tribunal uninstall` puts it back).
"""


def add_parser(sub: Any, epilog: str) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "install",
        help="install tribunal's git hooks (without the pre-commit framework)",
        description=INSTALL_HELP,
        epilog=exit_codes("hooks installed or removed"),
        formatter_class=HelpFormatter,
    )
    p.add_argument(
        "--audit-only",
        action="store_true",
        help="install only the hook that records gate bypasses (for pre-commit framework users)",
    )
    p.add_argument("--force", action="store_true", help="chain to an existing hook, keeping it")
    p.set_defaults(func=run_install)
    u = sub.add_parser(
        "uninstall",
        help="remove the hooks `tribunal install` wrote",
        description="Remove tribunal's hooks and restore any hook they were chained to.",
        epilog=exit_codes("hooks installed or removed"),
        formatter_class=HelpFormatter,
    )
    u.set_defaults(func=run_uninstall)


def run_install(ns: argparse.Namespace) -> int:
    from tribunal.git.cmd import Git
    from tribunal.hooks import shims
    from tribunal.hooks.audit_hook import lazy
    from tribunal.hooks.repo import open_repo

    hooks = shims.AUDIT_HOOKS if ns.audit_only else shims.GATE_HOOKS + shims.AUDIT_HOOKS
    with Git(Path.cwd()) as git:
        actions = shims.install(git, hooks, force=ns.force)
    _print(actions)
    repo = open_repo(Path.cwd())
    try:
        with repo.git() as git:
            lazy(repo, git, "install", sys.stderr)
    except Exception as exc:  # the hooks are in place; the scan runs again at every push
        print(f"tribunal: warning: the reflog scan could not run: {exc}", file=sys.stderr)
    return ExitCode.OK


def run_uninstall(ns: argparse.Namespace) -> int:
    from tribunal.git.cmd import Git
    from tribunal.hooks import shims

    with Git(Path.cwd()) as git:
        actions = shims.uninstall(git, shims.GATE_HOOKS + shims.AUDIT_HOOKS)
    _print(actions)
    if not actions:
        print("tribunal: no tribunal hooks were installed")
    return ExitCode.OK


def _print(actions: list[Any]) -> None:
    for action in actions:
        print(f"tribunal: {action.hook}: {action.what} ({action.path})")
    sys.stdout.flush()
