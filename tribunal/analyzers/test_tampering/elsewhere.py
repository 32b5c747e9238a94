"""Where a test's checks may have moved: code the change added outside the test itself.

"Every check removed" is certain only if the change added nothing that
might check instead. Inside the test that is judged on its AST; outside it
(a helper or fixture in the same file, a ``conftest.py`` above it, a module
the test file imports) the added lines are read as text, and anything that
looks like a check is enough to make the verdict UNVERIFIED. Reading too much
here can only cost a red, never cause one.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterable, Iterator, Sequence

from tribunal.analyzers.test_tampering.common import quoted
from tribunal.change.diff.model import FileChange
from tribunal.change.model import Change
from tribunal.lang.paths import is_js_family, language_of
from tribunal.lang.treepaths import parent_dir, relative_base, resolve_path
from tribunal.lang.trees import python_tree
from tribunal.util.lazyre import lazy

_SAME_FILE = {
    "python": lazy(r"\bassert\w*\b|\bfail\w*\s*\(|\braise\b|\b(?:check|verify|expect)\w*\s*\("),
    "js": lazy(r"\b(?:expect|assert\w*|should|fail|throw|verify\w*|check\w*)\b"),
}
_OTHER_FILE = {
    "python": lazy(r"\bassert\w*\b|\bfail\w*\s*\(|AssertionError"),
    "js": lazy(r"\b(?:expect|assert\w*|should|fail)\b|AssertionError"),
}
_JS_IMPORT = lazy(
    r"""(?:\bfrom\s*|\bimport\s*(?:\(\s*)?|\brequire\s*\(\s*)['"](\.{1,2}/[^'"]+)['"]"""
)


def family(path: str) -> str:
    return "python" if language_of(path) == "python" else "js"


def checks_elsewhere(change: Change, fc: FileChange, spans: Sequence[tuple[int, int]]) -> list[str]:
    """Places outside every test in ``fc`` where the change added check-like code."""
    kind = family(fc.path)
    out = []
    for line in sorted(fc.added):
        if any(start <= line <= end for start, end in spans):
            continue
        text = fc.added_text.get(line, "")
        if _SAME_FILE[kind]().search(text) and not _comment_only(text, kind):
            out.append(f"line {line} of this file, outside the tests, adds `{quoted(text)}`")
            break
    for other in _reachable(change, fc, kind):
        for line in sorted(other.added):
            text = other.added_text.get(line, "")
            if _OTHER_FILE[kind]().search(text) and not _comment_only(text, kind):
                out.append(f"`{other.path}` (line {line}) adds `{quoted(text)}`")
                break
    return out


def _comment_only(text: str, kind: str) -> bool:
    """A line that is only a comment checks nothing (a commented-out assert included)."""
    stripped = text.lstrip()
    return stripped.startswith("#" if kind == "python" else ("//", "/*", "*"))


def _reachable(change: Change, fc: FileChange, kind: str) -> Iterator[FileChange]:
    """Other changed files whose code may run with the tests of ``fc``."""
    others = [o for o in change.files if o.path != fc.path and o.added and o.has_head]
    if not others:
        return
    if kind == "python":
        modules = _python_imports(change, fc)
        directory = posixpath.dirname(fc.path)
        for other in others:
            if _is_ancestor_conftest(other.path, directory) or _imported(other.path, modules):
                yield other
        return
    targets = _js_imports(change, fc)
    for other in others:
        if is_js_family(language_of(other.path)) and _resolves(other.path, targets):
            yield other


def _is_ancestor_conftest(path: str, directory: str) -> bool:
    if posixpath.basename(path) != "conftest.py":
        return False
    parent = posixpath.dirname(path)
    return parent == "" or directory == parent or directory.startswith(parent + "/")


def _python_imports(change: Change, fc: FileChange) -> set[str]:
    import ast  # for a Python test only: a JS/TS change never loads it

    source = change.head_source(fc)
    tree = python_tree(source) if source is not None else None
    if tree is None:
        return set()
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = _dotted(fc.path, node.module or "", node.level)
            if base is None:
                continue  # dots above the root: Python refuses the import
            out.add(base)
            out.update(f"{base}.{alias.name}".strip(".") for alias in node.names)
    return {m for m in out if m}


def _dotted(path: str, module: str, level: int) -> str | None:
    """The dotted module an import in ``path`` names, relative ones resolved."""
    if level == 0:
        return module
    directory = relative_base(path, level)
    if directory is None:
        return None
    return ".".join(p for p in (directory.replace("/", "."), module) if p)


def _imported(path: str, modules: Iterable[str]) -> bool:
    if language_of(path) != "python":
        return False
    dotted = path.removesuffix(".py").removesuffix(".pyi").replace("/", ".")
    dotted = dotted.removesuffix(".__init__")
    return any(dotted == m or dotted.endswith("." + m) for m in modules)


def _js_imports(change: Change, fc: FileChange) -> list[str]:
    source = change.head_source(fc)
    if source is None:
        return []
    directory = parent_dir(fc.path)
    found = (resolve_path(directory, spec) for spec in _JS_IMPORT().findall(source.text))
    return [path for path in found if path]


def _resolves(path: str, targets: Iterable[str]) -> bool:
    for target in targets:
        if path == target or path.startswith((target + ".", target + "/index.")):
            return True
        stem = target.rsplit(".", 1)[0] if "." in posixpath.basename(target) else target
        if path.startswith(stem + "."):
            return True  # './x.js' written for a TypeScript source x.ts
    return False
