"""Path classification shared by analyzers: languages and generated output."""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from tribunal.util.pathglob import Glob, GlobSet, Token, tokens

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
    return _combined(tuple(extra)).matches(path)


@lru_cache(maxsize=64)
def _combined(extra: tuple[str, ...]) -> GlobSet:
    """All patterns in one automaton: one pass over a path, linear in its length."""
    return GlobSet(_glob_of(p) for p in (*BUILTIN_GENERATED, *extra))


def _glob_of(pattern: str) -> Glob:
    """A pattern's shape (suffix, directory, anchored or floating) as one glob's tokens."""
    if pattern.startswith(".") and not any(c in pattern for c in "*?/["):
        return [(Token.ANY_RUN, ""), *tokens(pattern)]
    anchored = pattern.startswith("/")
    body = pattern.lstrip("/")
    glob = tokens(body)
    if body.endswith("/"):
        glob.append((Token.ANY_RUN, ""))
        floating = not anchored
    else:
        floating = not anchored and "/" not in body
    return [(Token.DIRS, ""), *glob] if floating else glob


@lru_cache(maxsize=256)
def _one(glob: str) -> GlobSet:
    return GlobSet([tokens(glob)])


def glob_matches(glob: str, path: str) -> bool:
    """Whether the plain glob matches all of ``path`` (``**/`` any directories, ``*``
    within one, ``?`` one character), in time linear in the path (``pathglob``)."""
    return _one(glob).matches(path)
