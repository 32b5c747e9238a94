"""The Python distributions a project declares in one directory, read from its manifests.

The manifests are read by ``tribunal.lang.manifests`` (the one reader, shared with
the claims); this module walks a ``FileTree``: which manifests sit in a directory,
and the requirements files they include. Every name any of them gives counts, an
entry whose name is uncertain by its leniently read first word and a ``-c``
constraint file's pins included: declaring a name only ever keeps an import from
being flagged, so a generous reading cannot make a false red.
"""

from __future__ import annotations

from collections.abc import Iterator

from tribunal.analyzers.hallucinated_symbol.tree import FileTree
from tribunal.lang.manifests import (
    Declared,
    canonical,
    kind_of,
    parse_manifest,
    requirement_name,
    setup_py_names,
    tox_ini_names,
)
from tribunal.lang.treepaths import join, parent_dir, resolve_path

#: The Python manifests read in every directory, in this order.
_MANIFESTS = ("pyproject.toml", "setup.cfg", "setup.py", "tox.ini", "Pipfile")
#: Requirements files followed through ``-r`` / ``-c`` / ``file:``, at most.
_MAX_FILES = 50


def declared_in(tree: FileTree, directory: str) -> frozenset[str]:
    """Normalized names declared by the manifests directly in ``directory``."""
    return frozenset(canonical(n) for n in _declared_in(tree, directory))


def _declared_in(tree: FileTree, directory: str) -> Iterator[str]:
    seen: set[str] = set()
    for manifest in _MANIFESTS:
        path = join(directory, manifest)
        text = tree.text(path)
        if text is None:
            continue
        if manifest == "setup.py":
            yield from setup_py_names(text)
        elif manifest == "tox.ini":
            yield from tox_ini_names(text)
        else:
            yield from _names(tree, parse_manifest(path, text), seen)
    req_dir = join(directory, "requirements")
    listed = [join(directory, n) for n in sorted(tree.children(directory))]
    listed += [join(req_dir, n) for n in sorted(tree.children(req_dir))]
    for path in listed:
        if kind_of(path) == "requirements":
            yield from _requirements(tree, path, seen)


def _requirements(tree: FileTree, path: str | None, seen: set[str]) -> Iterator[str]:
    """Names in a requirements file, following what it includes inside the tree."""
    if path is None or path in seen or len(seen) > _MAX_FILES:
        return
    seen.add(path)
    text = tree.text(path)
    if text is not None:
        yield from _names(tree, parse_manifest(path, text, force="requirements"), seen)


def _names(tree: FileTree, declared: Declared, seen: set[str]) -> Iterator[str]:
    yield from (dep.name for dep in declared.deps)
    for entry in declared.uncertain:
        name = requirement_name(entry)
        if name:
            yield name
    for target in declared.includes + declared.constraints:
        yield from _requirements(tree, resolve_path(parent_dir(declared.path), target), seen)
