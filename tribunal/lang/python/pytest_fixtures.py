"""Does an import bring an autouse fixture into a test module?

``from tests.fixtures import *`` or an imported-but-unused name can make an
autouse fixture visible to a test module, and pytest then runs it around every
test there. The imported module is looked up in the head tree (relative
imports from the test's package; absolute ones from the repository root,
``src/``, the configured ``python-roots`` and the test's own directories, as
pytest puts them on ``sys.path``) and read: a name defined there as an autouse
fixture, or a module that cannot be parsed, is reported. Re-exports are
followed a few levels. A module outside the repository is a third-party
package, where autouse fixtures come through plugins rather than imports.
"""

from __future__ import annotations

import ast
import posixpath

from tribunal.change.model import Change
from tribunal.lang.python.index import ModuleIndex, top_level
from tribunal.lang.python.marks import is_autouse_fixture
from tribunal.lang.python.scope import FixtureImport, fixture_imports
from tribunal.lang.treepaths import ancestor_dirs, python_module_file, relative_base
from tribunal.lang.trees import python_derived

MAX_HOPS = 3

#: Hooks that run code around each test when a conftest.py (or a plugin) defines them;
#: a failure there fails the test, and ``pytest_runtest_makereport`` may rewrite its outcome.
RUN_HOOKS = frozenset(
    {
        "pytest_runtest_setup",
        "pytest_runtest_call",
        "pytest_runtest_teardown",
        "pytest_runtest_protocol",
        "pytest_runtest_makereport",
        "pytest_pyfunc_call",
        "pytest_fixture_setup",
        "pytest_collection_modifyitems",
        "pytest_itemcollected",
    }
)


def imported_autouse(
    change: Change, path: str, index: ModuleIndex, hooks: bool = False
) -> list[str]:
    """Why imports of the module at ``path`` may run autouse fixtures (if they may).

    ``hooks``: the module is a plugin (a conftest.py), so hook functions it
    imports run around every test too.
    """
    reasons = []
    for item in fixture_imports(index):
        if hooks and item.name in RUN_HOOKS:
            reasons.append(
                f"the hook `{item.name}` is imported from {item.module} (line {item.line})"
            )
            continue
        target = resolve_module(change, path, item.module)
        if target is None:
            continue
        why = _autouse_in(change, target, item.name, MAX_HOPS, hooks)
        if why:
            reasons.append(f"{_describe(item)} (line {item.line}): {why}")
    return reasons


def resolve_module(change: Change, importer: str, module: str) -> str | None:
    """The repository file a module name refers to from ``importer``, if any."""
    level = len(module) - len(module.lstrip("."))
    parts = [p for p in module.lstrip(".").split(".") if p]
    if level:
        base = relative_base(importer, level)
        roots = [base] if base is not None else []
    else:
        roots = [
            "",
            "src",
            *change.config.python_roots,
            *ancestor_dirs(posixpath.dirname(importer)),
        ]
    return python_module_file(roots, parts, change.read_head)


def _autouse_in(change: Change, path: str, name: str, hops: int, hooks: bool = False) -> str:
    index = _index(change, path)
    if index is None:
        return f"`{path}` could not be parsed"
    for stmt in top_level(index.tree.body):
        if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef):
            if (name in ("*", stmt.name)) and is_autouse_fixture(stmt, index):
                return f"`{path}` defines autouse fixture `{stmt.name}` (line {stmt.lineno})"
            if hooks and name in ("*", stmt.name) and stmt.name in RUN_HOOKS:
                return f"`{path}` defines hook `{stmt.name}` (line {stmt.lineno})"
        elif isinstance(stmt, ast.ImportFrom) and hops > 0:
            why = _reexport(change, path, stmt, name, hops, hooks)
            if why:
                return why
        elif isinstance(stmt, ast.Assign | ast.AnnAssign) and _autouse_keyword(stmt):
            return f"`{path}` makes an autouse fixture at line {stmt.lineno}"
    return ""


def _reexport(
    change: Change, path: str, stmt: ast.ImportFrom, name: str, hops: int, hooks: bool
) -> str:
    module = "." * stmt.level + (stmt.module or "")
    for alias in stmt.names:
        if alias.name == "*" or name in ("*", alias.asname or alias.name):
            target = resolve_module(change, path, module)
            if target is not None and target != path:
                wanted = name if alias.name == "*" else alias.name
                why = _autouse_in(change, target, wanted, hops - 1, hooks)
                if why:
                    return why
    return ""


def _autouse_keyword(stmt: ast.stmt) -> bool:
    for node in ast.walk(stmt):
        if isinstance(node, ast.keyword) and node.arg == "autouse":
            value = node.value
            return not (isinstance(value, ast.Constant) and value.value in (False, None, 0))
    return False


def _index(change: Change, path: str) -> ModuleIndex | None:
    """The module's index, kept with its tree in the run's bounded tree cache."""
    source = change.read_head(path)
    if source is None:
        return None
    return python_derived(source, "module-index", _build)


def _build(tree: ast.Module | None) -> ModuleIndex | None:
    return ModuleIndex.build(tree) if tree is not None else None


def _describe(item: FixtureImport) -> str:
    if item.name == "*":
        return f"`from {item.module} import *`"
    return f"`{item.name}`, imported from {item.module} and never used here"
