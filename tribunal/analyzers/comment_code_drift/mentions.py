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

import enum
import re
from typing import NamedTuple

from tribunal.analyzers.comment_code_drift.generic import is_generic

#: What may open a name (``[A-Za-z_$]``); the rest of it is ``[\w$]``.
_NAME_START = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_$")
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
    return Mentions.of(text, name).strongest(owners)


class Mentions(NamedTuple):
    """The mentions of one name in one line, read once for every declaration of that name.

    Only a qualifier depends on the declaration (its owner makes ``Owner.name``
    QUALIFIED); the rest is the same for all of them.
    """

    unowned: Strength  # the strongest mention, for a declaration no qualifier names
    qualifiers: frozenset[str]  # the names before a dot in front of a mention

    @classmethod
    def of(cls, text: str, name: str) -> "Mentions":
        best = Strength.NONE
        qualifiers = set()
        for match in mention_pattern(name).finditer(text):
            qualifier = _qualifier(text, match.start())
            if qualifier is not None:
                qualifiers.add(qualifier)
            best = max(best, _strength(text, match.start(), match.end(), qualifier))
        return cls(best, frozenset(qualifiers))

    def strongest(self, owners: frozenset[str]) -> Strength:
        """The strongest mention of a declaration ``owners`` qualify."""
        owned = not self.qualifiers.isdisjoint(owners)
        return Strength.QUALIFIED if owned else self.unowned


def mention_pattern(name: str) -> re.Pattern[str]:
    """``name`` as a whole word (``$`` counts as a letter, as in JavaScript)."""
    return re.compile(rf"(?<![\w$]){re.escape(name)}(?![\w$])")


def _strength(text: str, start: int, end: int, qualifier: str | None) -> Strength:
    """The mention's strength when ``qualifier`` (if any) is not the declaration's owner."""
    if qualifier is not None:
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


def _qualifier(text: str, start: int) -> str | None:
    """The name before the dot that precedes ``text[start]`` (``a.b.name``: ``b``), if any.

    A scan back over that name alone, not a pattern searched over the line before
    it: a search for a chain ending at ``start`` is quadratic on a line of ``$``.
    """
    dot = start - 1
    if dot < 0 or text[dot] != ".":
        return None
    begin = dot
    while begin > 0 and _is_name_char(text[begin - 1]):
        begin -= 1
    run = text[begin:dot]
    first = next((i for i, ch in enumerate(run) if ch in _NAME_START), None)
    return None if first is None else run[first:]


def _is_name_char(ch: str) -> bool:
    return ch.isalnum() or ch in "_$"


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
