"""What a change touched that a claim verifier cannot read: a PASS is never earned past it.

Each verifier enumerates the constructs it understands; these helpers list
the changed files that could hold what the claim is about and that it does
not read, so that a verifier answers UNVERIFIED (naming them) instead of
PASS: source files in languages Tribunal does not parse (``no-public-api-change``;
a component whose script it cannot read is a doubt of its surface), package entry points
(``package.json`` ``exports`` / ``main`` / ``bin``, ``pyproject.toml`` scripts
and entry points), dependency manifests of other ecosystems
(``no-new-dependency``), and test files it does not read
(``no-test-removed``).
"""

from __future__ import annotations

import json

from tribunal.change.diff.model import FileChange
from tribunal.change.model import Change, Source
from tribunal.claims.scope import is_other_code, is_tooling, looks_like_test

_SHOWN = 5
#: Dependency manifests of ecosystems ``no-new-dependency`` does not parse.
OTHER_MANIFESTS = frozenset(
    {"go.mod", "Cargo.toml", "Gemfile", "pom.xml", "build.gradle", "build.gradle.kts",
     "composer.json", "mix.exs", "Package.swift", "pubspec.yaml", "packages.config",
     "Directory.Packages.props", "deno.json", "deno.jsonc", "import_map.json", "conanfile.txt",
     "conanfile.py", "vcpkg.json", "Project.toml", "DESCRIPTION", "stack.yaml", "build.sbt",
     "deps.edn", "project.clj", "rebar.config", "Podfile", "Cartfile", "environment.yml",
     "environment.yaml", "tox.ini", "setup.py", "pixi.toml", "meta.yaml"}
)  # fmt: skip
_MANIFEST_SUFFIXES = (".gemspec", ".csproj", ".fsproj", ".vbproj", ".cabal", ".nimble")
_ENTRY_FIELDS = ("exports", "main", "module", "types", "typings", "bin", "browser")
_PYPROJECT_ENTRY = ("[project.scripts]", "[project.gui-scripts]", "[project.entry-points")


def shown(paths: list[str]) -> str:
    head = ", ".join(paths[:_SHOWN])
    return head + (f" and {len(paths) - _SHOWN} more" if len(paths) > _SHOWN else "")


def unread_manifests(change: Change) -> list[str]:
    """Changed dependency manifests ``no-new-dependency`` does not parse."""
    out = []
    for fc in change.files:
        name = fc.path.rpartition("/")[2]
        if (
            fc.has_head
            and fc.added
            and (name in OTHER_MANIFESTS or name.endswith(_MANIFEST_SUFFIXES))
        ):
            out.append(fc.path)
    return out


def unread_sources(change: Change) -> list[str]:
    """Changed non-test source files whose public names Tribunal cannot list."""
    out = []
    for fc in change.files:
        paths = [p for p in (fc.path, fc.old_path) if p]
        if any(looks_like_test(p) or is_tooling(p) or change.is_generated(p) for p in paths):
            continue
        if any(is_other_code(p) for p in paths):
            out.append(fc.path)
    return out


def entry_points_changed(change: Change) -> list[str]:
    """``package.json`` / ``pyproject.toml`` files whose published entry points changed."""
    out = []
    for fc in change.files:
        name = fc.path.rpartition("/")[2]
        if name == "package.json" and _json_entries(change, fc):
            out.append(f"{fc.path} (exports, main or bin)")
        elif name == "pyproject.toml" and _pyproject_entries(change, fc):
            out.append(f"{fc.path} (scripts or entry points)")
    return out


def _json_entries(change: Change, fc: FileChange) -> bool:
    before = _entries(change.base_source(fc) if fc.old_path else None)
    after = _entries(change.head_source(fc) if fc.has_head else None)
    return before != after


def _entries(source: Source | None) -> object:
    if source is None:
        return None
    try:
        data = json.loads(source.text)
    except ValueError:
        return "unreadable"
    if not isinstance(data, dict):
        return "unreadable"
    return {key: data.get(key) for key in _ENTRY_FIELDS}


def _pyproject_entries(change: Change, fc: FileChange) -> bool:
    """Whether a changed line sits in a scripts or entry-points table."""
    for side, lines in ((change.head_source(fc), fc.added), (change.base_source(fc), fc.removed)):
        if side is None or not lines:
            continue
        section = ""
        for number, line in enumerate(side.text.splitlines(), start=1):
            if line.startswith("["):
                section = line.strip()
            if number in lines and section.startswith(_PYPROJECT_ENTRY):
                return True
    return False


def unread_test_files(change: Change, read: list[str]) -> list[str]:
    """Changed test files with removed lines that hold tests Tribunal does not read.

    ``read``: the files ``diff_tests`` read. Other-language tests (``foo_test.go``), test
    formats (Gherkin), and Python/JS files named like tests that its runners' naming does
    not collect but that define tests (Django's ``tests.py`` under a custom runner).
    """
    from tribunal.lang.test_helpers import holds_no_test

    out = []
    for fc in change.files:
        if fc.path in read or not fc.has_head or not fc.removed or fc.skip_reason is not None:
            continue
        if not looks_like_test(fc.path) or holds_no_test(change, fc):
            continue
        out.append(fc.path)
    return out
