"""assertion-free-test for JavaScript and TypeScript.

Only test files are parsed (``is_test_file``), each once; only tests whose
lines the change touches are judged, one finding per test. A test counts as
touched when the diff adds a line inside it or deletes one from it: the base
file is parsed too (only when the diff deletes lines) so that a test whose
only change is a deleted assertion is measured against its old span.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

from tribunal.analyzers.assertion_free_test.ident import ID
from tribunal.change.diff.model import FileChange
from tribunal.change.model import Change
from tribunal.findings import Finding, Verdict
from tribunal.lang.js import syntax as js
from tribunal.lang.js.judge import Judgement
from tribunal.lang.js.module import ModuleIndex
from tribunal.lang.js.project import judge_in_project
from tribunal.lang.js.testcases import JsTestCase, is_test_file, tests_of
from tribunal.lang.paths import language_of
from tribunal.util.lazyre import lazy

if TYPE_CHECKING:
    from tree_sitter import Node

_TITLES = {
    Verdict.PASS: "test '{}' asserts",
    Verdict.UNVERIFIED: "test '{}' may assert nothing",
    Verdict.CONTRADICTED: "test '{}' asserts nothing",
}
_FIX = "Add an assertion on the behaviour the test is named for, or delete the test."
_CHECK = "If it should check a result, assert on it; a smoke test that only runs code is fine."
_TOKEN = lazy(r"(\w+)|\S")  # a word, or one other visible character
_TEST_WORDS = frozenset({"it", "test", "specify", "fit"})  # ``Deno.test`` ends in ``test``

Span = tuple[int, int]


def judge_file(change: Change, fc: FileChange) -> Iterator[Finding]:
    language = language_of(fc.path)
    if language is None or not is_test_file(fc.path):
        return
    source = change.head_source(fc)
    if source is None:
        return
    index, tests = tests_of(source, language)
    old_spans = _old_spans(change, fc) if fc.removed else {}
    seen: Counter[str] = Counter()
    for test in tests:
        key = (test.name, seen[test.name])
        seen[test.name] += 1
        if test.skipped:
            continue
        if fc.touches(test.start_line, test.end_line, old_spans.get(key)):
            judgement = judge_in_project(change, fc.path, test, index, source.text)
            yield _finding(fc.path, test, judgement, language)
    unreadable = _unreadable_line(fc, index, tests)
    if unreadable is not None:
        yield Finding(
            analyzer=ID,
            verdict=Verdict.UNVERIFIED,
            file=fc.path,
            line=unreadable,
            title="changed tests could not be parsed",
            detail=(
                f"the parser could not read line {unreadable} (a syntax error, or syntax "
                "tree-sitter does not know); a test there could not be found or judged"
            ),
            language=language,
        )


def _finding(path: str, test: JsTestCase, judgement: Judgement, language: str) -> Finding:
    lines = f"lines {test.start_line}-{test.end_line}"
    if judgement.verdict is Verdict.CONTRADICTED:
        detail = f"No assertion in '{test.name}' ({lines}): {judgement.reason}. {_FIX}"
    elif judgement.verdict is Verdict.UNVERIFIED:
        detail = f"{_capital(judgement.reason)}. {_CHECK}"
    else:
        detail = _capital(judgement.reason)
    return Finding(
        analyzer=ID,
        verdict=judgement.verdict,
        file=path,
        line=test.start_line,
        end_line=test.end_line,
        title=_TITLES[judgement.verdict].format(test.name),
        detail=detail,
        language=language,
    )


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _old_spans(change: Change, fc: FileChange) -> dict[tuple[str, int], Span]:
    """Base spans of tests by (name, occurrence), to measure deletions exactly."""
    base = change.base_source(fc)
    old_language = language_of(fc.old_path) if fc.old_path else None
    if base is None or fc.old_path is None or old_language is None:
        return {}
    if not is_test_file(fc.old_path):
        return {}
    _, tests = tests_of(base, old_language)
    seen: Counter[str] = Counter()
    spans = {}
    for test in tests:
        spans[(test.name, seen[test.name])] = (test.start_line, test.end_line)
        seen[test.name] += 1
    return spans


def _unreadable_line(fc: FileChange, index: ModuleIndex, tests: Sequence[JsTestCase]) -> int | None:
    """A touched syntax error outside every found test that may hide a test call."""
    for error in js.error_nodes(index.root):
        if any(_within(error, test) for test in tests):
            continue  # the test's own judgement accounts for it
        start, end = js.first_line(error), js.last_line(error)
        if not fc.touches(start, end):
            continue
        if has_test_call(js.text(_statement_of(error))):
            return start
    return None


def has_test_call(text: str) -> bool:
    """Whether ``text`` calls a test API: ``it(``, ``test.each(...)(``, ``Deno.test(``, ``it`...```.

    One pass over words and punctuation: a test word, then ``.member`` links,
    then ``(`` or a template. (The regex this replaces rescanned the member
    chain from every link of it: 24 s on an 80 KB ``test.test.test...``.)
    """
    in_chain = False
    after_dot = False
    for match in _TOKEN().finditer(text):
        token = match[0]
        if in_chain and not after_dot and token in ("(", "`"):
            return True
        if in_chain and not after_dot and token == ".":
            after_dot = True
            continue
        if in_chain and after_dot and match[1] is not None:
            after_dot = False
            continue
        in_chain, after_dot = token in _TEST_WORDS, False
    return False


def _within(error: Node, test: JsTestCase) -> bool:
    return test.node.start_byte <= error.start_byte and error.end_byte <= test.node.end_byte


def _statement_of(node: Node) -> Node:
    """The statement (or top-level node) an error sits in."""
    current = node
    while current.parent is not None and current.parent.type not in ("program", "statement_block"):
        current = current.parent
    return current
