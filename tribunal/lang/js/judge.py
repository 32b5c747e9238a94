"""Judge one JS/TS test: is an assertion reachable, and if not, can anything fail?

PASS when an assertion is reachable (directly or through same-file helpers);
UNVERIFIED when nothing asserts but something might (any other call, ``new``,
``await``, code that may throw, syntax the parser could not read, a hook or
runner that may fail the test); CONTRADICTED only when nothing in the test can
fail at all. Same-file helpers are followed to a bounded depth, safe against
recursion, and only when their name is bound once and visible from the call.
"""

import re
from typing import TYPE_CHECKING, NamedTuple

from tribunal.findings import Verdict
from tribunal.lang.js import syntax as js
from tribunal.lang.js.module import FunctionDef, ModuleIndex, dotted
from tribunal.lang.js.safety import first_unsafe_reason
from tribunal.lang.js.slips import matcherless, typed_call
from tribunal.lang.js.slips import snippet as _snippet
from tribunal.lang.js.types import CHECKED as TYPE_CHECKED
from tribunal.lang.js.types import first_type_check

if TYPE_CHECKING:
    from tree_sitter import Node

    from tribunal.lang.js.testcases import JsTestCase

#: Methods of an AVA / tap / tape / node:test context (``t.is``) that assert.
CONTEXT_ASSERTIONS = frozenset(
    {"is", "not", "deepEqual", "notDeepEqual", "like", "true", "false", "truthy", "falsy"}
    | {"throws", "throwsAsync", "notThrows", "notThrowsAsync", "regex", "notRegex", "snapshot"}
    | {"fail", "plan", "assert", "ok", "notOk", "equal", "notEqual", "equals", "strictEqual"}
    | {"notStrictEqual", "same", "notSame", "strictSame", "strictNotSame", "match", "notMatch"}
    | {"error", "ifError", "rejects", "resolves", "resolveMatch", "doesNotThrow", "expect"}
    | {"has", "hasStrict", "notHas", "type", "deepStrictEqual", "notDeepStrictEqual"}
)
_MAX_DEPTH = 8
#: Runners that fail a test which runs no assertion (or never ends it), whatever its body.
_COUNTING_RUNNERS = {
    "ava": "AVA fails a test that runs no assertion (unless `failWithoutAssertions` is off)",
    "tape": "tape fails a test that never calls `t.end()` or `t.plan()`",
    "tap": "node-tap may fail a test that plans or ends nothing",
}
_SHOULD = re.compile(rb"\.\s*should\b")
_PLAIN_PARAMS = frozenset({"identifier", "comment"})

Event = tuple[int, str]  # (line, a clause saying what happens there)


class Judgement(NamedTuple):
    """A test's verdict, why, and where its assertions are (empty unless PASS)."""

    verdict: Verdict
    reason: str
    assertion_lines: tuple[int, ...] = ()


class _Outcome(NamedTuple):
    assertions: tuple[Event, ...] = ()
    unknown: Event | None = None  # the first thing that may assert or fail elsewhere
    error_line: int | None = None  # syntax the parser could not read
    helpers: tuple[str, ...] = ()  # same-file helpers called that cannot fail


def judge_test(test: "JsTestCase", index: ModuleIndex) -> Judgement:
    """Whether ``test`` can fail: PASS, UNVERIFIED or CONTRADICTED, with the evidence."""
    if test.callback is None:
        return _judge_reference(test, index)
    follower = _Follower(index, test.callback)
    outcome = follower.function(test.callback, test.context, (), is_test=True)
    if outcome.assertions:
        return _passed(outcome)
    if outcome.error_line is not None:
        return Judgement(
            Verdict.UNVERIFIED,
            f"no assertion found, and the parser could not read line {outcome.error_line} "
            "(a syntax error, or syntax tree-sitter does not know), so it was not judged",
        )
    if outcome.unknown is not None:
        line, clause = outcome.unknown
        return Judgement(Verdict.UNVERIFIED, f"no assertion found; {clause} (line {line})")
    cap = _cap(test, outcome)
    if cap is not None:
        return Judgement(Verdict.UNVERIFIED, f"nothing in the test can fail, but {cap}")
    return Judgement(Verdict.CONTRADICTED, _why_nothing_fails(test.callback, outcome))


def _passed(outcome: _Outcome) -> Judgement:
    events = sorted(set(outcome.assertions))
    shown = ", ".join(f"{what} at line {line}" for line, what in events[:3])
    more = f" and {len(events) - 3} more" if len(events) > 3 else ""
    lines = tuple(sorted({line for line, _ in events}))
    return Judgement(Verdict.PASS, f"asserts: {shown}{more}", lines)


