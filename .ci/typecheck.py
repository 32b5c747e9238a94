"""mypy over the repository as it installs: ``hooks/`` checked as ``tribunal.hooks``, ...

The card keeps ``hooks/``, ``lenses/`` and ``worktree/`` at the top level and
``[tool.setuptools.package-dir]`` maps them into the package; the repository holds no
symlinks. mypy finds modules by directory only (it cannot follow a package-dir mapping
or an editable install's import hook), so a plain ``mypy`` run names them ``hooks.*``
and cannot resolve ``tribunal.hooks``. This runs mypy with the ``[tool.mypy]`` settings
and renames each mapped source to the module it installs as, read from the same
``package-dir`` table the build uses. Arguments are mypy's.

Usage: ``.venv/bin/python .ci/typecheck.py`` (exit codes as mypy's: 0, 1 errors, 2 crash).
"""

from __future__ import annotations

import sys
import time
import tomllib
from pathlib import Path

from mypy import util
from mypy.fscache import FileSystemCache
from mypy.main import process_options, run_build

ROOT = Path(__file__).resolve().parent.parent


def package_dirs(pyproject: Path) -> dict[str, str]:
    """Top-level source directory -> the dotted package it installs as."""
    table = tomllib.loads(pyproject.read_text(encoding="utf-8"))
    mapping: dict[str, str] = table["tool"]["setuptools"]["package-dir"]
    return {directory: package for package, directory in mapping.items()}


def installed_name(module: str, mapped: dict[str, str]) -> str:
    """``hooks.convene`` -> ``tribunal.hooks.convene``; other names unchanged."""
    head, dot, rest = module.partition(".")
    return mapped[head] + dot + rest if head in mapped else module


def main(argv: list[str]) -> int:
    started = time.time()
    fscache = FileSystemCache()
    sources, options = process_options(argv, stdout=sys.stdout, stderr=sys.stderr, fscache=fscache)
    mapped = package_dirs(ROOT / "pyproject.toml")
    for source in sources:
        source.module = installed_name(source.module, mapped)
    _, messages, blockers = run_build(sources, options, fscache, started, sys.stdout, sys.stderr)
    formatter = util.FancyFormatter(sys.stdout, sys.stderr, options.hide_error_codes)
    n_errors, n_notes, n_files = util.count_stats(messages)
    if n_errors:
        print(formatter.format_error(n_errors, n_files, len(sources), blockers=blockers))
    else:
        print(formatter.format_success(len(sources), options.color_output))
    if blockers:
        return 2
    return 1 if messages and n_notes < len(messages) else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
