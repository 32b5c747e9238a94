"""Find the pushes that got past the gate, and record each one once.

Both ways of finding them read the same reflogs and share one position per
ref, kept under the log's lock: the reference-transaction hook looks at the
refs its push just moved (and classifies the newest entry from inside that
push), the lazy scan at every unaudited entry of every remote-tracking ref.
An ``update by push`` entry becomes a record when its commit has no passing
summary and the push brought commits the remote's other refs did not have;
a passing summary whose change weakens the gate (its config, or added
suppressions) becomes a record of that kind.
"""

from __future__ import annotations

import socket
from collections.abc import Iterable, Sequence
from dataclasses import replace
from pathlib import Path

from tribunal.audit import evidence
from tribunal.audit.context import Context, immediate_how, lazy_how
from tribunal.audit.log import append, locked, log_path, records
from tribunal.audit.record import Blocking, How, Record, RemoteInfo, Who, how_text, utc
from tribunal.audit.reflog import (
    Entry,
    Refs,
    Remote,
    entries,
    file_size,
    position_after,
    push_entries,
    read_refs,
    unaudited,
)
from tribunal.audit.state import State, load, save
from tribunal.gitcmd import Git
from tribunal.summary import Summary, public_url

PASSED = "the gate passed this commit, but the pushed change weakens it"
HOOK_LOCK_TIMEOUT = 5.0  # git waits for the hook; the lazy scan catches what it gives up on


def lazy_scan(common_dir: Path, git: Git, ctx: Context) -> list[Record]:
    """Record every unaudited push entry; the first run only takes the baseline."""
    with locked(common_dir):
        refs = read_refs(git)
        state = load(common_dir)
        if state is None:
            save(common_dir, baseline(common_dir, git, refs))
            return []
        positions = {ref: pos for ref, pos in state.positions.items() if ref in refs.tips}
        batch: list[Entry] = []
        for ref in refs.tips:
            if refs.owner(ref) is None:
                continue
            size = file_size(common_dir, ref) if refs.files_backend else 0
            known = positions.get(ref)
            if known is not None and size and known.size == size:
                continue  # the reflog file has not grown
            every = entries(git, common_dir, ref, refs.files_backend)
            batch += unaudited(every, known)
            positions[ref] = position_after(every, size)
        how = lazy_how(ctx)
        pushes = push_entries(batch)
        found = [_judge(common_dir, git, refs, e, pushes, how, ctx) for e in pushes]
        written = append(common_dir, _new_only(common_dir, found))
        save(common_dir, replace(state, positions=positions))
    return written


def record_transaction(
    common_dir: Path, git: Git, updates: Sequence[tuple[str, str]], ctx: Context
) -> list[Record]:
    """For the reference-transaction hook: the refs (and new ids) its transaction moved."""
    with locked(common_dir, HOOK_LOCK_TIMEOUT):
        refs = read_refs(git)
        state = load(common_dir)
        positions = dict(state.positions) if state is not None else {}
        current = dict(updates)
        if state is None:
            state = baseline(common_dir, git, refs, leave_last=frozenset(current))
            positions = dict(state.positions)
        found = []
        for ref, new in current.items():
            if refs.owner(ref) is None:
                continue
            every = entries(git, common_dir, ref, refs.files_backend)
            pending = push_entries(unaudited(every, positions.get(ref)))
            for entry in pending:
                live = entry is pending[-1] and entry.new == new and every[-1] is entry
                how = immediate_how(ctx) if live else lazy_how(ctx)
                found.append(_judge(common_dir, git, refs, entry, pending, how, ctx))
            size = file_size(common_dir, ref) if refs.files_backend else 0
            positions[ref] = position_after(every, size)
        written = append(common_dir, _new_only(common_dir, found))
        save(common_dir, replace(state, positions=positions))
    return written


def baseline(
    common_dir: Path, git: Git, refs: Refs, leave_last: frozenset[str] = frozenset()
) -> State:
    """Every existing entry counts as audited (the ones in ``leave_last`` but their newest)."""
    positions = {}
    for ref in refs.tips:
        every = entries(git, common_dir, ref, refs.files_backend)
        size = file_size(common_dir, ref) if refs.files_backend else 0
        if ref in leave_last and every:
            every, size = every[:-1], 0
        positions[ref] = position_after(every, size)
    return State(utc(), positions)