def _judge_reference(test: "JsTestCase", index: ModuleIndex) -> Judgement:
    ref = test.body_ref
    label = js.text(ref) if ref is not None else "?"
    if ref is not None and ref.type == "identifier":
        definition = index.helper(label)
        if definition is not None and _in_scope(definition, ref):
            follower = _Follower(index, definition.node)
            outcome = follower.function(definition.node, None, (definition.node,))
            if outcome.assertions:
                return _passed(outcome)
    return Judgement(
        Verdict.UNVERIFIED,
        f"its body is `{label}`, passed by reference; only a literal function is judged",
    )


class _Follower:
    """Collects what a function body does, following same-file helpers.

    ``root`` is the function being judged: a ``const`` helper declared inside
    it after the call may still be uninitialized when called, so it is
    followed only when declared outside it or before the call.
    """

    def __init__(self, index: ModuleIndex, root: "Node") -> None:
        self.index = index
        self.root = root

    def function(
        self, fn: "Node", context: str | None, stack: "tuple[Node, ...]", is_test: bool = False
    ) -> _Outcome:
        body = fn.child_by_field_name("body")
        if body is None:
            line = js.first_line(fn)
            return _Outcome(unknown=(line, "its body could not be read"), error_line=line)
        assertions: list[Event] = []
        unknowns: list[Event] = []
        helpers: list[str] = []
        harmless: set[Node] = set()
        errors = [js.first_line(e) for e in js.error_nodes(fn)]
        for node in self.index.effects.within(body):
            kind = node.type
            if kind == "throw_statement":
                assertions.append((js.first_line(node), "throw"))
            elif kind == "new_expression":
                unknowns.append((js.first_line(node), f"`{_snippet(node)}` may throw"))
            else:
                unknowns.append((js.first_line(node), f"`{_snippet(node)}` may reject"))
        for callee in self.index.callees.within(body):
            kind, event, sub = self._callee(callee, context, stack)
            if kind == "assert":
                assertions.append(event)
            elif kind == "unknown":
                unknowns.append(event)
            else:
                helpers.append(event[1])
                harmless.add(callee)
            if sub is not None and sub.error_line is not None:
                errors.append(sub.error_line)
        if not assertions:
            assertions.extend(_should_chains(body))
        if not assertions and not unknowns:
            unknowns.extend(self._unsafe(fn, body, harmless, not is_test))
        return _Outcome(
            assertions=tuple(assertions),
            unknown=min(unknowns) if unknowns else None,
            error_line=min(errors) if errors else None,
            helpers=tuple(dict.fromkeys(helpers)),
        )

    def _unsafe(
        self, fn: "Node", body: "Node", harmless: "set[Node]", is_helper: bool
    ) -> list[Event]:
        bad = first_unsafe_reason(body, harmless)
        if bad is not None:
            node, why = bad
            return [(js.first_line(node), f"`{_snippet(node)}` {why}")]
        if is_helper and not _plain_parameters(fn):
            return [(js.first_line(fn), "its parameters destructure or default, which may throw")]
        typed = first_type_check(fn, with_signature=is_helper)
        if typed is not None:
            return [(js.first_line(typed), f"`{_snippet(typed)}` {TYPE_CHECKED}")]
        return []

    def _callee(
        self, callee: "Node", context: str | None, stack: "tuple[Node, ...]"
    ) -> tuple[str, Event, _Outcome | None]:
        line = js.first_line(callee)
        parts = dotted(callee) if callee.type in ("identifier", "member_expression") else []
        label = ".".join(parts) if parts else _snippet(callee)
        if callee.type == "identifier":
            definition = self.index.helper(parts[0])
            if definition is not None and self._visible(definition, callee):
                kind, event, sub = self._helper(definition, line, stack)
                typed = typed_call(callee, definition, self.index) if kind == "harmless" else None
                if typed is not None:
                    return "unknown", (line, typed), sub
                return kind, event, sub
        if parts and context and len(parts) > 1 and parts[0] == context:
            if parts[1] in CONTEXT_ASSERTIONS:
                return "assert", (line, f"{label}()"), None
        elif parts and self.index.call_asserts(parts):
            slip = matcherless(callee, parts, self.index)
            if slip is not None:
                return "unknown", (line, slip), None
            return "assert", (line, f"{label}()"), None
        return "unknown", (line, f"it calls `{label}()`, which may assert"), None

    def _helper(
        self, definition: FunctionDef, line: int, stack: "tuple[Node, ...]"
    ) -> tuple[str, Event, _Outcome | None]:
        name = definition.name
        if definition.node in stack or len(stack) >= _MAX_DEPTH:
            event = (line, f"it calls `{name}()` recursively or too deeply to follow")
            return "unknown", event, None
        key = (definition.node, self.root if _contains(self.root, definition.node) else None)
        cached = self.index.cache.get(key)
        if not isinstance(cached, _Outcome):
            cached = self.function(definition.node, None, (*stack, definition.node))
            self.index.cache[key] = cached
        if cached.assertions:
            first = min(cached.assertions)
            return "assert", (line, f"{name}() (asserts at line {first[0]})"), cached
        if cached.unknown is not None:
            inner_line, clause = cached.unknown
            event = (line, f"it calls `{name}()`, in which {clause} (line {inner_line})")
            return "unknown", event, cached
        return "harmless", (line, name), cached

    def _visible(self, definition: FunctionDef, callee: "Node") -> bool:
        if not _in_scope(definition, callee):
            return False
        if definition.hoisted or definition.node.end_byte <= callee.start_byte:
            return True
        return not _contains(self.root, definition.node)


