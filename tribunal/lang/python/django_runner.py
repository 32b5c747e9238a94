"""Which Python files Django's test runner collects.

``python manage.py test`` runs ``DiscoverRunner``: unittest discovery from the
directory of ``manage.py`` with the pattern ``test*.py``, recursing only into
packages (directories with an ``__init__.py``), collecting ``TestCase``
subclasses and their ``test*`` methods, never plain functions. Its rules are
*known* for a file when a ``manage.py`` sits above it and nothing in the
repository may change them: no ``TEST_RUNNER`` setting (a custom runner) and
no ``--pattern`` / ``-p`` passed to it anywhere (a script, tox, CI). Where
pytest-django runs the suite instead, pytest's own naming applies as well.
"""

from __future__ import annotations

import fnmatch
import posixpath

from tribunal.change.model import Change
from tribunal.lang.per_change import PerChange, head_tree_known
from tribunal.lang.python.pytest_naming import PytestNaming
from tribunal.lang.treepaths import ancestor_dirs

#: unittest collects only ``TestCase`` subclasses (``class_scope`` knows them) and
#: their ``test*`` methods: no plain test functions, no ``Test*`` classes by name.
DJANGO_NAMING = PytestNaming(files=("test*.py",), classes=(), functions=(), source="manage.py")
_PATTERN = "test*.py"
_ROOTS: PerChange[str, str | None] = PerChange()
_OVERRIDES: PerChange[str, str | None] = PerChange()
_PYTEST: PerChange[str, bool] = PerChange()
_PYTEST_GLOBS = (
    "*.txt", "*.in", "*.toml", "*.cfg", "*.ini", "Pipfile", "setup.py", "conftest.py", "*.yml",
    "*.yaml", "Makefile", "*.sh", "noxfile.py",
)  # fmt: skip
_OVERRIDE_WORDS = ("TEST_RUNNER", "--pattern", "test -p", "--testrunner")
_OVERRIDE_GLOBS = ("*.py", "*.cfg", "*.ini", "*.toml", "*.yml", "*.yaml", "Makefile", "*.sh")


def django_root(change: Change, path: str) -> str | None:
    """The directory of the nearest ``manage.py`` above ``path`` (discovery's start)."""
    directory = posixpath.dirname(path)
    return _ROOTS.get(change, directory, lambda: _find_root(change, directory))


def django_collects(change: Change, path: str) -> bool:
    """Whether ``manage.py test`` with the default runner loads ``path`` as a test module."""
    root = django_root(change, path)
    if root is None or not fnmatch.fnmatchcase(posixpath.basename(path), _PATTERN):
        return False
    return missing_package(change, path) is None  # discovery recurses into packages only


def missing_package(change: Change, path: str) -> str | None:
    """The first directory between ``manage.py`` and ``path`` without an ``__init__.py``."""
    root = django_root(change, path)
    if root is None:
        return None
    missing = None
    directory = posixpath.dirname(path)
    while directory != root:
        if change.read_head(posixpath.join(directory, "__init__.py")) is None:
            missing = directory
        directory = posixpath.dirname(directory)
    return missing


def django_rules(change: Change, path: str) -> str | None:
    """Django's rules for ``path`` as a phrase when they are known; None when not."""
    root = django_root(change, path)
    if root is None or not head_tree_known(change):
        return None
    if overridden(change) is not None:
        return None
    where = f"{root}/manage.py" if root else "manage.py"
    return f"Django's test runner ({where}) collects test*.py modules in packages"


def pytest_candidate(change: Change) -> bool:
    """Whether pytest may run the suite too: the repository's manifests, configs or CI
    scripts mention pytest (pytest-django, a pytest section, a ``pytest`` command), or a
    ``conftest.py`` exists. Unknown (no search) counts as yes."""
    return _PYTEST.get(change, "", lambda: _mentions_pytest(change))


def _mentions_pytest(change: Change) -> bool:
    from tribunal.git.treegrep import grep_files

    found = grep_files(change, ("pytest",), _PYTEST_GLOBS)
    return found is None or bool(found)


def overridden(change: Change) -> str | None:
    """Where the repository may change Django's discovery (a runner or a pattern)."""
    return _OVERRIDES.get(change, "", lambda: _override(change))


def _find_root(change: Change, directory: str) -> str | None:
    for folder in ancestor_dirs(directory):
        if change.read_head(posixpath.join(folder, "manage.py")) is not None:
            return folder
    return None


def _override(change: Change) -> str | None:
    from tribunal.git.treegrep import grep_files

    found = grep_files(change, _OVERRIDE_WORDS, _OVERRIDE_GLOBS)
    if found is None:
        return "the repository could not be searched for TEST_RUNNER or --pattern"
    return f"{found[0]} may set TEST_RUNNER or a discovery pattern" if found else None
