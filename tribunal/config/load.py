"""``tribunal.yml``: find it, validate all of it, and build the typed ``Config``.

A file that is present but wrong stops the run (exit 2) with file, line and key; it
never silently falls back to defaults.
"""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tribunal.config.model import Config
from tribunal.engine.registry import BUILTINS
from tribunal.errors import ConfigError

if TYPE_CHECKING:
    import yaml

    from tribunal.config.schema import Rule

CONFIG_NAME = "tribunal.yml"
CONFIG_ENV = "TRIBUNAL_CONFIG"
#: A real tribunal.yml is a few hundred bytes.
MAX_CONFIG_CHARS = 256 * 1024
#: ``generated-paths``: each pattern is matched against every changed path in time that
#: grows with the patterns' total length (``pathglob``), so both are capped.
MAX_GLOB_CHARS = 1000
MAX_GLOBS = 256


@cache
def schema() -> Rule:
    """The whole ``tribunal.yml`` schema (built on first use: it needs PyYAML)."""
    from tribunal.config.schema import (
        BOOL,
        NON_EMPTY_STR,
        POSITIVE,
        STR,
        STR_LIST,
        ListOf,
        MapOf,
        Scalar,
        Struct,
    )

    lens = Struct(
        {
            "enabled": BOOL,
            "title": NON_EMPTY_STR,
            "focus": STR,
            "analyzers": ListOf(Scalar(("str",), "an analyzer id"), "a list of analyzer ids"),
        }
    )
    member = Struct(
        {
            "id": NON_EMPTY_STR,
            "provider": Scalar(("str",), "a provider", choices=("ollama", "openai")),
            "model": NON_EMPTY_STR,
            "endpoint": NON_EMPTY_STR,
            "focus": STR,
        },
        required=frozenset({"id", "provider", "model"}),
    )
    return Struct(
        {
            "analyzers": MapOf(BOOL, known=lambda: BUILTINS, what="analyzer"),
            "generated-paths": ListOf(
                Scalar(
                    ("str",),
                    f"a non-empty string of at most {MAX_GLOB_CHARS} characters",
                    predicate=lambda v: bool(v.strip()) and len(v) <= MAX_GLOB_CHARS,
                ),
                "a list of strings",
                max_items=MAX_GLOBS,
            ),
            "risky-words": STR_LIST,
            "python-roots": STR_LIST,
            "strict": BOOL,
            "lenses": MapOf(lens, what="lens"),
            "suite": Struct(
                {"command": NON_EMPTY_STR, "timeout": POSITIVE}, frozenset({"command"})
            ),
            "council": Struct(
                {
                    "enabled": BOOL,
                    "members": ListOf(member, "a list of members"),
                    "judge": member,
                    "timeout": POSITIVE,
                }
            ),
            "convene": Struct({"timeout": POSITIVE}),
        }
    )


def parse_config(text: str, name: str) -> Config:
    """Validate ``text`` (the contents of ``name``) and build a Config."""
    import yaml

    from tribunal.config.schema import Where

    if len(text) > MAX_CONFIG_CHARS:  # composing a huge document costs seconds of nodes
        raise ConfigError(f"{name}: larger than {MAX_CONFIG_CHARS} characters; not read")
    node = _compose(text, name)
    if node is None or (isinstance(node, yaml.ScalarNode) and node.tag.endswith(":null")):
        return Config(source=name)  # empty, comments only, or a bare ``---``
    schema().check(node, Where(name))
    try:
        data: dict[str, Any] = yaml.SafeLoader("").construct_document(node)
    except yaml.MarkedYAMLError as exc:
        raise ConfigError(_yaml_message(name, exc)) from None
    return Config(
        source=name,
        analyzers=dict(data.get("analyzers", {})),
        generated_paths=tuple(data.get("generated-paths", ())),
        risky_words=tuple(data.get("risky-words", ())),
        python_roots=tuple(data.get("python-roots", ())),
        strict=bool(data.get("strict", False)),
        raw=data,
    )


def _compose(text: str, name: str) -> yaml.Node | None:
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        node: yaml.Node | None = yaml.compose(text, Loader=loader)
    except yaml.MarkedYAMLError as exc:
        raise ConfigError(_yaml_message(name, exc)) from None
    except yaml.YAMLError as exc:
        raise ConfigError(f"{name}: not valid YAML: {exc}") from None
    return node


def _yaml_message(name: str, exc: yaml.MarkedYAMLError) -> str:
    mark = exc.problem_mark or exc.context_mark
    line = f":{mark.line + 1}" if mark is not None else ""
    what = ", ".join(str(part) for part in (exc.context, exc.problem) if part) or str(exc)
    return f"{name}{line}: not valid YAML: {what}"


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
