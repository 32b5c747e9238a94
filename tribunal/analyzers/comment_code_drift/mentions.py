"""How strongly a comment line mentions a name: a bare word, code, a call, a qualified name.

A bare word is the weakest mention: prose says "run", "digest" or the
project's own name without meaning the code. Backticks, ``name()`` or
``self.name`` mark it as code; ``name(arg)`` is a call with arguments;
``Owner.name`` (the declaration's class, or its module) is a qualified name,
which points at one declaration even where several share the name. A mention
behind another qualifier (``other.name``) is some other object's attribute,
not a mention at all.
"""

from __future__ import annotations

import enum
import re

from tribunal.analyzers.comment_code_drift.generic import is_generic

#: ``a.b.name`` before a mention: the qualifier chain, with the dot.
_CHAIN = re.compile(r"((?:[A-Za-z_$][\w$]*\.)+)$")
_SELF = frozenset({"self", "cls", "this"})


class Strength(enum.IntEnum):
    NONE = -1
    BARE = 0
    MARKED = 1  # `name`, name(), self.name
    CALL = 2  # name(arg)
    QUALIFIED = 3  # Owner.name, module.name


def strongest(text: str, name: str, owners: frozenset[str]) -> Strength:
    """The strongest mention of ``name`` in ``text``; ``owners`` are qualifiers that name it."""
    best = Strength.NONE
    pattern = re.compile(rf"(?<![\w$]){re.escape(name)}(?![\w$])")
    for match in pattern.finditer(text):
        best = max(best, _strength(text, match.start(), match.end(), owners))
    return best


def _strength(text: str, start: int, end: int, owners: frozenset[str]) -> Strength:
    chain = _CHAIN.search(text[:start])
    if chain is not None:
        qualifier = chain[1].rstrip(".").rsplit(".", 1)[-1]
        if qualifier in owners:
            return Strength.QUALIFIED
        return Strength.MARKED if qualifier in _SELF else Strength.NONE
    rest = text[end:]
    stripped = rest.lstrip()
    if stripped.startswith("("):
        inner = stripped[1:].lstrip()
        return Strength.MARKED if inner.startswith(")") else Strength.CALL
    if text[:start].count("`") % 2 == 1 and "`" in rest:
        return Strength.MARKED
    return Strength.BARE


def looks_like_code(name: str) -> bool:
    """``parse_header``, ``parseHeader``, ``MAX_RETRIES``, ``Greeter``: no prose word looks so."""
    if "_" in name.strip("_") or any(ch.isdigit() for ch in name):
        return True
    if name[:1].isupper():
        return True  # Capitalized: a class or constant (ordinary words were sorted out before)
    return any(ch.isupper() for ch in name[1:])


def needed(name: str, *, near: bool, ordinary: bool, ambiguous: bool) -> Strength:
    """The weakest mention that ties a comment line to a declaration named ``name``.

    ``near``: the line is the declaration's own docstring, inside it, or in the
    comment block directly above it. ``ordinary``: an ordinary word or the
    project's own name. ``ambiguous``: several changed files declare the name.
    """
    if near:
        return Strength.MARKED if ordinary or is_generic(name) else Strength.BARE
    if ambiguous:
        return Strength.QUALIFIED
    if ordinary or is_generic(name):
        return Strength.CALL
    return Strength.BARE if looks_like_code(name) else Strength.MARKED
