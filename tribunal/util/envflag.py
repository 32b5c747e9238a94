"""Boolean environment switches (``TRIBUNAL_...=1``), read one way everywhere."""

from __future__ import annotations

import os
from collections.abc import Mapping

TRUE: tuple[str, ...] = ("1", "true", "yes", "on")

#: Also analyze generated paths (``--no-skip-generated``), for ``check`` and the commit hook.
NO_SKIP_GENERATED = "TRIBUNAL_NO_SKIP_GENERATED"


def env_flag(name: str, env: Mapping[str, str] | None = None) -> bool:
    """``name`` is set to one of ``TRUE`` (any case, surrounding blanks ignored)."""
    source = os.environ if env is None else env
    return source.get(name, "").strip().lower() in TRUE


def skips_generated(no_skip_flag: bool = False) -> bool:
    """Generated paths are skipped unless the flag or ``$TRIBUNAL_NO_SKIP_GENERATED`` asks."""
    return not (no_skip_flag or env_flag(NO_SKIP_GENERATED))
