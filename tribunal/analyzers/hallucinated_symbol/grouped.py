"""Packages that are not installed: one finding per package per run, not one per import.

Without ``node_modules`` (a fresh clone, CI before the install step) every
file that imports ``vitest`` would say the same thing. Whatever the import
form (named, default, namespace, side-effect, ``require``, Python ``import``),
an outcome about a missing package carries ``not_installed_group``; the
analyzer's output is then folded here, once, so every import form takes the
same route. The finding lists each importing statement; that the project's
environment is absent altogether is said once for the run, as a note.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from tribunal.analyzers.grouping import Place, grouped
from tribunal.analyzers.hallucinated_symbol.outcome import ID
from tribunal.engine.analysis import note
from tribunal.findings import Finding

_PREFIX = "not-installed:"
_EXPLAIN = {
    "js": (
        "No node_modules/{name} above the importing files, so the names they import from it "
        "cannot be checked. Imported by:"
    ),
    "python": (
        "{name!r} is not in the standard library, not in the repository, not a declared "
        "dependency and not installed in the project's environment: a typo, an invented "
        "package, or a missing dependency. Imported by:"
    ),
}
NO_NODE_MODULES = (
    "node_modules is absent (a fresh clone, or CI before the install step): packages the "
    "change imports were not checked against their installed exports"
)
NO_PYTHON_ENV = (
    "no project environment was found (.venv, venv or $VIRTUAL_ENV): imports of undeclared "
    "packages could not be checked against installed ones"
)


def not_installed_group(family: str, package: str) -> str:
    """The group key of a missing package (``js`` or ``python``)."""
    return f"{_PREFIX}{family}:{package}"


def fold(findings: Iterable[Finding], root: Path | None, has_python_env: bool) -> list[Finding]:
    """``findings`` with each missing package's findings made one, where the first one was."""
    out: list[Finding | str] = []
    members: dict[str, list[Finding]] = {}
    for finding in findings:
        if not finding.group.startswith(_PREFIX):
            out.append(finding)
            continue
        if finding.group not in members:
            members[finding.group] = []
            out.append(finding.group)
        members[finding.group].append(finding)
    for group, found in members.items():
        family = group[len(_PREFIX) :].split(":", 1)[0]
        if family == "js" and _no_node_modules(root, [f.file for f in found]):
            note(NO_NODE_MODULES)
        if family == "python" and not has_python_env:
            note(NO_PYTHON_ENV)
    return [item if isinstance(item, Finding) else _one(item, members[item]) for item in out]


def _one(group: str, found: list[Finding]) -> Finding:
    family, name = group[len(_PREFIX) :].split(":", 1)
    files = len({f.file for f in found})
    first = found[0]
    places = [Place(f.file, f.line, f.detail) for f in found]
    return grouped(
        analyzer=ID,
        verdict=first.verdict,
        group=group,
        title=f"{first.title} (imported in {files} files)" if files > 1 else first.title,
        explanation=_EXPLAIN[family].format(name=name),
        places=places,
        language=first.language,
    )


def _no_node_modules(root: Path | None, paths: list[str]) -> bool:
    """Whether no ``node_modules`` directory sits above any importing file in the checkout."""
    if root is None:
        return True
    for path in paths:
        parts = path.split("/")[:-1]
        for depth in range(len(parts), -1, -1):
            if (root.joinpath(*parts[:depth]) / "node_modules").is_dir():
                return False
    return True
