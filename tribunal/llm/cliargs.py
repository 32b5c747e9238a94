"""What ``tribunal propose`` and ``tribunal council`` share: flags, the diff, the send guard."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from tribunal.commands.changeargs import add_change_flags, add_cwd_flag, start_dir
from tribunal.commands.helpformat import HelpFormatter
from tribunal.llm.budget import Limits
from tribunal.llm.guard import ALLOW_ENV, refusal_notice, refused, send_allowed
from tribunal.llm.providers import MemberSpec

WHICH_CHANGE = """\
Which change:
  --diff FILE | -        a unified diff
  --base REF [--head REF]  from the merge base of REF and HEAD-REF (default HEAD)
  --staged               the index against HEAD

Sending the diff: nothing is sent, to any endpoint, unless you pass
--allow-send-diff or set TRIBUNAL_ALLOW_SEND_DIFF=1; without it, what would be
sent is printed for review. The diff is your source code, and a loopback
address is no proof that it stays on this machine (a local proxy may forward
it to a hosted model). The pre-push convene's council has no flags: it sends
only when TRIBUNAL_ALLOW_SEND_DIFF=1 is set or your own git config says so
(git config --global tribunal.allowSendDiff true), never because a repository
or its tribunal.yml asks. Obvious secrets (private keys, well-known token
formats, .env values) are redacted before anything is sent. The API key is
read only from $TRIBUNAL_API_KEY and is never printed or written anywhere.

Model text (verdicts, rationale, dissent) is printed only inside the advisory
block, each line prefixed with "council |", without control characters.
"""


def add_command(
    sub: Any, name: str, *, summary: str, description: str, epilog: str, budget_help: str
) -> argparse.ArgumentParser:
    """The subcommand's parser with the shared flags; the caller adds its own."""
    p: argparse.ArgumentParser = sub.add_parser(
        name,
        help=summary,
        description=description + "\n" + WHICH_CHANGE,
        epilog=epilog,
        formatter_class=HelpFormatter,
    )
    add_change_flags(
        p, base_help="base revision", head_help="head revision (default HEAD); needs --base"
    )
    p.add_argument(
        "--allow-send-diff",
        action="store_true",
        help=f"allow sending the diff to the endpoints (also ${ALLOW_ENV}=1)",
    )
    p.add_argument(
        "--timeout", type=_seconds, default=60.0, metavar="S", help="seconds per call (default 60)"
    )
    p.add_argument(
        "--retries", type=_count, default=2, metavar="N", help="retries per call (default 2)"
    )
    p.add_argument("--budget", type=_seconds, metavar="S", help=budget_help)
    p.add_argument("--config", metavar="FILE", help="config file (default: tribunal.yml)")
    add_cwd_flag(p)
    return p


def limits(ns: argparse.Namespace) -> Limits:
    return Limits(timeout=ns.timeout, retries=ns.retries)


def read_change(ns: argparse.Namespace) -> tuple[Path, str]:
    """The directory to run in and the diff the change flags name (a usage error if none)."""
    from tribunal.llm.difftext import read_diff

    here = start_dir(ns.cwd)
    return here, read_diff(here, ns.diff, ns.base, ns.head, ns.staged)


def held_back(
    ns: argparse.Namespace, specs: Sequence[MemberSpec], show_preview: Callable[[], None]
) -> bool:
    """Whether the send guard keeps the diff home; if so the prompt is shown and why is said.

    Nothing goes to any endpoint without ``--allow-send-diff`` (or
    ``$TRIBUNAL_ALLOW_SEND_DIFF``): the diff is source code.
    """
    blocked = refused(specs, send_allowed(ns.allow_send_diff))
    if blocked:
        show_preview()
        print(f"tribunal: {refusal_notice(blocked)}", file=sys.stderr)
    return bool(blocked)


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected seconds, found {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"expected a positive number, found {text!r}")
    return value


def _count(text: str) -> int:
    if not text.isdigit() or int(text) > 10:
        raise argparse.ArgumentTypeError(f"expected 0 to 10, found {text!r}")
    return int(text)
