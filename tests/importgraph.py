"""The static import graph of the installed ``tribunal`` package, read with ``ast``.

Every ``import`` and ``from ... import`` statement counts wherever it stands: at module
level, inside a function (a lazy import still runs, just later), under ``if
TYPE_CHECKING``. Imports made through ``importlib`` by a string are not statements and
do not count. Each statement becomes one edge to the most specific module it names:
``import a.b.c`` -> ``a.b.c``; ``from a.b import c`` -> ``a.b.c`` when ``c`` is a
submodule, else ``a.b``; relative forms are resolved against the importing module.
Modules outside ``tribunal`` are kept as names (the direction rules need them) but
have no edges of their own.

Module names are the installed ones: ``hooks/convene.py`` is ``tribunal.hooks.convene``,
read from the ``package-dir`` table of ``pyproject.toml`` as the build reads it.
"""

from __future__ import annotations

import ast
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Edge:
    importer: str
    imported: str
    line: int


def package_roots(root: Path = ROOT) -> dict[str, Path]:
    """Dotted package -> its directory: ``tribunal`` plus every ``package-dir`` mapping."""
    table = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
    mapped: dict[str, str] = table["tool"]["setuptools"].get("package-dir", {})
    roots = {"tribunal": root / "tribunal"}
    roots.update({package: root / directory for package, directory in mapped.items()})
    return roots


def module_files(root: Path = ROOT) -> dict[str, Path]:
    """Every module of the installed package -> its source file."""
    modules: dict[str, Path] = {}
    for package, directory in package_roots(root).items():
        for path in sorted(directory.rglob("*.py")):
            parts = list(path.relative_to(directory).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            modules[".".join([package, *parts])] = path
    return modules


def _absolute(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    """The absolute name ``from`` names: ``from ..x import y`` inside ``a.b.c`` -> ``a.x``."""
    if node.level == 0:
        return node.module or ""
    base = module.split(".") if is_package else module.split(".")[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join([*base, node.module] if node.module else base)


def edges_of(module: str, path: Path, known: set[str]) -> Iterator[Edge]:
    """The imports of one module, each resolved to the most specific module it names."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    is_package = path.name == "__init__.py"
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield Edge(module, alias.name, node.lineno)
        elif isinstance(node, ast.ImportFrom):
            source = _absolute(module, is_package, node)
            for alias in node.names:
                submodule = f"{source}.{alias.name}"
                yield Edge(module, submodule if submodule in known else source, node.lineno)


def import_edges(root: Path = ROOT) -> list[Edge]:
    files = module_files(root)
    known = set(files)
    return [edge for module, path in files.items() for edge in edges_of(module, path, known)]


def internal_graph(edges: list[Edge], known: set[str]) -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {module: set() for module in known}
    for edge in edges:
        if edge.imported in known and edge.imported != edge.importer:
            graph[edge.importer].add(edge.imported)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan), sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(start: str) -> None:
        # iterative Tarjan: the graph is deep enough to make recursion a risk
        work: list[tuple[str, Iterator[str]]] = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return sorted(found)
