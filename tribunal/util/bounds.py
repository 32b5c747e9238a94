"""Limits that keep work bounded on hostile input: how deep parsed data and trees may nest.

A change can hold a ``package.json`` whose ``exports`` nest 5,000 deep, or a
``pyproject.toml`` of nested arrays: the stdlib parsers then raise
``RecursionError`` (not ``ValueError``), and any recursive walk over what they
return could too; so does PyYAML on an ``environment.yml``. ``load_json``,
``load_toml`` and ``load_yaml`` turn both into the
``ValueError`` callers already treat as "not parseable", so the file degrades
(to UNVERIFIED, or to being skipped) while the others are judged as usual.
No real manifest or config nests anywhere near ``MAX_DATA_DEPTH``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

#: Deepest nesting of lists and mappings accepted in JSON, TOML and YAML data.
MAX_DATA_DEPTH = 100


#: Deepest syntax tree (tree-sitter's) analyzed. Real code nests a few hundred levels;
#: tree-sitter's queries slow down sharply past 32,768 (one query on a 50,000-deep file
#: took 20 s), and walks that recurse use a frame or more per level (``deepstack``).
MAX_TREE_DEPTH = 10_000


class TooDeep(ValueError):
    """Data nested deeper than ``MAX_DATA_DEPTH`` (or than the parser could follow)."""


class TreeTooDeep(RecursionError):
    """A syntax tree nests deeper than the analysis follows: its file is UNVERIFIED.

    A ``RecursionError``, so that whatever treats a walk that ran out of stack as
    "cannot say" treats this the same.
    """


def load_json(text: str | bytes) -> Any:
    """``json.loads``; raises ``ValueError`` (``TooDeep`` past the depth limit) when it fails."""
    import json

    return _bounded(json.loads, text)


def load_toml(text: str) -> dict[str, Any]:
    """``tomllib.loads``; raises ``ValueError`` (``TooDeep`` past the depth limit) when it fails."""
    import tomllib

    data: dict[str, Any] = _bounded(tomllib.loads, text)
    return data


def load_yaml(text: str) -> Any:
    """``yaml.safe_load`` (libyaml's loader when installed); raises ``ValueError``
    (``TooDeep`` past the depth limit) when it fails."""
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        return _bounded(lambda t: yaml.load(t, Loader=loader), text)
    except yaml.YAMLError as exc:
        raise ValueError(f"not valid YAML: {exc}") from None


def _bounded(parse: Callable[[Any], Any], text: str | bytes) -> Any:
    try:
        data = parse(text)
    except RecursionError:
        raise TooDeep("nested too deeply to parse") from None
    check_depth(data)
    return data


def check_depth(data: object, limit: int = MAX_DATA_DEPTH) -> None:
    """Raise ``TooDeep`` when lists and mappings in ``data`` nest more than ``limit`` deep.

    Iterative, so it cannot itself run out of stack; it visits each container once
    (YAML's aliases can share one container many times, or make it contain itself).
    """
    stack: list[tuple[object, int]] = [(data, 1)]
    seen: set[int] = set()
    while stack:
        value, depth = stack.pop()
        if isinstance(value, dict):
            children: Any = value.values()
        elif isinstance(value, list):
            children = value
        else:
            continue
        if id(value) in seen:
            continue
        seen.add(id(value))
        if depth > limit:
            raise TooDeep(f"nested more than {limit} levels deep")
        stack.extend((child, depth + 1) for child in children)
