"""Judge one Python test: does it assert, can it fail at all?

PASS when an assertion is reachable. CONTRADICTED only when nothing in the
test can fail: its body is provably harmless (``python_purity``) and no code
runs around it (fixtures, ``setUp``, autouse fixtures, wrapping decorators,
expected-failure marks). Everything in between is UNVERIFIED: a smoke test
fails only if the code it calls raises, which may be all it means to check.
"""

import ast
from collections.abc import Sequence
from typing import NamedTuple

from tribunal.findings import Verdict
from tribunal.lang.python.asserts import Assertion, Misspelling, scan_assertions
from tribunal.lang.python.index import ModuleIndex
from tribunal.lang.python.purity import examine
from tribunal.lang.python.testcases import PyTestCase

_KINDS = {
    "assert": "assert statement",
    "raise": "raise",
    "pytest": "pytest check",
    "unittest": "TestCase assertion",
    "mock": "mock assertion",
    "assert-named": "assertion call",
}


class Judgement(NamedTuple):
    """A verdict with its one-line reason and the evidence behind it."""

    verdict: Verdict
    reason: str
    evidence: tuple[str, ...]
    assertions: tuple[Assertion, ...] = ()
    misspellings: tuple[Misspelling, ...] = ()
    #: Methods the verdict rests on that were reached through ``self``: a subclass
    #: in another file may override them (only set on CONTRADICTED).
    overridable: tuple[str, ...] = ()

    @property
    def assertion_lines(self) -> tuple[int, ...]:
        return tuple(sorted({a.line for a in self.assertions}))


def judge_test(
    test: PyTestCase, index: ModuleIndex, outside_setup: Sequence[str] = ()
) -> Judgement:
    """``outside_setup``: code that runs around the test from other files (conftest.py)."""
    purity = examine(test.node, index, test.cls)
    scan = scan_assertions(test.node, index, test.cls, purity.tautologies)
    notes = _misspelling_notes(scan.misspellings)
    if scan.assertions:
        first = scan.assertions[0]
        evidence = [_assertion_line(a) for a in scan.assertions[:3]]
        if len(scan.assertions) > 3:
            evidence.append(f"... and {len(scan.assertions) - 3} more")
        reason = f"{_KINDS[first.kind]} at line {first.line}"
        return Judgement(
            Verdict.PASS, reason, (*evidence, *notes), scan.assertions, scan.misspellings
        )
    tautologies = [
        f"`assert` at line {line} can never fail (it only checks literals)"
        for line in scan.tautologies
    ]
    around = [*test.setup, *outside_setup, *test.caveats]
    if not scan.complete:
        around.insert(0, "its body nests too deeply to be read whole")
    if purity.blocker is None and not around and index.compile_error is not None:
        around = [f"its module does not compile ({index.compile_error}), so it never runs"]
    if purity.blocker is None and not around:
        reason = _harmless_body(test, purity.helpers, bool(scan.tautologies))
        return Judgement(
            Verdict.CONTRADICTED,
            reason,
            (*tautologies, *notes),
            misspellings=scan.misspellings,
            overridable=purity.methods,
        )
    if purity.blocker is None:
        reason = f"its body cannot fail, but {around[0]}"
        evidence = [f"also: {text}" for text in around[1:]]
    else:
        blocker = purity.blocker
        reason = (
            f"it {blocker.text} (line {blocker.line}), so it fails only if that code "
            "raises or checks something itself"
        )
        evidence = []
    if notes:  # a misspelled mock assertion was the only candidate: say that first
        reason, evidence = notes[0], [reason, *notes[1:], *tautologies, *evidence]
    else:
        evidence = [*tautologies, *evidence]
    return Judgement(Verdict.UNVERIFIED, reason, tuple(evidence), (), scan.misspellings)


def _harmless_body(test: PyTestCase, helpers: Sequence[str], tautological: bool) -> str:
    statements = [s for s in test.node.body if not _is_noop(s)]
    if not statements:
        return "its body is empty"
    if isinstance(statements[0], ast.Return):
        return "it returns before doing anything"
    if helpers:
        return f"it only calls same-file helpers that cannot fail: {', '.join(helpers)}"
    if tautological:
        return "its only asserts compare literals, so they can never fail"
    return "nothing in its body can fail (it only works with literal values)"


def _is_noop(stmt: ast.stmt) -> bool:
    return isinstance(stmt, ast.Pass) or (
        isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant)
    )


def _assertion_line(assertion: Assertion) -> str:
    via = f" (via {assertion.via})" if assertion.via else ""
    return f"line {assertion.line}: `{assertion.text}`{via}"


def _misspelling_notes(misspellings: Sequence[Misspelling]) -> list[str]:
    return [_note(slip) for slip in misspellings]


def _note(slip: Misspelling) -> str:
    """One sentence: what was written, why it checks nothing, what was probably meant."""
    where = f"at line {slip.line}"
    if slip.kind == "uncalled":
        return (
            f"`{slip.written}` {where} is never called (no parentheses), so it checks "
            f"nothing; did you mean `{slip.meant}`?"
        )
    if slip.kind == "unused":
        return (
            f"`{slip.written}` {where} is not used as a `with` block (and is given no "
            f"function to call), so it checks nothing; did you mean `{slip.meant}`?"
        )
    if slip.kind == "always-true":
        why = (
            "a non-empty tuple, list, set or dict is always true"
            if slip.written.removeprefix("assert ")[:1] in ("(", "[", "{")
            else "an `or` with a true literal is always true"
        )
        return f"`{slip.written}` {where} can never fail: {why}; did you mean `{slip.meant}`?"
    method = slip.written.rsplit(".", 1)[-1]
    effect = (
        "a Mock rejects unknown assert* names with AttributeError instead of checking"
        if method.startswith("assert")
        else "on a Mock it just returns another Mock and checks nothing"
    )
    return (
        f"`{slip.written}(...)` {where} is not an assertion; "
        f"did you mean `{slip.meant}`? ({effect})"
    )
