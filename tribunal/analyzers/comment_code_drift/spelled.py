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

import re
from collections.abc import Iterable

from tribunal.change.model import Source
from tribunal.lang.paths import language_of

_WORD = re.compile(rb"[A-Za-z_$][\w$]*")
#: Up to this many names, a substring search each; beyond, one pass over the file's words
#: (a name the judge matches, or a file declares, is a whole word of the file's bytes).
_FEW = 16


class Spelling:
    """Names to look for, prepared once for the many files they are looked for in."""

    def __init__(self, names: Iterable[str]) -> None:
        names = list(names)
        #: A name not in ASCII is never ruled out (its bytes depend on the reader).
        self.unsure = not all(name.isascii() for name in names)
        self.wanted = frozenset(name.encode() for name in names if name.isascii())
        self._by_word = len(self.wanted) > _FEW and all(_WORD.fullmatch(w) for w in self.wanted)

    def __len__(self) -> int:
        return len(self.wanted) + self.unsure

    def could_be_in(self, source: Source) -> bool:
        """False only when none of the names can be in ``source``'s text."""
        data = source.data
        if self.unsure or (language_of(source.path) == "python" and not _reads_as_ascii(data)):
            return True
        if not self._by_word:
            return any(w in data for w in self.wanted)
        return not self.wanted.isdisjoint(_WORD.findall(data))


def _reads_as_ascii(data: bytes) -> bool:
    """ASCII bytes that Python decodes as ASCII (a ``coding: utf-7`` cookie would not)."""
    if not data.isascii():
        return False
    import io
    import tokenize  # for a Python file only: a JS/TS change never loads it

    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
        return data.decode(encoding) == data.decode("ascii")
    except (SyntaxError, LookupError, UnicodeDecodeError):
        return False
