"""``no-new-dependency``: no manifest names a distribution that no manifest named before.

Head: the changed manifests. Base: every manifest of the base tree (changed or
not), so moving a dependency between sections or between manifests, or
changing its version, is not new. CONTRADICTED needs a name that is provably
absent at base; anything that could hide that name (an unparseable manifest,
a base URL requirement that may be the same package, a base list kept where
it cannot be read, a base tree that cannot be listed) makes it UNVERIFIED.
Lock files are no manifests on either side (``manifests.lock_evidence``): a
resolver adding transitive pins adds no dependency. A requirements file that
only may be one (every entry pinned, or a sibling ``.in`` it is compiled from)
counts at base, and its new pins are at most UNVERIFIED. A PASS is earned:
a changed manifest of another ecosystem (``go.mod``, ``Cargo.toml``, a
``Gemfile``, conda's ``environment.yml``, ``tox.ini``) makes it UNVERIFIED.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tribunal.change.diff.model import FileChange
from tribunal.change.model import Change, Claim
from tribunal.claims.known_deps import Reader, included, is_source, names_in
from tribunal.claims.registry import Judgement
from tribunal.findings import Verdict
from tribunal.lang.manifests import Declared, Dependency, kind_of, parse_manifest


@dataclass
class _Base:
    names: set[str] = field(default_factory=set)
    uncertain: set[str] = field(default_factory=set)
    opaque: set[str] = field(default_factory=set)
    problems: list[str] = field(default_factory=list)


def verify(change: Change, claim: Claim) -> Judgement:
    judgement = _verify(change)
    if judgement.verdict is not Verdict.PASS:
        return judgement
    from tribunal.claims.unread import shown, unread_manifests

    unread = unread_manifests(change)
    if not unread:
        return judgement
    return Judgement(
        Verdict.UNVERIFIED,
        "dependency manifests Tribunal does not read changed",
        f"{judgement.title}; not read: {shown(unread)}.",
    )


def _verify(change: Change) -> Judgement:
    changed = [fc for fc in change.files if kind_of(fc.path) and not change.is_generated(fc.path)]
    if not any(fc.has_head for fc in changed):
        return _no_manifest(change)
    if not change.has_base:
        return Judgement(Verdict.UNVERIFIED, "no base to compare the manifests with")
    heads, problems = _head_manifests(change, changed)
    base = _base_manifests(change, changed)
    base.problems += _base_sources(change, base)
    known = base.names | {d.project for d in heads if d.project}
    new = [(d.path, dep) for d in heads for dep in d.deps if dep.name not in known]
    pinned = {d.path: d.maybe_lock for d in heads if d.maybe_lock}
    if any(path not in pinned for path, _ in new):
        new = [(path, dep) for path, dep in new if path not in pinned]
    else:  # only pins in files that may be locks: a resolver may have added them
        problems += sorted({pinned[path] for path, _ in new})
    unnamed = [(d.path, t) for d in heads for t in d.uncertain if t not in base.uncertain]
    hidden = [t for d in heads for t in d.opaque if t not in base.opaque]
    if new:
        evidence = "\n".join(f"{path}: '{dep.text}' in {dep.section}" for path, dep in new)
        names = ", ".join(sorted({f"'{dep.name}'" for _, dep in new}))
        doubts = problems + base.problems + sorted(base.opaque)
        doubts += _lookalikes(base.uncertain, [d for _, d in new])
        where = _where(change, *new[0])
        if not doubts:
            return Judgement(
                Verdict.CONTRADICTED,
                f"new dependency {names}",
                f"Declared at head and in no manifest at base:\n{evidence}",
                where,
            )
        return Judgement(
            Verdict.UNVERIFIED,
            f"{names} look new, but the base could not be read in full",
            f"{evidence}\n" + "\n".join(doubts),
            where,
        )
    if unnamed or hidden or problems:
        lines = [f"{path}: '{text}' names no package statically" for path, text in unnamed]
        detail = "\n".join(lines + hidden + problems)
        return Judgement(Verdict.UNVERIFIED, "manifest entries could not be read", detail)
    read = {d.path for d in heads}
    checked = ", ".join(fc.path for fc in changed if fc.path in read) or "none"
    locks = ", ".join(fc.path for fc in changed if fc.has_head and fc.path not in read)
    skipped = f" Lock files (a resolver's output, not manifests): {locks}." if locks else ""
    return Judgement(
        Verdict.PASS, "no new dependency", f"Changed manifests checked: {checked}.{skipped}"
    )


def _no_manifest(change: Change) -> Judgement:
    scripts = [fc.path for fc in change.files if fc.path.rsplit("/", 1)[-1] == "setup.py"]
    if scripts:
        return Judgement(
            Verdict.UNVERIFIED,
            "setup.py changed; its requirements are code and were not checked",
            ", ".join(scripts),
        )
    return Judgement(Verdict.PASS, "no dependency manifest changed")


def _head_manifests(change: Change, changed: list[FileChange]) -> tuple[list[Declared], list[str]]:
    heads: list[Declared] = []
    problems: list[str] = []
    for fc in changed:
        if not fc.has_head:
            continue
        source = change.head_source(fc)
        if source is None:
            problems.append(f"{fc.path}: could not be read at head")
            continue
        declared = _unless_lock(parse_manifest(fc.path, source.text), change.read_head)
        if declared is None:
            continue
        heads.append(declared)
        heads += included(declared, change.read_head)
        if declared.error:
            problems.append(declared.error)
    return heads, problems


def _unless_lock(declared: Declared, read: Reader) -> Declared | None:
    """``declared``, marked when it may be compiled from a sibling ``.in``; None for a lock."""
    if declared.lock:
        return None
    stem, dot, ext = declared.path.rpartition(".")
    if dot and ext == "txt" and not declared.maybe_lock and read(f"{stem}.in") is not None:
        declared.maybe_lock = f"{declared.path}: it may be compiled from {stem}.in"
    return declared


def _base_manifests(change: Change, changed: list[FileChange]) -> _Base:
    """Every manifest of the base tree; without a listing, the changed ones only."""
    out = _Base()
    listing = change.base.paths() if change.base is not None else frozenset()
    paths = {p for p in listing if kind_of(p) and not change.is_generated(p)}
    if change.range.kind == "diff" and change.range.base is None:
        paths = {fc.old_path for fc in changed if fc.old_path}
        out.problems.append("the base tree could not be listed; only changed manifests were read")
    for path in sorted(paths):
        source = change.read_base(path)
        if source is None:
            continue
        declared = _unless_lock(parse_manifest(path, source.text), change.read_base)
        if declared is None:
            continue
        for one in (declared, *included(declared, change.read_base)):
            out.names.update(dep.name for dep in one.deps)
            out.names.update(dep.alias for dep in one.deps if dep.alias)
            out.names.update([one.project] if one.project else [])
            out.uncertain.update(one.uncertain)
            out.opaque.update(one.opaque)
            if one.error:
                out.problems.append(one.error)
    return out


def _base_sources(change: Change, base: _Base) -> list[str]:
    """Names from base-only sources (``setup.py``, tox, conda) join ``base``; their doubts."""
    if change.base is None or (change.range.kind == "diff" and change.range.base is None):
        return []
    doubts: list[str] = []
    for path in sorted(p for p in change.base.paths() if is_source(p)):
        if change.is_generated(path):
            continue
        source = change.read_base(path)
        if source is not None:
            names, why = names_in(path, source.text)
            base.names |= names
            doubts += why
    return doubts


def _lookalikes(uncertain: set[str], deps: list[Dependency]) -> list[str]:
    """Base entries without a readable name whose text mentions one of the new names."""
    out = []
    for text in sorted(uncertain):
        folded = text.lower().replace("_", "-").replace(".", "-")
        for dep in deps:
            if dep.name.lower() in folded:
                out.append(f"the base entry '{text}' may already be '{dep.name}'")
    return out


def _where(change: Change, path: str, dep: Dependency) -> tuple[str, int | None]:
    """The manifest line that declares ``dep`` at head (its text, else its name), if found."""
    source = change.read_head(path)
    lines = source.lines if source is not None else []
    for needle in (dep.text, dep.name):
        for number, line in enumerate(lines, start=1):
            if needle and needle in line:
                return path, number
    return path, None
