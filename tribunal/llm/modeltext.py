"""Model text made safe to store and show: no escapes or control characters, one line, bounded.

Whatever a model writes -- and whatever a chat server puts in an error body --
is untrusted. An escape sequence can repaint the terminal, and a line break can
start a line that reads like the gate's own output ("All lenses passed."). So
model text is cleaned where it enters the council's record (``clean_record``)
and again where it is printed (``clean``), and is only ever printed inside the
advisory block, behind a prefix (``tribunal.llm.report``).
"""

from __future__ import annotations

import re
from typing import Any

#: ANSI/ECMA-48 sequences: CSI (``ESC [`` or the one-byte 0x9B), OSC (up to BEL or
#: ST) and the two-character escapes. What they leave behind is removed below.
_ESCAPES = re.compile(
    r"(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]?"
    r"|(?:\x1b\]|\x9d)[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?"
    r"|\x1b[ -~]?"
)
#: A record's strings are bounded even when a field has no limit of its own.
RECORD_LIMIT = 2000


def clean(text: str, limit: int = RECORD_LIMIT) -> str:
    """``text`` on one line, without escape sequences or non-printable characters.

    Line breaks, tabs and every other character Python does not call printable
    (controls, bidi overrides, zero-width and line separators) become spaces,
    runs of spaces become one, and the result is cut to ``limit`` characters.
    """
    if not text.isprintable() or "\x1b" in text:
        text = _ESCAPES.sub("", text)
        text = "".join(ch if ch.isprintable() else " " for ch in text)
    return clip(" ".join(text.split()), limit)


def clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: max(limit - 1, 0)] + "…"


def clean_record(value: Any, limit: int = RECORD_LIMIT) -> Any:
    """``value`` (JSON-able) with every string in it ``clean``: dict keys are ours, left alone."""
    if isinstance(value, str):
        return clean(value, limit)
    if isinstance(value, dict):
        return {key: clean_record(item, limit) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [clean_record(item, limit) for item in value]
    return value
