"""JSON with comments and trailing commas, as ``tsconfig.json`` and friends allow it."""

from __future__ import annotations

import json
import re
from typing import Any

_TOKENS = re.compile(
    r'"(?:[^"\\\n]|\\.)*"'  # a string, kept as it is
    r"|//[^\n]*"  # a line comment
    r"|/\*.*?\*/"  # a block comment
    r"|,(?=\s*[\]}])"  # a trailing comma
    r"|,(?=(?:\s|//[^\n]*|/\*.*?\*/)*[\]}])",  # a trailing comma before a comment
    re.S,
)


def loads(text: str) -> Any:
    """Parse JSONC; raises ``ValueError`` when it is not valid even so."""
    cleaned = _TOKENS.sub(lambda m: m[0] if m[0].startswith('"') else "", text)
    return json.loads(cleaned.removeprefix("\ufeff"))


def load_object(text: str | None) -> dict[str, Any] | None:
    """A JSONC object, or None when absent, malformed or not an object."""
    if text is None:
        return None
    try:
        data = loads(text)
    except ValueError:
        return None
    return data if isinstance(data, dict) else None
