"""The LLM council as an opt-in, advisory step of the pre-push convene.

It runs only when the trusted ``tribunal.yml`` (the remote's, never the pushed
commit's) says ``council: {enabled: true}`` *and* the user lets the diff leave
the machine: ``TRIBUNAL_ALLOW_SEND_DIFF=1`` or the user's own
``git config --global tribunal.allowSendDiff true`` (seed 001; never a key of
``tribunal.yml``, which the remote's owners write). Otherwise it is skipped
with one line, and nothing is sent. It runs *before* the lenses so that the
claims it proposes can be judged by the deterministic verifiers on the same
change; their answers are advice (``tribunal.claims.advisory``): recorded in the
summary's ``advisory`` section and printed in the advisory block, never a
finding of any lens, because a claim nobody made is not a defect. The price is
that an enabled council delays every push by up to its budget
(``council.timeout``, default 120 s); that is why it is opt-in. The budget is a
hard one: the council runs in a worker thread that the convene stops waiting
for when the budget is spent. Nothing here can fail the convene: any error
becomes an advisory record saying so. The gate never reads the record.
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from tribunal.change.model import Claim
from tribunal.config.model import Config
from tribunal.findings import AdvisoryClaim
from tribunal.git.cmd import Git
from tribunal.hooks.ranges import RangePlan

if TYPE_CHECKING:
    from tribunal.llm.result import Status

SOURCE = "council"
DEFAULT_SECONDS = 120.0
#: How much of its budget the council itself may use; the rest is the margin in
#: which a council that is late by a hair still returns its own record.
_MARGIN_S = 2.0
_KEY_ENVS = ("TRIBUNAL_API_KEY",)


def council_enabled(config: Config) -> bool:
    section = config.raw.get("council")
    return isinstance(section, Mapping) and bool(section.get("enabled"))


def council_budget(config: Config) -> float:
    """``council.timeout`` seconds, else ``DEFAULT_SECONDS``."""
    section = config.raw.get("council") or {}
    return float(section.get("timeout") or DEFAULT_SECONDS)


def consult_council(
    git: Git, rng: RangePlan, config: Config, say: Callable[[str], None] = lambda _: None
) -> dict[str, Any] | None:
    """The council's advisory record for the pushed range; None when it is not enabled.

    Returns within ``council_budget(config)`` seconds (plus the time git takes to
    produce the diff) and never raises. ``say`` reports that the council is asked.
    """
    if not council_enabled(config):
        return None
    from tribunal.llm.guard import SKIPPED, user_allows_sending

    if not user_allows_sending(git):
        return _record("not-sent", SKIPPED)
    budget = council_budget(config)
    say(f"consulting the council (advisory, up to {budget:g} s)")
    try:
        from tribunal.llm.difftext import diff_between

        diff = diff_between(git, rng.base, rng.head)
    except Exception as exc:  # advisory: never a reason for the convene to fail
        return _record("error", f"cannot read the pushed diff: {type(exc).__name__}: {exc}")

    def ask(seconds: float) -> dict[str, Any] | None:
        from tribunal.llm.advisory import run_council_advisory

        return run_council_advisory(diff, config, seconds, allowed=True)

    return scrubbed(within(budget, ask))


def within(budget: float, ask: Callable[[float], dict[str, Any] | None]) -> dict[str, Any]:
    """``ask(seconds)`` in a worker thread; stop waiting for it after ``budget`` seconds.

    ``ask`` is given a little less than ``budget``, so a council that keeps to
    its own budget returns its own record; one that does not is abandoned.
    """
    box: list[dict[str, Any] | None] = []

    def work() -> None:
        try:
            box.append(ask(max(budget - _MARGIN_S, budget * 0.75)))
        except BaseException as exc:  # the thread must always leave an answer
            box.append(_record("error", f"internal error: {type(exc).__name__}: {exc}"))

    worker = threading.Thread(target=work, name="tribunal-council", daemon=True)
    worker.start()
    worker.join(budget)
    if not box:
        why = f"did not finish within its budget ({budget:g} s, council.timeout)"
        return _record("unavailable", why)
    return box[0] or _record("error", "the council returned no record")


def _record(status: Status, reason: str) -> dict[str, Any]:
    """A record in the council's own shape, for what went wrong around it."""
    from tribunal.llm.result import CouncilResult

    return CouncilResult(status, reason).as_dict()


def scrubbed(record: dict[str, Any]) -> dict[str, Any]:
    """``record`` with any API key from the environment replaced (defence in depth)."""
    text = json.dumps(record)
    secrets = [os.environ.get(name, "") for name in _KEY_ENVS]
    leaked = [s for s in secrets if len(s) >= 8 and s in text]
    for secret in leaked:
        text = text.replace(secret, "[redacted]")
    return json.loads(text) if leaked else record


def council_claims(record: Mapping[str, Any] | None) -> tuple[Claim, ...]:
    """The claims the council proposed (registry keys only), with ``council`` as their source."""
    if not record or record.get("status") != "ok":
        return ()
    from tribunal.claims.parse import parse_claim

    out = []
    for text in record.get("proposed_claims") or ():
        parsed = parse_claim(str(text))
        if parsed is not None:
            out.append(Claim(parsed.key, parsed.arg, SOURCE, None, SOURCE))
    return tuple(out)


def with_verdicts(record: dict[str, Any], judged: Sequence[AdvisoryClaim]) -> dict[str, Any]:
    """``record`` with its claims as the verifiers judged them (advice: see the module)."""
    return {**record, "claims": [item.as_dict() for item in judged]}


def advisory_lines(record: Mapping[str, Any] | None) -> list[str]:
    """The record as text for people, after the gate's result; empty when there is none.

    A council that was not allowed to send is one line; anything else is the
    advisory block, whose lines (other than the first) all carry the prefix.
    """
    if not record:
        return []
    from tribunal.llm.guard import SKIPPED
    from tribunal.llm.modeltext import clean

    if record.get("status") == "not-sent":
        return [f"tribunal: {clean(str(record.get('reason') or SKIPPED))}"]
    from tribunal.llm.report import render_text

    first, *rest = render_text(record).rstrip("\n").splitlines()
    return [f"tribunal: {first}", *rest]
