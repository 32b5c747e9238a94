"""What a decorator (or a ``pytestmark``) does to a test, read from its name.

Skips remove a test from judgement; expected failures, fixtures, patches,
hypothesis and unknown decorators mean code outside the body runs with the
test (or inverts its outcome), so an empty body alone no longer proves that
the test can never fail. Marks pytest treats as labels change nothing.
"""

import ast
import enum
from collections.abc import Iterator
from typing import NamedTuple

from tribunal.lang.python.index import FuncDef, ModuleIndex, dotted


class Effect(enum.Enum):
    SKIP = "skip"  # the test never runs
    XFAIL = "xfail"  # its outcome is inverted: an empty body can fail
    USEFIXTURES = "usefixtures"
    PARAMETRIZE = "parametrize"
    SETUP = "setup"  # runs code around the test (hypothesis, mock.patch, unknown)
    FIXTURE = "fixture"  # the function is a fixture, not a test
    EVENT_LOOP = "event-loop"  # pytest-asyncio / anyio: only runs a coroutine in an event loop
    INERT = "inert"  # a label: changes nothing about whether the body can fail


class Mark(NamedTuple):
    effect: Effect
    text: str  # how the decorator reads, for evidence
    names: tuple[str, ...] = ()  # parametrize argnames or usefixtures names
    flag: bool = False  # FIXTURE: autouse; PARAMETRIZE: indirect or unreadable


#: Decorators that return the function they are given, unchanged.
_INERT_BUILTINS = frozenset(
    {"staticmethod", "classmethod", "typing.override", "typing_extensions.override"}
    | {"typing.final", "typing_extensions.final", "typing.no_type_check"}
)
#: Marks of well-known plugins that set fixtures up around the test.
_FIXTURE_MARKS = frozenset(
    {"django_db", "vcr", "default_cassette", "freeze_time", "time_machine", "httpx_mock"}
    | {"celery", "trio", "gen_test", "respx", "responses"}
)
#: Marks whose plugin only runs the (async) test in an event loop it makes: no setup code of
#: the project runs, unless a conftest overrides the loop fixtures (``pytest_project``).
EVENT_LOOP_MARKS = frozenset({"asyncio", "anyio"})
_PATCHERS = frozenset({"patch", "patch.object", "patch.dict", "patch.multiple"})


def classify(dec: ast.expr, index: ModuleIndex) -> Mark:
    """The effect of one decorator on the function it decorates."""
    call = dec if isinstance(dec, ast.Call) else None
    target = call.func if call is not None else dec
    text = "@" + _short(dec)
    name = index.qualify(target) or ""
    parts = name.split(".")
    if len(parts) >= 2 and parts[-2] == "mark":
        return _pytest_mark(parts[-1], call, text)
    last = parts[-1]
    if last in ("skip", "skipIf", "skipUnless", "expectedFailure"):
        return _unittest_mark(last, call, text)
    if last in ("fixture", "yield_fixture"):
        return Mark(Effect.FIXTURE, text, flag=_autouse(call))
    if last == "given":
        return Mark(Effect.SETUP, f"{text} (hypothesis draws examples, which can fail)")
    if name in _INERT_BUILTINS:
        return Mark(Effect.INERT, text)
    if _is_patch(name):
        return Mark(Effect.SETUP, f"{text} (the patch target is imported when the test runs)")
    return Mark(Effect.SETUP, f"{text} (wraps the test in code Tribunal cannot see)")


def is_autouse_fixture(fn: FuncDef, index: ModuleIndex) -> bool:
    """Whether ``fn`` is declared ``@pytest.fixture(autouse=...)``: it runs around every test."""
    return any(
        (mark := classify(dec, index)).effect is Effect.FIXTURE and mark.flag
        for dec in fn.decorator_list
    )


def marks_in(value: ast.expr, index: ModuleIndex) -> Iterator[Mark]:
    """The marks of a ``pytestmark = ...`` value (one mark or a list of them)."""
    items = value.elts if isinstance(value, ast.List | ast.Tuple) else [value]
    for item in items:
        yield classify(item, index)


