"""How strongly a comment line mentions a name: a bare word, code, a call, a qualified name.

A bare word is the weakest mention: prose says "run", "digest" or the
project's own name without meaning the code. Backticks, ``name()``,
``self.name`` or a ``name:`` label opening the comment mark it as code;
``name(arg)`` (no space before the parenthesis: "a digest (two on a line)"
is prose) is a call with arguments;
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
#: What opens a comment or docstring line before its words.
_OPENER = re.compile(r"""^[\s#/*"'rRbBuUfF]*""")
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
    if rest.startswith("("):
        return Strength.MARKED if rest[1:].lstrip().startswith(")") else Strength.CALL
    if text[:start].count("`") % 2 == 1 and "`" in rest:
        return Strength.MARKED
    opener = _OPENER.match(text)
    if rest.startswith(":") and opener is not None and opener.end() == start:
        return Strength.MARKED  # "# greet: returns a greeting", a label naming the code
    return Strength.BARE


def looks_like_code(name: str) -> bool:
    """``parse_header``, ``parseHeader``, ``MAX_RETRIES``, ``FileChange``: no prose word looks so.

    A single word, lower case or Capitalized (``digest``, ``block``, ``Names``),
    reads as a word of the sentence as often as it names the code.
    """
    if "_" in name.strip("_") or any(ch.isdigit() for ch in name):
        return True
    if len(name) > 1 and name.isupper():
        return True
    return any(ch.isupper() for ch in name[1:])


def needed(name: str, *, near: bool, project: bool, ambiguous: bool) -> Strength:
    """The weakest mention that ties a comment line to a declaration named ``name``.

    ``near``: the line is the declaration's own docstring, inside it, or in the
    comment block directly above it. ``project``: the name is the project's own.
    ``ambiguous``: several changed files declare the name. A name that looks
    like code is enough as a bare word; any other (an ordinary word) must be
    marked as code next to its declaration, and elsewhere called with arguments
    or qualified when it is a common word of the trade or the project's name.
    """
    word = not looks_like_code(name) or project or is_generic(name)
    if near:
        return Strength.MARKED if word else Strength.BARE
    if ambiguous:
        return Strength.QUALIFIED
    if project or is_generic(name):
        return Strength.CALL
    return Strength.MARKED if word else Strength.BARE
