"""Parse claims text: ```` ```tribunal ```` blocks, whole claims files, single lines.

Parsing, never understanding: a claim is one ``key[: arg]`` line. A
```` ```tribunal ```` block holds the author's claims; a
```` ```tribunal-proposed ```` block (what ``tribunal propose`` writes) holds
claims a model proposed, which are verified but only advise. Keys are
normalized (case folded, ``_`` and spaces become ``-``) so ``No_Default_Flip``
and ``no default flip`` name the same verifier; bullets, checkboxes,
backticks and comments are decoration and are dropped. Whatever is left that
names no verifier still becomes a claim: the registry turns it into an
UNVERIFIED "unrecognized claim", which is the safe direction.
"""

import re
from collections.abc import Iterator
from typing import NamedTuple

from tribunal.util.lazyre import lazy

#: The info string that marks a claims block (its first word, any case).
BLOCK_TAG = "tribunal"
#: The info string of a block of claims a model proposed: advisory until adopted.
PROPOSED_TAG = "tribunal-proposed"

_FENCE_OPEN = lazy(r" {0,3}(?P<fence>`{3,}|~{3,})(?P<info>[^\n]*)")
_BULLET = lazy(r"^(?:[-*+•]|\d{1,3}[.)])\s+")
_CHECKBOX = lazy(r"^\[[ xX]\]\s*")
#: ``(?<!\s)``: a match starts only where a run of spaces does; without it every
#: space of a long run restarts the scan of the run (quadratic on hostile text).
_TRAILING_COMMENT = lazy(r"(?<!\s)\s+(?:#|//).*$")
#: First characters of a bullet or a checkbox.
_MAY_DECORATE = "-*+•["
#: Spaces, underscores and hyphens between a key's words, in runs: one hyphen each.
_KEY_SEPARATORS = lazy(r"[\s_-]+")


class ClaimLine(NamedTuple):
    """One parsed claim: normalized key, optional argument, 1-based line in its text."""

    key: str
    arg: str | None
    line: int


def normalize_key(raw: str) -> str:
    """``No_Default Flip`` -> ``no-default-flip``."""
    return _KEY_SEPARATORS().sub("-", raw.strip().lower()).strip("-")


def parse_claim(text: str, line: int = 1) -> ClaimLine | None:
    """One claim from one line, or None when the line holds only decoration or a comment."""
    body = _strip_decoration(text)
    if not body:
        return None
    raw_key, sep, raw_arg = body.partition(":")
    key = normalize_key(raw_key.strip("`"))
    if not key:
        return None
    arg = raw_arg.strip().strip("`").strip() if sep else ""
    return ClaimLine(key, arg or None, line)


def parse_lines(text: str, first_line: int = 1) -> list[ClaimLine]:
    """Every claim in ``text``; line numbers start at ``first_line``."""
    out = []
    for offset, raw in enumerate(text.split("\n")):
        claim = parse_claim(raw.rstrip("\r"), first_line + offset)
        if claim is not None:
            out.append(claim)
    return out


def tribunal_blocks(text: str, tags: tuple[str, ...] = (BLOCK_TAG,)) -> Iterator[tuple[int, str]]:
    """(first content line, content) of each fenced block whose info string is one of ``tags``.

    Fences follow CommonMark: three or more backticks or tildes, indented at
    most three spaces, closed by a run of the same character at least as
    long; an unclosed block runs to the end of the text.
    """
    lines = text.split("\n")
    index = 0
    while index < len(lines):
        opened = _FENCE_OPEN().match(lines[index].rstrip("\r"))
        fence, info = (opened["fence"], opened["info"]) if opened else ("", "")
        if not fence or (fence[0] == "`" and "`" in info):  # CommonMark: not a fence
            index += 1
            continue
        end = _closing_line(lines, index + 1, fence)
        words = info.split()
        if words and words[0].lower() in tags:
            yield index + 2, "\n".join(lines[index + 1 : end])
        index = end + 1


def block_claims(text: str, tag: str = BLOCK_TAG) -> list[ClaimLine] | None:
    """Claims from the ``tag`` blocks of ``text``; None when it has no such block."""
    found: list[ClaimLine] | None = None
    for first, content in tribunal_blocks(text, (tag,)):
        found = (found or []) + parse_lines(content, first)
    return found


def has_block(text: str) -> bool:
    """Whether ``text`` holds a claims block of either kind."""
    return next(tribunal_blocks(text, (BLOCK_TAG, PROPOSED_TAG)), None) is not None


def file_claims(text: str) -> list[ClaimLine]:
    """A claims file: its ```` ```tribunal ```` blocks when it has a block, else every line.

    A file whose only block is a proposed one makes no claim of the author's:
    its lines are not read as claims (they would gate).
    """
    if not has_block(text):
        return parse_lines(text)
    return block_claims(text) or []


def _closing_line(lines: list[str], start: int, fence: str) -> int:
    closer = closing_fence(fence)
    for index in range(start, len(lines)):
        if closer.match(lines[index].rstrip("\r")):
            return index
    return len(lines)


def strip_html_comments(text: str) -> str:
    """``text`` without ``<!-- ... -->`` comments; an unclosed ``<!--`` stays as it is.

    A scan with ``str.find`` rather than ``<!--.*?-->``: that pattern rescans
    the rest of the line from every ``<!--`` when none is closed (quadratic).
    """
    out: list[str] = []
    index = 0
    while (start := text.find("<!--", index)) >= 0:
        end = text.find("-->", start + 4)
        if end < 0:
            break
        out.append(text[index:start])
        index = end + 3
    out.append(text[index:])
    return "".join(out)


def _strip_decoration(text: str) -> str:
    """Drop comments, bullets, checkboxes and emphasis around a claim."""
    body = strip_html_comments(text).strip()
    if not body or body.startswith(("#", "//", "<!--", ">")):
        return ""
    if body[0] in _MAY_DECORATE or body[0].isdigit():  # spare plain lines two regex calls
        body = _CHECKBOX().sub("", _BULLET().sub("", body))
    if "#" in body or "//" in body:
        body = _TRAILING_COMMENT().sub("", body).strip()
    return body.strip("*").strip()


def closing_fence(fence: str) -> re.Pattern[str]:
    """The line that closes a block opened by ``fence``: its character, at least as many times."""
    return re.compile(rf"^ {{0,3}}{re.escape(fence[0])}{{{len(fence)},}}[ \t]*$")