def note_once(common_dir: Path, notice: str) -> bool:
    """True the first time ``notice`` is asked about in this repository (then remembered)."""
    with locked(common_dir):
        state = load(common_dir) or State(utc())
        if notice in state.notices:
            return False
        save(common_dir, replace(state, notices=state.notices | {notice}))
    return True


def warning_line(record: Record, common_dir: Path) -> str:
    where = f"{record.remote.name} {_short(record.remote_ref or record.tracking_ref)}"
    what = "past the gate" if record.is_bypass else "and it weakens the gate"
    return (
        f"tribunal: ⚠ {record.new[:12]} was pushed to {where} {what} ({how_text(record.how)}); "
        f"recorded in {log_path(common_dir)}"
    )


def _judge(
    common_dir: Path,
    git: Git,
    refs: Refs,
    entry: Entry,
    batch: Sequence[Entry],
    how: tuple[list[How], str],
    ctx: Context,
) -> Record | None:
    """The record ``entry`` calls for, if any."""
    owner = refs.owner(entry.ref)
    if owner is None or entry.new is None:
        return None
    remote, remote_ref = owner
    verdicts = evidence.summaries_for(common_dir, entry.new)
    if verdicts.passing:
        return _weakening(entry, remote, remote_ref, *verdicts.passing[0], ctx)
    excludes = _excludes(refs.of_remote(remote), entry, batch)
    if not evidence.brings_new_commits(git, entry.new, excludes):
        return None
    kinds, detail = list(how[0]), how[1]
    if not verdicts.failing:
        return _record(entry, remote, remote_ref, kinds, detail, [], None, ctx)
    path, summary = verdicts.failing[0]
    notes = evidence.change_notes(summary)
    kinds += ["failing-summary", *evidence.note_kinds(notes)]
    findings = evidence.blocking(summary) + evidence.notes_as_findings(notes)
    return _record(entry, remote, remote_ref, kinds, detail, findings, path, ctx)


def _weakening(
    entry: Entry, remote: Remote, remote_ref: str | None, path: Path, summary: Summary, ctx: Context
) -> Record | None:
    """A passing push whose change weakens the gate (config, added suppressions)."""
    notes = evidence.change_notes(summary)
    if not notes:
        return None
    findings = evidence.notes_as_findings(notes)
    kinds = evidence.note_kinds(notes)
    return _record(entry, remote, remote_ref, kinds, PASSED, findings, path, ctx)


def _excludes(tips: dict[str, str], entry: Entry, batch: Sequence[Entry]) -> list[str]:
    """What the remote had before ``entry``'s push: the ref's old id and the remote's other
    refs, except that a ref moved by the same push (same time and pusher) counts as it was."""
    same_push: dict[str, Entry] = {}
    for other in batch:
        if other.when == entry.when and other.email == entry.email:
            same_push.setdefault(other.ref, other)  # its first entry of that push
    out = [entry.old] if entry.old else []
    for ref, sha in tips.items():
        if ref == entry.ref:
            continue
        earlier = same_push.get(ref)
        if earlier is None:
            out.append(sha)
        elif earlier.old:
            out.append(earlier.old)
    return out


def _record(
    entry: Entry,
    remote: Remote,
    remote_ref: str | None,
    how: list[How],
    detail: str,
    findings: list[Blocking],
    summary: Path | None,
    ctx: Context,
) -> Record:
    assert entry.new is not None
    return Record(
        time=utc(),
        pushed=utc(entry.when) if entry.when else None,
        found=ctx.found,
        user=Who(name=entry.name, email=entry.email),
        host=socket.gethostname(),
        remote=RemoteInfo(name=remote.name, url=public_url(remote.url)),
        remote_ref=remote_ref,
        tracking_ref=entry.ref,
        old=entry.old,
        new=entry.new,
        how=how,
        detail=detail,
        findings=findings,
        summary=str(summary) if summary else None,
    )


def _new_only(common_dir: Path, found: Iterable[Record | None]) -> list[Record]:
    """Drop what the log (or an earlier record of this batch) already covers."""
    seen = {record.key() for _, record in records(common_dir) if record is not None}
    out = []
    for record in found:
        if record is not None and record.key() not in seen:
            seen.add(record.key())
            out.append(record)
    return out


def _short(ref: str) -> str:
    for prefix in ("refs/heads/", "refs/remotes/"):
        if ref.startswith(prefix):
            return ref.removeprefix(prefix)
    return ref
