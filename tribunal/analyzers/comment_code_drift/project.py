"""The project's own names, from its manifests at the repository root.

A function or class named like the project (``tqdm.tqdm``, a library's main
entry point) is mentioned in half its comments without being meant: "tqdm
shows progress". Such a name, like an ordinary word, needs more than a bare
mention. Read from ``pyproject.toml``, ``setup.cfg`` and ``package.json`` at
head; a manifest that cannot be read names nothing.
"""

from __future__ import annotations

import json
import re

from tribunal.change.model import Change

_SETUP_CFG_NAME = re.compile(r"^\s*name\s*=\s*(\S+)\s*$", re.MULTILINE)


def project_names(change: Change) -> frozenset[str]:
    """Normalized names (lower case, ``-`` and ``.`` as ``_``) the project goes by."""
    names: set[str] = set()
    for reader in (_pyproject, _setup_cfg, _package_json):
        try:
            names.update(reader(change))
        except (ValueError, TypeError, AttributeError):
            continue  # not a manifest we can read: no name from it
    return frozenset(normalize(n) for n in names if n)


def normalize(name: str) -> str:
    return re.sub(r"[-.]+", "_", name).lower()


def _pyproject(change: Change) -> list[str]:
    source = change.read_head("pyproject.toml")
    if source is None:
        return []
    import tomllib

    data = tomllib.loads(source.text)
    tool = data.get("tool", {})
    poetry = tool.get("poetry", {}) if isinstance(tool, dict) else {}
    found = [data.get("project", {}).get("name"), poetry.get("name")]
    return [n for n in found if isinstance(n, str)]


def _setup_cfg(change: Change) -> list[str]:
    source = change.read_head("setup.cfg")
    if source is None or "[metadata]" not in source.text:
        return []
    section = source.text.split("[metadata]", 1)[1].split("\n[", 1)[0]
    match = _SETUP_CFG_NAME.search(section)
    return [match[1]] if match else []


def _package_json(change: Change) -> list[str]:
    source = change.read_head("package.json")
    if source is None:
        return []
    name = json.loads(source.text).get("name")
    return [name.rsplit("/", 1)[-1]] if isinstance(name, str) else []
