"""``tribunal verify-pushes``: CI re-running the push gate on what was pushed.

Local hooks stop mistakes and record bypasses, but anything that can write
``.git`` can also skip them. This command re-runs the same convene, with the
same lenses and the same gate, on the pushed commits, outside anyone's
machine: the enforcement a team can rely on.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tribunal.errors import ExitCode, UsageError

if TYPE_CHECKING:
    from tribunal.gitcmd import Git
    from tribunal.hooks.ranges import RangePlan
    from tribunal.hooks.repo import Repo

HELP = """\
Re-run the pre-push gate in CI on pushed commits, and exit 1 if any would have
been rejected. The local hooks can be bypassed (--no-verify, SKIP, disabled
hooks; see `tribunal audit`); this cannot, so it is the enforcement a team can
rely on.

The range is --base..--head (or BASE..HEAD): the commits reachable from the
head and not from the base, judged as one push, exactly as the pre-push gate
judges a push of the head to a remote whose branch is at the base. With
--each-commit, every non-merge commit of the range is judged on its own
against its first parent (stricter than the local gate, which judges a push as
a whole: a commit that a later one fixes is rejected too).

The config is tribunal.yml at the merge base of the head with --base (the side
the team already trusts), never the pushed commit's own; --config and
$TRIBUNAL_CONFIG are ignored. Summaries are written under the git common dir
as the hook writes them, so CI can keep them as artifacts.

  on a push:          tribunal verify-pushes --base "$BEFORE" --head "$AFTER"
  on a pull request:  tribunal verify-pushes --base origin/main --head HEAD

A new branch (--base all zeros) has no "before": pass the branch it was made
from instead. Exit codes: 0 every range passes (or there is nothing new),
1 at least one would be rejected, 2 usage or git error, 3 internal error.
"""


def add_parser(sub: Any, epilog: str) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "verify-pushes",
        help="re-run the push gate on pushed commits (for CI); exit 1 if any is rejected",
        description=HELP,
        epilog=epilog,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("range", nargs="?", metavar="BASE..HEAD", help="instead of --base/--head")
    p.add_argument("--base", metavar="REV", help="what the branch was before the push")
    p.add_argument("--head", metavar="REV", help="what was pushed (default: HEAD)")
    p.add_argument("--each-commit", action="store_true", help="judge every commit on its own")
    p.add_argument("--format", choices=("text", "json"), default="text", help="output format")
    p.set_defaults(func=run)


def run(ns: argparse.Namespace) -> int:
    from tribunal.hooks.repo import open_repo

    base_spec, head_spec = _specs(ns)
    repo = open_repo(Path.cwd())
    with repo.git() as git:
        base, head = _commit(git, base_spec, "--base"), _commit(git, head_spec, "--head")
        results = [
            _judge(repo, git, rng, base_spec, ns.format)
            for rng in _plans(git, base, head, ns.each_commit)
        ]
    if ns.format == "json":
        doc = {"schema": "tribunal.verify-pushes/1", "base": base, "head": head, "results": results}
        print(json.dumps(doc, indent=2))
    elif not results:
        print(f"tribunal: nothing to verify: {head[:12]} adds no commit to {base[:12]}")
    passed = all(r["passed"] for r in results)
    if ns.format == "text" and results:
        verdict = "every range passes" if passed else "rejected: see above"
        print(f"tribunal: verify-pushes {base[:12]}..{head[:12]}: {verdict}")
    return ExitCode.OK if passed else ExitCode.CONTRADICTED


def _specs(ns: argparse.Namespace) -> tuple[str, str]:
    if ns.range:
        if ns.base or ns.head or ".." not in ns.range or "..." in ns.range:
            raise UsageError("give either BASE..HEAD or --base/--head, not both")
        base, head = ns.range.split("..", 1)
        return base, head or "HEAD"
    if not ns.base:
        raise UsageError("--base is required (what the branch was before the push)")
    if set(ns.base) == {"0"}:
        raise UsageError(
            "--base is all zeros (a new branch): pass the branch it was made from, "
            "e.g. --base origin/main"
        )
    return ns.base, ns.head or "HEAD"


def _commit(git: Git, spec: str, flag: str) -> str:
    from tribunal.sources import resolve_commit

    commit = resolve_commit(git, spec)
    if commit is None:
        raise UsageError(f"{flag} {spec}: no such commit here (in CI, fetch full history)")
    return commit


def _plans(git: Git, base: str, head: str, each: bool) -> list[RangePlan]:
    from tribunal.hooks.ranges import RangePlan, plan_range

    if not each:
        whole = plan_range(git, head, None, base)
        return [whole] if whole is not None else []
    listing = git.text(
        "rev-list",
        "--reverse",
        "--topo-order",
        "--no-merges",
        "--parents",
        head,
        "--not",
        base,
        "--",
    )
    plans = []
    for line in listing.splitlines():
        commit, *parents = line.split()
        plans.append(RangePlan(commit, parents[0] if parents else None, 1))
    return plans


def _judge(repo: Repo, git: Git, rng: RangePlan, anchor: str, fmt: str) -> dict[str, Any]:
    from tribunal.gate import evaluate
    from tribunal.hooks.convene import Target, convene_planned
    from tribunal.hooks.output import write_lines
    from tribunal.hooks.progress import Progress
    from tribunal.hooks.pushinfo import PushedRef
    from tribunal.hooks.trust import trusted_config_from
    from tribunal.hooks.verdict import gate_lines

    trusted = trusted_config_from(git, rng.head, anchor)
    target = Target(PushedRef(None, rng.head, None, rng.base), None, None)
    convened = convene_planned(repo, git, target, rng, trusted, Progress(), council=False)
    result = evaluate(convened.path, convened.expected, convened.key)
    label = f"{(rng.base or 'root')[:12]}..{rng.head[:12]}"
    if fmt == "text":
        write_lines(sys.stdout, gate_lines(label, convened, result))
    return {
        "base": rng.base,
        "head": rng.head,
        "passed": result.passed,
        "reasons": list(result.reasons),
        "config": trusted.source,
        "summary": str(convened.path),
    }
