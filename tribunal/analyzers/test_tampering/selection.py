"""Test selection narrowed: config the change edited so that fewer tests are collected.

Read statically, base against head: pytest's ``addopts`` (``--deselect``,
``-k``, ``-m``, ``--ignore``, ``--ignore-glob``), ``testpaths``,
``python_files``/``python_classes``/``python_functions`` and
``norecursedirs`` in ``pytest.ini``/``pyproject.toml``/``tox.ini``/
``setup.cfg``; ``collect_ignore``/``collect_ignore_glob`` and collection
hooks in ``conftest.py``; Jest and Vitest settings in ``package.json`` and
their config files (``selection_js``). Narrowing is often honest (a slow
suite moved behind a marker), so it is only ever UNVERIFIED, naming what is
no longer collected.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING

from tribunal.analyzers.test_tampering.common import fresh, fresh_indices
from tribunal.analyzers.test_tampering.narrowing import Narrowing, js_config, report
from tribunal.change.diff.model import FileChange
from tribunal.change.model import Change, Source
from tribunal.engine.analysis import each_file
from tribunal.findings import Finding
from tribunal.lang.python.pytest_naming import CONFIG_FILES, DEFAULT_NAMING, config_in
from tribunal.lang.trees import python_tree

if TYPE_CHECKING:
    import ast

_SELECTING = ("--deselect", "-k", "-m", "--ignore", "--ignore-glob")
_INCLUDING = {
    "testpaths": (),
    "python_files": DEFAULT_NAMING.files,
    "python_classes": DEFAULT_NAMING.classes,
    "python_functions": DEFAULT_NAMING.functions,
}
_DEFAULT_NORECURSE = ("*.egg", ".*", "_darcs", "build", "CVS", "dist", "node_modules", "venv")
_COLLECTION_HOOKS = frozenset(
    {"pytest_ignore_collect", "pytest_collection_modifyitems", "pytest_collect_file"}
)
_IGNORE_LISTS = ("collect_ignore", "collect_ignore_glob")


def findings(change: Change) -> Iterator[Finding]:
    files = [fc for fc in change.files if fc.skip_reason is None]
    configs = [fc for fc in files if _kind(fc.path) == "config"]
    by_dir: dict[str, list[FileChange]] = {}
    for fc in configs:
        by_dir.setdefault(posixpath.dirname(fc.path), []).append(fc)
    firsts = [group[0] for group in by_dir.values()]
    yield from each_file(firsts, lambda fc: _judge_dir(change, by_dir[posixpath.dirname(fc.path)]))
    conftests = [fc for fc in files if fc.has_head and _kind(fc.path) == "conftest"]
    yield from each_file(conftests, lambda fc: _judge_conftest(change, fc))
    scripts = [fc for fc in files if fc.has_head and js_config(fc.path) is not None]
    if scripts:
        # The Jest/Vitest rules, and the JS/TS readers they use, load only for such a file.
        from tribunal.analyzers.test_tampering import selection_js

        yield from each_file(scripts, lambda fc: selection_js.judge(change, fc))


def _kind(path: str) -> str | None:
    name = posixpath.basename(path)
    if name in CONFIG_FILES:
        return "config"
    return "conftest" if name == "conftest.py" else None


def _judge_dir(change: Change, changed: Sequence[FileChange]) -> Iterator[Finding]:
    """Compare the pytest config in force in one directory, base against head.

    pytest reads the first of ``CONFIG_FILES`` that holds a pytest section, so
    settings moved from ``tox.ini`` to ``pyproject.toml`` change nothing.
    """
    directory = posixpath.dirname(changed[0].path)
    _, old = _effective(change.read_base, directory)
    new_path, new = _effective(change.read_head, directory)
    found = compare_pytest(old, new)
    if not found:
        return
    target = next((fc for fc in changed if fc.path == new_path), None)
    target = target or next((fc for fc in changed if fc.has_head), changed[0])
    yield report(target, change.head_source(target), found, None)


def _effective(
    read: Callable[[str], Source | None], directory: str
) -> tuple[str | None, dict[str, list[str]]]:
    found = config_in(directory, read, bare_ini_counts=False)
    if found is None:
        return None, {}
    path, raw = found
    return path, pytest_options(raw)


def _judge_conftest(change: Change, fc: FileChange) -> Iterator[Finding]:
    head, base = change.head_source(fc), change.base_source(fc)
    found = _conftest(fc, base, head) if head is not None else []
    if found and head is not None:
        yield report(fc, head, found, "python")


# --- pytest configuration -----------------------------------------------------------------


def pytest_options(raw: Mapping[str, object]) -> dict[str, list[str]]:
    """The options of one pytest section that select tests, as token lists."""
    out: dict[str, list[str]] = {}
    for key in ("addopts", *_INCLUDING, "norecursedirs"):
        value = raw.get(key)
        if isinstance(value, str):
            out[key] = _split(value, key)
        elif isinstance(value, list):
            out[key] = [item for item in value if isinstance(item, str)]  # one arg each
    return out


def _split(value: str, key: str) -> list[str]:
    if key != "addopts":
        return value.split()
    import shlex  # only an edited pytest config gets here

    try:
        return shlex.split(value)
    except ValueError:
        return value.split()


def compare_pytest(old: Mapping[str, list[str]], new: Mapping[str, list[str]]) -> list[Narrowing]:
    before_opts = [f"{o} {v}" for o, v in _selections(old.get("addopts", []))]
    after_opts = _selections(new.get("addopts", []))
    out = [
        Narrowing(after_opts[i][1], f"addopts gained `{text}`")
        for i, text in _indexed_fresh([f"{o} {v}" for o, v in after_opts], before_opts)
    ]
    for key, default in _INCLUDING.items():
        before = old.get(key) or list(default)
        after = new.get(key) or list(default)
        gone = [p for p in before if p not in after]
        if key == "testpaths" and after and not before:
            out.append(
                Narrowing(after[0], f"`testpaths` now limits collection to {' '.join(after)}")
            )
        elif gone:
            out.append(Narrowing(key, f"`{key}` no longer includes {', '.join(gone)}"))
    before = old.get("norecursedirs") or list(_DEFAULT_NORECURSE)
    added = [d for d in new.get("norecursedirs", []) if d not in before]
    if added:
        out.append(Narrowing(added[0], f"`norecursedirs` now skips {', '.join(added)}"))
    return out


def _indexed_fresh(head: Sequence[str], base: Sequence[str]) -> list[tuple[int, str]]:
    return [(i, head[i]) for i in fresh_indices(head, base)]


def _selections(tokens: Sequence[str]) -> list[tuple[str, str]]:
    """``(option, value)`` pairs of the options that deselect tests."""
    out = []
    for i, token in enumerate(tokens):
        for option in _SELECTING:
            if token == option and i + 1 < len(tokens):
                out.append((option, tokens[i + 1]))
            elif token.startswith(option + "="):
                out.append((option, token[len(option) + 1 :]))
            elif option in ("-k", "-m") and token.startswith(option) and len(token) > 2:
                out.append((option, token[2:]))
    return out


# --- conftest.py --------------------------------------------------------------------------


def _conftest(fc: FileChange, base: Source | None, head: Source) -> list[Narrowing]:
    # ast and the Python index load for a changed conftest.py only (not for every change).
    import ast

    from tribunal.lang.python.index import top_level

    new_tree = python_tree(head)
    if new_tree is None:
        return []
    old_tree = python_tree(base) if base is not None else None
    before = _ignored(old_tree) if old_tree is not None else []
    out = [
        Narrowing(entry, f"conftest.py `collect_ignore` now ignores {entry}")
        for entry in fresh(_ignored(new_tree), before)
    ]
    for stmt in top_level(new_tree.body):
        if not isinstance(stmt, ast.FunctionDef) or stmt.name not in _COLLECTION_HOOKS:
            continue
        if fc.touches(stmt.lineno, stmt.end_lineno or stmt.lineno):
            out.append(
                Narrowing(stmt.name, f"the change edits hook `{stmt.name}`, which may drop tests")
            )
    return out


def _ignored(tree: ast.Module) -> list[str]:
    """Entries of ``collect_ignore``/``collect_ignore_glob``; unreadable ones as code."""
    import ast

    from tribunal.lang.python.index import top_level

    out: list[str] = []
    for stmt in top_level(tree.body):
        value: ast.expr | None = None
        if isinstance(stmt, ast.Assign | ast.AugAssign):
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            if any(isinstance(t, ast.Name) and t.id in _IGNORE_LISTS for t in targets):
                value = stmt.value
        elif isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
            func = stmt.value.func
            owner = func.value if isinstance(func, ast.Attribute) else None
            if isinstance(owner, ast.Name) and owner.id in _IGNORE_LISTS and stmt.value.args:
                value = stmt.value.args[0]
        if value is not None:
            out += _entries(value)
    return out


def _entries(value: ast.expr) -> list[str]:
    import ast

    if isinstance(value, ast.Constant) and isinstance(value.value, str):
        return [value.value]
    if isinstance(value, ast.List | ast.Tuple):
        return [e for item in value.elts for e in _entries(item)]
    return [f"`{ast.unparse(value)}`"]
