"""Where absolute Python imports start: the module roots of the repository.

The repository root, ``src/``, the ``python-roots`` of ``tribunal.yml``, and
the package directories the project's own build configuration names
(setuptools ``package-dir`` / ``packages.find.where``, Poetry ``from``, Hatch
wheel ``packages``, pytest ``pythonpath``).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from tribunal.analyzers.hallucinated_symbol.tree import FileTree
from tribunal.lang.treepaths import parent_dir


def python_roots(tree: FileTree, configured: tuple[str, ...]) -> tuple[str, ...]:
    """Existing root directories, repository root first, without duplicates."""
    roots: list[str] = []
    candidates = ["", "src", *configured, *_from_pyproject(tree), *_from_setup_cfg(tree)]
    for raw in candidates:
        root = _clean(raw)
        if root is not None and root not in roots and tree.is_dir(root):
            roots.append(root)
    return tuple(roots)


def _clean(raw: str) -> str | None:
    parts = [p for p in raw.replace("\\", "/").split("/") if p not in ("", ".")]
    if any(p == ".." for p in parts):
        return None
    return "/".join(parts)


def _from_pyproject(tree: FileTree) -> Iterator[str]:
    text = tree.text("pyproject.toml")
    if text is None:
        return
    from tribunal.util.bounds import load_toml  # only when the file exists

    try:
        data = load_toml(text)
    except ValueError:
        return
    tool = _dict(data.get("tool"))
    setuptools = _dict(tool.get("setuptools"))
    package_dir = _dict(setuptools.get("package-dir"))
    if isinstance(package_dir.get(""), str):
        yield package_dir[""]
    find = _dict(_dict(setuptools.get("packages")).get("find"))
    yield from _strings(find.get("where"))
    for entry in _list(_dict(tool.get("poetry")).get("packages")):
        if isinstance(entry, dict) and isinstance(entry.get("from"), str):
            yield entry["from"]
    hatch = _dict(_dict(_dict(_dict(tool.get("hatch")).get("build")).get("targets")))
    for package in _strings(_dict(hatch.get("wheel")).get("packages")):
        yield parent_dir(package.rstrip("/"))
    pytest = _dict(_dict(tool.get("pytest")).get("ini_options"))
    yield from _strings(pytest.get("pythonpath"))


def _from_setup_cfg(tree: FileTree) -> Iterator[str]:
    text = tree.text("setup.cfg")
    if text is None:
        return
    import configparser  # only when the file exists

    parser = configparser.ConfigParser(interpolation=None)
    try:
        parser.read_string(text)
    except configparser.Error:
        return
    for line in parser.get("options", "package_dir", fallback="").splitlines():
        key, _, value = line.partition("=")
        if not key.strip() and value.strip():
            yield value.strip()
    yield from parser.get("options.packages.find", "where", fallback="").split()


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    for item in _list(value):
        if isinstance(item, str):
            yield item
