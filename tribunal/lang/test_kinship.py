"""Whether an added test may be a deleted one under another form: renamed, merged, moved.

``no-test-removed`` may only call a deleted test removed when no test the
change added can be it. Three syntactic relations leave that open, and no
similarity threshold decides anything:

- the same name (the test moved and was edited);
- the same body up to renamed names (a rename that also renamed its locals or
  the helper it calls): identifiers are numbered in order of appearance; or a
  body holding every statement of the deleted one, in order (renamed and
  extended);
- a parametrized test (``@pytest.mark.parametrize``, ``test.each``) whose
  literals contain every literal of the deleted test's body (cases merged into
  one table).
"""

from __future__ import annotations

import ast
import re

from tribunal.lang.test_record import TestRecord

#: A string runs to its closing quote or, unclosed, to the end of the text: never
#: failing, it is never rescanned from each quote inside it (quadratic on ``'\\'\\...``).
_JS_TOKEN = re.compile(
    r"""(?P<string>"(?:[^"\\]|\\.|\\\Z)*+(?:"|\Z)|'(?:[^'\\]|\\.|\\\Z)*+(?:'|\Z)"""
    r"""|`(?:[^`\\]|\\.|\\\Z)*+(?:`|\Z))"""
    r"|(?P<number>\b\d[\d_.eExXa-fA-F]*\b)"
    r"|(?P<name>[A-Za-z_$][\w$]*)",
    re.DOTALL,
)
_JS_KEYWORD_TEXT = """
await async break case catch class const continue debugger default delete do else export
extends false finally for function if import in instanceof let new null of return super switch
this throw true try typeof undefined var void while with yield expect assert
"""
_JS_KEYWORDS = frozenset(_JS_KEYWORD_TEXT.split())


def relation(gone: TestRecord, added: TestRecord) -> str | None:
    """How ``added`` may be ``gone`` in another form, as a phrase; None when it cannot be."""
    if short_name(added) == short_name(gone):
        return "was added (moved with edits?)"
    if added.language == gone.language:
        if shape(gone) == shape(added):
            return "has the same body up to renamed names (renamed?)"
        if _contains(added, gone):
            return "contains every statement of its body (renamed and extended?)"
        if parametrized(added) and literals(gone) <= literals(added, table=True):
            return "is parametrized with every literal of its body (merged into a table?)"
    return None


def short_name(test: TestRecord) -> str:
    """The test's own name without class or suite (``TestA.test_x`` -> ``test_x``)."""
    if test.language == "python":
        return test.name.rpartition(".")[2]
    return test.name.rpartition(" > ")[2]


def shape(test: TestRecord) -> str:
    """The body with every identifier replaced by its order of first appearance."""
    if test.language == "python":
        node = getattr(test.test, "node", None)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            return _python_shape(node)
        return f"\0{test.body}"
    numbering: dict[str, str] = {}

    def rename(match: re.Match[str]) -> str:
        word = match["name"]
        if word is None or word in _JS_KEYWORDS:
            return match[0]
        return numbering.setdefault(word, f"${len(numbering)}")

    return _JS_TOKEN.sub(rename, test.body)


def _contains(outer: TestRecord, inner: TestRecord) -> bool:
    """Whether ``inner``'s statements appear, in order, in ``outer`` (each up to renamed names)."""
    if inner.language == "python":
        mine, theirs = _statement_shapes(inner), _statement_shapes(outer)
        if not mine or theirs is None or mine is None:
            return False
        remaining = iter(theirs)
        return all(any(s == t for t in remaining) for s in mine)
    core = inner.body.strip().removeprefix("{").removesuffix("}").strip()
    return bool(core) and core in outer.body


def _statement_shapes(test: TestRecord) -> list[str] | None:
    node = getattr(test.test, "node", None)
    if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
        return None
    statements = [s for s in node.body if not _docstring(s)]
    return [_python_shape_of([s]) for s in statements]


def _python_shape(node: ast.FunctionDef | ast.AsyncFunctionDef) -> str:
    return _python_shape_of([node.args, *(s for s in node.body if not _docstring(s))])


def _python_shape_of(parts: list[ast.AST]) -> str:
    numbering: dict[str, str] = {}
    copies = [ast.parse(ast.unparse(s)) for s in parts]
    for tree in copies:
        for sub in ast.walk(tree):
            if isinstance(sub, ast.Name):
                sub.id = numbering.setdefault(sub.id, f"v{len(numbering)}")
            elif isinstance(sub, ast.arg):
                sub.arg = numbering.setdefault(sub.arg, f"v{len(numbering)}")
    return "\n".join(ast.dump(t, annotate_fields=False) for t in copies)


def parametrized(test: TestRecord) -> bool:
    if test.language == "python":
        node = getattr(test.test, "node", None)
        decorators = getattr(node, "decorator_list", [])
        return any("parametrize" in ast.unparse(d) for d in decorators)
    return bool(getattr(test.test, "each", False))


def literals(test: TestRecord, table: bool = False) -> frozenset[str]:
    """Every number and string the test's code (decorators included) writes; ``table``:
    a JS test's whole call too (``test.each([...])('title', ...)``), not only its body."""
    if test.language == "python":
        node = getattr(test.test, "node", None)
        if node is None:
            return frozenset()
        body = [s for s in node.body if not _docstring(s)]
        nodes = [*node.decorator_list, *body]
        return frozenset(
            repr(sub.value)
            for part in nodes
            for sub in ast.walk(part)
            if isinstance(sub, ast.Constant) and isinstance(sub.value, int | float | str | bytes)
        )
    from tribunal.lang.js import syntax as js

    node = getattr(test.test, "node", None)
    text = js.text(node) if table and node is not None else test.body
    found = (m["string"] or m["number"] for m in _JS_TOKEN.finditer(text))
    return frozenset(f for f in found if f)


def _docstring(stmt: ast.stmt) -> bool:
    return (
        isinstance(stmt, ast.Expr)
        and isinstance(stmt.value, ast.Constant)
        and isinstance(stmt.value.value, str)
    )
