"""Which commits of a pushed ref to judge, as one diff: ``base..head``.

The range is what the remote is not known to have: the commits reachable from
the pushed sha and from none of the commits git itself showed to be on that
remote (the remote sha on git's pre-push line, and the remote-tracking refs of
exactly that remote whose values git wrote from it: ``remote_state``). So an
already-pushed commit is not judged again, and after a rebase or force push the
range starts where the new history leaves the remote's. A pushed ref without
such evidence (a new branch, a remote value not known here) is judged from its
merge base with the remote's default branch when that branch has evidence, else
with its whole history, and the summary says so: judge more, never less.

The base is the boundary commit of that set. When there are two (the push
merges work the remote already has, e.g. upstream ``main`` merged into a pushed
feature branch), the base is the tree git's own merge of the two would give
(``merge-tree --write-tree``, git 2.38+), so only what the push adds beyond
that merge is judged; otherwise (older git, a conflict, an octopus) the
boundary with the smallest diff to the head. No boundary means the push
includes a root commit: the base is the empty tree (``None``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from tribunal.audit.remote_state import RemoteState, default_branch
from tribunal.engine.sources import resolve_commit
from tribunal.git.cmd import Git

#: Boundaries compared by diff size at most; beyond that, the first one is used.
MAX_BOUNDARIES = 8
_NUMBERS = re.compile(r"(\d+) (?:insertion|deletion)")


@dataclass(frozen=True)
class RangePlan:
    head: str
    base: str | None  # None: the empty tree (the push includes a root commit)
    commits: int
    notes: tuple[str, ...] = ()
    base_is_tree: bool = False  # base is a merged tree, not a commit


def plan_push(
    git: Git,
    head: str,
    state: RemoteState | None,
    remote_sha: str | None,
    remote_ref: str | None,
) -> RangePlan | None:
    """The range to convene for a push of ``head`` to ``remote_ref`` of the remote whose
    evidence is ``state`` (None: a URL that is no configured remote); None when the
    remote is known to have every commit."""
    line_sha = remote_sha if remote_sha and resolve_commit(git, remote_sha) else None
    counterpart = state.counterpart(remote_ref) if state is not None else None
    known = state.known() if state is not None else []
    if line_sha or (counterpart is not None and counterpart.evidence):
        return plan_range(git, head, [*known, *([line_sha] if line_sha else [])])
    where = f"{state.remote.name}" if state is not None else "the pushed-to URL"
    what = _short(remote_ref) if remote_ref else "this ref"
    default = default_branch(git, state) if state is not None else None
    if default is not None and default.fetched is not None:
        base = git.text("merge-base", head, default.fetched, ok_codes=(0, 1))
        note = (
            f"{where} has no {what} known here: judged from the merge base with "
            f"{_short(default.ref)}"
        )
        return plan_range(git, head, [base] if base else [], (note,))
    note = f"nothing git wrote shows what {where} has: the whole history of {what} is judged"
    return plan_range(git, head, [], (note,))


def plan_range(
    git: Git, head: str, excludes: Sequence[str], notes: tuple[str, ...] = ()
) -> RangePlan | None:
    """The commits of ``head`` that none of ``excludes`` has; None when there are none."""
    commits = 0
    boundaries: list[str] = []
    for line in git.stream("rev-list", "--boundary", head, "--not", *excludes, "--"):
        text = line.decode("ascii", "replace").strip()
        if text.startswith("-"):
            boundaries.append(text[1:])
        elif text:
            commits += 1
    if commits == 0:
        return None
    if len(boundaries) == 2:
        merged = _merged(git, head, commits, boundaries)
        if merged is not None:
            return _noted(merged, notes)
    base = _smallest(git, head, boundaries)
    return _shallow_adjusted(git, RangePlan(head, base, commits, notes))


def _noted(plan: RangePlan, notes: tuple[str, ...]) -> RangePlan:
    return RangePlan(plan.head, plan.base, plan.commits, (*notes, *plan.notes), plan.base_is_tree)


def _short(ref: str) -> str:
    for prefix in ("refs/heads/", "refs/remotes/", "refs/"):
        if ref.startswith(prefix):
            return ref.removeprefix(prefix)
    return ref


def _merged(git: Git, head: str, commits: int, pair: list[str]) -> RangePlan | None:
    """The plan whose base is git's clean merge of the two boundaries, if there is one."""
    out = git.text("merge-tree", "--write-tree", *pair, ok_codes=(0, 1, 128, 129))
    tree = out.split("\n", 1)[0].strip()
    if not tree or " " in tree or len(out.splitlines()) > 1:
        return None  # not supported by this git, or a conflict
    for commit in pair:
        if git.text("rev-parse", f"{commit}^{{tree}}") == tree:
            return RangePlan(head, commit, commits)
    note = f"the base is git's merge of {pair[0][:12]} and {pair[1][:12]}, which the remote has"
    return RangePlan(head, tree, commits, (note,), base_is_tree=True)


def _smallest(git: Git, head: str, boundaries: list[str]) -> str | None:
    if len(boundaries) <= 1:
        return boundaries[0] if boundaries else None
    sizes = []
    for index, base in enumerate(boundaries[:MAX_BOUNDARIES]):
        stat = git.text("diff-tree", "--shortstat", "--no-ext-diff", "--no-textconv", base, head)
        sizes.append((sum(int(n) for n in _NUMBERS.findall(stat)), index, base))
    return min(sizes)[2]


def _shallow_adjusted(git: Git, plan: RangePlan) -> RangePlan:
    """In a shallow clone whose boundary cuts the range, analyze what is there and say so."""
    if plan.base is not None:
        return plan
    if git.text("rev-parse", "--is-shallow-repository") != "true":
        return plan
    shallow_file = Path(git.text("rev-parse", "--path-format=absolute", "--git-path", "shallow"))
    try:
        cut = set(shallow_file.read_text(encoding="ascii").split())
    except OSError:
        return plan
    reachable = git.text("rev-list", plan.head).split()
    cut_here = [sha for sha in reachable if sha in cut]
    if not cut_here:
        return plan
    base = cut_here[0] if cut_here[0] != plan.head else None
    note = (
        f"shallow clone: history before {cut_here[0][:12]} is not present here, "
        "so the changes it made were not analyzed"
    )
    return RangePlan(plan.head, base, plan.commits, (*plan.notes, note))
