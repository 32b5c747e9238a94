"""test-tampering: test selection narrowed in config (UNVERIFIED, naming what is excluded)."""

from __future__ import annotations

import pytest

from tests.gitrepo import GitRepo
from tests.test_tampering_support import src, tampering, verdicts

PYPROJECT = src(
    """
    [project]
    name = "app"

    [tool.pytest.ini_options]
    addopts = "-ra"
    """
)


@pytest.mark.parametrize(
    ("path", "base", "head", "title", "line"),
    [
        (
            "pyproject.toml",
            PYPROJECT,
            PYPROJECT.replace('"-ra"', '"-ra --deselect tests/test_a.py::test_x"'),
            "test selection narrowed: addopts gained `--deselect tests/test_a.py::test_x`",
            5,
        ),
        (
            "pyproject.toml",
            PYPROJECT,
            PYPROJECT.replace('addopts = "-ra"', 'addopts = ["-ra", "-m", "not slow"]'),
            "test selection narrowed: addopts gained `-m not slow`",
            5,
        ),
        (
            "pytest.ini",
            "[pytest]\naddopts = -q\n",
            "[pytest]\naddopts = -q -k 'not network' --ignore=tests/e2e\n",
            "test selection narrowed: addopts gained `-k not network`",
            2,
        ),
        (
            "setup.cfg",
            "[metadata]\nname = app\n",
            "[metadata]\nname = app\n\n[tool:pytest]\ntestpaths = tests/unit\n",
            "test selection narrowed: `testpaths` now limits collection to tests/unit",
            5,
        ),
        (
            "tox.ini",
            "[pytest]\npython_files = test_*.py check_*.py\n",
            "[pytest]\npython_files = test_*.py\n",
            "test selection narrowed: `python_files` no longer includes check_*.py",
            2,
        ),
        (
            "pytest.ini",
            "[pytest]\n",
            "[pytest]\nnorecursedirs = .git tests/slow\n",
            "test selection narrowed: `norecursedirs` now skips .git, tests/slow",
            2,
        ),
    ],
)
def test_pytest_config_narrowing(
    repo: GitRepo, path: str, base: str, head: str, title: str, line: int
) -> None:
    found = tampering(repo, {path: base}, {path: head})
    assert verdicts(found) == [("UNVERIFIED", line, title)]


def test_pytest_config_changes_that_do_not_narrow(repo: GitRepo) -> None:
    wider = PYPROJECT.replace(
        '"-ra"', '"-ra"\npython_files = ["test_*.py", "*_test.py", "check_*.py"]'
    )
    assert tampering(repo, {"pyproject.toml": PYPROJECT}, {"pyproject.toml": wider}) == []
    narrowed = PYPROJECT.replace('"-ra"', '"-ra --deselect tests/test_a.py::test_x"')
    assert tampering(repo, {"pyproject.toml": narrowed}, {"pyproject.toml": PYPROJECT}) == []
    other = PYPROJECT.replace('name = "app"', 'name = "app2"')
    assert tampering(repo, {"pyproject.toml": PYPROJECT}, {"pyproject.toml": other}) == []


def test_all_excluded_options_are_listed(repo: GitRepo) -> None:
    head = "[pytest]\naddopts = -q -k 'not network' --ignore=tests/e2e\n"
    found = tampering(repo, {"pytest.ini": "[pytest]\naddopts = -q\n"}, {"pytest.ini": head})
    assert "`--ignore tests/e2e`" in found[0].detail


@pytest.mark.parametrize(
    ("base", "head", "needle"),
    [
        ("collect_ignore = []\n", 'collect_ignore = ["test_legacy.py"]\n', "test_legacy.py"),
        (
            "collect_ignore = ['a.py']\n",
            "collect_ignore = ['a.py']\nif True:\n    collect_ignore.append('test_b.py')\n",
            "test_b.py",
        ),
        ("", "collect_ignore_glob = ['*_slow.py']\n", "*_slow.py"),
        ("collect_ignore = []\n", "collect_ignore += find_broken()\n", "`find_broken()`"),
        (
            "",
            "def pytest_collection_modifyitems(items):\n    items[:] = items[:1]\n",
            "pytest_collection_modifyitems",
        ),
    ],
)
def test_conftest_narrowing(repo: GitRepo, base: str, head: str, needle: str) -> None:
    path = "tests/conftest.py"
    found = tampering(repo, {path: "import os\n" + base}, {path: "import os\n" + head})
    assert [f.verdict.name for f in found] == ["UNVERIFIED"]
    assert needle in found[0].title and found[0].line is not None


