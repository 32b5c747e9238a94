"""Packages a JS/TS specifier can name: Node built-ins, workspace packages, ``node_modules``.

``package.json`` ``exports`` and ``imports`` maps are read the way Node reads
them, except that every condition is taken (the union of targets): which
condition applies depends on the consumer, and a name that resolves under any
of them must not be called missing. ``node_modules`` is the user's, read from
disk under the repository root and never written.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import cached_property
from pathlib import Path
from typing import Any

from tribunal.analyzers.hallucinated_symbol.tree import DiskTree, FileTree
from tribunal.lang.treepaths import join, parent_dir
from tribunal.util.bounds import load_json

#: Node's core modules (``node:`` prefixed or bare), subpaths included.
NODE_BUILTINS = frozenset(
    {
        "assert", "assert/strict", "async_hooks", "buffer", "child_process", "cluster", "console",
        "constants", "crypto", "dgram", "diagnostics_channel", "dns", "dns/promises", "domain",
        "events", "fs", "fs/promises", "http", "http2", "https", "inspector", "inspector/promises",
        "module", "net", "os", "path", "path/posix", "path/win32", "perf_hooks", "process",
        "punycode", "querystring", "readline", "readline/promises", "repl", "stream",
        "stream/consumers", "stream/promises", "stream/web", "string_decoder", "sys", "timers",
        "timers/promises", "tls", "trace_events", "tty", "url", "util", "util/types", "v8", "vm",
        "wasi", "worker_threads", "zlib"
    }
)  # fmt: skip
_DEP_FIELDS = ("dependencies", "devDependencies", "peerDependencies", "optionalDependencies")


def is_builtin(specifier: str) -> bool:
    return specifier.startswith("node:") or specifier in NODE_BUILTINS


def split_package(specifier: str) -> tuple[str, str]:
    """``@scope/name/sub/x`` -> (``@scope/name``, ``sub/x``)."""
    parts = specifier.split("/")
    size = 2 if specifier.startswith("@") and len(parts) > 1 else 1
    return "/".join(parts[:size]), "/".join(parts[size:])


def read_manifest(tree: FileTree, path: str) -> dict[str, Any] | None:
    text = tree.text(path)
    if text is None:
        return None
    try:
        data = load_json(text)
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


def map_targets(value: Any) -> Iterator[str]:
    """Every string target of an ``exports``/``imports`` entry, through all conditions."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, list):
        for item in value:
            yield from map_targets(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from map_targets(item)


def match_map(entries: dict[str, Any], key: str) -> list[str] | None:
    """Targets of ``key`` in an exports/imports map (exact, else longest ``*`` pattern)."""
    if key in entries:
        return [t for t in map_targets(entries[key])]
    best: tuple[int, list[str]] | None = None
    for pattern, value in entries.items():
        star = pattern.find("*")
        if star < 0:
            continue
        prefix, suffix = pattern[:star], pattern[star + 1 :]
        if key.startswith(prefix) and key.endswith(suffix) and len(key) >= len(pattern) - 1:
            middle = key[len(prefix) : len(key) - len(suffix)]
            if best is None or len(prefix) > best[0]:
                best = (len(prefix), [t.replace("*", middle) for t in map_targets(value)])
    return None if best is None else best[1]


def exports_map(manifest: dict[str, Any]) -> dict[str, Any] | None:
    """``exports`` normalized to a subpath map (``"."`` keys); None when absent."""
    exports = manifest.get("exports")
    if exports is None:
        return None
    if isinstance(exports, dict) and any(k.startswith(".") for k in exports):
        return exports
    return {".": exports}


class Packages:
    """Workspace packages of one tree and the user's ``node_modules``, looked up lazily."""

    def __init__(
        self, tree: FileTree, paths: Callable[[], frozenset[str]], root: Path | None
    ) -> None:
        self.tree = tree
        self._paths = paths
        self.disk = DiskTree(root) if root is not None else None
        self._manifests: dict[str, dict[str, Any] | None] = {}

    def manifest(self, directory: str) -> dict[str, Any] | None:
        path = join(directory, "package.json")
        if path not in self._manifests:
            self._manifests[path] = read_manifest(self.tree, path)
        return self._manifests[path]

    def nearest_manifest(self, directory: str) -> tuple[str, dict[str, Any]] | None:
        while True:
            found = self.manifest(directory)
            if found is not None:
                return directory, found
            if not directory:
                return None
            directory = parent_dir(directory)

    @cached_property
    def _workspace_dirs(self) -> list[str]:
        """Directories of every ``package.json`` in the tree outside ``node_modules``."""
        found = [
            parent_dir(p)
            for p in self._paths()
            if (p == "package.json" or p.endswith("/package.json")) and "node_modules/" not in p
        ]
        return sorted(found, key=lambda d: (d.count("/"), d))

    def workspace(self, name: str) -> str | None:
        """The in-repository directory of package ``name`` (its dir name is tried first)."""
        last = name.rpartition("/")[2]
        ordered = sorted(self._workspace_dirs, key=lambda d: d.rpartition("/")[2] != last)
        for directory in ordered[:2000]:
            manifest = self.manifest(directory)
            if manifest is not None and manifest.get("name") == name:
                return directory
        return None

    def installed(self, name: str, directory: str) -> str | None:
        """``node_modules/<name>`` on disk, nearest above ``directory``; None if absent."""
        if self.disk is None:
            return None
        while True:
            candidate = join(join(directory, "node_modules"), name)
            if self.disk.is_dir(candidate):
                return candidate
            if not directory:
                return None
            directory = parent_dir(directory)

    def declared_spec(self, name: str, directory: str) -> str | None:
        """The version range the nearest ``package.json`` declaring ``name`` gives it."""
        while True:
            manifest = self.manifest(directory) or {}
            for section in _DEP_FIELDS:
                deps = manifest.get(section)
                if isinstance(deps, dict) and isinstance(deps.get(name), str):
                    return str(deps[name])
            if not directory:
                return None
            directory = parent_dir(directory)

    def declared(self, name: str, directory: str) -> bool:
        """Whether any ``package.json`` from ``directory`` up declares ``name``."""
        while True:
            manifest = self.manifest(directory) or {}
            if any(name in (manifest.get(f) or {}) for f in _DEP_FIELDS):
                return True
            if not directory:
                return False
            directory = parent_dir(directory)

    def find(self, name: str, directory: str) -> tuple[FileTree, str] | None:
        """A package's directory: in the repository first, else in ``node_modules``."""
        local = self.workspace(name)
        if local is not None:
            return self.tree, local
        installed = self.installed(name, directory)
        if installed is not None and self.disk is not None:
            return self.disk, installed
        return None
