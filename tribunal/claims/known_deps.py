"""Distributions a base tree names outside the manifests ``no-new-dependency`` checks.

A dependency that moves from ``setup.py``, a tox environment, a conda
``environment.yml`` or a file only reached through ``-r`` into a manifest is
not new: the project asked for it before. These sources only ever add names
known at base (fewer contradictions, never more); a source whose list is
computed (``install_requires=read_requirements()``) adds a doubt instead.
"""

from __future__ import annotations

import ast
import posixpath
from collections.abc import Callable

import yaml

from tribunal.analyzers.hallucinated_symbol.pydeps import setup_py_names, tox_ini_names
from tribunal.change import Source
from tribunal.claims.manifests import Declared, canonical, parse_manifest

Reader = Callable[[str], Source | None]
#: Base-only sources, by file name.
SOURCES = frozenset({"setup.py", "tox.ini", "environment.yml", "environment.yaml"})
_MAX_INCLUDES = 50
_SETUP_KEYWORDS = frozenset({"install_requires", "extras_require", "tests_require"})


def is_source(path: str) -> bool:
    return posixpath.basename(path) in SOURCES


def names_in(path: str, text: str) -> tuple[set[str], list[str]]:
    """(normalized names, doubts) of one base-only source."""
    name = posixpath.basename(path)
    if name == "setup.py":
        return {canonical(n) for n in setup_py_names(text)}, _setup_doubts(path, text)
    if name == "tox.ini":
        return {canonical(n) for n in tox_ini_names(text)}, []
    return _conda(path, text)


def included(declared: Declared, read: Reader) -> list[Declared]:
    """The requirements files ``declared`` reaches through ``-r`` (transitively, in the tree)."""
    out: list[Declared] = []
    seen = {declared.path}
    queue = [(declared.path, target) for target in declared.includes]
    while queue and len(seen) <= _MAX_INCLUDES:
        origin, target = queue.pop(0)
        path = posixpath.normpath(posixpath.join(posixpath.dirname(origin), target))
        source = read(path) if path not in seen and not path.startswith("..") else None
        seen.add(path)
        if source is None:
            continue
        inner = parse_manifest(path, source.text, force="requirements")
        out.append(inner)
        queue += [(path, t) for t in inner.includes]
    return out


def _setup_doubts(path: str, text: str) -> list[str]:
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return [f"{path}: does not parse, so its requirements are unknown"]
    keywords = (n for n in ast.walk(tree) if isinstance(n, ast.keyword))
    for node in keywords:
        computed = node.arg in _SETUP_KEYWORDS
        if computed and any(isinstance(sub, ast.Call) for sub in ast.walk(node.value)):
            return [f"{path}: {node.arg} is computed, so its requirements are unknown"]
    return []


def _conda(path: str, text: str) -> tuple[set[str], list[str]]:
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError:
        return set(), [f"{path}: not parseable YAML"]
    deps = data.get("dependencies") if isinstance(data, dict) else None
    names: set[str] = set()
    for item in deps if isinstance(deps, list) else []:
        specs = item.get("pip", []) if isinstance(item, dict) else [item]
        for spec in specs if isinstance(specs, list) else []:
            if isinstance(spec, str):
                bare = spec.split("::")[-1].strip()
                head = bare.split()[0] if bare.split() else ""
                for stop in "=<>!~[;@":
                    head = head.split(stop)[0]
                if head:
                    names.add(canonical(head))
    return names, []
