"""Bounded work on hostile text (issue 21): every parser and pattern stays linear.

Each parser of text an agent can write (a change, a commit message, a claims
file, a PR body, a config) gets 10 KB and 1 MB inputs made of repeats of its own
delimiters; the 1 MB run must finish within 2 s of CPU and within 150x the 10 KB
run (``fuzzing``). A quadratic parser takes minutes on 1 MB, so the margin is wide.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.fuzz_patterns import sites, unlisted_built_sites
from tests.fuzzing import assert_bounded

CLAIMS = [" ", "#", "//", " #", " //", "<!--", "-->", "<!-- ", "`", "```", "~~~", ":", "- ", "[ ] "]
PARSERS = {
    "claims_file": [*CLAIMS, "\n", "a\n", "```tribunal\n", "```\n", "* ", "added-test\n"],
    "claim_line": CLAIMS,
    "pr_body": [*CLAIMS, "\n", "<!--\n", "```tribunal\n", "~~~~\n"],
    "comment_mention": ["$", "a.", "$.", ".", "name", "name.", "a$", "`", "(", "self."],
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
    "requirements": ["=", "==", "# via ", "#", " # via", "\n", "\n ", "a==1 ", "\\\n", "-r "],
    "tribunal_yml": ["[", "{", "- ", "a:\n ", " ", "#", "'", '"', "generated-paths: ["],
    "js_test_call": ["test.", "it.", "test", "it ", ". ", "Deno.", "(", "`"],
    "gitignore": ["*", "**/", "*a", "[", "\\", "!", "a/", "/**"],
    "generated_path": ["a", "a/", "ab", "/", " ", "a*"],
    "generated_glob": ["*", "*a", "**/", "**/a/", "?", "?*", "a*", "/", "\n*a", "[", "."],
}


@pytest.mark.parametrize("target", sorted(PARSERS))
def test_each_parser_is_linear_on_its_own_delimiters(target: str, tmp_path: Path) -> None:
    assert_bounded(target, PARSERS[target], tmp_path)


#: The package's patterns are measured in this many children, each within its own wall
#: limit, so that a loaded machine cannot push the whole run past one limit.
SHARDS = 4


@pytest.mark.parametrize("shard", range(SHARDS))
def test_every_pattern_of_the_package_is_linear(shard: int, tmp_path: Path) -> None:
    """Every pattern (module-level, inline and built), on repeats of its own words and chars."""
    assert_bounded("every_pattern", [str(shard), str(SHARDS)], tmp_path)


def test_every_pattern_site_is_found() -> None:
    """Each kind of site is collected, and a pattern built from a value is listed in ``BUILT``."""
    assert unlisted_built_sites() == set()
    names = {site.name for site in sites()}
    expected = {
        "tribunal.claims.parse._TRAILING_COMMENT",  # module level
        "tribunal.hooks.ranges._NUMBERS",  # a package mapped from hooks/
        "tribunal.worktree.reaper._DIR",  # ... and from worktree/
        "tribunal.claims.sources._TRAILER_LINE",  # a lazyre accessor
        "tribunal.claims.parse:closing_fence#0",  # built from a value
    }
    assert expected <= names, sorted(expected - names)
    assert any(n.startswith("tribunal.claims.js_values:_number:") for n in names)  # inline
    assert any(n.startswith("tribunal.lang.js.project._STRING_BODIES[") for n in names)  # dict
