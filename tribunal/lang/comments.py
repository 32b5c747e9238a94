"""The comment text of a file, line by line, for both languages.

Shared by comment-code-drift (which comments mention a changed declaration)
and the suppression scanner (a ``tribunal: ignore`` inside a string literal is
no suppression).

Python: ``#`` comments (from the tokenizer, so a ``#`` inside a string is not
a comment) and docstrings of modules, classes and functions. JS/TS: every
comment node tree-sitter finds: ``//`` at the end of a line, ``/* */`` blocks
and JSDoc. Only the comment's own text is returned, never the code beside it.
"""

from typing import TYPE_CHECKING, NamedTuple

from tribunal.change.model import Source
from tribunal.lang.trees import js_tree, python_tree

_JS_FAMILY = ("javascript", "typescript", "tsx")

if TYPE_CHECKING:
    import ast


class CommentLine(NamedTuple):
    line: int
    text: str
    kind: str  # "comment" | "docstring"


def python_comments(source: Source) -> list[CommentLine]:
    # The tokenizer and ast load for a Python file only: a JS/TS change never needs them.
    import io
    import tokenize

    out = []
    if b"#" in source.data:  # every comment starts with one: most test files need no tokenizer
        try:
            for token in tokenize.tokenize(io.BytesIO(source.data).readline):
                if token.type == tokenize.COMMENT:
                    out.append(CommentLine(token.start[0], token.string, "comment"))
        except (tokenize.TokenError, SyntaxError, UnicodeDecodeError):
            pass  # keep what was read: the rest of the file is not Python we can read
    tree = python_tree(source)
    if tree is not None:
        out.extend(_docstrings(tree, source))
    return sorted(out)


def js_comments(source: Source, language: str) -> list[CommentLine]:
    if not may_have_comments(source, language):
        return []
    from tribunal.lang.js import syntax as js

    tree = js_tree(source, language)
    found = js.find(language, "(comment) @c", tree.root_node).get("c", [])
    out = []
    for node in found:
        first = js.first_line(node)
        for offset, text in enumerate(js.text(node).split("\n")):
            out.append(CommentLine(first + offset, text, "comment"))
    return out


def _docstrings(tree: "ast.Module", source: Source) -> list[CommentLine]:
    import ast

    from tribunal.lang.python.decls import docstring_node

    holders: list[ast.AST] = [tree]
    holding = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)  # a docstring's places
    holders += [n for n in ast.walk(tree) if isinstance(n, holding)]
    out = []
    for holder in holders:
        doc = docstring_node(holder)
        if doc is None:
            continue
        last = doc.end_lineno or doc.lineno
        for number in range(doc.lineno, last + 1):
            text = source.line(number)
            if number == last and doc.end_col_offset is not None:
                text = text.encode()[: doc.end_col_offset].decode("utf-8", "replace")
            if number == doc.lineno:
                text = text.encode()[doc.col_offset :].decode("utf-8", "replace")
            out.append(CommentLine(number, text, "docstring"))
    return out


def may_have_comments(source: Source, language: str | None) -> bool:
    """False only when the file has no comment line for certain, known without a parse.

    A JS/TS comment node starts with ``//`` or ``/*`` (the grammars' ``comment``
    token; ``<!--`` is an ``html_comment``); a Python comment with ``#``, and a
    docstring is a string literal, which needs a quote.
    """
    data = source.data
    if language == "python":
        return b"#" in data or b'"' in data or b"'" in data
    if language in _JS_FAMILY:
        return b"//" in data or b"/*" in data
    return True


def comments_of(source: Source, language: str | None) -> list[CommentLine] | None:
    """The comment lines of a Python or JS/TS file; None for any other language."""
    if language == "python":
        return python_comments(source)
    if language in _JS_FAMILY:
        return js_comments(source, language)
    return None
