"""Records of local state the gate reads, not of pushes: remote-tracking refs written
locally, ``git remote set-head``, summaries that do not authenticate.

The gate takes a remote-tracking ref as evidence of what its remote has only when
git wrote it from that remote (``remote_state``); a write made any other way is
recorded here as it happens (by the reference-transaction hook), so that reflog
text forged afterwards cannot turn it into evidence. A summary that fails its
HMAC is ignored by the gate, and logged here (DESIGN section 7).
"""

from __future__ import annotations

import socket
from collections.abc import Sequence
from pathlib import Path

from tribunal.audit.context import Context
from tribunal.audit.log import append, locked, new_only
from tribunal.audit.record import Found, How, Record, RemoteInfo, Who, utc
from tribunal.audit.reflog import Entry, Refs, Remote, read_refs
from tribunal.gate.summary import public_url
from tribunal.git.cmd import Git, is_zero

SET_HEAD = "remote set-head"
HOOK_LOCK_TIMEOUT = 5.0  # git waits for the hook; the lazy scan catches what it gives up on


def record_written(
    common_dir: Path, git: Git, writes: Sequence[tuple[str, str, str]], command: str
) -> list[Record]:
    """Records of remote-tracking refs (``(old, new, ref)``) that ``command`` wrote locally:
    not a fetch from their remote or a push to it. Their values are then no evidence of
    what the remote has (``remote_state``)."""
    refs = read_refs(git)
    who = _committer(git)
    found: list[Record | None] = []
    for old, new, ref in writes:
        owner = refs.owner(ref)
        if owner is None:
            continue
        remote, remote_ref = owner
        if is_zero(new):
            detail = (
                f"{ref} was deleted by `{command}`, not by a fetch from {remote.name}: "
                f"the gate no longer knows what {remote.name} has there"
            )
        else:
            detail = (
                f"{ref} was written by `{command}`, not by a fetch from {remote.name} or a "
                f"push to it: its value is no evidence of what {remote.name} has"
            )
        found.append(
            _local(ref, remote, remote_ref, old, new, ["tracking-ref-written"], detail, who)
        )
    with locked(common_dir, HOOK_LOCK_TIMEOUT):
        return append(common_dir, new_only(common_dir, found))


def _local(
    ref: str,
    remote: Remote,
    remote_ref: str | None,
    old: str | None,
    new: str,
    how: list[How],
    detail: str,
    who: Who,
    found: Found = "reference-transaction",
) -> Record:
    return Record(
        time=utc(),
        found=found,
        user=who,
        host=socket.gethostname(),
        remote=RemoteInfo(name=remote.name, url=public_url(remote.url)),
        remote_ref=remote_ref,
        tracking_ref=ref,
        old=None if not old or is_zero(old) else old,
        new=new,
        how=how,
        detail=detail,
    )


def record_unauthentic(
    common_dir: Path, git: Git, path: Path, commit: str, remote: str | None, ref: str | None
) -> list[Record]:
    """A summary that does not authenticate was found (and ignored): log it (DESIGN §7)."""
    record = Record(
        time=utc(),
        found="pre-push",
        user=_committer(git),
        host=socket.gethostname(),
        remote=RemoteInfo(name=remote or "(no remote)"),
        remote_ref=ref,
        tracking_ref="",
        new=commit,
        old=None,
        how=["summary-unauthenticated"],
        detail=(
            f"{path} does not authenticate (edited, or made with another key): it was "
            "ignored and the change convened again"
        ),
        summary=str(path),
    )
    with locked(common_dir):
        return append(common_dir, [record])


def _committer(git: Git) -> Who:
    """Who is writing: git's committer identity (``Name <email> time zone``)."""
    ident = git.text("var", "GIT_COMMITTER_IDENT", ok_codes=(0, 128))
    name, _, rest = ident.partition(" <")
    return Who(name=name.strip(), email=rest.partition(">")[0])


def set_heads(refs: Refs, batch: Sequence[Entry], ctx: Context) -> list[Record | None]:
    """``git remote set-head`` entries: the remote's default branch chosen locally."""
    out: list[Record | None] = []
    for entry in batch:
        owner = refs.owner(entry.ref)
        if owner is None or not entry.message.startswith(SET_HEAD):
            continue
        detail = (
            f"`git remote set-head` pointed {entry.ref} at a branch chosen here, not by "
            f"{owner[0].name}: the gate reads {owner[0].name}'s config from its main or "
            "master first"
        )
        who = Who(name=entry.name, email=entry.email)
        new = entry.new or ""
        out.append(
            _local(
                entry.ref,
                owner[0],
                None,
                entry.old,
                new,
                ["default-branch-set"],
                detail,
                who,
                ctx.found,
            )
        )
    return out
