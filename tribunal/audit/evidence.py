"""What the gate left behind for a pushed commit, and whether the push brought anything new.

A pushed commit counts as convened when an authenticated ``summary.json`` for
it shows a verified pass by its own members (every lens its config listed is
present, none ERROR or CONTRADICTED, and under its ``strict`` none UNVERIFIED).
A summary that does not authenticate is ignored, as the gate ignores it.

A push that brought no commit the remote lacked (a new branch at a commit the
remote already has, a rewind) has nothing to convene, so it is never a record.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from tribunal.audit.record import Blocking, How
from tribunal.engine.registry import SUPPRESSION_ID, WEAKENED_ID
from tribunal.gate.summary import (
    FindingRecord,
    Summary,
    SummaryError,
    load,
    summary_paths,
    user_key,
)
from tribunal.git.cmd import Git

#: Summary notes about the change itself that belong in the log.
CHANGE_NOTES: dict[str, How] = {WEAKENED_ID: "gate-weakened", SUPPRESSION_ID: "suppression-added"}


@dataclass(frozen=True)
class Verdicts:
    """The authenticated summaries of one commit, newest first."""

    passing: tuple[tuple[Path, Summary], ...] = ()
    failing: tuple[tuple[Path, Summary], ...] = ()


@dataclass(frozen=True)
class Push:
    """What a summary must have been made for to excuse a push."""

    remote: str
    bases: set[str | None]  # the range bases the gate would have used
    digests: set[str]  # the config digests in force

    def matches(self, summary: Summary) -> bool:
        return (
            summary.remote.name == self.remote
            and summary.range.base in self.bases
            and summary.config.digest in self.digests
        )


def summaries_for(common_dir: Path, commit: str) -> Verdicts:
    paths = summary_paths(common_dir, commit)
    if not paths:
        return Verdicts()  # no key is created for a repository that never convened
    key = user_key()
    found = []
    for path in paths:
        try:
            summary = load(path, key)
        except SummaryError:
            continue
        if summary.commit == commit:
            found.append((path, summary))
    found.sort(key=lambda item: item[1].created, reverse=True)
    return Verdicts(
        tuple(item for item in found if passes(item[1])),
        tuple(item for item in found if not passes(item[1])),
    )


def passes(summary: Summary) -> bool:
    from tribunal.gate.decision import member_reasons

    present = {m.lens for m in summary.members}
    if not summary.members or any(lens not in present for lens in summary.config.lenses):
        return False
    return not member_reasons(summary.members, summary.config.strict)


def blocking(summary: Summary) -> list[Blocking]:
    """What made ``summary`` fail: each blocking finding, and each lens that could not complete."""
    from tribunal.gate.decision import blocking_verdicts, member_reason

    out = []
    verdicts = blocking_verdicts(summary.config.strict)
    for member in summary.members:
        reason = member_reason(member, summary.config.strict)
        if reason is None:
            continue
        if member.verdict == "ERROR":
            out.append(Blocking(lens=member.lens, verdict="ERROR", title=reason))
        for f in member.findings:
            if f.verdict in verdicts:
                out.append(_blocking(f, member.lens))
    return out


def change_notes(summary: Summary) -> list[FindingRecord]:
    """The summary's notes that weaken the gate: config weakenings and added suppressions."""
    return [note for note in summary.notes if note.analyzer in CHANGE_NOTES]


def note_kinds(notes: list[FindingRecord]) -> list[How]:
    return list(dict.fromkeys(CHANGE_NOTES[n.analyzer] for n in notes))


def notes_as_findings(notes: list[FindingRecord]) -> list[Blocking]:
    return [_blocking(n, None) for n in notes]


def brings_new_commits(git: Git, commit: str, excludes: list[str]) -> bool:
    """Whether ``commit`` has history that none of ``excludes`` (the remote's refs) has."""
    lines = [commit, *(f"^{sha}" for sha in excludes)]
    out = git.run(
        "rev-list",
        "-n",
        "1",
        "--ignore-missing",
        "--stdin",
        stdin=("\n".join(lines) + "\n").encode(),
    )
    return bool(out.strip())


def _blocking(f: FindingRecord, lens: str | None) -> Blocking:
    return Blocking(
        lens=lens,
        analyzer=f.analyzer,
        verdict=f.verdict,
        file=f.file or None,
        line=f.line,
        title=f.title,
    )
