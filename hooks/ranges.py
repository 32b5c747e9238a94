"""Which commits of a pushed ref to judge, as one diff: ``base..head``.

The range is what the remote does not have yet: the commits reachable from the
pushed sha and from no ref of that remote (``--not --remotes=<remote>``, plus the
remote's current sha when it is known locally). So an already-pushed commit is
not judged again, and after a rebase or force push the range starts where the
new history leaves the remote's. The base is the boundary commit of that set.
When there are two (the push merges work the remote already has, e.g. upstream
``main`` merged into a pushed feature branch), the base is the tree git's own
merge of the two would give (``merge-tree --write-tree``, git 2.38+), so only
what the push adds beyond that merge is judged; otherwise (older git, a
conflict, an octopus) the boundary with the smallest diff to the head. No
boundary means the push includes a root commit: the base is the empty tree
(``None``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from tribunal.gitcmd import Git
from tribunal.sources import resolve_commit

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


def plan_range(git: Git, head: str, remote: str | None, remote_sha: str | None) -> RangePlan | None:
    """The range to convene for ``head``, or None if the remote already has every commit."""
    excludes = [f"--remotes={remote}"] if remote else []
    if remote_sha and resolve_commit(git, remote_sha):
        excludes.append(remote_sha)
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
            return merged
    base = _smallest(git, head, boundaries)
    return _shallow_adjusted(git, RangePlan(head, base, commits))


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
