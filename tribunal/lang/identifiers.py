"""Split identifiers and paths into lower-case word tokens.

``camelCase``, ``snake_case``, ``kebab-case`` and acronym runs all split:
``JWTToken`` -> ``jwt token``, ``parseSQLQuery`` -> ``parse sql query``,
``OAuth2Client`` -> ``o auth 2 client``. Matching on whole tokens is what
keeps ``authors`` and ``tokenize`` from meaning ``auth`` and ``token``.
"""

from __future__ import annotations

from functools import lru_cache

from tribunal.util.lazyre import lazy

_PIECE = lazy(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")
_WORD = lazy(r"[A-Za-z0-9]+")


@lru_cache(maxsize=8192)
def split_words(name: str) -> tuple[str, ...]:
    """``parseSQLQuery`` -> ``("parse", "sql", "query")``; separators are any non-alphanumerics."""
    out: list[str] = []
    for word in _WORD().findall(name):
        out.extend(piece.lower() for piece in _PIECE().findall(word))
    return tuple(out)


def stem_words(path: str) -> tuple[str, ...]:
    """Tokens of the file name alone, all extension-like pieces included (``a.test.ts``)."""
    name = path.rsplit("/", 1)[-1]
    pieces = name.split(".")
    return tuple(w for piece in pieces[:-1] or pieces for w in split_words(piece))
