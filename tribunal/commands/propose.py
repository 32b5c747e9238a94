"""``tribunal propose``: let a model PROPOSE claims; the deterministic engine judges them.

This command never imports a verifier, the gate or the exit-code logic of
``check``: it reads a diff and writes a ```` ```tribunal-proposed ```` block.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from tribunal.commands.exitcodes import epilog as exit_codes
from tribunal.errors import ExitCode, InputError

HELP = """\
Ask one model which claims a reviewer should have checked, and write them as a
```tribunal-proposed block for `tribunal check --pr-body FILE`. Only claim keys
that the verifiers know survive; everything else the model says is dropped and
counted.

Model: --model NAME or $TRIBUNAL_MODEL. Endpoint: --endpoint URL or
$TRIBUNAL_ENDPOINT (an OpenAI-compatible base URL such as https://host/v1);
without one, a local Ollama at $OLLAMA_HOST or http://127.0.0.1:11434.

What it writes is a ```tribunal-proposed block: `tribunal check` verifies its
claims and reports them as advice that never blocks, because a claim nobody
made is not a defect. To make a claim yours, move its line into a ```tribunal
block (the PR body, a --claims file, a commit message) or add a trailer
`Tribunal-Claim: KEY` to a commit message; from then on it gates like any
claim you make.
"""


def add_parser(sub: Any, epilog: str) -> None:
    from tribunal.llm.cliargs import add_command

    p = add_command(
        sub,
        "propose",
        summary="let a model propose claims for `check` to verify",
        description=HELP,
        epilog=exit_codes(
            "the block was written; or nothing was sent (sending not allowed: what\n"
            "would be sent is printed for review); or the diff is empty",
            usage="usage, configuration, git or input-file error, or the model could not\n"
            "answer (unreachable, a malformed reply, the time budget spent)",
        ),
        budget_help="time budget for the whole run (default 180)",
    )
    p.add_argument(
        "--provider",
        choices=("ollama", "openai"),
        help="default: openai when an endpoint is given, else ollama",
    )
    p.add_argument("--endpoint", metavar="URL", help="also $TRIBUNAL_ENDPOINT")
    p.add_argument("--model", metavar="NAME", help="also $TRIBUNAL_MODEL")
    p.add_argument("--out", metavar="FILE", help="write the block here (default: stdout)")
    p.set_defaults(func=run)


def run(ns: argparse.Namespace) -> int:
    from tribunal.llm.errors import require_extra

    require_extra()
    from tribunal.llm import cliargs
    from tribunal.llm.claim_keys import known_claim_keys
    from tribunal.llm.config import single_spec
    from tribunal.llm.prompt import preview
    from tribunal.llm.propose import prepare, propose_claims

    cwd, diff = cliargs.read_change(ns)
    spec = single_spec(ns.provider, ns.endpoint, ns.model)
    if not diff.strip():
        print("tribunal: propose: the diff is empty; nothing to propose", file=sys.stderr)
        return ExitCode.OK
    keys = known_claim_keys()

    def show_preview() -> None:
        where = f"{spec.public()['endpoint']} (model {spec.model})"
        sys.stdout.write(preview([where], prepare(diff, keys).messages))

    if cliargs.held_back(ns, [spec], show_preview):
        return ExitCode.OK
    proposal = propose_claims(diff, spec, cliargs.limits(ns), ns.budget or 180.0, claim_keys=keys)
    _write(proposal.block, ns.out, cwd)
    costs = proposal.costs
    print(
        f"tribunal: propose: {len(proposal.claims)} claim(s) kept, {len(proposal.dropped)} "
        f"dropped (unknown key or bad argument); {proposal.redactions} secret(s) redacted; "
        f"{costs.calls} call(s), {costs.tokens_in}+{costs.tokens_out} tokens, "
        f"{costs.seconds:.1f} s",
        file=sys.stderr,
    )
    return ExitCode.OK


def _write(text: str, out: str | None, cwd: Path) -> None:
    if out is None:
        sys.stdout.write(text)
        return
    path = Path(out) if Path(out).is_absolute() else cwd / out
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise InputError(f"{out}: cannot write: {exc.strerror or exc}") from None