def _pytest_mark(mark: str, call: ast.Call | None, text: str) -> Mark:
    if mark == "skip":
        return Mark(Effect.SKIP, text)
    if mark == "skipif":
        conditions = [*(call.args if call else []), *_kw(call, "condition")]
        if any(_literal_true(c) for c in conditions):
            return Mark(Effect.SKIP, text)
        if any(_str(c) is not None for c in conditions):
            return Mark(Effect.SETUP, f"{text} (pytest evaluates its condition string at setup)")
        return Mark(Effect.INERT, text)
    if mark == "xfail":
        run = _kw(call, "run")
        if run and _literal_false(run[0]):
            return Mark(Effect.SKIP, text)
        return Mark(Effect.XFAIL, text)
    if mark == "usefixtures":
        found = (_str(a) for a in (call.args if call else []))
        names = tuple(n for n in found if n is not None)
        return Mark(Effect.USEFIXTURES, text, names)
    if mark == "parametrize":
        return _parametrize(call, text)
    if mark in _FIXTURE_MARKS:
        return Mark(Effect.SETUP, f"{text} (a plugin sets fixtures up for it)")
    if mark in EVENT_LOOP_MARKS:
        return Mark(Effect.EVENT_LOOP, text)
    return Mark(Effect.INERT, text)


def _unittest_mark(name: str, call: ast.Call | None, text: str) -> Mark:
    if name == "expectedFailure":
        return Mark(Effect.XFAIL, text)
    if name == "skip":
        return Mark(Effect.SKIP, text)
    first = call.args[0] if call and call.args else None
    if first is not None and name == "skipIf" and _literal_true(first):
        return Mark(Effect.SKIP, text)
    if first is not None and name == "skipUnless" and _literal_false(first):
        return Mark(Effect.SKIP, text)
    return Mark(Effect.INERT, text)


def _parametrize(call: ast.Call | None, text: str) -> Mark:
    """Argnames bound to values pytest computed at import: not fixtures, unless indirect."""
    argnames = call.args[0] if call and call.args else None
    names: tuple[str, ...] = ()
    joined = _str(argnames)
    if joined is not None:
        names = tuple(n.strip() for n in joined.split(",") if n.strip())
    elif isinstance(argnames, ast.List | ast.Tuple):
        items = [_str(e) for e in argnames.elts]
        names = tuple(i.strip() for i in items if i is not None)
        names = names if len(names) == len(items) else ()
    indirect = _kw(call, "indirect")
    unreadable = not names or bool(indirect and not _literal_false(indirect[0]))
    return Mark(Effect.PARAMETRIZE, text, names, flag=unreadable or _has_case_marks(call))


def _has_case_marks(call: ast.Call | None) -> bool:
    """``pytest.param(..., marks=pytest.mark.xfail)``: one case may expect to fail."""
    values = call.args[1:] if call else []
    return any(
        isinstance(node, ast.keyword) and node.arg == "marks"
        for value in values
        for node in ast.walk(value)
    )


def _autouse(call: ast.Call | None) -> bool:
    value = _kw(call, "autouse")
    return bool(value) and not _literal_false(value[0])


def _is_patch(name: str) -> bool:
    parts = name.split(".")
    return any(".".join(parts[i:]) in _PATCHERS for i in range(len(parts)))


def _kw(call: ast.Call | None, name: str) -> list[ast.expr]:
    return [k.value for k in (call.keywords if call else []) if k.arg == name]


def _str(node: ast.expr | None) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    return None


def _literal_true(node: ast.expr) -> bool:
    return (
        isinstance(node, ast.Constant) and isinstance(node.value, bool | int) and bool(node.value)
    )


def _literal_false(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and node.value in (False, None, 0)


def _short(node: ast.expr) -> str:
    text = dotted(node) or ast.unparse(node)
    return text if len(text) <= 60 else text[:57] + "..."
