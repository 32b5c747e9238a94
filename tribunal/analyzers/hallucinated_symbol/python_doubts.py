"""Why a Python module or name the tree lacks may still be there when the code runs.

The import system can be steered at run time in ways no listing shows: a
package ``__init__`` that registers modules in ``sys.modules`` or installs a
finder, a module registered under a literal dotted name by any file (the
usual way to keep an old import path alive), an attribute set on a submodule
by its package, and namespace packages, whose portions may come from any
directory on ``sys.path`` (``google/`` in a repository that vendors generated
protobuf code, next to an installed ``google.protobuf``). Each check here
returns the reason to doubt, or None; none of them ever proves anything.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from tribunal.analyzers.hallucinated_symbol.context import Run
from tribunal.analyzers.hallucinated_symbol.tree import FileTree
from tribunal.git.treegrep import grep_files
from tribunal.lang.treepaths import join, parent_dir

#: Text in a package ``__init__`` that makes modules appear without files. The subscript
#: is bounded: unbounded, every ``sys.modules[`` before one ``]`` rescanned up to it.
_REGISTRY = re.compile(
    r"sys\.modules\s*\[[^\]]{0,300}\]\s*=|modules\.(?:setdefault|update)\s*\(|\bmeta_path\b|\bpath_hooks\b"
)
_INITS = ("__init__.py", "__init__.pyi")
_MAX_ALIASES = 50


def registry_doubt(tree: FileTree, directory: str) -> str | None:
    """A package ``__init__`` at or above ``directory`` that registers modules or finders."""
    while True:
        for name in _INITS:
            path = join(directory, name)
            text = tree.text(path) if tree.is_file(path) else None
            if text is not None and _REGISTRY.search(text):
                return f"{path} registers modules or import hooks at run time"
        if not directory:
            return None
        directory = parent_dir(directory)


def namespace_doubt(tree: FileTree, directory: str, roots: Sequence[str]) -> str | None:
    """``directory`` is a namespace package all the way up, so other portions may exist."""
    current = directory
    while current and current not in roots:
        if any(tree.is_file(join(current, name)) for name in _INITS):
            return None  # a regular package owns its directory: nothing can add to it
        current = parent_dir(current)
    top = directory[len(current) :].lstrip("/").split("/")[0] if directory else ""
    if not top:
        return None
    return (
        f"{top!r} is a namespace package (no __init__.py); other distributions on sys.path "
        "may provide portions of it"
    )


def alias_doubt(run: Run, dotted: str) -> str | None:
    """A Python file of the head tree names ``dotted`` as a string (a ``sys.modules`` alias?)."""
    if "." not in dotted:
        return None
    quoted = (f"'{dotted}'", f'"{dotted}"')
    files = grep_files(run.change, quoted, ("*.py", "*.pyi"))
    if files is None:
        return "git could not search the tree for an alias of the module"
    if files:
        return f"{files[0]} names {dotted!r} as a string (an alias registered in sys.modules?)"
    return None


def assigned_doubt(
    tree: FileTree, module_files: Sequence[str], name: str, elsewhere: Sequence[str] = ()
) -> str | None:
    """A file sets ``<module>.<name>`` (or ``setattr`` on the module) at run time.

    The package ``__init__`` always runs before its submodule is imported from;
    any other file (``elsewhere``: those that mention ``name``) runs first when
    something imported it earlier, a conftest or a plugin, which no listing shows.
    """
    for path in module_files:
        stem = path.rpartition("/")[2].partition(".")[0]
        if stem == "__init__":
            continue
        init = join(parent_dir(path), "__init__.py")
        for candidate in (init, *elsewhere):
            text = tree.text(candidate) if tree.is_file(candidate) else None
            if text is None or candidate == path or not _sets_attribute(text, stem, name):
                continue
            if candidate == init:
                return f"{init} sets attributes on {stem!r} when the package is imported"
            return f"{candidate} sets {name!r} on {stem!r} when something imports it first"
    return None


def _sets_attribute(text: str, stem: str, name: str) -> bool:
    """``<stem or an alias>.<name> = ...`` or ``setattr(<stem or an alias>, ...)`` in ``text``;
    generous on purpose (an alias is any ``as`` name of an import naming ``stem``)."""
    found = set(alias_pattern(stem).findall(text))
    if len(found) > _MAX_ALIASES:  # each alias is one more alternative tried at every offset
        return True
    return setter_pattern((stem, *sorted(found)), name).search(text) is not None


def alias_pattern(stem: str) -> re.Pattern[str]:
    """``<stem> as <alias>``: the alias is the group."""
    return re.compile(rf"\b{re.escape(stem)}\s+as\s+(\w+)")


def setter_pattern(owners: Sequence[str], name: str) -> re.Pattern[str]:
    """``<owner>.<name> = ...`` or ``setattr(<owner>, ...)`` for any of ``owners``."""
    either = "|".join(re.escape(n) for n in owners)
    return re.compile(
        rf"\b(?:{either})\s*\.\s*{re.escape(name)}\s*=(?!=)|setattr\(\s*(?:{either})\b"
    )


def dotted_name(path: str, roots: Sequence[str]) -> str:
    """``src/pkg/old`` -> ``pkg.old``, from the deepest root that holds it."""
    best = ""
    for root in roots:
        if root and (path == root or path.startswith(f"{root}/")) and len(root) > len(best):
            best = root
    return path[len(best) :].lstrip("/").replace("/", ".")
