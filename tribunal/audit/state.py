"""What the audit has already looked at: ``<git common dir>/tribunal/audit-state.json``.

For each remote-tracking ref, the position in its reflog up to which entries
were audited (how many, and a digest of the last one, so an expired or
recreated reflog is noticed), plus when auditing started in this repository:
the first run takes every existing reflog entry as its baseline, so pushes
made before tribunal was installed never become records. Written atomically,
always under the log's lock.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tribunal.util.fsutil import write_atomically
from tribunal.worktree.lock import state_dir

STATE_NAME = "audit-state.json"
VERSION = 1


@dataclass(frozen=True)
class Position:
    """Entries ``[0, count)`` of a ref's reflog are audited; ``digest`` and ``when`` are
    those of entry ``count - 1``; ``size`` is the reflog file's size then (0: unknown)."""

    count: int
    digest: str = ""
    when: int = 0
    size: int = 0


@dataclass(frozen=True)
class State:
    installed: str  # UTC time of the baseline
    positions: Mapping[str, Position] = field(default_factory=dict)
    notices: frozenset[str] = frozenset()  # one-time messages already shown


def state_path(common_dir: Path) -> Path:
    return state_dir(common_dir) / STATE_NAME


def load(common_dir: Path) -> State | None:
    """The saved state, or None when auditing has not started (or the file is unreadable)."""
    try:
        data = json.loads(state_path(common_dir).read_text(encoding="utf-8"))
        positions = {ref: Position(**pos) for ref, pos in data["positions"].items()}
        return State(str(data["installed"]), positions, frozenset(data.get("notices", ())))
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None


def save(common_dir: Path, state: State) -> None:
    data: dict[str, Any] = {
        "version": VERSION,
        "installed": state.installed,
        "positions": {ref: pos.__dict__ for ref, pos in sorted(state.positions.items())},
        "notices": sorted(state.notices),
    }
    path = state_path(common_dir)
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomically(path, json.dumps(data, indent=1))
