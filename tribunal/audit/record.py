"""One weakened-gate record: a JSON line saying who pushed what past the gate, and how.

The log is a boundary (it is read back by ``tribunal audit`` and may have been
edited by hand), so records are a pydantic model, validated when read. The
``prev`` field chains each record to the exact bytes of the line before it.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Final, Literal

from pydantic import BaseModel, ConfigDict, Field

SCHEMA_ID: Final = "tribunal.weakened-gate/1"

How = Literal[
    "no-verify",
    "skipped-hook",
    "hooks-disabled",
    "failing-summary",
    "not-convened",
    "no-gate",
    "unknown",
    "gate-weakened",
    "suppression-added",
    "tracking-ref-written",
    "default-branch-set",
    "gate-config-removed",
    "summary-unauthenticated",
]

#: For people: what each way round (or weakening of) the gate means.
HOW_TEXT: Final[dict[str, str]] = {
    "no-verify": "--no-verify",
    "skipped-hook": "skipped hook (SKIP=tribunal-convene)",
    "hooks-disabled": "hooks disabled (e.g. core.hooksPath=/dev/null)",
    "failing-summary": "failing summary pushed anyway",
    "not-convened": "ref not convened because pre-commit checks one ref per push",
    "no-gate": "no tribunal pre-push gate installed",
    "unknown": "no passing summary; how the gate was passed is not visible",
    "gate-weakened": "pushed change weakens tribunal.yml",
    "suppression-added": "pushed change adds suppressions",
    "tracking-ref-written": "remote-tracking ref written locally (no evidence of the remote)",
    "default-branch-set": "the remote's default branch set locally (git remote set-head)",
    "gate-config-removed": "the pushed change removes tribunal-convene from the hook config",
    "summary-unauthenticated": "a summary that does not authenticate (edited, or another key)",
}

#: Kinds that describe the pushed change rather than a way round the gate.
CHANGE_KINDS: Final = frozenset({"gate-weakened", "suppression-added"})
#: Kinds that describe local state the gate reads (refs, summaries), not a push.
LOCAL_KINDS: Final = frozenset(
    {"tracking-ref-written", "default-branch-set", "summary-unauthenticated"}
)

Found = Literal["reference-transaction", "pre-push", "audit", "install"]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


class Who(_Model):
    name: str
    email: str


class RemoteInfo(_Model):
    name: str
    url: str | None = Field(default=None, description="without embedded credentials")


class Blocking(_Model):
    """A finding (or a lens error) that made the summary fail, or a note about the change."""

    lens: str | None = None
    analyzer: str | None = None
    verdict: str
    file: str | None = None
    line: int | None = None
    title: str


class Record(_Model):
    schema_id: Literal["tribunal.weakened-gate/1"] = Field(default=SCHEMA_ID, alias="schema")
    time: str = Field(description="when the record was written (UTC)")
    pushed: str | None = Field(default=None, description="the reflog entry's time (UTC)")
    found: Found
    user: Who
    host: str
    remote: RemoteInfo
    remote_ref: str | None
    tracking_ref: str
    old: str | None
    new: str
    how: list[How]
    detail: str = ""
    findings: list[Blocking] = []
    summary: str | None = None
    prev: str = ""

    @property
    def is_local(self) -> bool:
        """A record of local state (a ref written, a summary forged), not of a push."""
        return bool(self.how) and all(kind in LOCAL_KINDS for kind in self.how)

    @property
    def is_bypass(self) -> bool:
        return not self.is_local and any(kind not in CHANGE_KINDS for kind in self.how)

    def key(self) -> tuple[str, ...]:
        """What "already recorded" means: a bypass once per remote and commit, a
        weakening once per commit and kind, a local write once per ref and value."""
        if "summary-unauthenticated" in self.how:  # every time one is found
            return ("summary", self.summary or "", self.time)
        if self.is_local:
            return ("local", *sorted(self.how), self.tracking_ref, self.old or "", self.new)
        if self.is_bypass:
            return ("bypass", self.remote.name, self.new)
        return ("change", self.new, *sorted(self.how))


def how_text(how: list[How] | list[str]) -> str:
    return "; ".join(HOW_TEXT.get(kind, kind) for kind in how)


def utc(epoch: float | None = None) -> str:
    moment = datetime.now(UTC) if epoch is None else datetime.fromtimestamp(epoch, UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")
