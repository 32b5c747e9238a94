"""Turn one Python file's discovered tests into ``TestRecord``s (JS/TS: ``js_records``).

Discovery itself is ``python_tests.tests_of``, shared with assertion-free-test
so each side of a file is parsed and indexed once per run; this adds what
comparing two sides needs: an ordinal per repeated name, the skip and
expected-failure state, and a normalized body for recognizing a renamed or
moved test.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import Any

from tribunal.change.model import Source
from tribunal.lang.python.index import ModuleIndex, dotted
from tribunal.lang.python.marks import Effect, classify
from tribunal.lang.python.pytest_naming import PytestNaming
from tribunal.lang.python.testcases import tests_of
from tribunal.lang.test_record import TestRecord, ordinals

_CONDITIONAL = ("skipif", "skipIf", "skipUnless")


def python_records(
    source: Source, path: str, head_path: str, naming: PytestNaming
) -> list[TestRecord] | None:
    found = tests_of(source, naming)
    if found is None:
        return None
    index, tests = found
    out = []
    numbered = zip(tests, ordinals(t.qualname for t in tests), strict=True)
    for slot, (test, ordinal) in enumerate(numbered):
        decorators = [d for owner in (*test.classes, test.node) for d in owner.decorator_list]
        effects = [classify(d, index).effect for d in decorators]
        out.append(
            TestRecord(
                path=path,
                head_path=head_path,
                name=test.qualname,
                ordinal=ordinal,
                start=test.start,
                end=test.end,
                line=test.line,
                skipped=test.skip_reason is not None,
                xfailed=Effect.XFAIL in effects,
                conditional_skip=_conditional_skip(decorators, index),
                body=python_body(test.node),
                language="python",
                locate=_locator(Source(path, source.data, source.trees), naming, slot),
            )
        )
    return out


def _locator(source: Source, naming: PytestNaming, slot: int) -> Callable[[], tuple[Any, Any]]:
    """The record's test and index, from the tree cache (the file's bytes are all it keeps)."""

    def locate() -> tuple[Any, Any]:
        found = tests_of(source, naming)
        assert found is not None  # it parsed when the record was made: the same bytes do
        return found.tests[slot], found.module

    return locate


def _conditional_skip(decorators: list[ast.expr], index: ModuleIndex) -> str | None:
    """A ``skipif``-style decorator whose condition is not a literal (it may or may not skip)."""
    for decorator in decorators:
        target = decorator.func if isinstance(decorator, ast.Call) else decorator
        name = dotted(target) or ""
        conditional = name.rsplit(".", 1)[-1] in _CONDITIONAL
        if conditional and classify(decorator, index).effect is not Effect.SKIP:
            return ast.unparse(decorator)
    return None


def python_body(node: ast.FunctionDef | ast.AsyncFunctionDef) -> str:
    """Arguments and body, without name, decorators or docstring."""
    from tribunal.lang.python.decls import docstring_node

    body = node.body[1:] if docstring_node(node) is not None else node.body
    from tribunal.lang.python.astdump import canonical

    return "\n".join([canonical(node.args), *(canonical(stmt) for stmt in body)])
