"""Where claims come from: ``--claims FILE``, ``--pr-body FILE`` and commit messages.

A pre-push hook has no PR body, so the commit messages of the analyzed range
are a source too: a ```` ```tribunal ```` block in a message, or
``Tribunal-Claim: <key>[: arg]`` trailers. Trailers are found by git itself
(``%(trailers)`` applies exactly the rules of ``git interpret-trailers
--parse``, including the user's ``trailer.*`` settings), in one ``git log``
for the whole range. The same claim made by several sources is judged once.

Claims in a ```` ```tribunal-proposed ```` block (``tribunal propose`` writes
one) are a model's, not the author's: ``gather_claims`` returns them apart, to
be verified as advice (``tribunal.claims.advisory``) and never to gate.
"""

import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import NamedTuple

from tribunal.change.model import Change, Claim
from tribunal.claims.parse import PROPOSED_TAG, ClaimLine, block_claims, file_claims, parse_claim
from tribunal.errors import InputError
from tribunal.git.cmd import Git
from tribunal.util.lazyre import lazy

TRAILER = "Tribunal-Claim"
#: A trailer line as ``git interpret-trailers`` accepts it: any case, ``:`` or ``=``.
_TRAILER_LINE = lazy(rf"\s*{re.escape(TRAILER)}\s*[:=](.*)", re.IGNORECASE)
MAX_CLAIMS_BYTES = 1 << 20

_FIELD = "\x1f"
_LOG_FORMAT = f"%H{_FIELD}%B{_FIELD}%(trailers:key={TRAILER},valueonly,unfold)"


class CommitMessage(NamedTuple):
    sha: str
    message: str
    trailers: tuple[str, ...]


#: Where a claim from a pull request body outside the repository points (CI
#: writes the body to a temporary file whose path means nothing to a reader).
PR_BODY = "pr-body"


class Gathered(NamedTuple):
    """The author's claims (they gate) and the claims a model proposed (they advise)."""

    authored: tuple[Claim, ...]
    proposed: tuple[Claim, ...]


def gather_claims(
    change: Change,
    *,
    claims_file: str | None = None,
    pr_body: str | None = None,
    cwd: Path | None = None,
) -> Gathered:
    """Every claim the change's sources make, each kind deduplicated, in a stable order.

    Raises ``InputError`` for a claims or PR-body file that cannot be read.
    """
    here = cwd or change.root or Path.cwd()
    authored: list[Claim] = []
    proposed: list[Claim] = []
    if claims_file is not None:
        name, text = _read(here, claims_file, change.root, "--claims")
        authored += _as_claims(file_claims(text), name, "file")
        proposed += _as_claims(block_claims(text, PROPOSED_TAG) or [], name, "file")
    if pr_body is not None:
        name, text = _read(here, pr_body, change.root, "--pr-body")
        if Path(name).is_absolute():  # CI's copy of the body is no file of the repository
            name = PR_BODY
        authored += _as_claims(block_claims(text) or [], name, "pr-body")
        proposed += _as_claims(block_claims(text, PROPOSED_TAG) or [], name, "pr-body")
    if change.git is not None:
        for commit in range_messages(change.git, commit_range(change)):
            authored += _as_claims(commit_claims(commit), commit.sha, "commit")
            proposed += _as_claims(
                block_claims(commit.message, PROPOSED_TAG) or [], commit.sha, "commit"
            )
    return Gathered(dedupe(authored), dedupe(proposed))


def load_claims(
    change: Change,
    *,
    claims_file: str | None = None,
    pr_body: str | None = None,
    cwd: Path | None = None,
) -> tuple[Claim, ...]:
    """The claims the author makes: the ones that gate."""
    return gather_claims(change, claims_file=claims_file, pr_body=pr_body, cwd=cwd).authored


def commit_range(change: Change) -> str | None:
    """The ``A..B`` revision range whose commits belong to the change, if any."""
    info = change.range
    if info.kind == "range" and info.merge_base and info.head:
        return f"{info.merge_base}..{info.head}"
    if info.kind == "worktree" and info.base:
        return f"{info.base}..HEAD"
    return None


