"""Path classification shared by analyzers: languages and generated output."""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

#: Build output and generated code: never human-authored source a reviewer can act on.
BUILTIN_GENERATED = (
    "dist/",
    "action-dist/",
    "build/",
    "out/",
    ".next/",
    ".svelte-kit/",
    ".nuxt/",
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

    Patterns: ``dir/`` matches that directory at any depth (``/dir/`` only at
    the root); ``.ext`` is a suffix; anything else is a glob where ``*`` and ``?``
    stay inside one path segment (``?`` is exactly one character), ``**/`` spans
    zero or more directories, a pattern without ``/`` matches the file name at
    any depth, and one with ``/`` is anchored at the repository root.
    """
    return _combined(tuple(extra)).fullmatch(path) is not None


@lru_cache(maxsize=64)
def _combined(extra: tuple[str, ...]) -> re.Pattern[str]:
    """All patterns as one regex: one match per path instead of one per pattern."""
    parts = (_pattern_regex(p) for p in (*BUILTIN_GENERATED, *extra))
    return re.compile("|".join(f"(?:{part})" for part in parts), re.DOTALL)


def _pattern_regex(pattern: str) -> str:
    if pattern.startswith(".") and not any(c in pattern for c in "*?/["):
        return ".*" + re.escape(pattern)
    anchored = pattern.startswith("/")
    body = pattern.lstrip("/")
    if body.endswith("/"):
        regex = glob_to_regex(body) + ".*"
        floating = not anchored
    else:
        regex = glob_to_regex(body)
        floating = not anchored and "/" not in body
    return ("(?:.*/)?" if floating else "") + regex


def glob_to_regex(glob: str) -> str:
    """A plain glob as a regex: ``**/`` any directories, ``*`` within one, ``?`` one char."""
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
