"""What is being pushed: from git's pre-push stdin, or from pre-commit's environment.

Plain git hands a pre-push hook one line per ref:
``<local ref> <local sha> <remote ref> <remote sha>``. Refs may contain spaces
only at the front, so lines are split from the right (``rsplit(maxsplit=3)``),
as pre-commit does. Object ids are not assumed to be 40 characters (SHA-256
repositories); an all-zero id means "none" (a deletion, or a new remote ref).

Under the pre-commit framework there is no stdin: the first ref with new
commits arrives as ``PRE_COMMIT_*`` variables (see ``from_pre_commit``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple

from tribunal.errors import InputError
from tribunal.gitcmd import Git, is_zero
from tribunal.sources import resolve_commit


class PushedRef(NamedTuple):
    """One ref update to judge; ``remote_sha`` is None for a new remote ref."""

    local_ref: str | None
    local_sha: str
    remote_ref: str | None
    remote_sha: str | None


class Push(NamedTuple):
    remote_name: str | None
    remote_url: str | None
    refs: list[PushedRef]


def parse_push_lines(text: str) -> list[PushedRef]:
    """The ref updates on pre-push stdin, deletions left out."""
    refs = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        parts = line.rsplit(maxsplit=3)
        if len(parts) != 4:
            raise InputError(f"pre-push input line {number}: expected 4 fields: {line!r}")
        local_ref, local_sha, remote_ref, remote_sha = parts
        if is_zero(local_sha):
            continue  # a deletion: nothing to convene
        remote = None if is_zero(remote_sha) else remote_sha
        refs.append(PushedRef(local_ref, local_sha, remote_ref, remote))
    return refs


def peeled(git: Git, refs: list[PushedRef]) -> list[PushedRef]:
    """Refs with their pushed object peeled to a commit (an annotated tag names a tag
    object); refs that name no commit (a tag of a tree or blob) have nothing to convene."""
    out = []
    for ref in refs:
        commit = resolve_commit(git, ref.local_sha)
        if commit is not None:
            out.append(ref._replace(local_sha=commit))
    return out


def from_pre_commit(env: Mapping[str, str], git: Git) -> Push:
    """The one ref pre-commit shows its pre-push hooks.

    ``PRE_COMMIT_TO_REF`` may be a tag object, or (with ``try-repo``) a name
    rather than a sha: it is peeled to a commit. A push that includes a root
    commit sets neither FROM nor TO: the pushed branch's tip (else HEAD) is used.
    """
    local_ref = env.get("PRE_COMMIT_LOCAL_BRANCH") or None
    to_ref = env.get("PRE_COMMIT_TO_REF")
    spec = to_ref or local_ref or "HEAD"
    head = resolve_commit(git, spec)
    if head is None:
        raise InputError(f"pre-push: {spec}: no such commit in this repository")
    from_ref = env.get("PRE_COMMIT_FROM_REF")
    remote_sha = resolve_commit(git, from_ref) if from_ref and to_ref else None
    ref = PushedRef(local_ref, head, env.get("PRE_COMMIT_REMOTE_BRANCH") or None, remote_sha)
    return Push(env.get("PRE_COMMIT_REMOTE_NAME"), env.get("PRE_COMMIT_REMOTE_URL"), [ref])
