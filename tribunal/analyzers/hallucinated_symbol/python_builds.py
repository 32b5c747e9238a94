"""Whether a project builds compiled Python modules: the evidence a build-residue rule needs.

GitHub's standard Python ``.gitignore`` covers ``*.so``, ``*.pyd`` and
``*.py[cod]`` in nearly every repository, so such a rule alone says nothing
about a missing module: a compiled or bytecode twin can exist only when the
project builds extension modules (setuptools ``ext_modules`` /
``ext-modules``, Cython, CFFI, meson-python, scikit-build, maturin or
setuptools-rust, a ``meson.build`` / ``CMakeLists.txt`` / ``Cargo.toml``
beside the build config). DESIGN section 7: without that evidence a missing
module stays certain.
"""

from __future__ import annotations

import re

from tribunal.analyzers.hallucinated_symbol.tree import FileTree
from tribunal.lang.treepaths import join, parent_dir

#: Build configs read for markers, and native build systems whose presence is evidence.
_CONFIGS = ("pyproject.toml", "setup.py", "setup.cfg")
_NATIVE = ("meson.build", "CMakeLists.txt", "Cargo.toml")
_MARKERS = re.compile(
    r"ext[-_]modules|\bExtension\s*\(|cythonize|cffi_modules|build_ext|mesonpy|meson[-_]python"
    r"|scikit[-_]build|\bskbuild\b|maturin|setuptools[-_]rust|RustExtension|hatch[-_]cython"
    r"|py[-_]build[-_]cmake"
)


def builds_extensions(tree: FileTree, directory: str) -> str | None:
    """Where the project holding ``directory`` says it builds compiled modules; None if nowhere.

    Every directory from ``directory`` up to the root is looked at (a monorepo's
    package keeps its build config beside it).
    """
    current = directory
    while True:
        for name in _CONFIGS:
            path = join(current, name)
            text = tree.text(path) if tree.is_file(path) else None
            found = _MARKERS.search(text) if text is not None else None
            if found:
                return f"{path} builds extension modules ({found[0]})"
        for name in _NATIVE:
            if tree.is_file(join(current, name)):
                return f"{join(current, name)} builds native code"
        if not current:
            return None
        current = parent_dir(current)
