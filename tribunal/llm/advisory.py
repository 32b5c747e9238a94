"""The council as one advisory step of the pre-push convene.

``run_council_advisory`` never raises and never blocks past its budget: it
returns None when no council is enabled, else a JSON-able record for the
``advisory`` section of ``summary.json``. The gate must not read it. Whether
the diff may be sent is the caller's to decide (``guard.user_allows_sending``:
the environment or the user's own git config, never the repository's), and
is passed in as ``allowed``; without it nothing is sent.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tribunal.config.model import Config
from tribunal.errors import TribunalError
from tribunal.llm.config import council_plan, lens_table
from tribunal.llm.errors import LLMError, require_extra
from tribunal.llm.guard import SKIPPED
from tribunal.llm.providers import Factory, make_provider
from tribunal.llm.result import CouncilResult


def run_council_advisory(
    diff_text: str,
    config: Config,
    budget: float | None = None,
    *,
    allowed: bool = False,
    env: Mapping[str, str] | None = None,
    factory: Factory = make_provider,
) -> dict[str, Any] | None:
    """The council's advisory record for ``diff_text``, or None when it is not enabled."""
    section = config.raw.get("council")
    if not isinstance(section, Mapping) or not section.get("enabled"):
        return None
    if not allowed:
        return CouncilResult("not-sent", SKIPPED).as_dict()
    if not diff_text.strip():
        return CouncilResult("unavailable", "the diff is empty; nothing to review").as_dict()
    try:
        require_extra()
        plan = council_plan(section, seconds=budget, env=env, lens_table=lens_table(config))
        from tribunal.llm.council import convene_council

        return convene_council(diff_text, plan, factory=factory).as_dict()
    except LLMError as exc:
        return CouncilResult("unavailable", str(exc)).as_dict()
    except TribunalError as exc:
        return CouncilResult("error", str(exc)).as_dict()
    except Exception as exc:  # advisory: a bug here must never take the gate down
        return CouncilResult("error", f"internal error: {type(exc).__name__}: {exc}").as_dict()
