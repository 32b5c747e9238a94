"""test-tampering for one Python test file: stripped checks, tautologies, swallowed asserts.

Each test the diff touches is compared with its base version. Assertions are
found by the shared scanner (``python_asserts`` through ``python_judge``), so
this analyzer and assertion-free-test agree on what checks; a test whose
checks are all gone is CONTRADICTED only when the diff deleted each of them
and added nothing, anywhere it could run with the test, that might check
instead (see ``elsewhere``).
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator, Sequence

from tribunal.analyzers.test_tampering.common import (
    Lazy,
    Pair,
    added_in,
    commented_out,
    fresh,
    fresh_indices,
    judged_pairs,
    make,
    may_check,
    quoted,
    ran_before,
    stripped_checks,
    unseen,
    without_line_numbers,
)
from tribunal.analyzers.test_tampering.python_swallow import swallowed
from tribunal.analyzers.test_tampering.python_tautology import (
    Spot,
    always_true,
    or_true,
    tautologies,
)
from tribunal.change.diff.model import FileChange
from tribunal.findings import Finding, Verdict
from tribunal.lang.python.asserts import scan_assertions
from tribunal.lang.python.index import FuncDef, ModuleIndex, dotted
from tribunal.lang.python.judge import judge_test
from tribunal.lang.python.testcases import PyTestCase
from tribunal.lang.test_record import TestRecord
from tribunal.util.bounds import TreeTooDeep

_OWNERS = ("self", "cls")
#: Standard-library predicates: a call whose result is discarded checks nothing.
_PREDICATES = frozenset(
    {"fnmatch.fnmatch", "fnmatch.fnmatchcase", "re.match", "re.search", "re.fullmatch"}
    | {"isinstance", "issubclass", "callable", "hasattr", "math.isclose", "operator.eq"}
    | {"os.path.exists", "os.path.isfile", "os.path.isdir", "operator.ne", "operator.contains"}
)
_MIGHT_CHECK = (
    ast.Call,
    ast.Attribute,
    ast.Await,
    ast.Yield,
    ast.YieldFrom,
    ast.Raise,
    ast.Assert,
    ast.With,
    ast.AsyncWith,
)


def judge_file(fc: FileChange, pairs: Sequence[Pair], elsewhere: Lazy) -> Iterator[Finding]:
    """``elsewhere``: where else in the change checks may have moved (computed if needed)."""
    outside = Lazy(lambda: [*elsewhere.get(), *_new_asserting_tests(pairs)])
    for pair in judged_pairs(fc, pairs):
        yield from _tautologies(fc, pair)
        yield from _assumed(fc, pair)
        yield from _raises_replaced(fc, pair)
        yield from _swallowed(fc, pair)
        old = ran_before(pair)
        if old is not None:
            yield from _removed_checks(fc, old, pair.new, outside)


# --- every check removed ------------------------------------------------------------------


def _removed_checks(
    fc: FileChange, old: TestRecord, new: TestRecord, elsewhere: Lazy
) -> Iterator[Finding]:
    base = judge_test(old.test, old.index)
    if base.verdict is not Verdict.PASS or judge_test(new.test, new.index).verdict is Verdict.PASS:
        return
    sites = check_sites(old.test, old.index, [(a.line, a.text) for a in base.assertions])
    kept = [(line, text) for line, text in sites if line not in fc.removed]
    doubts = [] if sites else ["its base checks could not be located in the test itself"]
    doubts += [f"line {line} of the base (`{quoted(text)}`) is unchanged" for line, text in kept]
    actions = _added_actions(fc, new.test, old.test, new.index)
    doubts += [f"line {line} adds `{text}`" for line, text in actions]
    doubts += [f"it now also runs {s}" for s in _new_setup(old.test, new.test)]
    doubts += [f"now {c}" for c in _new_caveats(old.test, new.test)]
    doubts += [f"it still calls `{text}` (line {line})" for line, text in _checky_calls(new)]
    doubts += elsewhere.get()
    removed = ", ".join(str(line) for line, _ in sites if line in fc.removed)
    yield stripped_checks(
        fc.path,
        new,
        _sites_text(sites),
        doubts,
        "python",
        name=f"`{new.name}`",
        where=f" (base line(s) {removed})",
        commented=commented_out(fc, [line for line, _ in sites], "#", "#"),
    )


def check_sites(
    test: PyTestCase, index: ModuleIndex, own: Sequence[tuple[int, str]]
) -> list[tuple[int, str]]:
    """Lines of the test that check: its own assertions, and calls of helpers that assert."""
    sites = {line: text for line, text in own if test.start <= line <= test.end}
    for node in ast.walk(test.node):
        helper = _helper(node, index, test.cls)
        if not isinstance(node, ast.expr) or helper is None:
            continue
        scan = scan_assertions(helper, index, test.cls)
        if not scan.complete:  # whether it asserts is unknown: no site is certain either way
            raise TreeTooDeep(f"helper {helper.name} nests too deeply to read whole")
        if scan.assertions:
            label = ast.unparse(node)
            sites.setdefault(node.lineno, f"{label}(...), which asserts")
    return sorted(sites.items())


def _helper(node: ast.AST, index: ModuleIndex, cls: ast.ClassDef | None) -> FuncDef | None:
    if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
        found = index.functions.get(node.id)
        return found[-1] if found else None
    if isinstance(node, ast.Attribute) and cls is not None and dotted(node.value) in _OWNERS:
        return index.method(cls, node.attr)
    return None


def _added_actions(
    fc: FileChange, test: PyTestCase, old: PyTestCase, index: ModuleIndex
) -> list[tuple[int, str]]:
    """Things on added lines of the test body that might check and that base did not have.

    A call that was already in the test (``add(1, 2)`` that used to sit inside
    the deleted ``assert``) is not new; a ``print(result)`` or ``check(result)``
    is, and the checks may have moved into it.
    """
    body = test.node.body
    lines = set(added_in(fc, body[0].lineno, test.end)) if body else set()
    found = [(n.lineno, ast.unparse(n)) for n in _actions(test.node, index) if n.lineno in lines]
    before = [ast.unparse(n) for n in _actions(old.node, index)]
    out: dict[int, str] = {}
    for i in fresh_indices([text for _, text in found], before):
        line, text = found[i]
        out.setdefault(line, quoted(text, 50))
    return sorted(out.items())


def _actions(fn: FuncDef, index: ModuleIndex) -> list[ast.stmt | ast.expr]:
    """Nodes in a test body that might check something (calls, ``with``, ``raise``...).

    A standard-library predicate whose result is thrown away
    (``fnmatch.fnmatch(s, pattern)`` as a statement) checks nothing, however
    much it looks like a check: it is left out (its arguments are not).
    """
    out: list[ast.stmt | ast.expr] = []
    ignored: set[int] = set()
    for stmt in fn.body:
        for node in ast.walk(stmt):
            call = node.value if isinstance(node, ast.Expr) else None
            if isinstance(call, ast.Call) and discarded_predicate(call, index):
                ignored.add(id(call))
                ignored.update(id(n) for n in ast.walk(call.func))
            if id(node) in ignored or not isinstance(node, _MIGHT_CHECK):
                continue
            if isinstance(node, ast.Assert) and always_true(node.test):
                continue
            out.append(node)
    return out


def discarded_predicate(call: ast.Call, index: ModuleIndex) -> bool:
    """A call of a known side-effect-free predicate (its value is what it is for)."""
    name = index.qualify(call.func) or ""
    return name in _PREDICATES and not index.functions.get(name)


def _new_setup(old: PyTestCase, new: PyTestCase) -> list[str]:
    base = [without_line_numbers(s) for s in old.setup]
    return fresh([without_line_numbers(s) for s in new.setup], base)


def _new_caveats(old: PyTestCase, new: PyTestCase) -> list[str]:
    """New reasons the body alone does not decide the outcome (doctests, a generator...)."""
    base = [without_line_numbers(s) for s in old.caveats]
    return fresh([without_line_numbers(s) for s in new.caveats], base)


def _checky_calls(record: TestRecord) -> list[tuple[int, str]]:
    """Calls of code outside this file whose name says it may check (``verify(x)``)."""
    test, index = record.test, record.index
    out = []
    for node in ast.walk(test.node):
        if not isinstance(node, ast.Call) or _helper(node.func, index, test.cls) is not None:
            continue
        func = node.func
        name = dotted(func) or (func.attr if isinstance(func, ast.Attribute) else "")
        if may_check(name.split(".")):
            out.append((node.lineno, quoted(ast.unparse(func), 40) + "(...)"))
    return out[:2]


def _new_asserting_tests(pairs: Sequence[Pair]) -> list[str]:
    out = []
    for pair in pairs:
        added = pair.old is None and not pair.new.disabled
        if added and judge_test(pair.new.test, pair.new.index).verdict is Verdict.PASS:
            out.append(f"the change adds test `{pair.new.name}` (line {pair.new.line})")
    return out[:1]


def _sites_text(sites: Sequence[tuple[int, str]]) -> str:
    shown = "; ".join(f"line {line}: `{quoted(text, 50)}`" for line, text in sites[:3])
    more = f"; and {len(sites) - 3} more" if len(sites) > 3 else ""
    return shown + more


# --- tautologies and swallowed assertions -------------------------------------------------


def _tautologies(fc: FileChange, pair: Pair) -> Iterator[Finding]:
    yield from _never_failing(fc, pair, tautologies, "checks only literals")
    yield from _never_failing(
        fc,
        pair,
        or_true,
        "is true whatever its left side is: a truthy literal is `or`-ed in (the left side may "
        "still raise, but the comparison is no longer checked)",
    )


def _never_failing(
    fc: FileChange, pair: Pair, find: Callable[[FuncDef], list[Spot]], why: str
) -> Iterator[Finding]:
    """Assertions ``find`` reports in the head test that the base test did not have."""
    head = find(pair.new.test.node)
    base = [s.text for s in find(pair.old.test.node)] if pair.old is not None else []
    for i in unseen(fc, head, base):
        spot = head[i]
        tuple_note = (
            " A parenthesized `(condition, message)` is a non-empty tuple, which is always "
            "true: write `assert condition, message`."
            if spot.text.startswith("assert (")
            else ""
        )
        yield make(
            Verdict.CONTRADICTED,
            fc.path,
            spot.line,
            "this assertion can never fail",
            f"`{quoted(spot.text)}` in test `{pair.new.name}`, which this change added or "
            f"edited, {why}: it passes whatever the code does.{tuple_note}",
            "python",
            spot.end,
        )


def _assumed(fc: FileChange, pair: Pair) -> Iterator[Finding]:
    """An assertion of a Hypothesis test turned into ``assume`` of the same expression."""
    if pair.old is None:
        return
    from tribunal.analyzers.test_tampering.python_assume import assumed

    for line, end, text in assumed(pair.old, pair.new):
        if not any(line <= added <= end for added in fc.added):
            continue
        yield make(
            Verdict.CONTRADICTED,
            fc.path,
            line,
            "an assertion became a Hypothesis filter",
            f"`{quoted(text)}` in test `{pair.new.name}` was an assertion at base: "
            "`hypothesis.assume` discards the examples for which it is false instead of "
            "failing on them, so the property is no longer checked (only Hypothesis's "
            "filter health check may still fail when nearly every example is discarded).",
            "python",
            end,
        )


def _raises_replaced(fc: FileChange, pair: Pair) -> Iterator[Finding]:
    """``pytest.raises`` / ``assertRaises`` replaced by ``try: ... except E: pass``."""
    if pair.old is None:
        return
    from tribunal.analyzers.test_tampering.python_raises import replaced_raises

    for found in replaced_raises(pair.old, pair.new):
        if not any(found.line <= added <= found.end for added in fc.added):
            continue
        yield make(
            Verdict.CONTRADICTED,
            fc.path,
            found.line,
            "an expected-exception check became a try that passes either way",
            f"Test `{pair.new.name}` checked `{quoted(found.before)}` at base; now a `try` "
            f"catches {found.expected} and does nothing, and nothing in the `try` or its "
            "`else:` fails the test when no exception comes, so it passes whether or not "
            "the code raises.",
            "python",
            found.end,
        )


def _swallowed(fc: FileChange, pair: Pair) -> Iterator[Finding]:
    new = pair.new
    head = swallowed(new.test.node, new.index, new.test.cls)
    base = []
    if pair.old is not None:
        old = pair.old
        found_base = swallowed(old.test.node, old.index, old.test.cls)
        base = [f"{s.spot.text}\0{s.handler}" for s in found_base]
    for i in fresh_indices([f"{s.spot.text}\0{s.handler}" for s in head], base):
        found = head[i]
        certain = found.certain
        yield make(
            Verdict.CONTRADICTED if certain else Verdict.UNVERIFIED,
            fc.path,
            found.spot.line,
            "the assertion's failure is caught and discarded"
            if certain
            else "the assertion's failure is caught",
            f"`{quoted(found.spot.text)}` in test `{new.name}` sits in a `try` whose "
            f"`{found.handler}` (line {found.handler_line}) catches its failure, and "
            f"{found.why}.",
            "python",
            found.spot.end,
        )
