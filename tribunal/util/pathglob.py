"""Generated-path globs, matched in time linear in the path whatever the patterns are.

The globs come from ``tribunal.yml`` (``generated-paths``), which a change can
edit. Translated into a backtracking regular expression, ``*a*a*a*a*a*b``
against a long file name runs for hours (each ``*`` retries every split of the
name). Here each glob is a small automaton with one state per position in the
pattern, all globs of a set are stepped together one character of the path at a
time, and the set of live states is one integer (Thompson's construction,
simulated bit-parallel): the work is a few integer operations per character.

Glob syntax (``paths.is_generated`` documents the shapes): ``*`` is any run of
characters without ``/``, ``?`` exactly one such character, ``**/`` zero or more
whole directories, ``**`` elsewhere any run of characters; everything else is
literal.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import Enum


class Token(Enum):
    CHAR = "c"  # one literal character
    ONE = "?"  # one character that is not "/"
    STAR = "*"  # any run of characters without "/"
    ANY_RUN = "**"  # any run of characters
    DIRS = "**/"  # nothing, or any run of characters ending in "/"


Glob = list[tuple[Token, str]]
#: Transitions remembered per set, and the bits of states they may hold in all: a hostile
#: set could have very many distinct ones, of very many states each.
_MAX_SEEN = 1 << 16
_MAX_SEEN_BITS = 1 << 24


def tokens(glob: str) -> Glob:
    """``glob`` as tokens, read left to right (``**/`` before ``**`` before ``*``).

    Adjacent runs that together match what one of them matches are merged
    (``***`` is ``**``, ``**/**`` is ``**``), so that a run of stars costs one
    state, not one per star.
    """
    out: Glob = []
    i = 0
    while i < len(glob):
        if glob.startswith("**/", i):
            token, i = Token.DIRS, i + 3
        elif glob.startswith("**", i):
            token, i = Token.ANY_RUN, i + 2
        elif glob[i] in "*?":
            token, i = (Token.STAR if glob[i] == "*" else Token.ONE), i + 1
        else:
            out.append((Token.CHAR, glob[i]))
            i += 1
            continue
        merged = _MERGED.get((out[-1][0], token)) if out else None
        if merged is not None:
            out[-1] = (merged, "")
        else:
            out.append((token, ""))
    return out


#: Two adjacent runs that match exactly what one run matches.
_MERGED = {
    (Token.STAR, Token.STAR): Token.STAR,
    (Token.ANY_RUN, Token.STAR): Token.ANY_RUN,
    (Token.STAR, Token.ANY_RUN): Token.ANY_RUN,
    (Token.ANY_RUN, Token.ANY_RUN): Token.ANY_RUN,
    (Token.DIRS, Token.DIRS): Token.DIRS,
    (Token.DIRS, Token.ANY_RUN): Token.ANY_RUN,
    (Token.ANY_RUN, Token.DIRS): Token.ANY_RUN,
}


class GlobSet:
    """Globs compiled together: ``matches(path)`` when any of them matches all of ``path``.

    State ``i`` of a glob means "the path so far matches its first ``i`` tokens";
    each glob's states occupy consecutive bits, its last one (all tokens matched)
    accepting. A character moves a state one bit up (a literal, ``?``, the ``/``
    that ends a ``**/``) or keeps it (the runs); a run can also match nothing, so
    a state entering it also enters the next one (for ``**/`` only on entering:
    once characters are consumed it must end with ``/``).
    """

    def __init__(self, globs: Iterable[Glob]) -> None:
        literal: dict[str, int] = {}
        one = star = any_run = dirs = start = accept = 0
        bit = 0
        for glob in globs:
            start |= 1 << bit
            for token, char in glob:
                mask = 1 << bit
                if token is Token.CHAR:
                    literal[char] = literal.get(char, 0) | mask
                elif token is Token.ONE:
                    one |= mask
                elif token is Token.STAR:
                    star |= mask
                elif token is Token.ANY_RUN:
                    any_run |= mask
                else:
                    dirs |= mask
                bit += 1
            accept |= 1 << bit
            bit += 1
        runs = any_run | dirs
        #: per character: (states that advance on it, states that stay on it)
        self._moves = {c: (m | one, runs | star) for c, m in literal.items() if c != "/"}
        self._moves["/"] = (literal.get("/", 0) | dirs, runs)
        self._other = (one, runs | star)
        self._empty_always = star | any_run
        self._empty_on_entry = dirs
        self._accept = accept
        self._start = self._closure(start, 0)
        #: (states, character) -> states after it: real paths revisit few of them
        self._seen: dict[tuple[int, str], int] = {}
        self._max_seen = min(_MAX_SEEN, _MAX_SEEN_BITS // max(bit, 1))

    def matches(self, path: str) -> bool:
        states = self._start
        seen = self._seen
        for char in path:
            key = (states, char)
            following = seen.get(key)
            if following is None:
                following = self._step(states, char)
                if len(seen) < self._max_seen:
                    seen[key] = following
            states = following
            if not states:
                return False
        return bool(states & self._accept)

    def _step(self, states: int, char: str) -> int:
        advance, stay = self._moves.get(char, self._other)
        return self._closure((states & advance) << 1, states & stay)

    def _closure(self, entered: int, kept: int) -> int:
        """Add the states reached by runs matching nothing, from ``entered`` and ``kept``."""
        states = entered | kept
        while True:
            grown = ((states & self._empty_always) | (entered & self._empty_on_entry)) << 1
            new = grown & ~states
            if not new:
                return states
            states |= new
            entered |= new
