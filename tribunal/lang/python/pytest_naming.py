"""Which files, classes and functions pytest collects, as a project configures it.

(Also the ``usefixtures`` option, the one setting that runs code around every test.)

pytest reads ``python_files``, ``python_classes`` and ``python_functions``
from the first of ``pytest.ini``, ``.pytest.ini``, ``pyproject.toml``,
``tox.ini`` and ``setup.cfg`` that holds a pytest section. This module turns
one such file's text into a ``PytestNaming``; reading the files is
``tribunal.lang.python.pytest_project``'s job.
"""

import fnmatch
import posixpath
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    from tribunal.change.model import Source

#: Config files in the order pytest prefers them within one directory.
CONFIG_FILES = ("pytest.ini", ".pytest.ini", "pyproject.toml", "tox.ini", "setup.cfg")


class PytestNaming(NamedTuple):
    """pytest's collection patterns; the defaults unless a config file says otherwise."""

    files: tuple[str, ...] = ("test_*.py", "*_test.py")
    classes: tuple[str, ...] = ("Test",)
    functions: tuple[str, ...] = ("test",)
    source: str | None = None  # the config file the patterns came from
    usefixtures: tuple[str, ...] = ()  # the ``usefixtures`` ini option: applied to every test
    plugins: tuple[str, ...] = ()  # ``addopts = -p name``: plugins whose hooks run with tests

    def file(self, path: str) -> bool:
        """pytest's ``fnmatch_ex``: a pattern without ``/`` matches the file name."""
        name = posixpath.basename(path)
        for pattern in self.files:
            if "/" in pattern:
                if fnmatch.fnmatchcase("/" + path, "*/" + pattern.lstrip("/")):
                    return True
            elif fnmatch.fnmatchcase(name, pattern):
                return True
        return False

    def cls(self, name: str) -> bool:
        return _prefix_or_glob(name, self.classes)

    def function(self, name: str) -> bool:
        return _prefix_or_glob(name, self.functions)


DEFAULT_NAMING = PytestNaming()


def is_test_file(path: str, naming: PytestNaming = DEFAULT_NAMING) -> bool:
    """Whether pytest would collect ``path`` (a repository-relative ``.py`` path)."""
    return path.endswith(".py") and naming.file(path)


def naming_from_config(path: str, text: str) -> PytestNaming | None:
    """The naming one config file declares; None when it holds no pytest section."""
    options = pytest_section(path, text)
    return None if options is None else naming_from_options(path, options)


def naming_from_options(path: str, options: Mapping[str, Any]) -> PytestNaming:
    """The naming of the pytest section ``options`` read from config file ``path``."""
    return PytestNaming(
        files=_patterns(options.get("python_files"), DEFAULT_NAMING.files),
        classes=_patterns(options.get("python_classes"), DEFAULT_NAMING.classes),
        functions=_patterns(options.get("python_functions"), DEFAULT_NAMING.functions),
        source=path,
        usefixtures=_patterns(options.get("usefixtures"), ()),
        plugins=_plugins(options.get("addopts")),
    )


def _plugins(addopts: object) -> tuple[str, ...]:
    """``-p name`` / ``-pname`` in ``addopts`` (``-p no:name`` disables one instead)."""
    words = list(_patterns(addopts, ()))
    found = []
    for position, word in enumerate(words):
        if word == "-p" and position + 1 < len(words):
            name = words[position + 1]
        elif word.startswith("-p") and len(word) > 2 and not word.startswith("--"):
            name = word[2:].lstrip("=")
        else:
            continue
        if name and not name.startswith("no:"):
            found.append(name)
    return tuple(found)


def config_in(
    directory: str, read: "Callable[[str], Source | None]", *, bare_ini_counts: bool = True
) -> tuple[str, Mapping[str, Any]] | None:
    """The config file pytest reads in ``directory``, and its pytest section's raw options.

    That is the first of ``CONFIG_FILES`` holding a pytest section; None when
    no file in ``directory`` holds one (pytest then looks further up).
    """
    for name in CONFIG_FILES:
        path = posixpath.join(directory, name) if directory else name
        source = read(path)
        if source is None:
            continue
        options = pytest_section(path, source.text, bare_ini_counts=bare_ini_counts)
        if options is not None:
            return path, options
    return None


def pytest_section(
    path: str, text: str, *, bare_ini_counts: bool = True
) -> Mapping[str, Any] | None:
    """The raw pytest options of one config file; None when it holds no pytest section.

    ``[pytest]`` in ``pytest.ini``/``tox.ini``, ``[tool:pytest]`` in
    ``setup.cfg``, ``[tool.pytest.ini_options]`` (or ``[tool.pytest]``) in
    ``pyproject.toml``. pytest takes a ``pytest.ini`` as its config even with
    no such section (or one it cannot parse): ``bare_ini_counts`` gives it no
    options then, where otherwise it holds no section at all.
    """
    name = posixpath.basename(path)
    if name == "pyproject.toml":
        return _toml_options(text)
    section = {"tox.ini": "pytest", "setup.cfg": "tool:pytest"}.get(name, "pytest")
    options = _ini_options(text, section)
    if options is None and bare_ini_counts and name in ("pytest.ini", ".pytest.ini"):
        return {}
    return options


def _toml_options(text: str) -> Mapping[str, Any] | None:
    from tribunal.util.bounds import load_toml  # only when a pyproject.toml exists

    try:
        data = load_toml(text)
    except ValueError:  # TOMLDecodeError, UnicodeError and TooDeep alike
        return None
    pytest = data.get("tool", {}).get("pytest")
    if not isinstance(pytest, dict):
        return None
    legacy = pytest.get("ini_options")
    return legacy if isinstance(legacy, dict) else pytest


def _ini_options(text: str, section: str) -> Mapping[str, Any] | None:
    import configparser

    parser = configparser.ConfigParser(interpolation=None, strict=False)
    try:
        parser.read_string(text)
    except configparser.Error:
        return None
    return dict(parser.items(section)) if parser.has_section(section) else None


def _patterns(value: object, default: tuple[str, ...]) -> tuple[str, ...]:
    if isinstance(value, str):
        found = tuple(value.split())
    elif isinstance(value, list):
        found = tuple(p for item in value if isinstance(item, str) for p in item.split())
    else:
        return default
    return found or default


def _prefix_or_glob(name: str, patterns: tuple[str, ...]) -> bool:
    for pattern in patterns:
        if any(c in pattern for c in "*?["):
            if fnmatch.fnmatchcase(name, pattern):
                return True
        elif name.startswith(pattern):
            return True
    return False
