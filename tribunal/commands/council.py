"""``tribunal council``: an advisory, adversarial review of a change by 2-5 models.

Its recommendation is advice: the exit code says only whether the council ran
(0) or could not (2); a "reject" never fails this command or the gate.
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
"""


def add_parser(sub: Any, epilog: str) -> None:
    from tribunal.llm.cliargs import add_command

    p = add_command(
        sub,
        "council",
        summary="an advisory review of a change by a council of models",
        description=HELP,
        epilog=exit_codes("recommendation reported (advisory: it never judges the change)"),
        budget_help="time budget for the whole council (default: council.timeout, else 120)",
    )
    p.add_argument("--member", action="append", default=[], metavar="SPEC", help="a member")
    p.add_argument(
        "--judge",
        metavar="SPEC",
        help="the judge (default: council.judge, else a "
        "member's model shown only anonymized material)",
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


def _plan(ns: argparse.Namespace, cwd: Path) -> CouncilPlan:
    """Members from the flags, else tribunal.yml's ``council:`` section."""
    from tribunal.config import load_config
    from tribunal.gitcmd import find_repo_root
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
    from tribunal.llm.report import render_text

    text = json.dumps(record, indent=2) + "\n" if form == "json" else render_text(record)
    sys.stdout.write(text)


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
