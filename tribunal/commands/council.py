"""``tribunal council``: an advisory, adversarial review of a change by 2-5 models.

Its recommendation is advice: the exit code says only whether the council ran
(0) or could not (2); a "reject" never fails this command or the gate. A judge
that is one of the members' models is refused here (exit 2, naming the
member); the convene, which must never fail on the council's account, uses
the tally instead and says why.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tribunal.commands.exitcodes import epilog as exit_codes
from tribunal.errors import ExitCode

if TYPE_CHECKING:
    from tribunal.llm.config import CouncilPlan

HELP = """\
Convene the council (seed 002): each member gives an independent verdict, the
verdicts that barely mention the diff are dropped, members attack each other's
anonymized verdicts and defend their own, and a stake-free judge rules over both
orderings of the anonymized members.

Members: --member [ID=]ollama|openai:MODEL[@ENDPOINT] (2 to 5, repeatable), else
the council: section of tribunal.yml. --lens FOCUS gives member i the i-th
focus hint (a lens name from the config's lenses:, or free text).

The judge (--judge SPEC, else council.judge) must not be one of the members'
models: it would weigh its own verdict. Without a judge the recommendation is
the deterministic tally of the members' final verdicts, and the output says
that no stake-free judge was available.

The claims the members propose are listed as advice: `tribunal check` and the
push gate verify them, but only a claim you state yourself (a Tribunal-Claim:
trailer, or a ```tribunal block in the PR body) can block.
"""


def add_parser(sub: Any, epilog: str) -> None:
    from tribunal.llm.cliargs import add_command

    p = add_command(
        sub,
        "council",
        summary="an advisory review of a change by a council of models",
        description=HELP,
        epilog=exit_codes(
            "the council ran, whatever it recommends (its advice never fails this\n"
            "command); or nothing was sent (sending not allowed: what would be sent\n"
            "is printed for review); or the diff is empty",
            usage="usage, configuration, git or input-file error; a judge that is one of\n"
            "the members' models; or the council could not run (fewer than two\n"
            "members answered)",
        ),
        budget_help="time budget for the whole council (default: council.timeout, else 120)",
    )
    p.add_argument("--member", action="append", default=[], metavar="SPEC", help="a member")
    p.add_argument(
        "--judge",
        metavar="SPEC",
        help="the judge, never one of the members' models (default: council.judge, "
        "else none: the deterministic tally)",
    )
    p.add_argument("--lens", action="append", default=[], metavar="FOCUS", help="focus hint")
    p.add_argument("--format", choices=("text", "json"), default="text", help="output format")
    p.set_defaults(func=run)


def run(ns: argparse.Namespace) -> int:
    from tribunal.llm.errors import require_extra

    require_extra()
    from tribunal.llm import cliargs
    from tribunal.llm.council import convene_council

    cwd, diff = cliargs.read_change(ns)
    plan = _plan(ns, cwd)
    _refuse_a_judge_with_a_stake(plan)
    if not diff.strip():
        print("tribunal: council: the diff is empty; nothing to review", file=sys.stderr)
        return ExitCode.OK
    specs = [*plan.members, *([plan.judge] if plan.judge else [])]
    if cliargs.held_back(ns, specs, lambda: _preview(diff, plan)):
        return ExitCode.OK
    record = convene_council(diff, plan).as_dict()
    _emit(record, ns.format)
    if record["status"] != "ok":
        print(f"tribunal: error: the council is unavailable: {record['reason']}", file=sys.stderr)
        return ExitCode.USAGE
    return ExitCode.OK


def _refuse_a_judge_with_a_stake(plan: CouncilPlan) -> None:
    from tribunal.errors import UsageError
    from tribunal.llm.config import judge_conflict

    member = judge_conflict(plan)
    if member is None or plan.judge is None:
        return
    raise UsageError(
        f"the judge {plan.judge.provider}:{plan.judge.model} is the model of member "
        f"'{member.id}' ({member.provider}:{member.model}); a judge must not be one of the "
        "members' models. Name another model as the judge, or none (the tally is used)"
    )


def _plan(ns: argparse.Namespace, cwd: Path) -> CouncilPlan:
    """Members from the flags, else tribunal.yml's ``council:`` section."""
    from tribunal.config.load import load_config
    from tribunal.git.cmd import find_repo_root
    from tribunal.llm import cliargs
    from tribunal.llm.config import council_plan, lens_table

    config = load_config(ns.config, find_repo_root(cwd), cwd)
    return council_plan(
        config.raw.get("council"),
        member_flags=ns.member,
        judge_flag=ns.judge,
        lens_flags=ns.lens,
        lens_table=lens_table(config),
        seconds=ns.budget,
        limits=cliargs.limits(ns),
    )


def _emit(record: dict[str, Any], form: str) -> None:
    """The record; as text, followed by its claims as a ```tribunal-proposed block, so that
    the output fed to ``tribunal check --claims``/``--pr-body`` is read as advice."""
    from tribunal.llm.claim_keys import claims_block
    from tribunal.llm.report import render_text

    if form == "json":
        sys.stdout.write(json.dumps(record, indent=2) + "\n")
        return
    claims = record.get("proposed_claims") or []
    sys.stdout.write(render_text(record) + (claims_block(claims) if claims else ""))


def _preview(diff: str, plan: CouncilPlan) -> None:
    """The Form prompt each member would get (later phases add only model output)."""
    from tribunal.llm import phases
    from tribunal.llm.claim_keys import known_claim_keys
    from tribunal.llm.prompt import clip_diff, new_fence, preview
    from tribunal.llm.redact import redact

    text = clip_diff(redact(diff).text)
    first = plan.members[0]
    messages = phases.form(
        new_fence(text), text, first.model, len(plan.members), first.focus, known_claim_keys()
    )
    where = [f"{m.public()['endpoint']} ({m.id}: {m.model})" for m in plan.members]
    if plan.judge:
        where.append(f"{plan.judge.public()['endpoint']} (judge: {plan.judge.model})")
    sys.stdout.write(preview(where, messages))
