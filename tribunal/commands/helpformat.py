"""The ``--help`` layout of every command, measured without ``shutil``.

argparse makes a help formatter for each ``add_argument`` (to check the
metavar against ``nargs``), and its default formatter reads the terminal's
width through ``shutil``, whose import loads ``bz2``, ``lzma`` and ``zlib``:
~2 ms of every commit, for help nobody asked for. ``HelpFormatter`` asks ``os``
for the same width the same way (``$COLUMNS``, else the terminal on standard
output, else 80 columns).
"""

from __future__ import annotations

import argparse
import os
import sys

#: The width when neither ``$COLUMNS`` nor a terminal says (``shutil``'s fallback).
FALLBACK_COLUMNS = 80


class HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """argparse's ``RawDescriptionHelpFormatter`` (descriptions keep their line breaks)."""

    def __init__(
        self,
        prog: str,
        indent_increment: int = 2,
        max_help_position: int = 24,
        width: int | None = None,
    ) -> None:
        if width is None:
            width = terminal_columns() - 2  # as argparse's own default does
        super().__init__(prog, indent_increment, max_help_position, width)


def terminal_columns() -> int:
    """``shutil.get_terminal_size().columns``, without importing ``shutil``."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns > 0:
        return columns
    stdout = sys.__stdout__
    if stdout is None:
        return FALLBACK_COLUMNS
    try:
        return os.get_terminal_size(stdout.fileno()).columns or FALLBACK_COLUMNS
    except (AttributeError, ValueError, OSError):  # closed, detached, not a terminal
        return FALLBACK_COLUMNS
