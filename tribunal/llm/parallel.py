"""Run a phase's calls side by side, and stop waiting at the deadline.

Daemon threads rather than an executor: a member that is still talking when
the council's budget ends is abandoned, and neither the phase nor the process
exit waits for it (an executor's workers are joined at interpreter exit). Each
call also carries its own HTTP timeout, so an abandoned thread ends soon.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

T = TypeVar("T")


@dataclass(frozen=True)
class Outcome(Generic[T]):
    """One task's result: a value, the exception it raised, or neither (still running)."""

    value: T | None = None
    error: BaseException | None = None

    @property
    def late(self) -> bool:
        return self.value is None and self.error is None


def run_parallel(tasks: Sequence[Callable[[], T]], deadline: float) -> list[Outcome[T]]:
    """Each task's outcome, in order; unfinished at ``deadline`` (monotonic) means late."""
    outcomes: list[Outcome[T]] = [Outcome() for _ in tasks]

    def run(index: int, task: Callable[[], T]) -> None:
        try:
            outcomes[index] = Outcome(value=task())
        except BaseException as exc:  # reported to the caller, never lost in a thread
            outcomes[index] = Outcome(error=exc)

    threads = [
        threading.Thread(target=run, args=(i, task), daemon=True, name=f"tribunal-llm-{i}")
        for i, task in enumerate(tasks)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(max(0.0, deadline - time.monotonic()))
    return [outcomes[i] if not threads[i].is_alive() else Outcome() for i in range(len(tasks))]
