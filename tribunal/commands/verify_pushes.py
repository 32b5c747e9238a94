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

from tribunal.commands.exitcodes import epilog as exit_codes
from tribunal.commands.helpformat import HelpFormatter
from tribunal.errors import ExitCode, UsageError
from tribunal.git.cmd import is_zero

if TYPE_CHECKING:
    from tribunal.git.cmd import Git
    from tribunal.hooks.ranges import RangePlan
    from tribunal.hooks.repo import Repo

HELP = """\
Re-run the pre-push gate in CI on pushed commits, and exit 1 if any would have
been rejected. The local hooks can be bypassed (--no-verify, SKIP, disabled
hooks; see `tribunal audit`); this cannot, so it is the enforcement a team can
rely on.

The range is --base..--head (or BASE..HEAD): the commits reachable from the
head and not from the base, judged as one push, exactly as the pre-push gate
judges a push of the head to a remote whose branch is at the base. When it
would have been rejected, every commit of it is listed, each also judged on its
own, so the team sees which commits carry the defect. With
--each-commit, every non-merge commit of the range is judged on its own
against its first parent (stricter than the local gate, which judges a push as
a whole: a commit that a later one fixes is rejected too).

The config is tribunal.yml at the --base commit (the side the team already
trusts; its tip, so a branch made before a config was tightened is judged by
the tightened one), never the pushed commit's own; --config and
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
        epilog=exit_codes(
            "every pushed commit passes the gate",
            "a pushed commit the gate would have rejected",
        ),
        formatter_class=HelpFormatter,
    )
    p.add_argument("range", nargs="?", metavar="BASE..HEAD", help="instead of --base/--head")
    p.add_argument("--base", metavar="REV", help="what the branch was before the push")
    p.add_argument("--head", metavar="REV", help="what was pushed (default: HEAD)")
    p.add_argument("--each-commit", action="store_true", help="judge every commit on its own")
    p.add_argument(
        "--format",
        choices=("text", "json", "github"),
        default="text",
        help="output format (github: text plus an ::error annotation per rejected range)",
    )
    p.set_defaults(func=run)


def run(ns: argparse.Namespace) -> int:
    from tribunal.engine.sources import require_commit
    from tribunal.hooks.repo import open_repo
    from tribunal.worktree.signals import interrupts_as_exceptions

    base_spec, head_spec = _specs(ns)
    repo = open_repo(Path.cwd())
    # The text names files and commit subjects, which whoever pushed chose; in a
    # workflow log a line of theirs must never be obeyed as a command.
    resume = _stop_commands() if ns.format == "github" else None
    # SIGTERM/SIGHUP unwind as Ctrl-C does, at any moment: exit 128+N, nothing left behind
    with interrupts_as_exceptions(), repo.git() as git:
        base = _base_commit(git, base_spec)
        head = require_commit(git, head_spec, "--head")
        results = []
        for rng in _plans(git, base, head, ns.each_commit):
            result = _judge(repo, git, rng, (base, base_spec), ns.format)
            if not result["passed"]:
                shown = ["-1", rng.head] if ns.each_commit else [head, "--not", base]
                result["commits"] = _commits(git, shown)
                if not ns.each_commit:
                    alone = {plan.head: plan for plan in _plans(git, base, head, True)}
                    _judge_alone(repo, git, result["commits"], alone, (base, base_spec))
                _say_commits(result["commits"], ns.format)
            results.append(result)
    if ns.format == "json":
        from tribunal.git.cquote import printable_data

        doc = {"schema": "tribunal.verify-pushes/1", "base": base, "head": head, "results": results}
        print(json.dumps(printable_data(doc), indent=2, ensure_ascii=False))
    elif not results:
        print(f"tribunal: nothing to verify: {head[:12]} adds no commit to {base[:12]}")
    passed = all(r["passed"] for r in results)
    if ns.format != "json" and results:
        verdict = "every range passes" if passed else "rejected: see above"
        print(f"tribunal: verify-pushes {base[:12]}..{head[:12]}: {verdict}")
    if resume is not None:
        print(resume)
        if not passed:
            _annotate(results)
    return ExitCode.OK if passed else ExitCode.CONTRADICTED


def _specs(ns: argparse.Namespace) -> tuple[str, str]:
    if ns.range:
        if ns.base or ns.head or ".." not in ns.range or "..." in ns.range:
            raise UsageError("give either BASE..HEAD or --base/--head, not both")
        base, head = ns.range.split("..", 1)
        return base, head or "HEAD"
    if not ns.base:
        raise UsageError("--base is required (what the branch was before the push)")
    if is_zero(ns.base):
        raise UsageError(
            "--base is all zeros (a new branch): pass the branch it was made from, "
            "e.g. --base origin/main"
        )
    return ns.base, ns.head or "HEAD"


def _base_commit(git: Git, spec: str) -> str:
    """The base commit; after a force-push the old tip may be gone, and that is worth saying."""
    from tribunal.engine.sources import require_commit
    from tribunal.errors import GitError

    try:
        return require_commit(git, spec, "--base")
    except GitError as exc:
        hint = "; after a force-push the old tip is gone: pass the branch it was made from"
        raise GitError(f"{exc}{hint}") from None


def _plans(git: Git, base: str, head: str, each: bool) -> list[RangePlan]:
    from tribunal.hooks.ranges import RangePlan, plan_range

    if not each:
        whole = plan_range(git, head, [base])
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


def _judge(
    repo: Repo, git: Git, rng: RangePlan, anchor: tuple[str, str], fmt: str
) -> dict[str, Any]:
    from tribunal.gate.decision import evaluate
    from tribunal.hooks.convene import Target, convene_planned
    from tribunal.hooks.output import write_lines
    from tribunal.hooks.progress import Progress
    from tribunal.hooks.pushinfo import PushedRef
    from tribunal.hooks.trust import trusted_config_at
    from tribunal.hooks.verdict import gate_lines

    trusted = trusted_config_at(git, anchor[0], rng.head, anchor[1])
    target = Target(PushedRef(None, rng.head, None, rng.base), None, None)
    convened = convene_planned(repo, git, target, rng, trusted, Progress(), council=False)
    result = evaluate(convened.path, convened.expected, convened.key)
    if fmt != "json":
        write_lines(sys.stdout, gate_lines(_label(rng.base, rng.head), convened, result))
    return {
        "base": rng.base,
        "head": rng.head,
        "passed": result.passed,
        "reasons": list(result.reasons),
        "config": trusted.source,
        "summary": str(convened.path),
    }


def _label(base: str | None, head: str) -> str:
    return f"{(base or 'root')[:12]}..{head[:12]}"


#: Rejected commits listed by name, at most; the JSON has them all.
SHOWN_COMMITS = 20


def _judge_alone(
    repo: Repo,
    git: Git,
    commits: list[dict[str, Any]],
    plans: dict[str, RangePlan],
    anchor: tuple[str, str],
) -> None:
    """For each commit of a rejected push, whether it would be rejected on its own
    (``plans``: the --each-commit plans, by commit).

    Which commits carry the defect is what the team needs next; the push's own
    verdict (the gate's) does not change. At most ``SHOWN_COMMITS`` are judged.
    """
    for item in commits[:SHOWN_COMMITS]:
        plan = plans.get(item["commit"])
        if plan is not None:
            alone = _judge(repo, git, plan, anchor, "json")  # judged quietly
            item["alone"] = "passes" if alone["passed"] else "rejected"


def _commits(git: Git, revs: list[str]) -> list[dict[str, Any]]:
    """The non-merge commits of a rejected range, oldest first: what the team should look at.

    The local gate rejects a push as a whole, so every commit of it would have
    been turned away; the list is what made it to the branch regardless.
    """
    listing = git.text("log", "--reverse", "--no-merges", "--format=%H%x00%s", *revs, "--")
    commits = []
    for line in listing.splitlines():
        sha, _, subject = line.partition("\0")
        commits.append({"commit": sha, "subject": subject})
    return commits


def _say_commits(commits: list[dict[str, Any]], fmt: str) -> None:
    if fmt == "json":
        return
    print(f"  commits that would have been rejected ({len(commits)}):")
    for item in commits[:SHOWN_COMMITS]:
        alone = {"rejected": "  [rejected on its own]", "passes": "  [passes on its own]"}
        note = alone.get(str(item.get("alone")), "")
        print(f"    {item['commit'][:12]} {item['subject']}{note}")
    if len(commits) > SHOWN_COMMITS:
        print(f"    ... and {len(commits) - SHOWN_COMMITS} more (--format json lists them all)")


def _stop_commands() -> str:
    """Start a block the runner does not read commands from; returns the line that ends it."""
    import secrets

    token = f"tribunal-{secrets.token_hex(16)}"
    print(f"::stop-commands::{token}", flush=True)
    return f"::{token}::"


def _annotate(results: list[dict[str, Any]]) -> None:
    """One ``::error`` per rejected range, so the run's page says it without the log."""
    from tribunal.render.github import command

    for result in results:
        if result["passed"]:
            continue
        label = _label(result["base"], result["head"])
        count = len(result.get("commits", ()))
        reasons = "\n".join(result["reasons"])
        noun = "commit" if count == 1 else "commits"
        message = f"the pre-push gate would have rejected {label} ({count} {noun})\n{reasons}"
        print(command("error", [("title", "Tribunal: push rejected")], message.strip()))
