"""JSON with comments and trailing commas, as ``tsconfig.json`` and friends allow it.

Comments and trailing commas are removed in one left-to-right pass, then
``json.loads`` reads the rest. (A single regex with a lazy block-comment
alternative rescanned the text from every unclosed ``/*`` and backtracked
over runs of comments before a trailing comma.)
"""

from __future__ import annotations

import re
from typing import Any

from tribunal.util.bounds import load_json
from tribunal.util.lazyre import lazy

#: Text that needs no decision: anything but commas, and slashes or quotes only as
#: a lone slash or a whole string (each alternative starts with its own character).
_PLAIN = re.compile(r'(?:[^"/,]|/(?![/*])|"(?:[^"\\\n]|\\.)*")+')
#: Commas with only whitespace between them: only the last can be a trailing one.
_COMMAS = re.compile(r"(?:,\s*)+")
#: The rest of a string that is not closed on its line.
_UNCLOSED = lazy(r'"(?:[^"\\\n]|\\.)*')
_CLOSERS = "]}"


def strip_comments(text: str) -> str:
    """``text`` without ``//`` and ``/* */`` comments and without trailing commas."""
    out: list[str] = []
    commas: int | None = None  # where in ``out`` a run of commas waits to see what follows
    index = 0
    while index < len(text):
        if text.startswith("//", index):
            end = text.find("\n", index)
            index = len(text) if end < 0 else end
            continue
        if text.startswith("/*", index):
            end = text.find("*/", index + 2)
            if end < 0:  # unclosed: left in place, so that the JSON is invalid
                out.append(text[index:])
                break
            index = end + 2
            continue
        piece = (_COMMAS if text[index] == "," else _PLAIN).match(text, index)
        found = piece[0] if piece else _UNCLOSED().match(text, index)[0]  # type: ignore[index]
        index += len(found)
        if commas is not None and found.strip():
            if found.lstrip()[0] in _CLOSERS:
                run = out[commas]
                last = run.rindex(",")
                out[commas] = run[:last] + run[last + 1 :]
            commas = None
        if found[0] == ",":
            commas = len(out)
        out.append(found)
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
