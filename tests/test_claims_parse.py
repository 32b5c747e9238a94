"""The claims parser: fenced blocks, whole files, single lines, key normalization."""

from __future__ import annotations

import pytest

from tribunal.claims.parse import (
    ClaimLine,
    block_claims,
    file_claims,
    normalize_key,
    parse_claim,
    tribunal_blocks,
)


@pytest.mark.parametrize(
    ("raw", "key"),
    [
        ("added-test", "added-test"),
        ("Added_Test", "added-test"),
        ("no public api change", "no-public-api-change"),
        ("NO__DEFAULT  _ FLIP", "no-default-flip"),
        ("  -no-new-dependency- ", "no-new-dependency"),
    ],
)
def test_keys_normalize_case_underscores_and_spaces(raw: str, key: str) -> None:
    assert normalize_key(raw) == key


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("added-test", ("added-test", None)),
        ("- added-test", ("added-test", None)),
        ("* `no-default-flip: timeout`", ("no-default-flip", "timeout")),
        ("1. No_Default_Flip : retries ", ("no-default-flip", "retries")),
        ("- [x] no-test-removed", ("no-test-removed", None)),
        ("no-new-dependency  # the lockfile changed only", ("no-new-dependency", None)),
        ("**added-test**", ("added-test", None)),
        ("no-default-flip: _private_param", ("no-default-flip", "_private_param")),
        ("no-default-flip:", ("no-default-flip", None)),
    ],
)
def test_one_line_claims_drop_decoration(line: str, expected: tuple[str, str | None]) -> None:
    claim = parse_claim(line, 7)
    assert claim == ClaimLine(expected[0], expected[1], 7)


@pytest.mark.parametrize(
    "line", ["", "   ", "# a comment", "// also a comment", "<!-- hidden -->", "> quoted", "-"]
)
def test_comments_and_blank_lines_are_not_claims(line: str) -> None:
    assert parse_claim(line) is None


def test_unknown_keys_still_parse_so_they_can_be_reported() -> None:
    claim = parse_claim("Makes Everything Faster")
    assert claim is not None and claim.key == "makes-everything-faster"


def test_block_claims_carry_their_line_in_the_whole_text() -> None:
    text = "Fixes the login bug.\n\n```tribunal\nadded-test\n\n# why not\nno-default-flip: x\n```\n"
    assert block_claims(text) == [
        ClaimLine("added-test", None, 4),
        ClaimLine("no-default-flip", "x", 7),
    ]


def test_only_tribunal_blocks_count_and_several_are_merged() -> None:
    text = (
        "```python\nadded-test\n```\n"
        "~~~~ Tribunal extra words\nno-test-removed\n~~~~\n"
        "```tribunal\nno-new-dependency\n```"
    )
    keys = [c.key for c in block_claims(text) or []]
    assert keys == ["no-test-removed", "no-new-dependency"]


def test_a_closing_fence_must_be_as_long_as_the_opening_one() -> None:
    text = "````tribunal\nadded-test\n```\nno-test-removed\n````\nafter"
    assert [c.key for c in block_claims(text) or []] == ["added-test", "no-test-removed"]


def test_an_unclosed_block_runs_to_the_end() -> None:
    assert [c.key for c in block_claims("```tribunal\nadded-test\n") or []] == ["added-test"]


def test_a_backtick_fence_with_backticks_in_its_info_is_not_a_fence() -> None:
    assert list(tribunal_blocks("```tribunal `x`\nadded-test\n```")) == []


def test_text_without_a_block_has_no_block_claims() -> None:
    assert block_claims("added-test\nno-test-removed\n") is None


def test_a_claims_file_without_a_block_is_all_claims() -> None:
    text = "# Claims\n\n- added-test\n- no-default-flip: timeout\n"
    assert file_claims(text) == [
        ClaimLine("added-test", None, 3),
        ClaimLine("no-default-flip", "timeout", 4),
    ]


def test_a_claims_file_with_a_block_is_only_its_block() -> None:
    text = "Prose that is not a claim.\n```tribunal\nadded-test\n```\n"
    assert file_claims(text) == [ClaimLine("added-test", None, 3)]


def test_crlf_text_parses_like_lf() -> None:
    text = "```tribunal\r\nadded-test\r\nno-default-flip: a\r\n```\r\n"
    assert block_claims(text) == [
        ClaimLine("added-test", None, 2),
        ClaimLine("no-default-flip", "a", 3),
    ]
