"""What a project's pytest setup says about one test file, read from the head tree.

Things outside a test file change how its tests are judged: the config that
decides which files are test files (``python_files`` and friends, from the
nearest ``pytest.ini`` / ``pyproject.toml`` / ``tox.ini`` / ``setup.cfg``) and
its ``usefixtures`` option; ``conftest.py`` files above it whose autouse
fixtures, plugins or run-time hooks execute around every test; and autouse
fixtures its imports bring in (``pytest_fixtures``); and, for a test whose
verdict rests on methods reached through ``self``, other files that name its
class, where a subclass may override them. All are read from the head tree
only when a verdict depends on them, and remembered per change.
``judge_in_project`` is the verdict analyzers should use.
"""

from __future__ import annotations

import ast
import posixpath
from collections.abc import Callable
from functools import partial

from tribunal.change.model import Change
from tribunal.findings import Verdict
from tribunal.lang.per_change import PerChange, head_tree_known
from tribunal.lang.python.index import ModuleIndex, top_level
from tribunal.lang.python.judge import Judgement, judge_test
from tribunal.lang.python.marks import is_autouse_fixture
from tribunal.lang.python.pytest_fixtures import RUN_HOOKS, imported_autouse
from tribunal.lang.python.pytest_naming import (
    CONFIG_FILES,
    DEFAULT_NAMING,
    PytestNaming,
    config_in,
    naming_from_options,
)
from tribunal.lang.python.testcases import PyTestCase
from tribunal.lang.treepaths import ancestor_dirs
from tribunal.lang.trees import python_tree

_NAMING: PerChange[str, PytestNaming] = PerChange()
_CONFTEST: PerChange[str, tuple[str, ...]] = PerChange()
_PLUGIN: PerChange[str, str] = PerChange()
_MENTIONS: PerChange[str, tuple[str, ...] | None] = PerChange()
_LOOPS: PerChange[str, tuple[str, ...]] = PerChange()


def naming_for(change: Change, path: str) -> PytestNaming:
    """The collection patterns in force for ``path``: the nearest pytest config wins; a
    module only Django's test runner collects (``tests.py`` beside ``manage.py``) is
    read with unittest's rules (``DJANGO_NAMING``)."""
    naming = _naming_for_dir(change, posixpath.dirname(path))
    if not naming.file(path) and path.endswith(".py"):
        from tribunal.lang.python.django_runner import DJANGO_NAMING, django_collects

        if django_collects(change, path):
            return DJANGO_NAMING
    return naming


def is_python_test_file(change: Change, path: str) -> bool:
    """pytest collects only ``.py`` files, whatever ``python_files`` says (never a ``.pyi``)."""
    return path.endswith(".py") and naming_for(change, path).file(path)


def outside_setup(change: Change, path: str, index: ModuleIndex) -> tuple[str, ...]:
    """Code from other files that runs around every test in ``path``.

    The ``usefixtures`` option of the pytest config, conftest.py files above
    it, and autouse fixtures that its imports bring in.
    """
    naming = naming_for(change, path)
    reasons = list(conftest_setup(change, path))
    reasons.extend(_own_plugin(change, path))
    if naming.plugins:
        plugins = ", ".join(naming.plugins)
        reasons.insert(0, f"`{naming.source}` loads plugins with addopts -p {plugins}")
    if naming.usefixtures:
        fixtures = ", ".join(naming.usefixtures)
        reasons.insert(0, f"`{naming.source}` applies usefixtures = {fixtures} to every test")
    if head_tree_known(change):
        reasons.extend(imported_autouse(change, path, index))
    return tuple(reasons)


def judge_in_project(change: Change, path: str, test: PyTestCase, index: ModuleIndex) -> Judgement:
    """``judge_test`` plus what other files run around the test (read only when it matters)."""
    judgement = judge_test(test, index)
    if judgement.verdict is Verdict.CONTRADICTED:
        outside = outside_setup(change, path, index)
        if isinstance(test.node, ast.AsyncFunctionDef):
            outside += loop_overrides(change, path, index)
        if not outside:
            outside = overridden_elsewhere(change, path, test, judgement.overridable)
        if outside:
            judgement = judge_test(test, index, outside)
    return judgement


