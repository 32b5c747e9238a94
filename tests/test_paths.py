"""Path classification: languages by extension and generated-path patterns."""

from __future__ import annotations

import pytest

from tribunal.paths import BUILTIN_GENERATED, is_generated, is_js_family, language_of


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
