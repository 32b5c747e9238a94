"""Jest and Vitest selection settings, read statically from package.json and config files.

Jest: ``testPathIgnorePatterns`` (new entries exclude tests), ``testMatch``,
``testRegex`` and ``roots`` (entries removed, or newly set, include fewer),
from the ``jest`` key of ``package.json`` or ``jest.config.*``. Vitest:
``test.exclude`` and ``test.include`` from ``vitest.config.*`` /
``vite.config.*`` / ``vitest.workspace.*`` (``test.coverage.exclude`` is
not test selection). Scripts in ``package.json`` that run a runner with a
new filter flag (``--testPathIgnorePatterns``, ``-t``, ``--exclude``,
``--grep``) count too. A JS/TS config is read from its object literals
alone: a value that is not a literal is compared as written.
"""

from __future__ import annotations

import posixpath
import shlex
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING

from tribunal.analyzers.test_tampering.common import fresh
from tribunal.analyzers.test_tampering.js_tautology import descendants
from tribunal.analyzers.test_tampering.narrowing import Narrowing, js_config, report
from tribunal.analyzers.test_tampering.runners import commands_in
from tribunal.change.diff.model import FileChange
from tribunal.change.model import Change, Source
from tribunal.findings import Finding
from tribunal.lang.js import syntax as js
from tribunal.lang.paths import language_of
from tribunal.lang.trees import js_tree
from tribunal.util.bounds import load_json

if TYPE_CHECKING:
    from tree_sitter import Node

Settings = dict[tuple[str, ...], tuple[str, ...]]

_JEST_EXCLUDE = frozenset({"testPathIgnorePatterns"})
_JEST_INCLUDE = frozenset({"testMatch", "testRegex", "roots"})
_FILTER_FLAGS = frozenset(
    {"--testPathIgnorePatterns", "--testNamePattern", "-t", "--exclude", "--testPathPattern"}
    | {"--grep", "-g", "--fgrep", "-f"}
)
_FILTERING = frozenset({"jest", "vitest", "mocha"})


def judge(change: Change, fc: FileChange) -> Iterator[Finding]:
    head, base = change.head_source(fc), change.base_source(fc)
    if head is None:
        return
    name = posixpath.basename(fc.path)
    vitest = js_config(fc.path) == "vitest"
    old = _settings(fc.old_path or fc.path, base) if base is not None else {}
    new = _settings(fc.path, head)
    found = compare(old, new, vitest)
    if name == "package.json":
        found += _scripts(base, head)
    if found:
        yield report(fc, head, found, language_of(fc.path))


def _settings(path: str, source: Source) -> Settings:
    name = posixpath.basename(path)
    if name.endswith(".json"):
        try:
            data = load_json(source.text)
        except ValueError:
            return {}
        if name == "package.json":
            data = data.get("jest") if isinstance(data, dict) else None
        return dict(_flatten(data, ())) if isinstance(data, dict) else {}
    language = language_of(path)
    if language is None:
        return {}
    root = js_tree(source, language).root_node
    out: Settings = {}
    for node in descendants(root):
        if node.type == "pair":
            key, value = _key(node), node.child_by_field_name("value")
            if key is not None and value is not None:
                out[_path(node, key)] = _items(value)
    return out


def _flatten(
    value: object, path: tuple[str, ...]
) -> Iterator[tuple[tuple[str, ...], tuple[str, ...]]]:
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _flatten(item, (*path, str(key)))
    elif isinstance(value, list) and any(isinstance(v, dict) for v in value):
        for item in value:
            yield from _flatten(item, (*path, "[]"))
    elif isinstance(value, list):
        yield path, tuple(str(v) for v in value)
    else:
        yield path, (str(value),)


def _key(pair: Node) -> str | None:
    key = pair.child_by_field_name("key")
    if key is None:
        return None
    if key.type == "property_identifier":
        return js.text(key)
    return js.string_value(key)


def _path(pair: Node, key: str) -> tuple[str, ...]:
    parts = [key]
    node = pair.parent
    while node is not None and node.parent is not None:
        parent = node.parent
        if parent.type == "pair":
            outer = _key(parent)
            parts.append(outer if outer is not None else "?")
            node = parent.parent
        elif parent.type == "array":
            parts.append("[]")
            node = parent
        else:
            break
    return tuple(reversed(parts))


def _items(value: Node) -> tuple[str, ...]:
    nodes = value.named_children if value.type == "array" else [value]
    out = []
    for node in nodes:
        if node.type == "comment":
            continue
        text = js.string_value(node)
        out.append(text if text is not None else js.text(node))
    return tuple(out)


def compare(
    old: Mapping[tuple[str, ...], tuple[str, ...]], new: Settings, vitest: bool
) -> list[Narrowing]:
    out = []
    for path, items in new.items():
        kind = _kind(path, vitest)
        before = old.get(path)
        if kind == "exclude":
            added = fresh(list(items), before or ())
            if added:
                out.append(
                    Narrowing(added[0], f"`{'.'.join(path)}` now also excludes {', '.join(added)}")
                )
        elif kind == "include" and before is None:
            out.append(
                Narrowing(path[-1], f"`{'.'.join(path)}` now limits tests to {', '.join(items)}")
            )
        elif kind == "include" and before is not None:
            gone = [i for i in before if i not in items]
            if gone:
                out.append(
                    Narrowing(path[-1], f"`{'.'.join(path)}` no longer includes {', '.join(gone)}")
                )
    return out


def _kind(path: tuple[str, ...], vitest: bool) -> str | None:
    if vitest:
        if path[-2:] == ("test", "exclude"):
            return "exclude"
        return "include" if path[-2:] == ("test", "include") else None
    if path[-1] in _JEST_EXCLUDE:
        return "exclude"
    return "include" if path[-1] in _JEST_INCLUDE else None


def _scripts(base: Source | None, head: Source) -> list[Narrowing]:
    old, new = _script_map(base), _script_map(head)
    out = []
    for name, command in new.items():
        if not _FILTERING.intersection(commands_in(command)):
            continue
        for flag in fresh(_filters(command), _filters(old.get(name, ""))):
            out.append(Narrowing(flag.split(" ", 1)[0], f'script "{name}" now runs with `{flag}`'))
    return out


def _script_map(source: Source | None) -> dict[str, str]:
    if source is None:
        return {}
    try:
        data = load_json(source.text)
    except ValueError:
        return {}
    scripts = data.get("scripts") if isinstance(data, dict) else None
    if not isinstance(scripts, dict):
        return {}
    return {k: v for k, v in scripts.items() if isinstance(k, str) and isinstance(v, str)}


def _filters(command: str) -> list[str]:
    try:
        tokens = shlex.split(command)
    except ValueError:
        tokens = command.split()
    out = []
    for i, token in enumerate(tokens):
        flag, _, value = token.partition("=")
        if flag not in _FILTER_FLAGS:
            continue
        if not value and i + 1 < len(tokens):
            value = tokens[i + 1]
        out.append(f"{flag} {value}".strip())
    return out