def overridden_elsewhere(
    change: Change, path: str, test: PyTestCase, methods: tuple[str, ...]
) -> tuple[str, ...]:
    """Why a subclass in another file may override the ``self`` methods a verdict rests on.

    ``class TestReal(TestBase)`` elsewhere that overrides ``check`` turns
    ``TestBase.test_it: self.check()`` into a real test. Same-file subclasses are
    ``python_purity``'s to see; here any other head ``.py`` file naming the class
    (as a whole word) is enough to doubt: telling a mention from an overriding
    subclass would mean following imports, for a case this rare. One ``git grep``
    per class name and change, asked only when the verdict would be CONTRADICTED.
    """
    if test.cls is None or not methods:
        return ()
    cls = test.cls.name
    named = ", ".join(f"`{m}`" for m in methods)
    if not head_tree_known(change):
        return (
            f"only a diff was given, so a subclass of `{cls}` in another file "
            f"that overrides {named} could not be ruled out",
        )
    mentions = _MENTIONS.get(change, cls, lambda: _files_naming(change, cls))
    if mentions is None:
        return (f"other files could not be searched for a subclass of `{cls}` overriding {named}",)
    others = [p for p in mentions if p != path]
    if not others:
        return ()
    more = f" and {len(others) - 1} more file(s)" if len(others) > 1 else ""
    return (f"`{cls}` is also named in `{others[0]}`{more}, where a subclass may override {named}",)


def _files_naming(change: Change, word: str) -> tuple[str, ...] | None:
    from tribunal.git.treegrep import grep_files

    found = grep_files(change, (word,), ("*.py",), whole_words=True)
    return None if found is None else tuple(found)


#: Fixtures through which a project runs its own code around an async plugin's event loop.
LOOP_FIXTURES = frozenset({"anyio_backend", "event_loop", "event_loop_policy"})


def loop_overrides(change: Change, path: str, index: ModuleIndex) -> tuple[str, ...]:
    """Why the event loop an async test runs in may run the project's code: the test module
    or a ``conftest.py`` above it defines ``anyio_backend``, ``event_loop`` or
    ``event_loop_policy`` (pytest-asyncio and anyio then set the loop up with it)."""
    own = [n for n in LOOP_FIXTURES if index.functions.get(n)]
    if own:
        return (f"this module overrides the event loop fixture `{sorted(own)[0]}`",)
    if not head_tree_known(change):
        return (
            "only a diff was given, so a conftest.py overriding the event loop could not be read",
        )
    return _from_conftests(change, path, _LOOPS, _loop_fixtures)


def _from_conftests(
    change: Change,
    path: str,
    memo: PerChange[str, tuple[str, ...]],
    read: Callable[[Change, str], tuple[str, ...]],
) -> tuple[str, ...]:
    """``read`` of every conftest.py from ``path``'s directory up to the root, remembered."""
    reasons: list[str] = []
    for directory in ancestor_dirs(posixpath.dirname(path)):
        conftest = posixpath.join(directory, "conftest.py") if directory else "conftest.py"
        reasons.extend(memo.get(change, conftest, partial(read, change, conftest)))
    return tuple(reasons)


def _loop_fixtures(change: Change, path: str) -> tuple[str, ...]:
    source = change.read_head(path)
    if source is None:
        return ()
    tree = python_tree(source)
    if tree is None:
        return (f"`{path}` could not be parsed, so its event loop fixtures are unknown",)
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name in LOOP_FIXTURES:
            return (
                f"`{path}` overrides the event loop fixture `{node.name}` (line {node.lineno})",
            )
    return ()


def conftest_setup(change: Change, path: str) -> tuple[str, ...]:
    """Why conftest.py files above ``path`` may run code around its tests (if they do)."""
    if not head_tree_known(change):
        return (
            "only a diff was given, so conftest.py files that may run autouse fixtures "
            "around it could not be read",
        )
    return _from_conftests(change, path, _CONFTEST, _read_conftest)


