"""Python files that define tests pytest's configured collection never picks up.

A ``def test_x`` in ``tests/check_x.py`` under ``python_files = test_*.py``
never runs, so it is no new test. That is certain only when the collection
rules are known: pytest reads its patterns from a config file Tribunal parsed
(``pytest.ini``, ``pyproject.toml``, ``tox.ini``, ``setup.cfg``); no
``conftest.py`` above the file defines ``pytest_collect_file`` (a custom
collector); ``addopts`` names no file and no ``--doctest-modules``, and loads
no plugin that may collect; and no other Python file names the module (a
collected module that imports its tests has pytest collect them there).
``why_uncollected`` gives the evidence, or None when any of that is open.
"""

from __future__ import annotations

import ast
import posixpath
from collections.abc import Callable

from tribunal.change.model import Change
from tribunal.lang.per_change import PerChange, head_tree_known
from tribunal.lang.python.pytest_naming import config_in
from tribunal.lang.python.pytest_project import is_python_test_file, naming_for
from tribunal.lang.treepaths import ancestor_dirs
from tribunal.lang.trees import python_tree

_COLLECTORS: PerChange[str, bool] = PerChange()


def why_uncollected(change: Change, path: str) -> str | None:
    """Why the head file ``path`` defines tests its runners never collect; None if not
    certain. In a Django project whose only runner is Django's (``django_runner``), its
    rules decide; where pytest may run as well, pytest's must be known too."""
    if not path.endswith(".py") or not head_tree_known(change):
        return None
    from tribunal.lang.python.django_runner import django_rules, pytest_candidate

    django = django_rules(change, path)
    if django is not None and not pytest_candidate(change):
        return _django_only(change, path, django)
    if is_python_test_file(change, path):
        return None
    naming = naming_for(change, path)
    if naming.source is None or naming.plugins:
        return None  # the defaults, with no config: another runner may be in use
    tests = _defined_tests(change, path)
    if not tests or _opened_collection(change, path, naming.source):
        return None
    if _named_elsewhere(change, path):
        return None
    patterns = " ".join(naming.files)
    also = f", and {django} but not this one" if django else ""
    return (
        f"{path} defines {tests[0]}, but `{naming.source}` sets python_files = {patterns}, "
        f"which does not collect it{also}"
    )


def _django_only(change: Change, path: str, django: str) -> str | None:
    """Django's runner alone: ``test*.py`` in packages under ``manage.py``, TestCase classes."""
    from tribunal.lang.python.django_runner import django_collects, missing_package

    if django_collects(change, path):
        return None
    tests = [t for t in _defined_tests(change, path) if t.startswith("class")]
    if not tests or _named_elsewhere(change, path):
        return None
    package = missing_package(change, path)
    why = f"{package} has no __init__.py" if package else "its name does not match test*.py"
    return f"{path} defines {tests[0]}, but {django} and {why} (no pytest in the project)"


def _defined_tests(change: Change, path: str) -> list[str]:
    source = change.read_head(path)
    tree = python_tree(source) if source is not None else None
    if tree is None:
        return []
    naming = naming_for(change, path)
    out = []
    for stmt in tree.body:
        if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef) and naming.function(stmt.name):
            out.append(f"`{stmt.name}` (line {stmt.lineno})")
        elif isinstance(stmt, ast.ClassDef) and (naming.cls(stmt.name) or _unittest_class(stmt)):
            out.append(f"class `{stmt.name}` (line {stmt.lineno})")
    return out


def _unittest_class(node: ast.ClassDef) -> bool:
    """A ``TestCase`` subclass: collected whatever its name (``class OrderTests(TestCase)``)."""
    return any(ast.unparse(base).rpartition(".")[2].endswith("TestCase") for base in node.bases)


def _opened_collection(change: Change, path: str, config: str) -> bool:
    """A custom collector above ``path``, or ``addopts`` that collects more than the patterns."""
    found = config_in(posixpath.dirname(config), change.read_head)
    addopts = found[1].get("addopts") if found is not None else None
    words = addopts.split() if isinstance(addopts, str) else addopts or []
    for word in words if isinstance(words, list) else []:
        text = str(word)
        if text.startswith("--doctest"):
            return True
        if not text.startswith("-") and (text.endswith(".py") or "/" in text or "::" in text):
            return True
    for directory in ancestor_dirs(posixpath.dirname(path)):
        conftest = posixpath.join(directory, "conftest.py") if directory else "conftest.py"
        if _COLLECTORS.get(change, conftest, _collector_reader(change, conftest)):
            return True
    return False


def _collector_reader(change: Change, conftest: str) -> Callable[[], bool]:
    def read() -> bool:
        source = change.read_head(conftest)
        return source is not None and "pytest_collect_file" in source.text

    return read


def _named_elsewhere(change: Change, path: str) -> bool:
    """Another Python file mentions the module's name (it may import its tests)."""
    from tribunal.git.treegrep import grep_files

    stem = posixpath.basename(path).removesuffix(".py")
    found = grep_files(change, (stem,), ("*.py",), whole_words=True)
    return found is None or any(p != path for p in found)
