"""Helpers for the weakened-gate audit tests: read the log, count the warnings, build shims."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.gitrepo import Result
from tests.hooktools import UserRepo

SHIM = Path(__file__).resolve().parents[1] / "hooks" / "reference-transaction.sh"
WARNING = "tribunal: ⚠ "


def log_file(user: UserRepo) -> Path:
    return user.path / ".git" / "tribunal" / "weakened-gate.jsonl"


def log_records(user: UserRepo) -> list[dict[str, Any]]:
    path = log_file(user)
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines()]


def warnings(result: Result) -> list[str]:
    return [line for line in (result.stdout + result.stderr).splitlines() if WARNING in line]


def render_shim(python: str) -> str:
    """The reference-transaction shim as ``tribunal install`` writes it, for ``python``."""
    return SHIM.read_text().replace("@PYTHON@", "'" + python.replace("'", "'\\''") + "'")


def install_shim(user: UserRepo, python: str) -> Path:
    hook = user.path / ".git" / "hooks" / "reference-transaction"
    hook.parent.mkdir(parents=True, exist_ok=True)
    hook.write_text(render_shim(python))
    hook.chmod(0o755)
    return hook


def audit(user: UserRepo, *args: str) -> Result:
    return user.repo.tribunal("audit", *args, env=user.env)
