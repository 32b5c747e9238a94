"""Regular expressions compiled on first use rather than at import.

The pre-commit hook imports every module on its path at every commit, while
most patterns only matter for some kinds of file (a Jest config, a JS import,
a requirements file). Compiling them at import cost the hook ~10 ms; a module
on the hook's path declares ``_WORD = lazy(r"...")`` and calls ``_WORD()``
where it matches, so a pattern is compiled once per run, and only if used.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache


def lazy(pattern: str, flags: int = 0) -> Callable[[], re.Pattern[str]]:
    """An accessor that compiles ``pattern`` on its first call and returns it ever after."""
    return cache(lambda: re.compile(pattern, flags))
