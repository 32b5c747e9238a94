"""Appending the report to the job summary (``$GITHUB_STEP_SUMMARY``).

The job summary is where the whole report lives: it needs no token and no
permission, so it works on pull requests from forks too, and the comment links
to it when the comment had to be cut. GitHub refuses a step summary over 1 MiB,
counting what earlier commands of the same step already wrote, so the report
is cut to what is left.
"""

from __future__ import annotations

import os

from tribunal.github.errors import GitHubError
from tribunal.github.truncate import STEP_SUMMARY, Limit, fit

#: Below this much room, a cut report would be little more than its note.
MIN_ROOM = 16_384
POINTER = "A step summary holds at most 1 MiB; run `tribunal check` on this range to see the rest."


def append(path: str, report: str) -> None:
    """Append ``report`` to the summary file at ``path``, cut to the room left."""
    try:
        existing = os.path.getsize(path) if os.path.exists(path) else 0
    except OSError as exc:
        raise _cannot(path, exc) from None
    room = STEP_SUMMARY.size - existing
    if room < MIN_ROOM:
        raise GitHubError(
            f"cannot write the job summary {path}: the step already wrote {existing:,} of its 1 MiB"
        )
    text = fit(report, Limit(room, "bytes", STEP_SUMMARY.margin), POINTER)
    if existing and not text.startswith("\n"):
        text = "\n" + text
    try:
        with open(path, "a", encoding="utf-8", newline="") as summary:
            summary.write(text)
    except OSError as exc:
        raise _cannot(path, exc) from None


def _cannot(path: str, exc: OSError) -> GitHubError:
    reason = exc.strerror or str(exc)
    return GitHubError(f"cannot write the job summary {path} (GITHUB_STEP_SUMMARY): {reason}")
