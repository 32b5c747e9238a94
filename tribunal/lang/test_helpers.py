"""Files named like tests that are helpers: they define no test and add none.

``looks_like_test`` is broad on purpose (``test-utils.jsx``,
``tests/factories.py``): a file Tribunal cannot read may hold tests. A
Python or JS/TS file it reads is known: when neither side of it defines a
test, and (Python) no fixture, collection hook, ``load_tests`` or
``pytest_plugins`` that could add test items elsewhere, it is no test.
``conftest.py`` is never such a helper: its fixtures and hooks shape every
test below it.
"""

from __future__ import annotations

import ast

from tribunal.change.diff.model import FileChange
from tribunal.change.model import Change, Source
from tribunal.lang.identifiers import stem_words
from tribunal.lang.paths import is_js_family, language_of

_NAMED = frozenset({"test", "tests", "spec", "specs"})


def holds_no_test(change: Change, fc: FileChange) -> bool:
    """Whether every side of ``fc`` is readable code that defines no test.

    A JS/TS file must be named like a test helper (``test-utils.jsx``): one that is only in a
    test folder (``cypress/integration/login.js``) may be a spec its runner collects by folder.
    """
    if is_js_family(language_of(fc.path)) and _NAMED.isdisjoint(stem_words(fc.path)):
        return False
    sides = [(fc.old_path, change.base_source(fc) if fc.old_path else None)]
    if fc.has_head:
        sides.append((fc.path, change.head_source(fc)))
    readable = [(p, s) for p, s in sides if p is not None]
    if not readable:
        return False
    return all(s is not None and _no_test(change, p, s) for p, s in readable)


def _no_test(change: Change, path: str, source: Source) -> bool:
    language = language_of(path)
    if language == "python":
        return _python_helper(change, path, source)
    if not is_js_family(language):
        return False
    assert language is not None
    from tribunal.lang.js.records import js_records
    from tribunal.lang.trees import js_tree

    if js_tree(source, language).root_node.has_error:
        return False
    return not js_records(source, path, path, language)


def _python_helper(change: Change, path: str, source: Source) -> bool:
    if path.rpartition("/")[2] == "conftest.py":
        return False
    try:
        tree = ast.parse(source.data)
    except (SyntaxError, ValueError):
        return False
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            if node.name.startswith("pytest_") or node.name == "load_tests":
                return False
            if any("fixture" in ast.unparse(d) for d in node.decorator_list):
                return False
        if isinstance(node, ast.Name) and node.id == "pytest_plugins":
            return False
    from tribunal.lang.python.pytest_project import naming_for
    from tribunal.lang.python.records import python_records

    return python_records(source, path, path, naming_for(change, path)) == []
