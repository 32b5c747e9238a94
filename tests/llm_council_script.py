"""Scripted council members for the tests: a diff, verdicts, and a responder.

Requests are routed by the model id in the request body (every test member
has its own) and by the phase (the reply schema the client asked for).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import pytest

from tests.llm_server import Received, Responder, Scripted, reply_for
from tribunal.llm.budget import Limits
from tribunal.llm.config import CouncilPlan
from tribunal.llm.providers import MemberSpec, ProviderKind

DIFF = """\
diff --git a/src/payments/refund.py b/src/payments/refund.py
index 1111111..2222222 100644
--- a/src/payments/refund.py
+++ b/src/payments/refund.py
@@ -10,7 +10,7 @@ def refund(order, amount, currency="EUR"):
     if order.status != "paid":
         raise RefundError("order is not paid")
-    if amount > order.total:
+    if amount >= order.total:
         raise RefundError("refund exceeds order total")
     ledger.record(order, -amount, currency)
"""

ON_TOPIC = [
    "refund now rejects an amount equal to the order total",
    "the RefundError message for an excessive refund is unchanged",
]
CONTAMINATED = [
    "The Kubernetes deployment manifest scales replicas horizontally",
    "Helm chart values configure ingress annotations",
]
OFF_TOPIC = ["Preheat the oven and whisk eggs with sugar", "Bake until golden brown"]


def verdict(
    model: str, verdict: str = "approve", claims: list[str] | None = None, **extra: Any
) -> dict[str, Any]:
    return {
        "verdict": verdict,
        "confidence": "high",
        "model": model,
        "key_claims": claims or ON_TOPIC,
        "risks": ["full refunds of an order now fail"],
        "unknowns": [],
        **extra,
    }


def attack_first_peer(request: Received) -> dict[str, Any]:
    return {
        "refutations": [
            {
                "target": "peer-A",
                "target_claim": "the refund check",
                "attack": "a full refund of the order total is now rejected",
                "severity": "high",
            }
        ],
        "concessions": [],
    }


def hold_all(request: Received) -> dict[str, Any]:
    refs = sorted(set(re.findall(r"attack-\d+", request.text)))
    return {
        "defenses": [
            {"attack_ref": ref, "rebuttal": "covered by the caller", "holds": True} for ref in refs
        ],
        "conceded": [],
        "verdict_changed": False,
    }


def first_member_wins(request: Received) -> dict[str, Any]:
    """A judge that follows whoever is listed first: sensitive to ordering on purpose."""
    first = member_blocks(request)[0]
    return {
        "recommendation": first["final_verdict"],
        "confidence": "high",
        "rationale": "the first member's argument is convincing",
        "consensus": ["refund handling changed"],
        "dissent": [],
    }


def steady_judge(recommendation: str) -> Callable[[Received], dict[str, Any]]:
    def judge(request: Received) -> dict[str, Any]:
        return {
            "recommendation": recommendation,
            "confidence": "medium",
            "rationale": "weighed both sides",
            "consensus": ["refund boundary moved"],
            "dissent": ["whether full refunds should fail"],
        }

    return judge


def member_blocks(request: Received) -> list[dict[str, Any]]:
    """The anonymized positions in a judge request, in the order shown."""
    found = re.findall(r"<<<MEMBER-(\d+) (\S+)\n(.*?)\nMEMBER-\1 \2>>>", request.text, re.S)
    return [json.loads(body) for _, _, body in found]


DEFAULTS: Mapping[str, Callable[[Received], Any]] = {
    "attack": attack_first_peer,
    "defense": hold_all,
    "judge": steady_judge("approve-with-changes"),
}


def scripted(behaviour: Mapping[str, Mapping[str, Any]]) -> Responder:
    """``behaviour[model][phase]``: content, a ``Scripted`` reply, a callable, or a list
    of those consumed one per request (for repair retries)."""
    queues: dict[tuple[str, str], list[Any]] = {}

    def respond(request: Received) -> Scripted:
        plan = behaviour.get(request.model, {})
        action = plan.get(request.phase, DEFAULTS.get(request.phase))
        if isinstance(action, list):
            queue = queues.setdefault((request.model, request.phase), list(action))
            action = queue.pop(0) if len(queue) > 1 else queue[0]
        if callable(action):
            action = action(request)
        if isinstance(action, Scripted):
            return action
        if action is None:
            return Scripted(500, {"error": f"no script for {request.model}/{request.phase}"})
        return reply_for(request, action)

    return respond


def member(
    member_id: str, provider: str, model: str, url: str, focus: str = "", key: str | None = None
) -> MemberSpec:
    kind: ProviderKind = "ollama" if provider == "ollama" else "openai"
    return MemberSpec(member_id, kind, model, url, api_key=key, focus=focus)


def plan(
    *members: MemberSpec,
    judge: MemberSpec | None = None,
    seconds: float = 20.0,
    timeout: float = 5.0,
) -> CouncilPlan:
    return CouncilPlan(
        tuple(members), judge, Limits(timeout=timeout, retries=1, backoff=0.01), seconds
    )


_OWN_HOME = "COUNCIL_TEST_OWN_HOME"


def own_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A HOME (and XDG dirs) of this test's own, for this process and every hook it starts.

    A per-user setting such as ``git config --global tribunal.allowSendDiff true``
    written there reaches only this test. The session's global git config is
    carried over; the per-user summary key is created afresh under the new home.
    """
    home = tmp_path / "home"
    (home / ".config").mkdir(parents=True)
    session = Path(os.environ["HOME"]) / ".gitconfig"
    if session.exists():
        shutil.copy2(session, home / ".gitconfig")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(home / ".cache"))
    monkeypatch.delenv("GIT_CONFIG_GLOBAL", raising=False)
    monkeypatch.delenv("TRIBUNAL_ALLOW_SEND_DIFF", raising=False)
    monkeypatch.setenv(_OWN_HOME, str(home))
    return home


def allow_sending(allowed: bool) -> None:
    """Set or remove the per-user permission the convene's council needs to send the diff
    (only in a home of the test's own: ``own_home``)."""
    assert os.environ.get(_OWN_HOME) == os.environ["HOME"], "call own_home first"
    args = ["true"] if allowed else []
    action = [] if allowed else ["--unset-all"]
    subprocess.run(
        ["git", "config", "--global", *action, "tribunal.allowSendDiff", *args],
        check=False,
        capture_output=True,
    )
    shown = subprocess.run(
        ["git", "config", "--global", "--get", "tribunal.allowSendDiff"],
        capture_output=True,
        text=True,
        check=False,
    ).stdout.strip()
    assert shown == ("true" if allowed else "")
