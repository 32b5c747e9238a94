"""``tribunal.yml``: find it, validate all of it, and expose typed settings.

Config is purely additive where the seed says so: ``generated-paths`` and
``risky-words`` extend the built-ins and can never replace them. A file that is
present but wrong stops the run (exit 2) with file, line and key; it never
silently falls back to defaults.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tribunal.config_schema import (
    BOOL,
    NON_EMPTY_STR,
    POSITIVE,
    STR,
    STR_LIST,
    ListOf,
    MapOf,
    Scalar,
    Struct,
    Where,
)
from tribunal.errors import ConfigError
from tribunal.registry import BUILTINS

CONFIG_NAME = "tribunal.yml"
CONFIG_ENV = "TRIBUNAL_CONFIG"

_LENS = Struct(
    {
        "enabled": BOOL,
        "title": NON_EMPTY_STR,
        "focus": STR,
        "analyzers": ListOf(Scalar(("str",), "an analyzer id"), "a list of analyzer ids"),
    }
)
_MEMBER = Struct(
    {
        "id": NON_EMPTY_STR,
        "provider": Scalar(("str",), "a provider", choices=("ollama", "openai")),
        "model": NON_EMPTY_STR,
        "endpoint": NON_EMPTY_STR,
        "focus": STR,
    },
    required=frozenset({"id", "provider", "model"}),
)
SCHEMA = Struct(
    {
        "analyzers": MapOf(BOOL, known=lambda: BUILTINS, what="analyzer"),
        "generated-paths": STR_LIST,
        "risky-words": STR_LIST,
        "python-roots": STR_LIST,
        "strict": BOOL,
        "lenses": MapOf(_LENS, what="lens"),
        "suite": Struct({"command": NON_EMPTY_STR, "timeout": POSITIVE}, frozenset({"command"})),
        "council": Struct(
            {
                "enabled": BOOL,
                "members": ListOf(_MEMBER, "a list of members"),
                "judge": _MEMBER,
                "timeout": POSITIVE,
            }
        ),
        "convene": Struct({"timeout": POSITIVE}),
    }
)


@dataclass(frozen=True)
class Config:
    """Validated settings; ``source`` says where they came from (None: built-in defaults)."""

    source: str | None = None
    analyzers: Mapping[str, bool] = field(default_factory=dict)
    generated_paths: tuple[str, ...] = ()
    risky_words: tuple[str, ...] = ()
    python_roots: tuple[str, ...] = ()
    strict: bool = False
    raw: Mapping[str, Any] = field(default_factory=dict)

    def enabled(self, analyzer_id: str) -> bool:
        return self.analyzers.get(analyzer_id, True)

    @property
    def digest(self) -> str:
        """A stable digest of the effective settings (for cache keys)."""
        canonical = json.dumps(self.raw, sort_keys=True, separators=(",", ":"), default=str)
        return hashlib.sha256(canonical.encode()).hexdigest()[:16]


def parse_config(text: str, name: str) -> Config:
    """Validate ``text`` (the contents of ``name``) and build a Config."""
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        node = yaml.compose(text, Loader=loader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = f":{mark.line + 1}" if mark is not None else ""
        raise ConfigError(f"{name}{line}: not valid YAML: {exc.problem or exc}") from None
    except yaml.YAMLError as exc:
        raise ConfigError(f"{name}: not valid YAML: {exc}") from None
    if node is None:
        return Config(source=name)
    SCHEMA.check(node, Where(name))
    data: dict[str, Any] = yaml.SafeLoader("").construct_document(node)
    return Config(
        source=name,
        analyzers=dict(data.get("analyzers", {})),
        generated_paths=tuple(data.get("generated-paths", ())),
        risky_words=tuple(data.get("risky-words", ())),
        python_roots=tuple(data.get("python-roots", ())),
        strict=bool(data.get("strict", False)),
        raw=data,
    )


def load_config(explicit: str | None, repo_root: Path | None, cwd: Path) -> Config:
    """The config for a run: ``--config``, else ``$TRIBUNAL_CONFIG``, else the repo's file.

    An explicitly named file that does not exist is an error; a missing
    ``tribunal.yml`` at the repository root simply means defaults.
    """
    named = explicit or os.environ.get(CONFIG_ENV) or None
    if named is not None:
        path = Path(named) if Path(named).is_absolute() else cwd / named
        if not path.is_file():
            origin = "--config" if explicit else CONFIG_ENV
            raise ConfigError(f"{named}: config file named by {origin} does not exist")
        return parse_config(_read(path, named), named)
    if repo_root is None:
        return Config()
    path = repo_root / CONFIG_NAME
    if not path.is_file():
        return Config()
    return parse_config(_read(path, CONFIG_NAME), CONFIG_NAME)


def _read(path: Path, name: str) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{name}: cannot read config: {exc}") from None
