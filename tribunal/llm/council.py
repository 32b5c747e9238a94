"""The boule council (seed 002): form -> contamination gate -> attack -> defend -> judge.

Advisory by construction: this module returns a ``CouncilResult`` and imports
nothing that could change a verdict or the gate. Members run in parallel within
each phase; a member that fails (after one repair retry for a malformed reply)
is dropped with its reason, and the council goes on with at least two members
or reports itself unavailable. The whole run lives inside one time ``Budget``.

The judge is stake-free or absent: with no judge configured, or one whose model
is a member's (``judge_conflict``), the Judge phase is not run and the
recommendation is the deterministic tally, with a note saying why.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from tribunal.llm import debate as bookkeeping
from tribunal.llm import phases
from tribunal.llm.budget import Budget
from tribunal.llm.claim_keys import known_claim_keys
from tribunal.llm.conclude import Debate, conclude, unavailable
from tribunal.llm.config import MIN_MEMBERS, CouncilPlan, judge_conflict
from tribunal.llm.contamination import gate
from tribunal.llm.prompt import Fence, clip_diff, new_fence
from tribunal.llm.providers import Factory, MemberSpec, Provider, make_provider
from tribunal.llm.redact import redact
from tribunal.llm.result import CouncilResult, Drop
from tribunal.llm.runner import PhaseRunner
from tribunal.llm.schemas import AttackReply, DefenseReply, FormReply, JudgeReply, Refutation
from tribunal.llm.tally import Ruling, reconcile_swap

JUDGE = "judge"
NO_JUDGE = "no stake-free judge was available (none is configured); this is the deterministic tally"
CONTAMINATED = "verdict barely mentions the diff (coverage < 0.20 and fewer than 2 anchor words)"


def convene_council(
    diff_text: str,
    plan: CouncilPlan,
    *,
    factory: Factory = make_provider,
    claim_keys: Mapping[str, str] | None = None,
) -> CouncilResult:
    """Run every phase on ``diff_text`` (redacted here, before anything is sent)."""
    redacted = redact(diff_text)
    diff = clip_diff(redacted.text)
    budget = Budget(plan.seconds, max_calls=12 * (len(plan.members) + 1))
    providers: dict[str, Provider] = {}
    try:
        for spec in plan.members:
            providers[spec.id] = factory(spec, plan.limits)
        if plan.judge is not None and judge_conflict(plan) is None:
            providers[JUDGE] = factory(plan.judge, plan.limits)
        keys = dict(claim_keys if claim_keys is not None else known_claim_keys())
        runner = PhaseRunner(providers, plan.limits, budget, [*(m.id for m in plan.members), JUDGE])
        result = _Council(plan, diff, new_fence(diff), runner, keys).run()
    finally:
        for provider in providers.values():
            provider.close()
    return dataclasses.replace(result, redactions=redacted.count, costs=budget.costs())


class _Council:
    """The phases of one run, in order; ``runner`` keeps the ledger."""

    def __init__(
        self,
        plan: CouncilPlan,
        diff: str,
        fence: Fence,
        runner: PhaseRunner,
        claim_keys: dict[str, str],
    ) -> None:
        self.plan, self.diff, self.fence = plan, diff, fence
        self.runner, self.claim_keys = runner, claim_keys
        self.names = phases.names_pattern(
            [*(m.id for m in plan.members), *(m.model for m in plan.members)]
        )

    def run(self) -> CouncilResult:
        forms = self.form()
        if len(forms) < MIN_MEMBERS:
            reason = f"only {len(forms)} member(s) gave a verdict"
            return unavailable(self.plan, Debate(forms), self.runner, reason)
        screened = gate(list(forms.items()), self.diff)
        for member_id in screened.dropped:
            self.runner.drops[member_id] = Drop("contamination", CONTAMINATED)
        received = self.attack(forms, list(screened.live))
        defenses = self.defend(forms, received)
        live = self.runner.live(forms)
        final = {m: bookkeeping.final_verdict(forms[m], defenses.get(m)) for m in live}
        debate = Debate(forms, screened, received, defenses, final)
        if len(live) < MIN_MEMBERS:
            reason = f"only {len(live)} member(s) stayed in the council"
            return unavailable(self.plan, debate, self.runner, reason)
        ruling, judge = self.judge(live, debate)
        return conclude(self.plan, debate, self.runner, ruling, judge, self.claim_keys)

    def form(self) -> dict[str, FormReply]:
        size = len(self.plan.members)
        jobs = {
            m.id: self.runner.job(
                m.id,
                phases.form(self.fence, self.diff, m.model, size, m.focus, self.claim_keys),
                FormReply,
            )
            for m in self.plan.members
        }
        return self.runner.members("form", jobs)

    def attack(
        self, forms: Mapping[str, FormReply], live: list[str]
    ) -> dict[str, list[Refutation]]:
        anon = {m: phases.anonymize(forms[m], self.names) for m in live}
        labels = bookkeeping.peer_labels(live)
        jobs = {
            a: self.runner.job(
                a,
                phases.attack(
                    self.fence, self.diff, {label: anon[t] for label, t in labels[a].items()}
                ),
                AttackReply,
            )
            for a in live
        }
        return bookkeeping.route(labels, self.runner.members("attack", jobs))

    def defend(
        self, forms: Mapping[str, FormReply], received: Mapping[str, list[Refutation]]
    ) -> dict[str, DefenseReply]:
        jobs = {
            m: self.runner.job(
                m,
                phases.defend(
                    self.fence,
                    self.diff,
                    phases.anonymize(forms[m], self.names),
                    bookkeeping.attack_cards(attacks, self.names),
                ),
                DefenseReply,
            )
            for m, attacks in received.items()
            if attacks and m not in self.runner.drops
        }
        return self.runner.members("defend", jobs)

    def judge(self, live: list[str], debate: Debate) -> tuple[Ruling | None, dict[str, Any]]:
        """Both orderings of the anonymized positions, reconciled by the swap rule.

        Only a stake-free judge is asked; without one the ruling is None (the tally).
        """
        spec = self.plan.judge
        if spec is None:
            return None, {"stake_free": False, "note": NO_JUDGE}
        member = judge_conflict(self.plan)
        if member is not None:
            note = (
                f"the configured judge {spec.provider}:{spec.model} is the model of member "
                f"'{member.id}', so it has a stake; only the deterministic tally is used"
            )
            return None, {**_who(spec), "stake_free": False, "note": note}
        positions = [
            bookkeeping.position(
                debate.forms[m],
                debate.received.get(m, []),
                debate.defenses.get(m),
                debate.final[m],
                self.names,
            )
            for m in live
        ]
        jobs = {
            name: self.runner.job(JUDGE, phases.judge(self.fence, self.diff, order), JudgeReply)
            for name, order in (("a", positions), ("b", positions[::-1]))
        }
        replies, failures = self.runner.run("judge", jobs)
        usage = self.runner.usage[JUDGE]
        info = {
            **_who(spec),
            "stake_free": True,
            "failed_orderings": failures,
            "tokens": {"in": usage[0], "out": usage[1]},
        }
        return reconcile_swap(replies.get("a"), replies.get("b")), info


def _who(spec: MemberSpec) -> dict[str, str]:
    return {"provider": spec.provider, "model": spec.model}
