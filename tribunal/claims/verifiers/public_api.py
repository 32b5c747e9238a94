"""``no-public-api-change``: the public names of the changed modules are the same.

The union of public names over every changed non-test module is compared,
base vs head, per language family (Python modules; JS/TS export sets). A
union, not a per-module comparison, so a pure move (``git mv``, or a function
moved between changed modules while an ``__init__`` or index keeps exporting
it) is not a change. CONTRADICTED needs a name that provably appeared or
disappeared; a surface that cannot be enumerated (a computed ``__all__``, an
``export *`` that does not resolve, CommonJS) can hide names, so any such
doubt makes the verdict UNVERIFIED. Run-time machinery open to any name (a
lazy-loading ``__getattr__``) can only make a name exist, never hide a static
one: a name added statically is certain unless the base side has such
machinery (it may have served the name already), a name removed is certain
unless the head side has it. A PASS is earned: changed source files whose names
Tribunal cannot list (another language, a component it cannot read) or changed
package entry points (``package.json`` ``exports`` / ``main`` / ``bin``,
``pyproject.toml`` scripts) make it UNVERIFIED (``unread``).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from tribunal.change.model import Change, Claim, Source
from tribunal.claims.registry import Judgement
from tribunal.claims.scope import family, is_private_module, source_modules
from tribunal.findings import Verdict

if TYPE_CHECKING:
    import re

_SHOWN = 12
_Reader = Callable[[str], Source | None]


@dataclass
class _Union:
    where: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    imported: set[str] = field(default_factory=set)
    doubts: list[str] = field(default_factory=list)
    dynamic: list[str] = field(default_factory=list)

    @property
    def names(self) -> set[str]:
        return set(self.where)


def verify(change: Change, claim: Claim) -> Judgement:
    judgement = _verify(change)
    if judgement.verdict is not Verdict.PASS:
        return judgement
    from tribunal.claims.unread import entry_points_changed, shown, unread_sources

    unread = unread_sources(change)
    entries = entry_points_changed(change)
    if not unread and not entries:
        return judgement
    lines = (
        [f"Source files whose public names Tribunal cannot list: {shown(unread)}."]
        if unread
        else []
    )
    lines += [f"Published entry points changed: {shown(entries)}."] if entries else []
    title = "the public surface may have changed where Tribunal cannot read it"
    return Judgement(Verdict.UNVERIFIED, title, "\n".join([judgement.title + ".", *lines]))


def _verify(change: Change) -> Judgement:
    modules = source_modules(change)
    if not modules:
        return Judgement(Verdict.PASS, "no non-test source module changed")
    if not change.has_base:
        return Judgement(Verdict.UNVERIFIED, "no base to compare the public surface with")
    verdicts: list[Judgement] = []
    for kind in ("python", "js"):
        paths = [fc for fc in modules if family(fc.path) == kind]
        if not paths:
            continue
        base, head = _Union(), _Union()
        for fc in paths:
            if fc.old_path is not None:
                _collect(base, kind, fc.old_path, change.read_base)
            if fc.has_head:
                _collect(head, kind, fc.path, change.read_head)
        judgement = _compare(kind, base, head, len(paths))
        verdicts.append(replace(judgement, where=_where(change, judgement, base, head)))
    return max(verdicts, key=lambda j: j.verdict)


def _where(
    change: Change, judgement: Judgement, base: _Union, head: _Union
) -> tuple[str, int | None] | None:
    """An added name's definition at head, else a module that lost a name (no line)."""
    if judgement.verdict is Verdict.PASS:
        return None
    for name in sorted(head.names - base.names):
        for path in sorted(head.where[name]):
            return path, _defined_at(change.read_head(path), name)
    for name in sorted(base.names - head.names):
        for path in sorted(base.where[name]):
            return path, None
    return None


def _defined_at(source: Source | None, name: str) -> int | None:
    """The first line that binds ``name`` (``def``/``class``/``function``/``const``/``=``)."""
    if source is None:
        return None
    binding = binding_pattern(name)
    for number, line in enumerate(source.lines, start=1):
        if binding.search(line):
            return number
    return None


def binding_pattern(name: str) -> re.Pattern[str]:
    """A line that binds ``name``, searched from its start."""
    import re

    return re.compile(
        rf"^\s*(?:export\s+)?(?:default\s+)?(?:async\s+)?"
        rf"(?:def|class|function\*?|const|let|var|interface|type|enum)\s+{re.escape(name)}\b"
        rf"|^{re.escape(name)}\s*[:=]"
    )


def _collect(into: _Union, kind: str, path: str, read: _Reader) -> None:
    if kind == "python":
        from tribunal.claims.surface_py import module_surface

        surface = module_surface(path, read)
    else:
        from tribunal.claims.surface_js import module_exports

        surface = module_exports(path, read)
    for name in surface.names:
        into.where[name].add(path)
    into.imported |= surface.imported
    into.doubts += surface.doubts
    into.dynamic += surface.dynamic


def _compare(kind: str, base: _Union, head: _Union, count: int) -> Judgement:
    what = "Python modules" if kind == "python" else "JS/TS modules"
    removed = base.names - head.names
    added = head.names - base.names
    soft = (removed & head.imported) | (added & base.imported)
    private = {n for n in removed if _only_private(base, n)}
    private |= {n for n in added if _only_private(head, n)}
    hard = (removed | added) - soft - private
    lines = [f"- {n} (was in {_paths(base, n)})" for n in sorted(removed)]
    lines += [f"+ {n} (now in {_paths(head, n)})" for n in sorted(added)]
    if len(lines) > _SHOWN:
        lines = [*lines[:_SHOWN], f"... and {len(lines) - _SHOWN} more"]
    evidence = "\n".join(lines)
    doubts = sorted(set(base.doubts + head.doubts))
    certain = (hard & added and not base.dynamic) or (hard & removed and not head.dynamic)
    if certain and not doubts:
        title = f"public surface of the changed {what} changed ({_count(removed, added)})"
        return Judgement(Verdict.CONTRADICTED, title, evidence)
    if removed or added or doubts or base.dynamic or head.dynamic:
        notes = [f"still bound by an import: {', '.join(sorted(soft))}"] if soft else []
        if private:
            listed = ", ".join(sorted(private))
            notes.append(f"only in private modules (public only if re-exported): {listed}")
        dynamic = sorted(set(base.dynamic + head.dynamic))
        detail = "\n".join(([evidence] if evidence else []) + notes + doubts + dynamic)
        title = f"public surface of the changed {what} may have changed"
        return Judgement(Verdict.UNVERIFIED, title, detail)
    return Judgement(
        Verdict.PASS,
        f"no public name added or removed in {count} changed {what}",
        f"{len(head.names)} public names compared.",
    )


def _only_private(side: _Union, name: str) -> bool:
    return all(is_private_module(path) for path in side.where.get(name, ()))


def _paths(side: _Union, name: str) -> str:
    return ", ".join(sorted(side.where.get(name, ())))


def _count(removed: set[str], added: set[str]) -> str:
    parts = [f"{len(removed)} removed"] if removed else []
    return ", ".join(parts + ([f"{len(added)} added"] if added else []))
