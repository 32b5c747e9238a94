"""Flags that ``tribunal propose`` and ``tribunal council`` share."""

from __future__ import annotations

import argparse
from pathlib import Path

from tribunal.errors import UsageError
from tribunal.llm.budget import Limits
from tribunal.llm.guard import ALLOW_ENV

WHICH_CHANGE = """\
Which change:
  --diff FILE | -        a unified diff
  --base REF [--head REF]  from the merge base of REF and HEAD-REF (default HEAD)
  --staged               the index against HEAD

Nothing is sent to an endpoint that is not a loopback address (a local Ollama
is fine) unless you pass --allow-send-diff or set TRIBUNAL_ALLOW_SEND_DIFF=1:
the diff is your source code. Without it, the prompt is printed for review and
nothing is sent. Obvious secrets (private keys, well-known token formats, .env
values) are redacted before anything is sent. The API key is read only from
$TRIBUNAL_API_KEY and is never printed or written anywhere.
"""


def add_common(p: argparse.ArgumentParser, budget_help: str) -> None:
    which = p.add_argument_group("which change")
    which.add_argument("--diff", metavar="FILE", help="a unified diff file, or - for stdin")
    which.add_argument("--base", metavar="REF", help="base revision")
    which.add_argument("--head", metavar="REF", help="head revision (default HEAD); needs --base")
    which.add_argument("--staged", action="store_true", help="the index against HEAD")
    p.add_argument(
        "--allow-send-diff",
        action="store_true",
        help=f"allow sending the diff to a non-loopback endpoint (also ${ALLOW_ENV}=1)",
    )
    p.add_argument(
        "--timeout", type=_seconds, default=60.0, metavar="S", help="seconds per call (default 60)"
    )
    p.add_argument(
        "--retries", type=_count, default=2, metavar="N", help="retries per call (default 2)"
    )
    p.add_argument("--budget", type=_seconds, metavar="S", help=budget_help)
    p.add_argument("--config", metavar="FILE", help="config file (default: tribunal.yml)")
    p.add_argument("--cwd", metavar="DIR", help="run as if started in DIR")


def limits(ns: argparse.Namespace) -> Limits:
    return Limits(timeout=ns.timeout, retries=ns.retries)


def cwd(ns: argparse.Namespace) -> Path:
    path = Path(ns.cwd or ".").resolve()
    if not path.is_dir():
        raise UsageError(f"--cwd {ns.cwd}: not a directory")
    return path


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
