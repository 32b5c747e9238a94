"""Whether to colour terminal output: ``--color`` first, then the conventional variables.

``--color always``/``never`` decide. ``auto`` follows, in this order (as CPython's own
colouring does): ``NO_COLOR`` set and non-empty turns colour off (no-color.org);
``FORCE_COLOR`` set and non-empty, or ``CLICOLOR_FORCE`` set and not ``0``, turns it on
even into a pipe (force-color.org, bixense.com/clicolors: CI logs that render ANSI);
``TERM=dumb`` turns it off; otherwise colour only on a terminal.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import TextIO

CHOICES = ("auto", "always", "never")


def use_color(mode: str, stream: TextIO, environ: Mapping[str, str] | None = None) -> bool:
    if mode != "auto":
        return mode == "always"
    env = os.environ if environ is None else environ
    if env.get("NO_COLOR"):
        return False
    if env.get("FORCE_COLOR") or (env.get("CLICOLOR_FORCE") or "0") != "0":
        return True
    if env.get("TERM") == "dumb":
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())
