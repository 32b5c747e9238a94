"""Changed lines that set a default the ``no-default-flip`` verifier did not read.

A PASS must be earned: the verifier compares the defaults it can enumerate
(parameters, fields, options, props, constants), and any other changed line
that *sets* what the claim names may hold a default it never saw
(``self.timeout = timeout or 30``, ``timeout: 30`` in a YAML config,
``DEFAULT_TIMEOUT=30`` in an ``.env`` file). A line sets a name when the name
is followed by ``=`` or ``:`` (an assignment, a keyword argument, a mapping
key), except a pass-through (``timeout=timeout``). With a named claim the
name is the claim's (``timeout`` also matches ``requestTimeout`` and
``REQUEST_TIMEOUT``); without one, any name holding the word ``default``.
Test files, lock files and generated paths are not read.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from tribunal.change.diff.model import FileChange
from tribunal.change.model import Change
from tribunal.claims.scope import looks_like_test
from tribunal.lang.identifiers import split_words
from tribunal.lang.paths import language_of
from tribunal.lang.sfc import is_sfc

_SHOWN = 5
_SETTER = re.compile(
    r"""(?<![\w.$])["']?([A-Za-z_$][\w$-]*)["']?\s*(?::(?!:)|=(?![=>~]))\s*([\w$.]*)"""
)
_MEMBER = re.compile(r"""\b(?:self|this|cls)\.([A-Za-z_$][\w$]*)\s*(?:=(?![=>])|\?\?=|\|\|=)""")
_LOCKS = frozenset(
    {"package-lock.json", "yarn.lock", "pnpm-lock.yaml", "poetry.lock", "uv.lock",
     "Pipfile.lock", "Cargo.lock", "composer.lock", "Gemfile.lock", "bun.lockb"}
)  # fmt: skip
_HASH_COMMENTED = (".py", ".pyi", ".yaml", ".yml", ".toml", ".cfg", ".ini", ".conf", ".sh")
#: Spans (first, last line) of the defaults compared, per (side, path).
Spans = Mapping[tuple[str, str], list[tuple[int, int]]]


def unread_setters(change: Change, spans: Spans, arg: str | None) -> list[str]:
    """Changed lines outside ``spans`` that set the claimed name (or a ``default``)."""
    wanted = [w.lower() for w in split_words(arg)] if arg else ["default"]
    found: list[str] = []
    for fc in change.files:
        if fc.skip_reason is not None or not _readable(change, fc):
            continue
        sides = (("head", fc.path, fc.added_text), ("base", fc.old_path, fc.removed_text))
        for side, path, lines in sides:
            if path is None:
                continue
            found += _in_lines(path, lines, spans.get((side, path), []), wanted, side)
    if len(found) > _SHOWN:
        found = [*found[:_SHOWN], f"... and {len(found) - _SHOWN} more"]
    return found


def _readable(change: Change, fc: FileChange) -> bool:
    paths = [p for p in (fc.path, fc.old_path) if p]
    if any(looks_like_test(p) or change.is_generated(p) for p in paths):
        return False
    return fc.path.rpartition("/")[2] not in _LOCKS


def _in_lines(
    path: str,
    lines: Mapping[int, str],
    spans: Iterable[tuple[int, int]],
    wanted: list[str],
    side: str,
) -> list[str]:
    covered = [(a, b) for a, b in spans]
    out = []
    for number, line in sorted(lines.items()):
        if any(a <= number <= b for a, b in covered):
            continue
        name = _sets(_code_part(path, line), wanted)
        if name is not None:
            where = "" if side == "head" else " (removed)"
            out.append(f"{path}:{number}{where} sets {name!r}: `{line.strip()[:80]}`")
    return out


def _code_part(path: str, line: str) -> str:
    """``line`` without a comment (a whole-line one, or a trailing one after code)."""
    name = path.rpartition("/")[2]
    if name.endswith(_HASH_COMMENTED) or name.startswith(".env"):
        markers: tuple[str, ...] = ("#",)
    elif language_of(path) is not None or is_sfc(path):
        markers = ("//", "/*", "*")
    else:
        return line
    if line.lstrip().startswith(markers):
        return ""
    cut = line.find(f" {markers[0]} ")
    return line[:cut] if cut >= 0 else line


def _sets(line: str, wanted: list[str]) -> str | None:
    """The name ``line`` sets whose words hold ``wanted`` (in order), if any."""
    candidates = [(m.group(1), m.group(2)) for m in _SETTER.finditer(line)]
    candidates += [(m.group(1), "") for m in _MEMBER.finditer(line)]
    for name, value in candidates:
        if value == name:
            continue  # a pass-through: ``timeout=timeout``
        words = [w.lower() for w in split_words(name)]
        if _holds(words, wanted):
            return name
    return None


def _holds(words: list[str], wanted: list[str]) -> bool:
    size = len(wanted)
    return any(words[i : i + size] == wanted for i in range(len(words) - size + 1))
