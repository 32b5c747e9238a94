"""test-tampering: a change that makes failing tests pass without fixing anything.

Compares each test the diff touches, base against head, for Python and
JS/TS, and reports the usual ways of weakening a test:

- every check removed (CONTRADICTED when the diff deleted each assertion and
  added nothing that might check instead; else UNVERIFIED) — ``*_rules``;
- a tautology the diff added or edited (CONTRADICTED) — ``*_checks``;
- an assertion whose failure a ``try`` catches and discards (CONTRADICTED);
- a focused test committed (CONTRADICTED under Jest, Vitest, Mocha or
  Jasmine; UNVERIFIED under node:test or an unknown runner) — ``focus``;
- a test newly skipped or xfailed, or deleted (UNVERIFIED) — ``disabled``;
- test selection narrowed in config (UNVERIFIED) — ``selection``.

CONTRADICTED means "the diff itself proves the test's checks were removed
or disabled", never "this test can never fail": pre-existing weaknesses the
diff did not touch get no finding, and syntax the parser cannot read caps a
file at UNVERIFIED. Which tests exist on each side, and which were removed,
moved or disabled, comes from ``tribunal.lang.test_diff``, shared with the
``no-test-removed`` claim so that both always agree.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

from tribunal.analyzers.test_tampering.common import ID, Lazy, Pair
from tribunal.change.diff.model import FileChange
from tribunal.change.model import Change, Source
from tribunal.engine.analysis import each_file
from tribunal.findings import Finding
from tribunal.lang.paths import language_of
from tribunal.lang.test_diff import TestDiff, diff_tests

if TYPE_CHECKING:
    from tribunal.lang.js.module import ModuleIndex

__all__ = ["ID", "run"]


def run(change: Change) -> Iterator[Finding]:
    tests = diff_tests(change)
    if tests.test_files:
        from tribunal.analyzers.test_tampering import disabled

        yield from disabled.findings(change, tests)
        pairs = _pairs_by_file(tests)
        files = [fc for fc in change.files if fc.path in tests.test_files and fc.has_head]
        yield from each_file(files, lambda fc: _judge(change, fc, pairs.get(fc.path, [])))
    from tribunal.analyzers.test_tampering import selection

    yield from selection.findings(change)


def _pairs_by_file(tests: TestDiff) -> dict[str, list[Pair]]:
    """Kept tests (same file, same name) and added ones, by head path, in source order."""
    out: dict[str, list[Pair]] = defaultdict(list)
    for old, new in tests.kept:
        out[new.head_path].append(Pair(old, new))
    for new in tests.added:
        out[new.head_path].append(Pair(None, new))
    for pairs in out.values():
        pairs.sort(key=lambda p: p.new.start)
    return out


def _judge(change: Change, fc: FileChange, pairs: Sequence[Pair]) -> Iterator[Finding]:
    from tribunal.analyzers.test_tampering.elsewhere import checks_elsewhere

    spans = [(p.new.start, p.new.end) for p in pairs]
    if language_of(fc.path) == "python":
        if pairs:
            from tribunal.analyzers.test_tampering import python_rules

            elsewhere = Lazy(lambda: checks_elsewhere(change, fc, spans))
            yield from python_rules.judge_file(fc, pairs, elsewhere)
        return
    from tribunal.analyzers.test_tampering import focus, js_rules

    head, base = _js_indexes(change, fc, pairs)
    if head is None:
        return
    yield from focus.findings(change, fc, head, base)
    if pairs:
        elsewhere = Lazy(lambda: checks_elsewhere(change, fc, spans))
        ctx = js_rules.FileContext(fc, change.base_source(fc), head, elsewhere)
        yield from js_rules.judge_file(ctx, pairs)


def _js_indexes(
    change: Change, fc: FileChange, pairs: Sequence[Pair]
) -> tuple[ModuleIndex | None, ModuleIndex | None]:
    """The head and base module indexes of a JS/TS file, reusing the differ's when it has them."""
    head = next((p.new.index for p in pairs), None)
    base = next((p.old.index for p in pairs if p.old is not None), None)
    if head is None:
        head = _index(change.head_source(fc), fc.path)
    if base is None and fc.old_path is not None:
        base = _index(change.base_source(fc), fc.old_path)
    return head, base


def _index(source: Source | None, path: str) -> ModuleIndex | None:
    language = language_of(path)
    if source is None or language is None or language == "python":
        return None
    from tribunal.lang.js.module import index_module
    from tribunal.lang.trees import js_tree

    return index_module(js_tree(source, language), language)
