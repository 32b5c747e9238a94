"""Progress for people at a terminal: which lens is running, for how long, and how far it is.

Only on a terminal (stderr is a tty); otherwise silent, and only the result is
printed. pre-commit gives hooks a pseudo-terminal when colour is on but shows
their output only when they finish, so progress is whole lines (no carriage
returns or cursor tricks): replayed as text, it still reads as a log.
"""

from __future__ import annotations

import sys
import time
from typing import TextIO

HEARTBEAT_S = 5.0
#: A lens that finishes faster than this is not worth a line of its own.
SLOW_S = 1.0


class Progress:
    def __init__(self, stream: TextIO | None = None, enabled: bool | None = None) -> None:
        self.stream = stream or sys.stderr
        isatty = getattr(self.stream, "isatty", None)
        self.enabled = bool(isatty and isatty()) if enabled is None else enabled
        self._last_beat = time.monotonic()
        self._last_files = self._last_beat

    def say(self, text: str) -> None:
        if self.enabled:
            print(f"tribunal: {text}", file=self.stream, flush=True)

    def member_done(self, lens: str, verdict: str, duration_ms: float) -> None:
        if duration_ms >= SLOW_S * 1000:
            self.say(f"  {lens:<10} {verdict:<12} {duration_ms / 1000:.1f} s")

    def heartbeat(self, running: dict[str, float]) -> None:
        """Every ``HEARTBEAT_S`` seconds, one line naming the lenses still running."""
        now = time.monotonic()
        if not self.enabled or not running or now - self._last_beat < HEARTBEAT_S:
            return
        self._last_beat = now
        names = ", ".join(f"{lens} ({now - started:.0f} s)" for lens, started in running.items())
        self.say(f"  still running: {names}")

    def files(self, who: str, analyzer: str, done: int, total: int) -> None:
        """Every ``HEARTBEAT_S`` seconds, how many files ``analyzer`` (of ``who``) has judged.

        Called by the engine after each file (``engine.analyze``'s ``progress``),
        from whichever thread or process runs the analyzers: it prints itself.
        """
        now = time.monotonic()
        if not self.enabled or now - self._last_files < HEARTBEAT_S:
            return
        self._last_files = now
        try:
            self.say(f"  {who}: {analyzer}, {done:,} of {total:,} files")
        except (OSError, ValueError):  # the terminal went away: the run goes on, silently
            self.enabled = False