def range_messages(git: Git, revs: str | None) -> list[CommitMessage]:
    """Each commit's id, raw message and Tribunal-Claim trailer values, oldest first."""
    if revs is None:
        return []
    out = git.run(
        "log", "-z", "--reverse", "--no-show-signature", f"--format={_LOG_FORMAT}", revs, "--"
    )
    commits = []
    for record in out.decode("utf-8", "replace").split("\0"):
        parts = record.split(_FIELD)
        if len(parts) != 3:
            continue
        sha, message, trailers = parts
        values = tuple(v.strip() for v in trailers.split("\n") if v.strip())
        commits.append(CommitMessage(sha.strip(), message, values))
    return commits


def commit_claims(commit: CommitMessage) -> list[ClaimLine]:
    """Claims of one commit message: its ```` ```tribunal ```` blocks, then its trailers."""
    found = list(block_claims(commit.message) or [])
    where = _trailer_lines(commit.message.split("\n"))
    for value in commit.trailers:
        words = value.split(maxsplit=1)
        line = where.get(words[0] if words else value) or commit.message.count("\n") + 1
        claim = parse_claim(value, line)
        if claim is not None:
            found.append(claim)
    return found


def dedupe(claims: Iterable[Claim]) -> tuple[Claim, ...]:
    """Keep the first of each (key, arg); later sources are recorded in ``also``."""
    first: dict[tuple[str, str | None], Claim] = {}
    for claim in claims:
        ident = (claim.key, claim.arg)
        kept = first.get(ident)
        if kept is None:
            first[ident] = claim
        elif claim.source != kept.source and location(claim) not in kept.also:
            first[ident] = _with_also(kept, location(claim))
    return tuple(first.values())


def location(claim: Claim) -> str:
    """Where a finding about ``claim`` points: the claims file, ``commit:<short sha>``,
    or ``council`` for a claim the LLM council proposed (it has no line)."""
    if claim.origin == "commit":
        return f"commit:{claim.source[:12]}"
    if claim.origin == "council":
        return "council"
    return claim.source


def _with_also(claim: Claim, where: str) -> Claim:
    return Claim(claim.key, claim.arg, claim.source, claim.line, claim.origin, (*claim.also, where))


def _as_claims(lines: Iterable[ClaimLine], source: str, origin: str) -> Iterator[Claim]:
    for parsed in lines:
        yield Claim(parsed.key, parsed.arg, source, parsed.line, origin)


def _trailer_lines(lines: list[str]) -> dict[str, int]:
    """The line of the last ``Tribunal-Claim:`` trailer by the first word of its value.

    One pass over the message (trailers end a message, so the last one wins);
    looking each trailer up again in every line was quadratic in a message
    made of trailers.
    """
    where: dict[str, int] = {}
    for number, line in enumerate(lines, start=1):
        match = _TRAILER_LINE().match(line)
        words = match[1].split(maxsplit=1) if match else []
        if words:
            where[words[0]] = number
    return where


def _read(cwd: Path, name: str, root: Path | None, flag: str) -> tuple[str, str]:
    """(display name, text) of a claims input; the name is repository-relative when it can be."""
    path = Path(name) if Path(name).is_absolute() else cwd / name
    try:
        with path.open("rb") as handle:
            data = handle.read(MAX_CLAIMS_BYTES + 1)
    except OSError as exc:
        raise InputError(f"{name}: cannot read {flag} file: {exc.strerror or exc}") from None
    if len(data) > MAX_CLAIMS_BYTES:
        raise InputError(f"{name}: {flag} file is larger than {MAX_CLAIMS_BYTES} bytes")
    text = data.decode("utf-8", "replace").removeprefix("\ufeff")
    return _display(path, name, root), text


def _display(path: Path, name: str, root: Path | None) -> str:
    if root is None:
        return name
    try:
        return path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return name
