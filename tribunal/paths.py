"""Path classification shared by analyzers: languages and generated output."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from functools import lru_cache

#: Build output and generated code: never human-authored source a reviewer can act on.
BUILTIN_GENERATED = (
    "dist/",
    "action-dist/",
    "build/",
    "out/",
    ".next/",
    "coverage/",
    "node_modules/",
    "__pycache__/",
    ".tox/",
    ".venv/",
    "*.min.js",
    "*.min.cjs",
    "*.min.mjs",
    "*.bundle.js",
    "*_pb2.py",
    "*_pb2_grpc.py",
    "*_pb2.pyi",
)

_LANGUAGES = {
    ".py": "python",
    ".pyi": "python",
    ".js": "javascript",
    ".jsx": "javascript",
    ".mjs": "javascript",
    ".cjs": "javascript",
    ".ts": "typescript",
    ".mts": "typescript",
    ".cts": "typescript",
    ".tsx": "tsx",
}


def language_of(path: str) -> str | None:
    """``python``, ``javascript``, ``typescript`` or ``tsx`` by extension; None otherwise."""
    dot = path.rfind(".")
    if dot < 0 or "/" in path[dot:]:
        return None
    return _LANGUAGES.get(path[dot:].lower())


def is_js_family(language: str | None) -> bool:
    return language in ("javascript", "typescript", "tsx")


def is_generated(path: str, extra: Iterable[str] = ()) -> bool:
    """Whether ``path`` matches a built-in or configured generated-path pattern.

    Patterns: ``dir/`` matches that directory at any depth; ``.ext`` is a suffix;
    anything else is a glob where ``*`` and ``?`` stay inside one path segment,
    ``**/`` spans zero or more directories, and a pattern without ``/`` matches
    the file name at any depth.
    """
    return any(_matcher(pattern)(path) for pattern in (*BUILTIN_GENERATED, *extra))


@lru_cache(maxsize=256)
def _matcher(pattern: str) -> Callable[[str], bool]:
    if pattern.endswith("/"):
        prefix = pattern.lstrip("/")
        return lambda path: path.startswith(prefix) or f"/{prefix}" in path
    if pattern.startswith(".") and not any(c in pattern for c in "*?/["):
        return lambda path: path.endswith(pattern)
    regex = re.compile(_glob_to_regex(pattern.lstrip("/") if "/" in pattern else "**/" + pattern))
    return lambda path: regex.fullmatch(path) is not None


def _glob_to_regex(glob: str) -> str:
    out: list[str] = []
    i = 0
    while i < len(glob):
        if glob.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif glob.startswith("**", i):
            out.append(".*")
            i += 2
        elif glob[i] == "*":
            out.append("[^/]*")
            i += 1
        elif glob[i] == "?":
            out.append("[^/]")
            i += 1
        else:
            out.append(re.escape(glob[i]))
            i += 1
    return "".join(out)
