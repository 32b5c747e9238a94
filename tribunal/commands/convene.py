"""``tribunal convene --ref REF [--remote NAME]``: a pre-push convene, by hand."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from tribunal.commands.exitcodes import epilog as exit_codes
from tribunal.commands.helpformat import HelpFormatter
from tribunal.errors import ExitCode

HELP = """\
Convene the council on REF exactly as the pre-push hook would for a push of
REF to REMOTE (default: REF's upstream remote, else origin): the range is what
the remote does not have yet, the config is the remote's, the analysis reads
the commit from git's object database, and writers run in a throwaway
worktree. Writes summary.json under the git common dir and prints the gate's
decision; exit 0 on a unanimous verified pass, 1 otherwise.

--config and $TRIBUNAL_CONFIG are ignored: the gate's config never comes from
the change being judged.
"""


def add_parser(sub: Any, epilog: str) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "convene",
        help="run the pre-push convene for a ref by hand",
        description=HELP,
        epilog=exit_codes(
            "summary.json shows a unanimous verified pass",
            "the convene did not pass (the push would be rejected)",
        ),
        formatter_class=HelpFormatter,
    )
    p.add_argument("--ref", required=True, metavar="REF", help="the commit or branch to convene")
    p.add_argument("--remote", metavar="NAME", help="the remote it would be pushed to")
    p.set_defaults(func=run)


def run(ns: argparse.Namespace) -> int:
    from tribunal.audit.remote_state import state_for
    from tribunal.hooks.convene import Target
    from tribunal.hooks.prepush import judge
    from tribunal.hooks.pushinfo import PushedRef
    from tribunal.hooks.repo import open_repo
    from tribunal.worktree.signals import interrupts_as_exceptions

    repo = open_repo(Path.cwd())
    # SIGTERM/SIGHUP unwind as Ctrl-C does, at any moment: exit 128+N, nothing left behind
    with interrupts_as_exceptions(), repo.git() as git:
        head, local_ref, remote, remote_ref = _resolve(git, ns.ref, ns.remote)
        url = git.text("config", "--get", f"remote.{remote}.url", ok_codes=(0, 1)) if remote else ""
        state = state_for(git, repo.common_dir, remote, url or None) if remote else None
        ref = PushedRef(local_ref, head, remote_ref, None)  # the remote's value: its tracking ref
        passed = judge(repo, git, Target(ref, remote, url or None, state), sys.stdout)
    return ExitCode.OK if passed else ExitCode.CONTRADICTED


def _resolve(
    git: Any, ref: str, remote: str | None
) -> tuple[str, str | None, str | None, str | None]:
    """(commit, local ref, remote, remote ref) for ``--ref``/``--remote``."""
    from tribunal.engine.sources import resolve_commit
    from tribunal.errors import UsageError
    from tribunal.hooks.prepush import is_remote

    head = resolve_commit(git, ref)
    if head is None:
        raise UsageError(f"--ref {ref}: no such commit in this repository")
    full = git.text("rev-parse", "--symbolic-full-name", ref, ok_codes=(0, 128)) or None
    branch = full.removeprefix("refs/heads/") if full and full.startswith("refs/heads/") else None
    if remote is not None and not is_remote(git, remote):
        raise UsageError(f"--remote {remote}: no such remote")
    if remote is None and branch:
        remote = git.text("config", "--get", f"branch.{branch}.remote", ok_codes=(0, 1)) or None
    if remote is None and is_remote(git, "origin"):
        remote = "origin"
    merge = git.text("config", "--get", f"branch.{branch}.merge", ok_codes=(0, 1)) if branch else ""
    remote_ref = merge or (full if branch else None)
    return head, full, remote, remote_ref
