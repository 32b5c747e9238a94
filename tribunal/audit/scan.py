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
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from tribunal.audit import evidence
from tribunal.audit.context import Context, hook_config_cause, immediate_how, lazy_how
from tribunal.audit.local import HOOK_LOCK_TIMEOUT, set_heads
from tribunal.audit.log import append, locked, log_path, new_only
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
from tribunal.audit.remote_state import RemoteState, default_branch, read_state
from tribunal.audit.state import State, load, save
from tribunal.errors import TribunalError
from tribunal.gate.summary import Summary, public_url
from tribunal.git.cmd import Git

PASSED = "the gate passed this commit, but the pushed change weakens it"


def lazy_scan(common_dir: Path, git: Git, ctx: Context) -> list[Record]:
    """Record every unaudited push entry (the first run takes the existing ones as its
    baseline) and every `git remote set-head` since the clone."""
    with locked(common_dir):
        refs = read_refs(git)
        state = load(common_dir)
        if state is None:  # the baseline: earlier pushes are taken as they are
            state = baseline(common_dir, git, refs)
        watched = [*refs.tips, *_heads(refs)]
        positions = {ref: pos for ref, pos in state.positions.items() if ref in watched}
        batch: list[Entry] = []
        for ref in watched:
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
        found += set_heads(refs, batch, ctx)
        written = append(common_dir, new_only(common_dir, found))
        save(common_dir, replace(state, positions=positions))
    return written


def _heads(refs: Refs) -> list[str]:
    """The remotes' ``HEAD`` symrefs, whose reflogs show ``git remote set-head``."""
    return [ref for ref in refs.symrefs if ref.endswith("/HEAD") and refs.owner(ref) is not None]


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
        written = append(common_dir, new_only(common_dir, found))
        save(common_dir, replace(state, positions=positions))
    return written


def baseline(
    common_dir: Path, git: Git, refs: Refs, leave_last: frozenset[str] = frozenset()
) -> State:
    """Every existing entry counts as audited (the ones in ``leave_last`` but their newest);
    not the remotes' ``HEAD`` entries, where a ``git remote set-head`` since the clone
    is recorded whenever it happened."""
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
    if record.is_local:
        return f"tribunal: ⚠ {record.detail}; recorded in {log_path(common_dir)}"
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
    """The record ``entry`` calls for, if any.

    A passing summary excuses the push only when it was made for this push: for
    this commit and remote, from the range base the gate would have used (the
    remote's old value, or the boundary with what the remote had), under the
    config in force. A summary made for another range, remote or config
    (``tribunal verify-pushes`` on a later commit alone, say) is no evidence.
    """
    owner = refs.owner(entry.ref)
    if owner is None or entry.new is None:
        return None
    remote, remote_ref = owner
    state = read_state(git, common_dir, refs, remote)
    tips = {t.ref: t.tip for t in state.tracked.values() if t.evidence or t.ref == entry.ref}
    excludes = _excludes(tips, entry, batch)
    if not evidence.brings_new_commits(git, entry.new, excludes):
        return None
    verdicts = evidence.summaries_for(common_dir, entry.new)
    bases = _bases(git, state, entry, excludes)
    made_for = evidence.Push(remote.name, bases, _digests(git, state, entry, batch))
    passing = [item for item in verdicts.passing if made_for.matches(item[1])]
    if passing:
        return _weakening(entry, remote, remote_ref, *passing[0], ctx)
    kinds, detail = list(how[0]), how[1]
    if kinds[0] in ("not-convened", "unknown", "no-gate"):
        before = entry.old or next((b for b in bases if b is not None), None)
        cause = hook_config_cause(git, ctx, before, entry.new)
        if cause is not None:
            kinds, detail = [*cause[0], *kinds[1:]], cause[1]
    if not verdicts.failing:
        return _record(entry, remote, remote_ref, kinds, detail, [], None, ctx)
    path, summary = verdicts.failing[0]
    notes = evidence.change_notes(summary)
    kinds += ["failing-summary", *evidence.note_kinds(notes)]
    findings = evidence.blocking(summary) + evidence.notes_as_findings(notes)
    return _record(entry, remote, remote_ref, kinds, detail, findings, path, ctx)


def _bases(git: Git, state: RemoteState, entry: Entry, excludes: list[str]) -> set[str | None]:
    """The range bases the gate would have used for ``entry``'s push."""
    from tribunal.hooks.ranges import plan_range

    assert entry.new is not None
    bases: set[str | None] = {entry.old} if entry.old else set()
    plan = plan_range(git, entry.new, excludes)
    if plan is not None:
        bases.add(plan.base)
    default = default_branch(git, state)
    if entry.old is None and default is not None and default.fetched is not None:
        fork = git.text("merge-base", entry.new, default.fetched, ok_codes=(0, 1))
        plan = plan_range(git, entry.new, [fork] if fork else [])
        if plan is not None:
            bases.add(plan.base)
    return bases


def _digests(git: Git, state: RemoteState, entry: Entry, batch: Sequence[Entry]) -> set[str]:
    """The config digests in force for ``entry``'s push: the default branch's config as
    last fetched, or as it was before this push moved it."""
    from tribunal.hooks.trust import config_at

    default = default_branch(git, state)
    commits: set[str | None] = {default.fetched if default is not None else None}
    if default is not None:
        moved = [e for e in (entry, *batch) if e.ref == default.ref and e.when == entry.when]
        commits |= {e.old for e in moved}
    digests = set()
    for commit in commits:
        try:
            digests.add(config_at(git, commit).digest)
        except TribunalError:
            continue
    return digests


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


def _short(ref: str) -> str:
    for prefix in ("refs/heads/", "refs/remotes/"):
        if ref.startswith(prefix):
            return ref.removeprefix(prefix)
    return ref
