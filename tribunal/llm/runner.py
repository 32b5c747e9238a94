"""Run one council phase: every call in parallel, inside the budget, drops recorded.

A member that fails on its own account (unreachable, too slow for its call
timeout, malformed twice) is dropped with the reason; one whose reply had to
be clipped to fit stays, with a note per repair. A member cut off by the
council's own deadline keeps the verdict it already gave: only the phase is
marked cut short. In Form it has no verdict yet, so there it is dropped too.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import partial
from typing import TypeVar

from pydantic import BaseModel

from tribunal.llm.ask import Answer, ask
from tribunal.llm.budget import Budget, Limits
from tribunal.llm.errors import LLMError
from tribunal.llm.parallel import run_parallel
from tribunal.llm.providers import Message, Provider
from tribunal.llm.result import Drop

T = TypeVar("T", bound=BaseModel)
Job = Callable[[], Answer[T]]
_LATE, _SKIPPED = "late", "skipped"


class PhaseRunner:
    """Runs phases for one council and keeps its ledger: drops, token usage, phase status."""

    def __init__(
        self,
        providers: Mapping[str, Provider],
        limits: Limits,
        budget: Budget,
        billed: Iterable[str],
    ) -> None:
        self.providers, self.limits, self.budget = providers, limits, budget
        self.drops: dict[str, Drop] = {}
        self.notes: dict[str, list[str]] = {}
        self.usage: dict[str, list[int]] = {key: [0, 0] for key in billed}
        self.status: dict[str, str] = {}
        self._lock = threading.Lock()  # the judge's two orderings bill the same entry

    def job(
        self, key: str, messages: Sequence[Message], model: type[T], bill: str | None = None
    ) -> Job[T]:
        """A call to provider ``key``, its tokens billed to ``bill`` (default: ``key``)."""
        return partial(self._ask, key, messages, model, bill or key)

    def _ask(self, key: str, messages: Sequence[Message], model: type[T], bill: str) -> Answer[T]:
        answer = ask(self.providers[key], messages, model, self.limits, self.budget)
        with self._lock:
            self.usage[bill][0] += answer.tokens_in
            self.usage[bill][1] += answer.tokens_out
        return answer

    def run(self, phase: str, jobs: Mapping[str, Job[T]]) -> tuple[dict[str, T], dict[str, str]]:
        """The values of ``jobs``, and a note for each job that gave none."""
        values, notes, _ = self._run(phase, jobs)
        return {key: answer.value for key, answer in values.items()}, notes

    def members(self, phase: str, jobs: Mapping[str, Job[T]]) -> dict[str, T]:
        """``run`` for member calls: each member that failed on its own account is dropped,
        and what had to be clipped from a member's reply is noted against it."""
        values, notes, spent = self._run(phase, jobs)
        for member_id, answer in values.items():
            self.notes.setdefault(member_id, []).extend(f"{phase}: {n}" for n in answer.notes)
        for member_id, note in notes.items():
            if member_id not in spent:
                self.drops[member_id] = Drop(phase, note)
            elif phase == "form":
                self.drops[member_id] = Drop(phase, "no reply within the council's time budget")
        return {key: answer.value for key, answer in values.items()}

    def _run(
        self, phase: str, jobs: Mapping[str, Job[T]]
    ) -> tuple[dict[str, Answer[T]], dict[str, str], set[str]]:
        """The answers, a note for each job that gave none, and the jobs that gave
        nothing because the council's budget ran out."""
        if not jobs:
            return {}, {}, set()
        if self.budget.remaining() <= 0:
            self.status[phase] = "skipped: the council's time budget is spent"
            return {}, dict.fromkeys(jobs, _SKIPPED), set(jobs)
        outcomes = run_parallel(list(jobs.values()), self.budget.deadline)
        values: dict[str, Answer[T]] = {}
        notes: dict[str, str] = {}
        spent: set[str] = set()
        for key, outcome in zip(jobs, outcomes, strict=True):
            if outcome.value is not None:
                values[key] = outcome.value
            elif outcome.error is None:
                notes[key] = _LATE
                spent.add(key)
            elif not isinstance(outcome.error, LLMError):
                raise outcome.error  # a bug, not a model's failure: let it surface
            else:
                notes[key] = str(outcome.error)
                if outcome.error.kind == "budget":
                    spent.add(key)
        self.status[phase] = "cut short by the time budget" if spent else "done"
        return values, notes, spent

    def live(self, ids: Iterable[str]) -> list[str]:
        return [member_id for member_id in ids if member_id not in self.drops]