def test_conftest_changes_that_do_not_narrow(repo: GitRepo) -> None:
    path = "tests/conftest.py"
    base = "collect_ignore = ['a.py', 'b.py']\n"
    assert tampering(repo, {path: base}, {path: "collect_ignore = ['a.py']\n"}) == []
    hook = "def pytest_collection_modifyitems(items):\n    pass\n"
    assert tampering(repo, {path: base + hook}, {path: base + hook + "\nX = 1\n"}) == []


@pytest.mark.parametrize(
    ("path", "base", "head", "title"),
    [
        (
            "package.json",
            '{"name": "a", "jest": {"testPathIgnorePatterns": ["/node_modules/"]}}',
            '{"name": "a", "jest": {"testPathIgnorePatterns": ["/node_modules/", "/src/slow/"]}}',
            "`testPathIgnorePatterns` now also excludes /src/slow/",
        ),
        (
            "jest.config.js",
            "module.exports = {\n  testMatch: ['**/*.test.js', '**/*.spec.js'],\n};\n",
            "module.exports = {\n  testMatch: ['**/*.test.js'],\n};\n",
            "`testMatch` no longer includes **/*.spec.js",
        ),
        (
            "vitest.config.ts",
            "import { defineConfig } from 'vitest/config';\n"
            "export default defineConfig({ test: { exclude: ['node_modules'] } });\n",
            "import { defineConfig } from 'vitest/config';\n"
            "export default defineConfig({\n  test: {\n"
            "    exclude: ['node_modules', 'src/flaky/**'],\n  },\n});\n",
            "`test.exclude` now also excludes src/flaky/**",
        ),
        (
            "package.json",
            '{"scripts": {"test": "jest --ci"}}',
            '{"scripts": {"test": "jest --ci -t \\"fast\\""}}',
            'script "test" now runs with `-t fast`',
        ),
    ],
)
def test_js_config_narrowing(repo: GitRepo, path: str, base: str, head: str, title: str) -> None:
    found = tampering(repo, {path: base}, {path: head})
    assert verdicts(found) == [("UNVERIFIED", found[0].line, f"test selection narrowed: {title}")]
    assert found[0].line is not None


def test_js_config_changes_that_do_not_narrow(repo: GitRepo) -> None:
    base = "export default { test: { coverage: { exclude: ['a'] } } };\n"
    head = "export default { test: { coverage: { exclude: ['a', 'b'] } } };\n"
    assert tampering(repo, {"vite.config.ts": base}, {"vite.config.ts": head}) == []
    pkg = '{"scripts": {"lint": "eslint ."}, "devDependencies": {"jest": "1"}}'
    lint = '{"scripts": {"lint": "eslint . -t x"}, "devDependencies": {"jest": "1"}}'
    assert tampering(repo, {"package.json": pkg}, {"package.json": lint}) == []


def test_config_moved_between_files_is_compared_as_pytest_reads_it(repo: GitRepo) -> None:
    tox = "[tox]\nenvlist = py\n\n[pytest]\ntestpaths = tests\naddopts = -ra\n"
    moved = PYPROJECT.replace('addopts = "-ra"', 'addopts = "-ra"\ntestpaths = ["tests"]')
    found = tampering(
        repo,
        {"tox.ini": tox, "pyproject.toml": "[project]\nname = 'app'\n"},
        {"tox.ini": "[tox]\nenvlist = py\n", "pyproject.toml": moved},
    )
    assert found == []
    # deleting the config that widened collection narrows it back to the defaults
    wide = "[pytest]\npython_files = test_*.py check_*.py\n"
    found = tampering(repo, {"sub/pytest.ini": wide}, {"sub/pytest.ini": None})
    assert verdicts(found) == [
        (
            "UNVERIFIED",
            None,
            "test selection narrowed: `python_files` no longer includes check_*.py",
        )
    ]
