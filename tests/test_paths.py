"""Path classification: languages by extension and generated-path patterns."""

from __future__ import annotations

import re

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from tribunal.lang.paths import BUILTIN_GENERATED, is_generated, is_js_family, language_of
from tribunal.util.pathglob import Token, tokens


@pytest.mark.parametrize(
    ("path", "language"),
    [
        ("a.py", "python"),
        ("pkg/stubs.pyi", "python"),
        ("A.PY", "python"),
        ("x.js", "javascript"),
        ("x.jsx", "javascript"),
        ("x.mjs", "javascript"),
        ("x.cjs", "javascript"),
        ("x.ts", "typescript"),
        ("x.mts", "typescript"),
        ("x.cts", "typescript"),
        ("x.d.ts", "typescript"),
        ("x.tsx", "tsx"),
        ("README.md", None),
        ("Makefile", None),
        ("dir.py/file", None),
        (".py", "python"),
        ("", None),
    ],
)
def test_language_of(path: str, language: str | None) -> None:
    assert language_of(path) == language


def test_js_family() -> None:
    assert all(is_js_family(x) for x in ("javascript", "typescript", "tsx"))
    assert not is_js_family("python") and not is_js_family(None)


@pytest.mark.parametrize(
    "path",
    [
        "dist/index.js",
        "packages/web/dist/index.js",
        "action-dist/cli.cjs",
        "node_modules/x/y.js",
        "a/b/node_modules/x.js",
        "app.min.js",
        "static/app.min.mjs",
        "vendor.bundle.js",
        "proto/api_pb2.py",
        "proto/api_pb2_grpc.py",
        "src/__pycache__/m.py",
        "coverage/lcov.js",
        ".next/server.js",
    ],
)
def test_builtin_generated(path: str) -> None:
    assert is_generated(path)


@pytest.mark.parametrize(
    "path",
    ["src/distance.py", "redistribute/x.js", "builder.py", "src/app.js", "min.js", "out.py"],
)
def test_lookalikes_are_not_generated(path: str) -> None:
    assert not is_generated(path)


@pytest.mark.parametrize(
    ("pattern", "path", "matches"),
    [
        # ? is exactly one character, never a slash
        ("a?.py", "ab.py", True),
        ("a?.py", "a.py", False),
        ("a?.py", "abc.py", False),
        ("a?.py", "deep/ab.py", True),
        ("a?b.py", "a/b.py", False),
        # ** spans zero or more directories: a root-level file matches too
        ("**/*.gen.ts", "x.gen.ts", True),
        ("**/*.gen.ts", "a/b/x.gen.ts", True),
        ("**/*.gen.ts", "x.gen.tsx", False),
        # * stays inside one segment; a pattern with a slash is anchored at the root
        ("src/generated/*", "src/generated/a.ts", True),
        ("src/generated/*", "src/generated/deep/a.ts", False),
        ("src/generated/*", "lib/src/generated/a.ts", False),
        ("src/generated/**", "src/generated/deep/a.ts", True),
        # dir/ matches that directory at any depth, never a longer name
        ("vendor-generated/", "vendor-generated/x.js", True),
        ("vendor-generated/", "pkg/vendor-generated/x.js", True),
        ("vendor-generated/", "my-vendor-generated/x.js", False),
        ("vendor-generated/", "vendor-generated.js", False),
        # a leading slash anchors a directory to the root
        ("/gen/", "gen/x.py", True),
        ("/gen/", "src/gen/x.py", False),
        # globs inside a directory pattern
        ("gen-*/", "a/gen-v2/x.py", True),
        # a bare suffix
        (".gen.ts", "deep/x.gen.ts", True),
        (".gen.ts", "x.gen.tsx", False),
        # regex characters are literal
        ("a+b.py", "a+b.py", True),
        ("a+b.py", "aab.py", False),
        ("[x].py", "[x].py", True),
        ("[x].py", "x.py", False),
    ],
)
def test_configured_pattern_semantics(pattern: str, path: str, matches: bool) -> None:
    assert is_generated(path, [pattern]) is matches


def test_configured_patterns_add_to_the_builtins() -> None:
    assert is_generated("dist/x.js", ["other/"])
    assert is_generated("other/x.js", ["other/"])
    assert "dist/" in BUILTIN_GENERATED


def test_newline_in_a_path_does_not_escape_a_pattern() -> None:
    assert is_generated("a\nb.gen.ts", ["**/*.gen.ts"])
    assert not is_generated("dist\n/x.js")


# -- linear matching (issue 21): the same answers as a regex, in time linear in the path -----


def _oracle(pattern: str, path: str) -> bool:
    """The glob as a backtracking regex, exactly as the shapes are documented."""
    if pattern.startswith(".") and not any(c in pattern for c in "*?/["):
        return path.endswith(pattern)
    body = pattern.lstrip("/")
    regex = ""
    i = 0
    while i < len(body):
        for token, part in (("**/", "(?:.*/)?"), ("**", ".*"), ("*", "[^/]*"), ("?", "[^/]")):
            if body.startswith(token, i):
                regex, i = regex + part, i + len(token)
                break
        else:
            regex, i = regex + re.escape(body[i]), i + 1
    floating = not pattern.startswith("/") and (body.endswith("/") or "/" not in body)
    regex = ("(?:.*/)?" if floating else "") + regex + (".*" if body.endswith("/") else "")
    return re.fullmatch(regex, path, re.DOTALL) is not None


@given(
    pattern=st.text(alphabet="ab*?/.", max_size=9),
    path=st.text(alphabet="ab/.\n", max_size=10),
)
@settings(max_examples=3000, deadline=None)
def test_globs_match_as_the_regex_would(pattern: str, path: str) -> None:
    assume(pattern.strip())
    assert is_generated(path, [pattern]) is (_oracle(pattern, path) or is_generated(path))


@pytest.mark.parametrize(
    ("pattern", "path", "matches"),
    [
        ("*a" * 30 + "*b", "a" * 5000, False),
        ("*a" * 30 + "*b", "a" * 5000 + "b", True),
        ("*a" * 30 + "*b", "a/" * 2500 + "b", False),
        ("**/a/" * 20 + "**/b", "a/" * 2500, False),
        ("**/a/" * 20 + "**/b", "a/" * 2500 + "b", True),
        ("?*" * 30 + "b", "ab" * 2500, True),
        ("?*" * 30 + "b", "x/" + "a" * 29 + "b", False),
        ("*" * 1000, "a/" * 2500, True),
    ],
)
def test_globs_that_backtrack_as_a_regex_stay_linear(
    pattern: str, path: str, matches: bool
) -> None:
    """A backtracking regex takes hours on the misses; the automaton reads each character once."""
    assert is_generated(path, [pattern]) is matches


def test_star_runs_merge_into_one_state() -> None:
    assert tokens("a***b") == [
        (Token.CHAR, "a"),
        (Token.ANY_RUN, ""),
        (Token.CHAR, "b"),
    ]
    assert tokens("**/**/x") == [(Token.DIRS, ""), (Token.CHAR, "x")]
    assert tokens("**/*") == [(Token.DIRS, ""), (Token.STAR, "")]
