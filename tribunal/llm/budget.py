"""Limits for one model call and the budget for a whole run.

A council must never hold up the gate beyond its time budget, and a chatty or
looping model must never burn an unbounded number of calls or tokens, so every
call asks the run's ``Budget`` for admission first and is charged afterwards.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass

from tribunal.llm.errors import LLMError


@dataclass(frozen=True)
class Limits:
    """Per-call limits: the HTTP timeout, retries with backoff, and output tokens."""

    timeout: float = 60.0
    retries: int = 2
    backoff: float = 0.5
    max_output_tokens: int = 2048


@dataclass(frozen=True)
class Costs:
    seconds: float
    calls: int
    tokens_in: int
    tokens_out: int

    def as_dict(self) -> dict[str, float | int]:
        return {
            "seconds": round(self.seconds, 3),
            "calls": self.calls,
            "tokens_in": self.tokens_in,
            "tokens_out": self.tokens_out,
        }


class Budget:
    """The run-wide allowance of wall-clock time, calls and tokens (thread-safe)."""

    def __init__(
        self, seconds: float, *, max_calls: int = 64, max_tokens: int | None = None
    ) -> None:
        self.started = time.monotonic()
        self.deadline = self.started + seconds
        self.max_calls = max_calls
        self.max_tokens = max_tokens
        self._lock = threading.Lock()
        self._calls = 0
        self._tokens_in = 0
        self._tokens_out = 0

    def remaining(self) -> float:
        return max(0.0, self.deadline - time.monotonic())

    def admit(self) -> float:
        """Count one call, or raise ``LLMError(kind="budget")``; returns the seconds left."""
        with self._lock:
            left = self.remaining()
            if left <= 0:
                raise LLMError("the run's time budget is spent", kind="budget")
            if self._calls >= self.max_calls:
                raise LLMError(
                    f"the run's budget of {self.max_calls} calls is spent", kind="budget"
                )
            spent = self._tokens_in + self._tokens_out
            if self.max_tokens is not None and spent >= self.max_tokens:
                raise LLMError(
                    f"the run's budget of {self.max_tokens} tokens is spent", kind="budget"
                )
            self._calls += 1
            return left

    def charge(self, tokens_in: int, tokens_out: int) -> None:
        with self._lock:
            self._tokens_in += tokens_in
            self._tokens_out += tokens_out

    def costs(self) -> Costs:
        with self._lock:
            return Costs(
                time.monotonic() - self.started, self._calls, self._tokens_in, self._tokens_out
            )
