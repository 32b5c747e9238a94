"""hallucinated-symbol: imports of modules and names that do not exist.

Two rules per language: the import statements the change touched are
resolved at head; and importers the change broke without touching them (a
module or name it removed) are found and reported where they sit. Nothing is
imported or executed: modules are found from tree listings, names from ASTs.
Each language half is imported only when the change holds its files, and
its resolvers (roots, manifests, listings) only when an import must be judged:
most commits touch no import line and remove nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from tribunal.analyzers.hallucinated_symbol.context import Run
from tribunal.analyzers.hallucinated_symbol.grouped import fold
from tribunal.analyzers.hallucinated_symbol.language import Language
from tribunal.analyzers.hallucinated_symbol.outcome import ID
from tribunal.change.diff.model import FileChange
from tribunal.change.model import Change
from tribunal.engine.analysis import each_file, record_crash
from tribunal.findings import Finding
from tribunal.lang.paths import is_js_family, language_of
from tribunal.lang.sfc import is_sfc

__all__ = ["ID", "run"]


def run(change: Change) -> Iterator[Finding]:
    state = Run(change)
    try:
        found = list(_judge(change, state))
        has_env = any(f.group and f.language == "python" for f in found) and bool(state.python_env)
        yield from fold(found, change.root, has_env)
    finally:
        state.close()


def _judge(change: Change, state: Run) -> Iterator[Finding]:
    if _has(change, lambda lang: lang == "python"):
        from tribunal.analyzers.hallucinated_symbol.python_lang import PythonImports

        python = PythonImports(state)
        files = [fc for fc in change.analyzable(("python",)) if fc.has_head]
        yield from each_file(files, python.judge_file)
        yield from _broken(state, python)
    if _has(change, is_js_family) or any(is_sfc(fc.path) for fc in change.files):
        from tribunal.analyzers.hallucinated_symbol.js_lang import ScriptImports

        scripts = ScriptImports(state)
        files = [fc for fc in change.analyzable(scripts.languages) if fc.has_head]
        files += [fc for fc in change.files if _readable_component(fc)]
        yield from each_file(files, scripts.judge_file)
        yield from _broken(state, scripts)


def _readable_component(fc: FileChange) -> bool:
    return fc.has_head and fc.skip_reason is None and is_sfc(fc.path)


def _has(change: Change, wanted: Callable[[str | None], bool]) -> bool:
    """Whether any changed file (either side) is of the wanted language family."""
    return any(
        wanted(language_of(path))
        for fc in change.files
        for path in (fc.path, fc.old_path)
        if path is not None
    )


def _broken(state: Run, lang: Language[Any]) -> Iterator[Finding]:
    """The broken-importers rule, isolated: a crash is reported, never a verdict.

    It applies only when both trees are known and the change removed something;
    otherwise it is not even loaded (the common commit removes nothing).
    """
    try:
        if not state.tree("base").known or not state.tree("head").known:
            return
        removals = list(lang.removals())
        if removals:
            from tribunal.analyzers.hallucinated_symbol.broken_importers import broken_importers

            yield from broken_importers(state, lang, removals)
    except Exception as exc:
        record_crash(None, exc)
