"""Importers the change broke without touching them.

When the change deletes, moves or renames a module, or a changed module stops
defining a name, an import elsewhere that resolved at base may no longer
resolve at head — on a line the diff never touched. Candidates are found
cheaply (``git grep`` of the head tree for the removed words), only those files
are parsed, and an import is reported only when it resolved at base: the
finding sits at the importer and names the change that broke it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from tribunal.analyzers.hallucinated_symbol.context import Run
from tribunal.analyzers.hallucinated_symbol.language import Imp, Language, Removal
from tribunal.change.diff.model import FileChange
from tribunal.engine.analysis import record_crash
from tribunal.findings import Finding, Verdict
from tribunal.git.treegrep import grep_files
from tribunal.lang.paths import language_of

#: More candidate files than this and the rule stops early (a note, never a verdict).
MAX_CANDIDATES = 5000
_TOKEN = re.compile(r"[A-Za-z_$][\w$]*")


def broken_importers(
    run: Run, lang: Language[Imp], removals: Sequence[Removal]
) -> Iterator[Finding]:
    """CONTRADICTED (or UNVERIFIED) findings at importers the change broke.

    ``removals`` is what the change removed; the caller asks for it only when
    both trees are known (the package's ``_broken``).
    """
    words = frozenset(r.word for r in removals)
    if not words:
        return
    files = grep_files(run.change, words, lang.globs) or []
    changed = {fc.path: fc for fc in run.change.files}
    for path in files[:MAX_CANDIDATES]:
        fc = changed.get(path)
        if run.change.is_generated(path) or (fc is not None and fc.old_path != path):
            continue  # generated, or new / moved: every import of it is judged as touched
        try:
            found = list(_importer(lang, path, fc, words, removals))
        except RecursionError as exc:  # that importer nests too deeply: UNVERIFIED there
            record_crash(path, exc)
            continue
        yield from found


def _importer(
    lang: Language[Imp],
    path: str,
    fc: FileChange | None,
    words: frozenset[str],
    removals: Sequence[Removal],
) -> Iterator[Finding]:
    touched = lang.touched(fc) if fc is not None else []
    for imp in lang.imports("head", path) or []:
        if imp not in touched and lang.mentions(imp, words):
            yield from _compare(lang, path, imp, removals)


def _compare(
    lang: Language[Imp], path: str, imp: Imp, removals: Sequence[Removal]
) -> Iterator[Finding]:
    failing = [o for o in lang.judge("head", path, imp) if o.verdict is not Verdict.PASS]
    if not failing:
        return
    resolved = {o.key for o in lang.judge("base", path, imp) if o.verdict is Verdict.PASS}
    for outcome in failing:
        if outcome.key not in resolved:
            continue  # already broken (or unknowable) before the change: not this change's doing
        tokens = set(_TOKEN.findall(outcome.key))
        culprits = [r.culprit for r in removals if r.word in tokens] or [
            r.culprit for r in removals
        ][:3]
        detail = f"{outcome.detail}\nIt resolved before this change; {'; '.join(culprits)}."
        title = f"{outcome.title} (broken by this change)"
        language = language_of(path) or lang.language
        yield outcome._replace(title=title, detail=detail).finding(path, language)
