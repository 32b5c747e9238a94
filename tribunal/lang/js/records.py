"""Turn one JS/TS file's discovered tests into ``TestRecord``s (Python: ``test_records``).

Discovery itself is ``js_tests``; this adds what comparing two sides needs:
an ordinal per repeated name, the skip and expected-failure state, and the
code of the body for recognizing a renamed or moved test (a test with parse
errors is known by its name alone).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tribunal.change.model import Source
from tribunal.lang.js import syntax as js
from tribunal.lang.js.decls import code_text
from tribunal.lang.js.testcases import tests_of
from tribunal.lang.test_record import TestRecord, ordinals


def js_records(source: Source, path: str, head_path: str, language: str) -> list[TestRecord]:
    _, tests = tests_of(source, language)  # the parse assertion-free-test made
    out = []
    numbered = zip(tests, ordinals(t.name for t in tests), strict=True)
    for slot, (test, ordinal) in enumerate(numbered):
        body_node = test.callback if test.callback is not None else test.body_ref
        body = code_text(body_node, language) if body_node is not None else ""
        out.append(
            TestRecord(
                path=path,
                head_path=head_path,
                name=test.name,
                ordinal=ordinal,
                start=test.start_line,
                end=test.end_line,
                line=test.start_line,
                skipped=test.skipped,
                xfailed=test.inverted,
                conditional_skip=test.conditional_skip,
                body=body if not js.error_nodes(test.node) else f"\0{test.name}",
                language="javascript" if language == "javascript" else "typescript",
                locate=_locator(Source(path, source.data, source.trees), language, slot),
            )
        )
    return out


def _locator(source: Source, language: str, slot: int) -> Callable[[], tuple[Any, Any]]:
    """The record's test and index, from the tree cache (the file's bytes are all it keeps)."""

    def locate() -> tuple[Any, Any]:
        index, tests = tests_of(source, language)
        return tests[slot], index

    return locate
