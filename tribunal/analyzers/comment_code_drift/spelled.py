"""Whether a file's bytes could hold a name: a check that costs no parse.

Before drift parses a file again to find a name in its comments or among its
declarations, it asks whether the name is written in the file at all. The
answer "no" must be certain, so it is given only where the bytes are the text
every reader sees: a JS/TS reader decodes UTF-8 (an ASCII name in the text is
the same bytes in the file), while Python reads a file in the encoding its
cookie declares and folds identifiers to NFKC (``def ﬁle`` declares ``file``),
so a Python file is searched only when it is ASCII and reads as such.
"""

from __future__ import annotations

import io
import re
import tokenize
from collections.abc import Collection

from tribunal.change.model import Source
from tribunal.lang.paths import language_of

_WORD = re.compile(rb"[A-Za-z_$][\w$]*")
#: Up to this many names, a substring search each; beyond, one pass over the file's words.
_FEW = 16


def could_spell(source: Source, names: Collection[str]) -> bool:
    """False only when none of ``names`` can be in ``source``'s text."""
    data = source.data
    if language_of(source.path) == "python" and not _reads_as_ascii(data):
        return True
    wanted = []
    for name in names:
        if not name.isascii():
            return True
        wanted.append(name.encode())
    if len(wanted) <= _FEW or not all(_WORD.fullmatch(w) for w in wanted):
        return any(w in data for w in wanted)
    return not set(_WORD.findall(data)).isdisjoint(wanted)


def _reads_as_ascii(data: bytes) -> bool:
    """ASCII bytes that Python decodes as ASCII (a ``coding: utf-7`` cookie would not)."""
    if not data.isascii():
        return False
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
        return data.decode(encoding) == data.decode("ascii")
    except (SyntaxError, LookupError, UnicodeDecodeError):
        return False
