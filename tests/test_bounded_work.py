"""Bounded work on hostile text (issue 21): every parser and pattern stays linear.

Each parser of text an agent can write (a change, a commit message, a claims
file, a PR body, a config) gets 10 KB and 1 MB inputs made of repeats of its own
delimiters; the 1 MB run must finish within 2 s of CPU and within 150x the 10 KB
run (``fuzzing``). A quadratic parser takes minutes on 1 MB, so the margin is wide.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.fuzzing import assert_bounded

CLAIMS = [" ", "#", "//", " #", " //", "<!--", "-->", "<!-- ", "`", "```", "~~~", ":", "- ", "[ ] "]
PARSERS = {
    "claims_file": [*CLAIMS, "\n", "a\n", "```tribunal\n", "```\n", "* ", "added-test\n"],
    "claim_line": CLAIMS,
    "pr_body": [*CLAIMS, "\n", "<!--\n", "```tribunal\n", "~~~~\n"],
    "trailers": ["Tribunal-Claim: added-test\n", "Tribunal-Claim: x y\n", "Tribunal-Claim:", " "],
    "suppression": ["#", "//", "/*", "*", "<!--", " ", "tribunal: ignore[", "# tribunal:", "]"],
    "tsconfig": [",", "/", '"', '"\\', "/*", "//", "*/", ",]", ", ", "{", "[", '{"a":', "\n"],
    "package_json": [
        "{",
        "[",
        '{"exports":',
        '{"a":[',
        '"',
        '"\\',
        ",",
        "require: [",
        "require: '",
    ],
    "tribunal_yml": ["[", "{", "- ", "a:\n ", " ", "#", "'", '"', "generated-paths: ["],
    "js_test_call": ["test.", "it.", "test", "it ", ". ", "Deno.", "(", "`"],
    "gitignore": ["*", "**/", "*a", "[", "\\", "!", "a/", "/**"],
}


@pytest.mark.parametrize("target", sorted(PARSERS))
def test_each_parser_is_linear_on_its_own_delimiters(target: str, tmp_path: Path) -> None:
    assert_bounded(target, PARSERS[target], tmp_path)


def test_every_pattern_of_the_package_is_linear(tmp_path: Path) -> None:
    """Every module-level pattern, searched over repeats of its own words and characters."""
    assert_bounded("every_pattern", [], tmp_path)
