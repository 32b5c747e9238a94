"""JSON with comments and trailing commas, as ``tsconfig.json`` and friends allow it.

Comments and trailing commas are removed in one left-to-right pass, then
``json.loads`` reads the rest. (A single regex with a lazy block-comment
alternative rescanned the text from every unclosed ``/*`` and backtracked
over runs of comments before a trailing comma.)
"""

from __future__ import annotations

import re
from typing import Any

from tribunal.bounds import load_json

#: A run of characters that needs no decision: everything but quotes, slashes and commas.
_PLAIN = re.compile(r'[^"/,]+')
#: The body of a string after its opening quote (it ends at the quote, or at a newline).
_STRING_BODY = re.compile(r'(?:[^"\\\n]|\\.)*')
_CLOSERS = "]}"


def strip_comments(text: str) -> str:
    """``text`` without ``//`` and ``/* */`` comments and without trailing commas."""
    out: list[str] = []
    comma: int | None = None  # where in ``out`` a comma waits to see what follows it
    index = 0
    while index < len(text):
        char = text[index]
        if char == "/" and text.startswith("//", index):
            end = text.find("\n", index)
            index = len(text) if end < 0 else end
            continue
        if char == "/" and text.startswith("/*", index):
            end = text.find("*/", index + 2)
            if end < 0:  # unclosed: left in place, so that the JSON is invalid
                out.append(text[index:])
                break
            index = end + 2
            continue
        if char == '"':
            body = _STRING_BODY.match(text, index + 1)
            end = body.end() if body else index + 1
            end += text.startswith('"', end)
            piece = text[index:end]
        elif char in "/,":
            piece, end = char, index + 1
        else:
            plain = _PLAIN.match(text, index)
            end = plain.end() if plain else index + 1
            piece = text[index:end]
        index = end
        if comma is not None and piece.strip():
            if piece.lstrip()[0] in _CLOSERS:
                out[comma] = ""
            comma = None
        if piece == ",":
            comma = len(out)
        out.append(piece)
    return "".join(out)


def loads(text: str) -> Any:
    """Parse JSONC; raises ``ValueError`` when it is not valid even so (or nests too deep)."""
    return load_json(strip_comments(text).removeprefix("\ufeff"))


def load_object(text: str | None) -> dict[str, Any] | None:
    """A JSONC object, or None when absent, malformed or not an object."""
    if text is None:
        return None
    try:
        data = loads(text)
    except ValueError:
        return None
    return data if isinstance(data, dict) else None
