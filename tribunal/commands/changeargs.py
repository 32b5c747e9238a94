"""The flags that name a change, declared once for ``check``, ``propose`` and ``council``.

``--base``/``--head``/``--staged``/``--diff`` select the change (each command's
description says what their combinations mean) and ``--cwd`` runs as if
started elsewhere. One declaration keeps the commands from drifting apart in
names, destinations or meaning; each words its own help for the revisions.
Nothing here is heavier than ``argparse``: ``check`` loads it on every commit.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from tribunal.errors import UsageError


def add_change_flags(p: argparse.ArgumentParser, *, base_help: str, head_help: str) -> None:
    """The ``which change`` group: ``--base``, ``--head``, ``--staged``, ``--diff``."""
    which = p.add_argument_group("which change")
    which.add_argument("--base", metavar="REF", help=base_help)
    which.add_argument("--head", metavar="REF", help=head_help)
    which.add_argument("--staged", action="store_true", help="the index against HEAD")
    which.add_argument("--diff", metavar="FILE", help="a unified diff file, or - for stdin")


def add_cwd_flag(p: argparse.ArgumentParser) -> None:
    p.add_argument("--cwd", metavar="DIR", help="run as if started in DIR")


def start_dir(name: str | None) -> Path:
    """The directory ``--cwd`` names (else the current one), resolved; a usage error if absent."""
    path = Path(name or ".").resolve()
    if not path.is_dir():
        raise UsageError(f"--cwd {name}: not a directory")
    return path
