"""Where tracebacks go: a file the user can attach to a bug report.

The terminal gets one line; the traceback goes to a file under the user's
cache directory (``$XDG_CACHE_HOME/tribunal`` or ``~/.cache/tribunal``).
"""

from __future__ import annotations

import os
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from tribunal import __version__
from tribunal.findings import AnalyzerError


def crash_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "tribunal"


def write_bug_report(text: str) -> Path | None:
    """Write ``text`` with version details; return its path, or None if nothing is writable."""
    body = f"tribunal {__version__}\n{time.strftime('%Y-%m-%dT%H:%M:%S%z')}\n\n{text}"
    for directory in (crash_dir(), Path(tempfile.gettempdir())):
        try:
            directory.mkdir(parents=True, exist_ok=True)
            fd, name = tempfile.mkstemp(prefix="crash-", suffix=".txt", dir=directory)
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                handle.write(body)
            return Path(name)
        except OSError:
            continue
    return None


def report_crashes(errors: Sequence[AnalyzerError], label: str, err: TextIO) -> None:
    """One line per analyzer crash (``tribunal: <label>: ...``), all tracebacks in one file."""
    for error in errors:
        print(f"tribunal: {label}: {error.message}", file=err)
    path = write_bug_report("\n\n".join(e.traceback for e in errors))
    if path is not None:
        print(f"tribunal: tracebacks written to {path}", file=err)
