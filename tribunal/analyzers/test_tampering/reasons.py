"""What disables a test, where it is written, and the reason it gives (if any).

Python: the closest skip or xfail mark (on the test, its classes, a
``pytestmark``), a skip at the top of the body, or ``__test__ = False``;
the reason is the mark's ``reason=`` or its message argument. JS/TS: the
skipped call itself or the skipped suite around it (``describe.skip``,
``xdescribe``); such calls carry no reason, so a comment on the line above
is quoted instead. Strict expected failures return None (see ``disabled``).
"""

import ast
from typing import TYPE_CHECKING, NamedTuple

from tribunal.change.model import Change
from tribunal.lang.python.index import ModuleIndex, dotted, top_level
from tribunal.lang.python.marks import Effect, classify
from tribunal.lang.python.testcases import PyTestCase
from tribunal.lang.test_record import TestRecord

if TYPE_CHECKING:
    from tribunal.lang.js.testcases import JsTestCase

_MESSAGE_ARG = {"skip": 0, "skipif": 1, "xfail": 1, "skipIf": 1, "skipUnless": 1}
_BODY_SKIPS = frozenset({"pytest.skip", "pytest.xfail", "self.skipTest", "cls.skipTest"})


class Disabler(NamedTuple):
    line: int
    how: str  # "skipped" | "marked as expected to fail" | "turned into a todo"
    marker: str  # the code that disables it, as written
    reason: str  # "" when none is given


def disabler(change: Change, record: TestRecord) -> Disabler | None:
    if record.language == "python":
        return _python(record.test, record.index)
    return _js(change, record)


# --- Python -------------------------------------------------------------------------------


def _python(test: PyTestCase, index: ModuleIndex) -> Disabler | None:
    for dec in _decorators(test, index):
        mark = classify(dec, index)
        if mark.effect is Effect.SKIP:
            return Disabler(dec.lineno, "skipped", _text(dec), _reason(dec))
        if mark.effect is Effect.XFAIL and not _strict(dec):
            return Disabler(dec.lineno, "marked as expected to fail", _text(dec), _reason(dec))
    body = [s for s in test.node.body if not _is_docstring(s)]
    first = body[0] if body else None
    if isinstance(first, ast.Expr) and isinstance(first.value, ast.Call):
        name = index.qualify(first.value.func) or ""
        if name in _BODY_SKIPS:
            how = "marked as expected to fail" if name.endswith("xfail") else "skipped"
            return Disabler(first.lineno, how, _text(first.value, False), _reason(first.value))
    if test.skip_reason is None:
        return None  # only a strict expected failure: it fails the run if the test passes
    return Disabler(test.line, "skipped", test.skip_reason, "")


def _decorators(test: PyTestCase, index: ModuleIndex) -> list[ast.expr]:
    """Marks closest to the test first: its own, its classes', the module's ``pytestmark``."""
    found = list(test.node.decorator_list)
    for cls in reversed(test.classes):
        found += cls.decorator_list
        found += [v for s in cls.body for v in _pytestmark(s)]
    for stmt in top_level(index.tree.body):
        found += _pytestmark(stmt)
    return found


def _pytestmark(stmt: ast.stmt) -> list[ast.expr]:
    if not isinstance(stmt, ast.Assign):
        return []
    if not any(isinstance(t, ast.Name) and t.id == "pytestmark" for t in stmt.targets):
        return []
    value = stmt.value
    return list(value.elts) if isinstance(value, ast.List | ast.Tuple) else [value]


def _strict(dec: ast.expr) -> bool:
    """``xfail(strict=True)`` and unittest's ``expectedFailure`` (an unexpected pass fails)."""
    name = (dotted(dec.func if isinstance(dec, ast.Call) else dec) or "").rsplit(".", 1)[-1]
    if name == "expectedFailure":
        return True
    if not isinstance(dec, ast.Call):
        return False
    return any(
        k.arg == "strict" and isinstance(k.value, ast.Constant) and k.value.value is True
        for k in dec.keywords
    )


def _reason(node: ast.expr) -> str:
    if not isinstance(node, ast.Call):
        return ""
    for keyword in node.keywords:
        if keyword.arg in ("reason", "msg"):
            return _literal_text(keyword.value)
    name = (dotted(node.func) or "").rsplit(".", 1)[-1]
    position = _MESSAGE_ARG.get(name, 0)
    if len(node.args) > position:
        return _literal_text(node.args[position])
    return ""


def _literal_text(node: ast.expr) -> str:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    return ast.unparse(node)


def _text(node: ast.expr, decorator: bool = True) -> str:
    return ("@" if decorator else "") + ast.unparse(node)


def _is_docstring(stmt: ast.stmt) -> bool:
    return isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant)


# --- JS/TS --------------------------------------------------------------------------------


def _js(change: Change, record: TestRecord) -> Disabler | None:
    # The JS/TS readers load only for a JS/TS test (a Python-only change never needs them).
    from tribunal.lang.js import syntax as js
    from tribunal.lang.js.calls import api_calls

    test: JsTestCase = record.test
    if test.inverted and not test.skipped:
        return None  # ``test.failing`` / ``test.fails``: strict by design
    node = test.node
    for call in api_calls(record.index):
        inside = call.node.start_byte <= node.start_byte and node.end_byte <= call.node.end_byte
        if inside and call.skipped and call.role == "suite":
            node = call.node
            break
    line = js.first_line(node)
    callee = node.child_by_field_name("function")
    marker = js.text(callee) if callee is not None else js.text(node)
    how = "skipped"
    if test.callback is None and test.body_ref is None:
        how = "turned into a todo" if "todo" in marker else "left without a body"
    return Disabler(line, how, marker, _comment_above(change, record.head_path, line))


def _comment_above(change: Change, path: str, line: int) -> str:
    source = change.read_head(path)
    if source is None:
        return ""
    above = source.line(line - 1).strip()
    if above.startswith("//"):
        return above.lstrip("/").strip()
    return ""
