"""Distributions a base tree names outside the manifests ``no-new-dependency`` checks.

A dependency that moves from ``setup.py``, a tox environment, a conda
``environment.yml`` or a file only reached through ``-r`` into a manifest is
not new: the project asked for it before. These sources only ever add names
known at base (fewer contradictions, never more); a source whose list is not
written out (``install_requires=read_requirements()``, ``REQS`` read from a
file) adds a doubt instead.
"""

from __future__ import annotations

import ast
import posixpath
from collections.abc import Callable

from tribunal.change.model import Source
from tribunal.lang.manifests import (
    Declared,
    canonical,
    parse_manifest,
    setup_py_names,
    tox_ini_names,
)
from tribunal.util.bounds import load_yaml

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
    """The files ``declared`` reads requirements from (``-r``, ``file:``), transitively.

    A target outside the tree, missing from it, or past the include limit is
    returned as an opaque list: its names are unknown, not absent.
    """
    out: list[Declared] = []
    seen = {declared.path}
    queue = [(declared.path, target) for target in declared.includes]
    while queue:
        origin, target = queue.pop(0)
        path = posixpath.normpath(posixpath.join(posixpath.dirname(origin), target))
        if path in seen:
            continue
        seen.add(path)
        source = read(path) if not path.startswith("..") and len(seen) <= _MAX_INCLUDES else None
        if source is None:
            out.append(Declared(path, opaque=[f"{origin}: '{target}' could not be read"]))
            continue
        inner = parse_manifest(path, source.text, force="requirements")
        out.append(inner)
        queue += [(path, t) for t in inner.includes]
    return out


def _setup_doubts(path: str, text: str) -> list[str]:
    """Why the names ``setup_py_names`` read may not be all of them: a list that is not literal."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return [f"{path}: does not parse, so its requirements are unknown"]
    constants = _constants(tree)
    for node in ast.walk(tree):
        why = _unread(node, constants)
        if why:
            return [f"{path}: {why}, so its requirements are unknown"]
    return []


def _unread(node: ast.AST, constants: dict[str, ast.expr]) -> str | None:
    """Why ``node`` may hand setup() requirements that are not written out, if it may."""
    if isinstance(node, ast.keyword) and node.arg in _SETUP_KEYWORDS:
        return None if _literal(node.value, constants) else f"{node.arg} is not a literal"
    if isinstance(node, ast.Call) and _called(node.func) == "setup":
        unpacked = any(k.arg is None for k in node.keywords)
        return "setup() takes unpacked arguments" if unpacked else None
    return None


def _constants(tree: ast.Module) -> dict[str, ast.expr]:
    """Module names bound once by a plain assignment and never changed in place."""
    stores: dict[str, int] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            stores[node.id] = stores.get(node.id, 0) + 1
        elif isinstance(node, (ast.Attribute, ast.Subscript)) and isinstance(node.value, ast.Name):
            stores[node.value.id] = 2  # ``REQS.append(...)``, ``EXTRAS["x"] = ...``
    return {
        target.id: node.value
        for node in tree.body
        if isinstance(node, ast.Assign)
        for target in node.targets
        if isinstance(target, ast.Name) and stores.get(target.id) == 1
    }


def _literal(node: ast.expr, constants: dict[str, ast.expr], depth: int = 0) -> bool:
    """Whether ``node`` is a requirement list written out in full (as ``setup_py_names`` reads)."""
    if isinstance(node, ast.Constant):
        return True
    if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
        return all(_literal(e, constants, depth) for e in node.elts)
    if isinstance(node, ast.Starred):
        return _literal(node.value, constants, depth)
    if isinstance(node, ast.Dict):
        return all(_literal(v, constants, depth) for v in node.values)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _literal(node.left, constants, depth) and _literal(node.right, constants, depth)
    if isinstance(node, ast.IfExp):
        return _literal(node.body, constants, depth) and _literal(node.orelse, constants, depth)
    if isinstance(node, ast.Name) and node.id in constants and depth < 3:
        return _literal(constants[node.id], constants, depth + 1)
    return False


def _called(func: ast.expr) -> str | None:
    if isinstance(func, ast.Attribute):
        return func.attr
    return func.id if isinstance(func, ast.Name) else None


def _conda(path: str, text: str) -> tuple[set[str], list[str]]:
    try:
        data = load_yaml(text)
    except ValueError:
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
