"""``no-default-flip`` (optionally ``no-default-flip: name``): no default changed value.

Defaults are compared as values (see ``tribunal.claims.defaults_py`` and
``defaults_js`` for what "the same value" means in each language), base vs
head, in the changed non-test files: function parameters, dataclass-like
fields, the ``default=`` of framework fields and options (``defaults_calls``),
component props and class initializers (``defaults_props``, ``.vue`` /
``.svelte`` scripts included), and ``DEFAULT_*`` constants. A default is
matched by file, owner, name and kind, and failing that by those unique across
the change (moved between files), which is certain only when its function's
body moved unchanged. A default that is not a literal and whose expression
changed is only UNVERIFIED: its value cannot be known.

A PASS is earned: it needs every construct the change touched that could hold
the default to have been read. A changed line that sets the claimed name (or,
unnamed, anything called ``default``) outside the defaults compared, a file
that cannot be parsed, or a component script in a ``lang`` Tribunal cannot
read makes the verdict UNVERIFIED (``default_mentions``).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import replace

from tribunal.change.diff.model import FileChange
from tribunal.change.model import Change, Claim, Source
from tribunal.claims.default_mentions import unread_setters
from tribunal.claims.default_values import Default
from tribunal.claims.registry import Judgement
from tribunal.claims.scope import CODE_LANGUAGES, looks_like_test
from tribunal.findings import Verdict
from tribunal.lang.identifiers import split_words
from tribunal.lang.paths import language_of
from tribunal.lang.sfc import is_sfc

Key = tuple[str, str, str, int]  # owner, name, kind, occurrence of that owner and name


def verify(change: Change, claim: Claim) -> Judgement:
    if not change.has_base:
        return Judgement(Verdict.UNVERIFIED, "no base to compare the defaults with")
    files = [fc for fc in _code_files(change) if not looks_like_test(fc.path)]
    base: dict[str, dict[Key, Default]] = {}
    head: dict[str, dict[Key, Default]] = {}
    doubts: list[str] = []
    for fc in files:
        if fc.old_path is not None:
            base[fc.old_path] = _defaults(change.base_source(fc), fc.old_path, doubts)
        if fc.has_head:
            head[fc.path] = _defaults(change.head_source(fc), fc.path, doubts)
    _react_versions(change, base)
    _react_versions(change, head)
    pairs = [(fc.old_path, fc.path) for fc in files if fc.old_path and fc.has_head]
    compared = _pair_up(base, head, pairs)
    wanted = [(b, h) for b, h in compared if _selected(h, claim.arg)]
    spans = {("base", p): _spans(d) for p, d in base.items()}
    spans.update({("head", p): _spans(d) for p, d in head.items()})
    setters = unread_setters(change, spans, claim.arg)
    judgement = _judge(wanted, doubts, setters, claim.arg)
    return replace(judgement, where=_where(judgement, wanted, head))


def _code_files(change: Change) -> list[FileChange]:
    sfc = [fc for fc in change.files if fc.skip_reason is None and is_sfc(fc.path)]
    return [*change.analyzable(CODE_LANGUAGES), *sfc]


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
    found = _extract(source, path, doubts) if source is not None else None
    if found is None:
        doubts.append(f"{path}: could not be parsed")
        return {}
    seen: dict[tuple[str, str, str], int] = defaultdict(int)
    for default in found:
        seen[(default.function, default.param, default.kind)] += 1
    out: dict[Key, Default] = {}
    ordinal: dict[tuple[str, str, str], int] = defaultdict(int)
    for default in found:
        ident = (default.function, default.param, default.kind)
        if seen[ident] > 1:  # overloads, conditional definitions: which is which is unknown
            default = default._replace(value=None)
        out[(*ident, ordinal[ident])] = default
        ordinal[ident] += 1
    return out


def _extract(source: Source, path: str, doubts: list[str]) -> list[Default] | None:
    language = language_of(path)
    if language == "python":
        from tribunal.claims.defaults_py import python_defaults
        from tribunal.lang.trees import python_tree

        tree = python_tree(source)
        return None if tree is None else list(python_defaults(tree))
    from tribunal.claims.defaults_js import js_defaults

    if is_sfc(path):
        return _component_defaults(source, path, doubts)
    if language is None:
        return []
    return js_defaults(source, language)


def _component_defaults(source: Source, path: str, doubts: list[str]) -> list[Default]:
    """The defaults of a ``.vue`` / ``.svelte`` file's scripts, on the component's lines."""
    from tribunal.claims.defaults_js import js_defaults
    from tribunal.lang.sfc import script_blocks, unreadable

    owner = path.rpartition("/")[2].rpartition(".")[0]
    out = []
    for block in script_blocks(source):
        why = unreadable(block)
        if why is not None or block.language is None:
            doubts.append(f"{path}: {why}")
            continue
        shift = block.line_offset
        props = path.endswith(".svelte") and not block.module
        for d in js_defaults(block.source, block.language, owner, exported_props=props):
            out.append(d._replace(line=d.line + shift, end_line=(d.end_line or d.line) + shift))
    return out


def _react_versions(change: Change, side: dict[str, dict[Key, Default]]) -> None:
    """A function component's ``defaultProps`` are certain below React 19 (the head's
    ``package.json`` decides: it is the React the changed code runs with)."""
    from tribunal.claims.react_version import below_react_19

    for path, defaults in side.items():
        if any(d.doubt for d in defaults.values()) and below_react_19(change, path):
            for key, default in defaults.items():
                defaults[key] = default._replace(doubt="")


def _spans(defaults: dict[Key, Default]) -> list[tuple[int, int]]:
    return [(d.line, max(d.line, d.end_line)) for d in defaults.values()]


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
    """Whether the claim names this default: ``timeout`` is ``f(timeout=...)``,
    ``Config.timeout``, ``options.timeout`` and the constant ``DEFAULT_TIMEOUT``."""
    if arg is None:
        return True
    full = f"{default.function}.{default.param}"
    if default.param == arg or full == arg or full.endswith(f".{arg}"):
        return True
    if default.kind == "constant":
        words = [w for w in split_words(default.param.rpartition(".")[2]) if w != "default"]
        return words == list(split_words(arg))
    return False


def _judge(
    compared: Iterable[tuple[Default, Default]],
    doubts: list[str],
    setters: list[str],
    arg: str | None,
) -> Judgement:
    flips, unknown, count = [], [], 0
    for old, new in compared:
        count += 1
        if old.value is not None and new.value is not None:
            if old.value != new.value and (new.doubt or old.doubt):
                unknown.append(f"{_describe(old, new)} ({new.doubt or old.doubt})")
            elif old.value != new.value:
                flips.append(_describe(old, new))
        elif old.text != new.text:
            unknown.append(_describe(old, new) + " (not a literal: value unknown)")
    scope = f"default '{arg}'" if arg else "default"
    if flips:
        detail = "\n".join(flips + unknown)
        return Judgement(Verdict.CONTRADICTED, f"{scope} changed value", detail)
    if unknown or doubts:
        detail = "\n".join(unknown + doubts + setters)
        title = f"default '{arg}' may have changed" if arg else "defaults may have changed"
        return Judgement(Verdict.UNVERIFIED, title, detail)
    if setters:
        title = (
            f"no parameter or field named '{arg}' found in the change"
            if arg and count == 0
            else f"changed lines set {'it' if arg else 'defaults'} outside the defaults compared"
        )
        detail = f"{count} defaults compared; lines Tribunal does not read as defaults:\n"
        return Judgement(Verdict.UNVERIFIED, title, detail + "\n".join(setters))
    if count == 0 and arg:
        return Judgement(
            Verdict.PASS,
            f"no default named '{arg}' in the change, and no changed line sets it",
        )
    return Judgement(Verdict.PASS, f"no {scope} changed value", f"{count} defaults compared.")


def _describe(old: Default, new: Default) -> str:
    where = (
        f"{new.function}({new.param}=...)"
        if new.kind == "parameter"
        else (f"{new.function}.{new.param} ({new.kind} default)")
    )
    return f"{where}: {old.text} -> {new.text} (line {new.line})"