def _should_chains(body: "Node") -> list[Event]:
    """chai/should.js ``x.should.equal(y)`` and ``x.should.be.true`` (no call needed).

    Read from the text, and only when nothing else asserts: a ``.should`` in a
    string could only turn a finding into PASS (a miss), never into a red.
    """
    raw = body.text or b""
    match = _SHOULD.search(raw)
    if match is None:
        return []
    return [(body.start_point[0] + raw.count(b"\n", 0, match.start()) + 1, ".should")]


def _in_scope(definition: FunctionDef, node: "Node") -> bool:
    return _contains(definition.scope, node)


def _contains(outer: "Node", inner: "Node") -> bool:
    return outer.start_byte <= inner.start_byte and inner.end_byte <= outer.end_byte


def _plain_parameters(fn: "Node") -> bool:
    params = fn.child_by_field_name("parameters")
    if params is None:
        return True
    for param in params.named_children:
        if param.type in ("required_parameter", "optional_parameter"):
            pattern = param.child_by_field_name("pattern")
            if param.child_by_field_name("value") is not None or pattern is None:
                return False
            param = pattern
        if param.type == "rest_pattern":
            param = param.named_children[0] if param.named_children else param
        if param.type not in _PLAIN_PARAMS:
            return False
    return True


def _cap(test: "JsTestCase", outcome: _Outcome) -> str | None:
    """Why a test in which nothing can fail is still not a certainty, if it is not."""
    error = _error_near(test.node)
    if error is not None:
        return f"the parser could not read line {error}, so part of it was not judged"
    if test.has_setup:
        return f"a setup or teardown hook (line {test.setup_line}) runs with it and may fail it"
    if test.inverted:
        return "it is marked as expected to fail, so the runner fails it when nothing fails"
    if test.runner in _COUNTING_RUNNERS:
        return _COUNTING_RUNNERS[test.runner]
    if test.runner_caveat:
        return test.runner_caveat
    if test.local_api:
        return (
            f"it runs through `{test.local_api}`, which this file imports or defines itself "
            "(an extended test function may set fixtures up around it)"
        )
    if test.may_fail_by_runner:
        return (
            "its callback takes a parameter (a `done` callback, fixtures or a test context) "
            "through which the runner may fail it"
        )
    return None


def _error_near(call: "Node") -> int | None:
    """Syntax errors in or right around a test call: error recovery may have cut it short."""
    for error in js.error_nodes(call):
        return js.first_line(error)
    if js.inside_error(call):
        return js.first_line(call)
    statement = call.parent if call.parent is not None else call
    for sibling in (statement.prev_named_sibling, statement.next_named_sibling):
        if sibling is not None and (sibling.is_error or sibling.is_missing):
            return js.first_line(sibling)
    return None


def _why_nothing_fails(callback: "Node", outcome: _Outcome) -> str:
    body = callback.child_by_field_name("body")
    statements = [] if body is None else [c for c in body.named_children if c.type != "comment"]
    if body is not None and body.type == "statement_block" and not statements:
        return "its body is empty: it can never fail"
    if body is not None and body.type != "statement_block":
        return f"its body is the expression `{_snippet(body)}`, which cannot fail"
    if outcome.helpers:
        names = ", ".join(f"{name}()" for name in outcome.helpers)
        return (
            f"it only calls same-file helpers that cannot fail ({names}); "
            "nothing in it asserts or can throw, so it can never fail"
        )
    return (
        "it only declares and computes values that cannot fail (no assertion, no call, "
        "no throw): it can never fail"
    )
