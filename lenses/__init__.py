"""Lens definitions (installed as ``tribunal.lenses``).

A lens is a council member with a focus: which analyzers it runs, a one-line
hint (handed to LLM members by the council), and whether it is on by default.
The built-in definitions are the ``*.yml`` files beside this module; users add
or override lenses under ``lenses:`` in ``tribunal.yml``. A lens may name an
analyzer this version does not have (the list anticipates analyzers still to
come): it is skipped with a note, never an error.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from tribunal.config.model import Config
from tribunal.engine.registry import BUILTINS

ORDER = ("tests", "symbols", "security", "docs", "claims", "suite")
KINDS = ("analyzers", "suite")
SANDBOXES = ("none", "full")


@dataclass(frozen=True)
class Lens:
    """One council member's definition."""

    id: str
    title: str
    focus: str
    analyzers: tuple[str, ...]
    enabled: bool
    kind: str = "analyzers"  # "analyzers": runs analyzers; "suite": runs the test command
    sandbox: str = "none"  # what it needs checked out in the worktree: nothing, or everything


@dataclass(frozen=True)
class LensPlan:
    """A lens as it will run under one config: the analyzers it can run, and why not others."""

    lens: Lens
    runnable: tuple[str, ...]
    notes: tuple[str, ...]


@functools.cache
def builtin_lenses() -> dict[str, Lens]:
    """The shipped definitions, in their fixed order."""
    import yaml

    here = Path(__file__).parent
    found = {}
    for path in sorted(here.glob("*.yml")):
        lens = _from_mapping(yaml.safe_load(path.read_text(encoding="utf-8")), path.name)
        found[lens.id] = lens
    return {i: found[i] for i in sorted(found, key=_rank)}


def configured_lenses(config: Config) -> list[Lens]:
    """The lenses in force under ``config`` (enabled only), built-ins first."""
    overrides: Mapping[str, Mapping[str, Any]] = config.raw.get("lenses") or {}
    lenses = dict(builtin_lenses())
    for lens_id, fields in overrides.items():
        base = lenses.get(lens_id) or Lens(lens_id, lens_id, "", (), True)
        lenses[lens_id] = _override(base, fields)
    suite_set = "enabled" in overrides.get("suite", {})
    if "suite" in lenses and not suite_set and config.raw.get("suite"):
        lenses["suite"] = replace(lenses["suite"], enabled=True)
    return [lens for lens in lenses.values() if lens.enabled]


def gate_analyzers(config: Config) -> tuple[str, ...]:
    """Every analyzer an enabled lens runs under ``config``: what the push gate judges with.

    CI's ``check --config-from-base`` runs exactly these, so that it blocks what
    the pre-push gate blocks and nothing more (a lens switched off in the
    trusted config is off in CI too). The suite lens runs no analyzer.
    """
    found: dict[str, None] = {}
    for lens in configured_lenses(config):
        if lens.kind == "analyzers":
            found.update(dict.fromkeys(plan(lens, config).runnable))
    return tuple(found)


def plan(lens: Lens, config: Config) -> LensPlan:
    """Which of the lens's analyzers run under ``config``, with a note for each that cannot."""
    runnable = []
    notes = []
    for analyzer in lens.analyzers:
        if analyzer not in BUILTINS:
            notes.append(f"analyzer {analyzer} is not available in this version; skipped")
        elif not config.enabled(analyzer):
            notes.append(f"analyzer {analyzer} is disabled by the configuration; skipped")
        elif analyzer not in runnable:
            runnable.append(analyzer)
    return LensPlan(lens, tuple(runnable), tuple(notes))


def _override(base: Lens, fields: Mapping[str, Any]) -> Lens:
    changes: dict[str, Any] = {}
    for key in ("title", "focus", "enabled"):
        if key in fields:
            changes[key] = fields[key]
    if "analyzers" in fields:
        changes["analyzers"] = tuple(fields["analyzers"])
    return replace(base, **changes)


def _from_mapping(data: Any, name: str) -> Lens:
    """A shipped definition; a malformed one is a packaging bug, so it fails loudly."""
    if not isinstance(data, dict):
        raise RuntimeError(f"lens definition {name}: not a mapping")
    try:
        lens = Lens(
            id=str(data["id"]),
            title=str(data["title"]),
            focus=" ".join(str(data["focus"]).split()),
            analyzers=tuple(str(a) for a in data.get("analyzers") or ()),
            enabled=bool(data["enabled"]),
            kind=str(data.get("kind", "analyzers")),
            sandbox=str(data.get("sandbox", "none")),
        )
    except KeyError as exc:
        raise RuntimeError(f"lens definition {name}: missing {exc}") from None
    if lens.kind not in KINDS or lens.sandbox not in SANDBOXES:
        raise RuntimeError(f"lens definition {name}: bad kind or sandbox")
    return lens


def _rank(lens_id: str) -> tuple[int, str]:
    return (ORDER.index(lens_id) if lens_id in ORDER else len(ORDER), lens_id)
