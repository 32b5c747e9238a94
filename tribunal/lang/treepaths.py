"""Paths inside a tree, and the one resolver of relative imports over them.

Paths are ``/``-separated, relative to the repository root, ``""`` for the root. Every
reader that follows an import to a file of the repository starts here: a JS/TS
specifier (``./x``, ``../y``) through ``resolve_path``, a Python import's dots through
``relative_base`` and its dotted name through ``python_module_file``. A path that
leaves the tree resolves to nothing, never to a file outside it.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable, Iterable, Sequence


def join(directory: str, name: str) -> str:
    return f"{directory}/{name}" if directory else name


def parent_dir(path: str) -> str:
    return path.rpartition("/")[0]


def ancestor_dirs(directory: str) -> list[str]:
    """``a/b`` -> ``["a/b", "a", ""]``: a directory and those above it, up to the root."""
    out = [directory]
    while directory:
        directory = posixpath.dirname(directory)
        out.append(directory)
    return out


def resolve_path(directory: str, relative: str) -> str | None:
    """``relative`` read from ``directory``; None when it leaves the tree or is absolute."""
    if relative.startswith("/"):
        return None
    parts = directory.split("/") if directory else []
    for part in relative.split("/"):
        if part == "..":
            if not parts:
                return None
            parts.pop()
        elif part not in ("", "."):
            parts.append(part)
    return "/".join(parts)


def relative_base(path: str, level: int) -> str | None:
    """The directory ``level`` dots name from file ``path``; None above the tree's root.

    ``from . import x`` in ``a/b.py`` reads ``a``; ``from .. import x`` reads the root.
    Python refuses a relative import that climbs above its top package, so nothing there
    is a file the import could mean.
    """
    directory = parent_dir(path)
    for _ in range(level - 1):
        if not directory:
            return None
        directory = parent_dir(directory)
    return directory


def python_module_file(
    bases: Iterable[str],
    parts: Sequence[str],
    read: Callable[[str], object | None],
    stubs: bool = False,
) -> str | None:
    """The first file under ``bases`` that the dotted ``parts`` name, if ``read`` finds one.

    ``pkg/a.py`` (or ``pkg/a.pyi`` with ``stubs``) or ``pkg/a/__init__.py`` for
    ``parts == ["pkg", "a"]``; with no parts (``from . import x``) the package itself.
    """
    for base in dict.fromkeys(bases):
        stem = posixpath.join(base, *parts) if parts else base
        modules = ([f"{stem}.py"] + ([f"{stem}.pyi"] if stubs else [])) if parts else []
        for candidate in (*modules, posixpath.join(stem, "__init__.py")):
            if not candidate.startswith("/") and read(candidate) is not None:
                return candidate
    return None
