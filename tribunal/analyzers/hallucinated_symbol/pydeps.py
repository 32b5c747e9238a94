"""The Python distributions a project declares, read from its manifests (never run).

Sources: ``pyproject.toml`` (PEP 621 dependencies and extras, dependency groups,
build requirements, Poetry, PDM, uv and Hatch tables), ``requirements*.txt``
(following ``-r``), ``tox.ini`` test environments, ``setup.cfg``, the literal
``install_requires`` / ``extras_require`` of ``setup.py``, and ``Pipfile``.
Names are normalized as PEP 503 says.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any

from tribunal.analyzers.hallucinated_symbol.tree import FileTree
from tribunal.lang.treepaths import join, parent_dir

if TYPE_CHECKING:
    import configparser

_NAME = re.compile(r"\s*([A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)")
_EGG = re.compile(r"#egg=([A-Za-z0-9._-]+)")
_SETUP_KEYWORDS = ("install_requires", "extras_require", "tests_require", "setup_requires")


def normalize(name: str) -> str:
    """PEP 503: runs of ``-``, ``_`` and ``.`` become one ``-``; lower case."""
    return re.sub(r"[-_.]+", "-", name).lower()


def requirement_name(spec: str) -> str | None:
    """The distribution named by a PEP 508 string (``name[extra]>=1; marker``)."""
    egg = _EGG.search(spec)
    if egg:
        return egg[1]
    match = _NAME.match(spec)
    return match[1] if match else None


def declared_in(tree: FileTree, directory: str) -> frozenset[str]:
    """Normalized names declared by the manifests directly in ``directory``."""
    return frozenset(normalize(n) for n in _declared_in(tree, directory))


def _declared_in(tree: FileTree, directory: str) -> Iterator[str]:
    for manifest, read in _MANIFESTS:
        text = tree.text(join(directory, manifest))
        if text is not None:
            yield from read(text)
    for name in sorted(tree.children(directory)):
        if is_requirements_name(name):
            yield from _requirements(tree, join(directory, name), set())
    req_dir = join(directory, "requirements")
    for name in sorted(tree.children(req_dir)):
        if name.endswith((".txt", ".in")):
            yield from _requirements(tree, join(req_dir, name), set())


def is_requirements_name(name: str) -> bool:
    """``requirements.txt``, ``dev-requirements.in``, ``requirement_test.txt`` and the like.

    ``[prefix[-_.]]requirement[s][[-_.]suffix].(txt|in)``, found with ``str.find``:
    as a regex (two ``.*`` around the word) it was cubic in a long file name.
    """
    stem, dot, ext = name.lower().rpartition(".")
    if not dot or ext not in ("txt", "in"):
        return False
    word = "requirement"
    index = stem.find(word)
    while index >= 0:
        end = index + len(word)
        ends = (end, end + 1) if stem.startswith("s", end) else (end,)
        if (index == 0 or stem[index - 1] in "-_.") and any(
            e == len(stem) or stem[e] in "-_." for e in ends
        ):
            return True
        index = stem.find(word, index + 1)
    return False


def _load_toml(text: str) -> dict[str, Any]:
    from tribunal.bounds import load_toml  # only when an import is judged against manifests

    try:
        return load_toml(text)
    except ValueError:
        return {}


def _pyproject(text: str) -> Iterator[str]:
    data = _load_toml(text)
    project = _table(data, "project")
    yield from _specs(project.get("dependencies"))
    for extra in _table(project, "optional-dependencies").values():
        yield from _specs(extra)
    for group in _table(data, "dependency-groups").values():
        yield from _specs(group)
    yield from _specs(_table(data, "build-system").get("requires"))
    tool = _table(data, "tool")
    poetry = _table(tool, "poetry")
    yield from _keys(poetry.get("dependencies"), poetry.get("dev-dependencies"))
    for group in _table(poetry, "group").values():
        yield from _keys(_table(group, "dependencies"))
    for group in _table(_table(tool, "pdm"), "dev-dependencies").values():
        yield from _specs(group)
    yield from _specs(_table(tool, "uv").get("dev-dependencies"))
    for env in _table(_table(tool, "hatch"), "envs").values():
        yield from _specs(_table_of(env).get("dependencies"))
        yield from _specs(_table_of(env).get("extra-dependencies"))


def _toml_keys(text: str, *paths: tuple[str, ...]) -> Iterator[str]:
    data = _load_toml(text)
    for path in paths:
        node: Any = data
        for key in path:
            node = _table(node, key)
        yield from _keys(node)


def _table(data: Any, key: str) -> dict[str, Any]:
    return _table_of(data.get(key) if isinstance(data, dict) else None)


def _table_of(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _specs(value: Any) -> Iterator[str]:
    if isinstance(value, list):
        for item in value:
            name = requirement_name(item) if isinstance(item, str) else None
            if name:
                yield name


def _keys(*tables: Any) -> Iterator[str]:
    for table in tables:
        if isinstance(table, dict):
            yield from (k for k in table if isinstance(k, str) and k.lower() != "python")


def _requirements(tree: FileTree, path: str, seen: set[str]) -> Iterator[str]:
    """Names in a requirements file; ``-r other.txt`` / ``-c`` are followed inside the tree."""
    text = tree.text(path)
    if text is None or path in seen or len(seen) > 50:
        return
    seen.add(path)
    for raw in text.splitlines():
        line = raw.split(" #", 1)[0].strip()
        if not line or line.startswith("#"):
            continue
        include = re.match(r"(?:-r|--requirement|-c|--constraint)\s*(?:=\s*)?(\S+)", line)
        if include:
            yield from _requirements(tree, _relative(path, include[1]), seen)
        elif line.startswith(("-e", "--editable")) or not line.startswith("-"):
            name = requirement_name(re.sub(r"^(?:-e|--editable)\s*", "", line))
            if name and "/" not in name:
                yield name


def _relative(path: str, target: str) -> str:
    parts = parent_dir(path).split("/") if parent_dir(path) else []
    for part in target.split("/"):
        if part == "..":
            if parts:
                parts.pop()
        elif part not in ("", "."):
            parts.append(part)
    return "/".join(parts)


def _setup_cfg(text: str) -> Iterator[str]:
    parser = _ini(text, strict=True)
    if parser is None:
        return
    values: list[str] = []
    if parser.has_section("options"):
        values += [parser.get("options", k, fallback="") for k in _SETUP_KEYWORDS]
    if parser.has_section("options.extras_require"):
        values += [v for _, v in parser.items("options.extras_require")]
    for value in values:
        for line in value.splitlines():
            name = requirement_name(line.strip()) if line.strip() else None
            if name:
                yield name


def _ini(text: str, *, strict: bool) -> configparser.ConfigParser | None:
    """The parsed INI text, or None when it does not parse."""
    import configparser  # only when a setup.cfg or tox.ini is read

    parser = configparser.ConfigParser(interpolation=None, strict=strict)
    try:
        parser.read_string(text)
    except configparser.Error:
        return None
    return parser


def _tox_ini(text: str) -> Iterator[str]:
    """``deps`` of every ``[testenv...]`` section."""
    parser = _ini(text, strict=False)
    if parser is None:
        return
    for section in parser.sections():
        if section.startswith("testenv"):
            for line in parser.get(section, "deps", fallback="").splitlines():
                name = requirement_name(line.strip()) if line.strip() else None
                if name and not line.strip().startswith(("-", "{")):
                    yield name


def _setup_py(text: str) -> Iterator[str]:
    """Literal requirement strings given to ``setup()`` (directly or via a module constant)."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return
    constants = {
        t.id: node.value
        for node in tree.body
        if isinstance(node, ast.Assign)
        for t in node.targets
        if isinstance(t, ast.Name)
    }
    for node in ast.walk(tree):
        if isinstance(node, ast.keyword) and node.arg in _SETUP_KEYWORDS:
            yield from _strings(node.value, constants)


def _strings(node: ast.expr, constants: dict[str, ast.expr], depth: int = 0) -> Iterable[str]:
    for sub in ast.walk(node):
        if isinstance(sub, ast.Constant) and isinstance(sub.value, str):
            name = requirement_name(sub.value)
            if name:
                yield name
        elif isinstance(sub, ast.Name) and sub.id in constants and depth < 3:
            yield from _strings(constants[sub.id], constants, depth + 1)


def setup_py_names(text: str) -> list[str]:
    """Requirement names a ``setup.py`` gives ``setup()`` literally (shared with the claims)."""
    return list(_setup_py(text))


def tox_ini_names(text: str) -> list[str]:
    """Requirement names of the ``deps`` of every tox test environment."""
    return list(_tox_ini(text))


def _pipfile(text: str) -> Iterable[str]:
    return _toml_keys(text, ("packages",), ("dev-packages",))


#: Manifests read in every directory, in this order, with their readers.
_MANIFESTS: tuple[tuple[str, Callable[[str], Iterable[str]]], ...] = (
    ("pyproject.toml", _pyproject),
    ("setup.cfg", _setup_cfg),
    ("setup.py", _setup_py),
    ("tox.ini", _tox_ini),
    ("Pipfile", _pipfile),
)
