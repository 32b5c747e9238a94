"""test-tampering for one JS/TS test file: stripped checks, tautologies, swallowed asserts.

The same rules as for Python (``python_rules``), on the tree-sitter front end:
assertions are what ``js_judge`` recognizes, so this analyzer and
assertion-free-test agree on what checks. A file with syntax the parser
could not read gets no CONTRADICTED at all: error recovery may have moved
code between tests.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

from tribunal.analyzers.test_tampering.common import (
    Lazy,
    Pair,
    cap,
    commented_out,
    fresh_indices,
    judged_pairs,
    make,
    may_check,
    quoted,
    ran_before,
    stripped_checks,
    unseen,
)
from tribunal.analyzers.test_tampering.js_swallow import swallowed
from tribunal.analyzers.test_tampering.js_tautology import OR_TRUE, descendants, tautologies
from tribunal.change.diff.model import FileChange
from tribunal.change.model import Source
from tribunal.findings import Finding, Verdict
from tribunal.lang.js import syntax as js
from tribunal.lang.js.calls import api_calls
from tribunal.lang.js.decls import code_text
from tribunal.lang.js.judge import judge_test
from tribunal.lang.js.module import ModuleIndex, dotted
from tribunal.lang.js.testcases import JsTestCase
from tribunal.lang.test_record import TestRecord

if TYPE_CHECKING:
    from tree_sitter import Node

_MIGHT_CHECK = frozenset(
    {"call_expression", "new_expression", "await_expression", "throw_statement"}
    | {"yield_expression", "member_expression"}
)


class FileContext:
    """What every test of one file shares: sources, the error cap, touched hooks."""

    def __init__(
        self, fc: FileChange, base: Source | None, index: ModuleIndex, elsewhere: Lazy
    ) -> None:
        self.fc = fc
        self.base = base
        self.language = index.language
        self.limit = Verdict.UNVERIFIED if index.root.has_error else Verdict.CONTRADICTED
        self.elsewhere = Lazy(lambda: [*elsewhere.get(), *_touched_hooks(fc, index)])
        self.syntax = (
            ["the file has syntax the parser could not read"] if index.root.has_error else []
        )

    @property
    def label(self) -> str:
        return "javascript" if self.language == "javascript" else "typescript"


def judge_file(ctx: FileContext, pairs: Sequence[Pair]) -> Iterator[Finding]:
    gained = Lazy(lambda: _new_asserting_tests(pairs))
    for pair in judged_pairs(ctx.fc, pairs):
        yield from _tautologies(ctx, pair)
        yield from _swallowed(ctx, pair)
        old = ran_before(pair)
        if old is not None:
            yield from _removed_checks(ctx, old, pair.new, gained)


# --- every check removed ------------------------------------------------------------------


def _removed_checks(
    ctx: FileContext, old: TestRecord, new: TestRecord, gained: Lazy
) -> Iterator[Finding]:
    base_test: JsTestCase = old.test
    head_test: JsTestCase = new.test
    if head_test.callback is None or base_test.callback is None:
        return
    base = judge_test(base_test, old.index)
    if base.verdict is not Verdict.PASS:
        return
    if judge_test(head_test, new.index).verdict is Verdict.PASS:
        return
    fc = ctx.fc
    sites = [n for n in base.assertion_lines if old.start <= n <= old.end]
    doubts = [] if sites else ["its base checks could not be located in the test itself"]
    doubts += [
        f"base line {n} (`{_base_line(ctx, n)}`) is unchanged" for n in sites if n not in fc.removed
    ]
    doubts += _syntax(base_test, "base") + _syntax(head_test, "head")
    actions = _added_actions(fc, head_test, base_test, ctx.language)
    doubts += [f"line {n} adds `{text}`" for n, text in actions]
    doubts += _new_setup(base_test, head_test)
    doubts += [f"it still calls `{text}` (line {n})" for n, text in _checky_calls(new)]
    doubts += [*ctx.elsewhere.get(), *gained.get(), *ctx.syntax]
    shown = "; ".join(f"line {n}: `{_base_line(ctx, n)}`" for n in sites[:3])
    yield stripped_checks(
        fc.path,
        new,
        shown,
        doubts,
        ctx.label,
        name=f"'{new.name}'",
        commented=commented_out(fc, sites, "//", "/*"),
        verdict=cap(Verdict.CONTRADICTED, ctx.limit),
    )


def _base_line(ctx: FileContext, line: int) -> str:
    return quoted(ctx.base.line(line), 50) if ctx.base is not None else "?"


def _syntax(test: JsTestCase, side: str) -> list[str]:
    errors = js.error_nodes(test.node)
    if not errors and not js.inside_error(test.node):
        return []
    line = js.first_line(errors[0]) if errors else test.start_line
    return [f"the parser could not read {side} line {line}, so the test was not fully seen"]


def _added_actions(
    fc: FileChange, test: JsTestCase, old: JsTestCase, language: str
) -> list[tuple[int, str]]:
    """Calls, ``await``, ``throw``, property reads on added lines that base did not have."""
    found = [(js.first_line(n), n) for n in _actions(test) if js.first_line(n) in fc.added]
    before = [code_text(n, language) for n in _actions(old)]
    out: dict[int, str] = {}
    for i in fresh_indices([code_text(n, language) for _, n in found], before):
        line, node = found[i]
        out.setdefault(line, quoted(js.text(node), 50))
    return sorted(out.items())


def _actions(test: JsTestCase) -> list[Node]:
    callback = test.callback
    body = callback.child_by_field_name("body") if callback is not None else None
    if body is None:
        return []
    return [node for node in descendants(body) if node.type in _MIGHT_CHECK]


def _new_setup(old: JsTestCase, new: JsTestCase) -> list[str]:
    out = []
    if new.has_setup and not old.has_setup:
        out.append(f"a setup hook (line {new.setup_line}) now runs with it")
    if new.params != old.params:
        params = ", ".join(p or "{...}" for p in new.params) or "none"
        out.append(f"its callback's parameters changed (now: {params})")
    return out


def _touched_hooks(fc: FileChange, index: ModuleIndex) -> list[str]:
    for call in api_calls(index):
        start, end = js.first_line(call.node), js.last_line(call.node)
        if call.role == "hook" and fc.touches(start, end):
            return [f"the diff changes a setup or teardown hook (line {start})"]
    return []


def _checky_calls(record: TestRecord) -> list[tuple[int, str]]:
    test: JsTestCase = record.test
    index: ModuleIndex = record.index
    root = test.callback if test.callback is not None else test.node
    out = []
    for callee in index.callees.within(root):
        if callee.type not in ("identifier", "member_expression"):
            continue
        parts = dotted(callee)
        if not parts or (len(parts) == 1 and index.helper(parts[0]) is not None):
            continue
        if may_check(parts) or may_check([js.text(callee).rsplit(".", 1)[-1].strip()]):
            out.append((js.first_line(callee), quoted(js.text(callee), 40) + "(...)"))
    return out[:2]


def _new_asserting_tests(pairs: Sequence[Pair]) -> list[str]:
    for pair in pairs:
        added = pair.old is None and not pair.new.disabled
        if added and judge_test(pair.new.test, pair.new.index).verdict is Verdict.PASS:
            return [f"the change adds test '{pair.new.name}' (line {pair.new.line})"]
    return []


# --- tautologies and swallowed assertions -------------------------------------------------


def _root(test: JsTestCase) -> Node:
    return test.callback if test.callback is not None else test.node


def _tautologies(ctx: FileContext, pair: Pair) -> Iterator[Finding]:
    new = pair.new
    head = tautologies(_root(new.test), new.index, new.test.context)
    items = [(s.line, s.end, code_text(s.node, ctx.language)) for s in head]
    base: list[str] = []
    if pair.old is not None:
        old = pair.old
        found = tautologies(_root(old.test), old.index, old.test.context)
        base = [code_text(s.node, old.index.language) for s in found]
    for i in unseen(ctx.fc, items, base):
        spot = head[i]
        why = (
            "expects a value that `|| <truthy literal>` makes always truthy under a matcher "
            "any truthy value passes (the left side may still throw, but that is no check)"
            if spot.why == OR_TRUE
            else "compares literals (or a value with itself)"
        )
        yield make(
            cap(Verdict.CONTRADICTED, ctx.limit),
            ctx.fc.path,
            spot.line,
            "this assertion can never fail",
            f"`{quoted(js.text(spot.node))}` in test '{new.name}', which this change added or "
            f"edited, {why}: it passes whatever the code does." + _uncertain(ctx),
            ctx.label,
            spot.end,
        )


def _swallowed(ctx: FileContext, pair: Pair) -> Iterator[Finding]:
    new = pair.new
    head = swallowed(_root(new.test), new.index, new.test.context)
    base: list[str] = []
    if pair.old is not None:
        old = pair.old
        found = swallowed(_root(old.test), old.index, old.test.context)
        base = [f"{code_text(s.spot.node, old.index.language)}\0{s.handler}" for s in found]
    keys = [f"{code_text(s.spot.node, ctx.language)}\0{s.handler}" for s in head]
    for i in fresh_indices(keys, base):
        item = head[i]
        verdict = Verdict.CONTRADICTED if item.certain else Verdict.UNVERIFIED
        yield make(
            cap(verdict, ctx.limit),
            ctx.fc.path,
            item.spot.line,
            "the assertion's failure is caught and discarded"
            if item.certain
            else "the assertion's failure is caught",
            f"`{quoted(js.text(item.spot.node))}` in test '{new.name}' sits in a `try` whose "
            f"`{item.handler}` (line {item.handler_line}) catches its failure, and {item.why}."
            + _uncertain(ctx),
            ctx.label,
            item.spot.end,
        )


def _uncertain(ctx: FileContext) -> str:
    if not ctx.syntax:
        return ""
    return " (Not certain: the file has syntax the parser could not read.)"
