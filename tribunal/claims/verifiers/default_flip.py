"""``no-default-flip`` (optionally ``no-default-flip: param``): no default changed value.

Literal parameter defaults are compared as values (see
``tribunal.claims.defaults_py`` and ``defaults_js`` for what "the same value"
means in each language), base vs head, for the functions of the changed
non-test files. A function is matched by file and qualified name, and failing
that by a qualified name unique across the change (a function moved between
files), which is certain only when its body moved unchanged: otherwise it may
be a different function that happens to share the name. A default that is
not a literal and whose expression changed is only UNVERIFIED: its value
cannot be known.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import replace

from tribunal.change import Change, Claim, Source
from tribunal.claims.defaults_py import Default
from tribunal.claims.registry import Judgement
from tribunal.claims.scope import CODE_LANGUAGES, looks_like_test
from tribunal.findings import Verdict
from tribunal.paths import language_of

Key = tuple[str, str, int]  # function, parameter, occurrence of that function


def verify(change: Change, claim: Claim) -> Judgement:
    files = [fc for fc in change.analyzable(CODE_LANGUAGES) if not looks_like_test(fc.path)]
    if not files:
        return Judgement(Verdict.PASS, "no non-test source file changed")
    if not change.has_base:
        return Judgement(Verdict.UNVERIFIED, "no base to compare the defaults with")
    base: dict[str, dict[Key, Default]] = {}
    head: dict[str, dict[Key, Default]] = {}
    doubts: list[str] = []
    for fc in files:
        if fc.old_path is not None:
            base[fc.old_path] = _defaults(change.base_source(fc), fc.old_path, doubts)
        if fc.has_head:
            head[fc.path] = _defaults(change.head_source(fc), fc.path, doubts)
    pairs = [(fc.old_path, fc.path) for fc in files if fc.old_path and fc.has_head]
    compared = _pair_up(base, head, pairs)
    wanted = [(b, h) for b, h in compared if _selected(h, claim.arg)]
    judgement = _judge(wanted, doubts, claim.arg)
    return replace(judgement, where=_where(judgement, wanted, head))


def _where(
    judgement: Judgement,
    compared: Sequence[tuple[Default, Default]],
    head: dict[str, dict[Key, Default]],
) -> tuple[str, int | None] | None:
    """The first changed default's file and line at head."""
    if judgement.verdict is Verdict.PASS:
        return None
    paths = {id(d): path for path, defaults in head.items() for d in defaults.values()}
    for old, new in compared:
        if old.text != new.text or old.value != new.value:
            path = paths.get(id(new))
            if path is not None:
                return path, new.line
    return None


def _defaults(source: Source | None, path: str, doubts: list[str]) -> dict[Key, Default]:
    found = _extract(source, path) if source is not None else None
    if found is None:
        doubts.append(f"{path}: could not be parsed")
        return {}
    seen: dict[tuple[str, str], int] = defaultdict(int)
    for default in found:
        seen[(default.function, default.param)] += 1
    out: dict[Key, Default] = {}
    ordinal: dict[tuple[str, str], int] = defaultdict(int)
    for default in found:
        ident = (default.function, default.param)
        if seen[ident] > 1:  # overloads, conditional definitions: which is which is unknown
            default = default._replace(value=None)
        out[(*ident, ordinal[ident])] = default
        ordinal[ident] += 1
    return out


def _extract(source: Source, path: str) -> list[Default] | None:
    language = language_of(path)
    if language == "python":
        from tribunal.claims.defaults_py import python_defaults
        from tribunal.lang.trees import python_tree

        tree = python_tree(source)
        return None if tree is None else list(python_defaults(tree))
    if language is None:
        return []
    from tribunal.claims.defaults_js import js_defaults

    return js_defaults(source, language)


def _pair_up(
    base: dict[str, dict[Key, Default]],
    head: dict[str, dict[Key, Default]],
    pairs: Sequence[tuple[str, str]],
) -> list[tuple[Default, Default]]:
    """Defaults present on both sides: same file first, then moved between files."""
    out: list[tuple[Default, Default]] = []
    used: set[tuple[str, str, Key]] = set()
    for old_path, new_path in pairs:
        for key, default in base.get(old_path, {}).items():
            match = head.get(new_path, {}).get(key)
            if match is not None:
                out.append((default, match))
                used |= {("base", old_path, key), ("head", new_path, key)}
    left = _unmatched("base", base, used)
    right = _unmatched("head", head, used)
    for key, olds in left.items():
        if len(olds) == 1 and len(right.get(key, ())) == 1:
            before, after = olds[0], right[key][0]
            if not before.body or before.body != after.body:  # a namesake, or rewritten
                before, after = before._replace(value=None), after._replace(value=None)
            out.append((before, after))
    return out


def _unmatched(
    side: str, files: dict[str, dict[Key, Default]], used: set[tuple[str, str, Key]]
) -> dict[Key, list[Default]]:
    out: dict[Key, list[Default]] = defaultdict(list)
    for path, defaults in files.items():
        for key, default in defaults.items():
            if (side, path, key) not in used:
                out[key].append(default)
    return out


def _selected(default: Default, arg: str | None) -> bool:
    if arg is None:
        return True
    full = f"{default.function}.{default.param}"
    return default.param == arg or full == arg or full.endswith(f".{arg}")


def _judge(
    compared: Iterable[tuple[Default, Default]], doubts: list[str], arg: str | None
) -> Judgement:
    flips, unknown, count = [], [], 0
    for old, new in compared:
        count += 1
        if old.value is not None and new.value is not None:
            if old.value != new.value:
                flips.append(_describe(old, new))
        elif old.text != new.text:
            unknown.append(_describe(old, new) + " (not a literal: value unknown)")
    scope = f"parameter '{arg}'" if arg else "parameter"
    if flips:
        detail = "\n".join(flips + unknown)
        return Judgement(Verdict.CONTRADICTED, f"{scope} default changed value", detail)
    if unknown or doubts:
        return Judgement(
            Verdict.UNVERIFIED, f"{scope} defaults may have changed", "\n".join(unknown + doubts)
        )
    if count == 0 and arg:
        return Judgement(
            Verdict.PASS, f"no changed function has a parameter '{arg}' with a default"
        )
    return Judgement(
        Verdict.PASS, f"no {scope} default changed value", f"{count} defaults compared."
    )


def _describe(old: Default, new: Default) -> str:
    return f"{new.function}({new.param}=...): {old.text} -> {new.text} (line {new.line})"