def _own_plugin(change: Change, path: str) -> tuple[str, ...]:
    """A ``pytest11`` entry point: the project is a pytest plugin, loaded for its own tests."""
    if not head_tree_known(change):
        return ()
    for directory in ancestor_dirs(posixpath.dirname(path)):
        for name in ("pyproject.toml", "setup.cfg", "setup.py"):
            config = posixpath.join(directory, name) if directory else name
            found = _PLUGIN.get(change, config, _plugin_reader(change, config))
            if found:
                return (found,)
    return ()


def _plugin_reader(change: Change, config: str) -> Callable[[], str]:
    return lambda: _declares_plugin(change, config)


def _declares_plugin(change: Change, config: str) -> str:
    source = change.read_head(config)
    if source is None or "pytest11" not in source.text:
        return ""
    return f"`{config}` registers a pytest plugin (a `pytest11` entry point) that runs with tests"


#: What the project's readers look for in each directory up to the root.
_PROBED = (*CONFIG_FILES, "conftest.py", "setup.py")


def _naming_for_dir(change: Change, directory: str) -> PytestNaming:
    def compute() -> PytestNaming:
        # The configs and conftest.py files of every directory up: one batch, not one read each.
        names = (posixpath.join(d, n) for d in ancestor_dirs(directory) for n in _PROBED)
        change.prefetch_head(list(names))
        found = config_in(directory, change.read_head)
        if found is not None:
            return naming_from_options(*found)
        if not directory:
            return DEFAULT_NAMING
        return _naming_for_dir(change, posixpath.dirname(directory))

    return _NAMING.get(change, directory, compute)


def _read_conftest(change: Change, path: str) -> tuple[str, ...]:
    source = change.read_head(path)
    if source is None:
        return ()
    tree = python_tree(source)
    if tree is None:
        return (f"`{path}` could not be parsed, so its fixtures are unknown",)
    index = ModuleIndex.build(tree)
    reasons = []
    for stmt in top_level(tree.body):
        reason = _conftest_statement(stmt, index, path)
        if reason:
            reasons.append(reason)
    if not reasons:
        reasons.extend(_autouse_anywhere(tree, path))
    if not reasons:
        reasons.extend(_registers_plugin(tree, path))
    if not reasons:
        imported = imported_autouse(change, path, index, hooks=True)
        reasons.extend(f"in `{path}`, {why}" for why in imported)
    return tuple(reasons)


def _registers_plugin(tree: ast.Module, path: str) -> list[str]:
    """``config.pluginmanager.register(Plugin())``: a plugin whose hooks are not in the file."""
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in ("register", "import_plugin", "consider_module")
            and "pluginmanager" in ast.unparse(node.func.value)
        ):
            return [f"`{path}` registers a plugin at line {node.lineno}"]
    return []


def _autouse_anywhere(tree: ast.Module, path: str) -> list[str]:
    """``fixture(autouse=True)`` written any other way (``x = pytest.fixture(...)(f)``)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.keyword) and node.arg == "autouse":
            value = node.value
            if not (isinstance(value, ast.Constant) and value.value in (False, None, 0)):
                return [f"`{path}` declares an autouse fixture (line {value.lineno})"]
    return []


def _conftest_statement(stmt: ast.stmt, index: ModuleIndex, path: str) -> str:
    if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef):
        if is_autouse_fixture(stmt, index):
            return f"`{path}` has autouse fixture `{stmt.name}` (line {stmt.lineno})"
        if stmt.name in RUN_HOOKS:
            return f"`{path}` defines hook `{stmt.name}` (line {stmt.lineno})"
    if isinstance(stmt, ast.Assign | ast.AnnAssign):
        targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
        if any(isinstance(t, ast.Name) and t.id == "pytest_plugins" for t in targets):
            return f"`{path}` loads plugins with `pytest_plugins` (line {stmt.lineno})"
    return ""
