"""Which test files are about which source file, by name.

Two ways to correlate, both on whole tokens:

- basename stem: ``src/auth.ts`` <-> ``auth.test.ts``, ``auth_service.py`` <->
  ``test_auth.py`` (a shared token that is not a test marker);
- directory / module: a file named like ``index``/``__init__`` stands for its
  directory, so ``src/auth/index.ts`` <-> ``test/auth.test.ts`` and
  ``pkg/auth/__init__.py`` <-> ``tests/test_auth.py``; and a test file under a
  directory named like the module (``tests/auth/test_login.py`` for
  ``src/auth/session.py``) belongs to it too.
"""

from __future__ import annotations

import posixpath

from tribunal.lang.identifiers import split_words

#: Tokens that say nothing about what a file is about.
_PLAIN = frozenset(
    {"src", "lib", "libs", "app", "apps", "pkg", "pkgs", "packages", "source", "sources",
     "index", "init", "main", "mod", "utils", "util", "common", "core", "helpers", "helper",
     "internal", "shared", "test", "tests", "spec", "specs", "unit", "integration", "e2e",
     "conftest", "js", "ts", "py", "dist", "t"}
)  # fmt: skip
_MODULE_FILES = frozenset({"index", "__init__", "main", "mod", "__main__"})


def source_words(path: str) -> tuple[frozenset[str], frozenset[str]]:
    """(module words, package words) of a source file.

    The module is the file's stem, or its directory for ``index``/``__init__``;
    the package is the directory the file sits in.
    """
    directory, name = posixpath.split(path)
    stem = name.split(".")[0]
    package = _meaningful(set(split_words(posixpath.basename(directory))))
    if stem in _MODULE_FILES:
        return package, package
    return _meaningful(set(split_words(stem))), package


def test_words(path: str) -> tuple[frozenset[str], frozenset[str]]:
    """(stem words, directory words) of a test file, test markers removed."""
    directory, name = posixpath.split(path)
    stem = {w for piece in name.split(".")[:-1] or [name] for w in split_words(piece)}
    dirs = {w for part in directory.split("/") if part for w in split_words(part)}
    return _meaningful(stem), _meaningful(dirs)


def correlated(source: str, test: str) -> bool:
    """Whether ``test`` is, by its name or place, a test of ``source``.

    A test named for the module or its package, or placed in a directory named
    for the module; a test directory named for the package counts only when
    the test file's own name says nothing (``tests/auth/index.test.ts``).
    """
    module, package = source_words(source)
    stem, dirs = test_words(test)
    if module & stem or package & stem or module & dirs:
        return True
    return not stem and bool(package & dirs)


def _meaningful(words: set[str]) -> frozenset[str]:
    return frozenset(w for w in words if w not in _PLAIN and not w.isdigit())
