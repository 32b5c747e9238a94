"""A normal (non-editable) install of the working tree, for ``python -m bench.perf --wheel``.

The development venv installs tribunal in editable mode, whose import finder
costs every start-up several milliseconds that a user's install does not pay.
To measure what users run, the working tree is copied (so the build leaves no
``build/`` or ``*.egg-info`` behind in the checkout), built into a wheel, and
installed with ``--no-deps`` into a fresh venv. That venv reaches the
dependencies through a ``.pth`` line naming this interpreter's site-packages:
``--system-site-packages`` would not do, because a venv created from a venv's
interpreter inherits the *base* interpreter's packages, not the venv's.
"""

from __future__ import annotations

import shutil
import site
import subprocess
import sys
from pathlib import Path

#: The repository this benchmark belongs to: what the wheel is built from.
SOURCE = Path(__file__).resolve().parents[1]
_SKIP = shutil.ignore_patterns(
    ".git", "__pycache__", "*.egg-info", "build", "dist", ".venv", "venv",
    ".mypy_cache", ".ruff_cache", ".pytest_cache", ".hypothesis",
)  # fmt: skip


def wheel_python(scratch: Path, source: Path = SOURCE) -> Path:
    """Build ``source`` into a wheel, install it into a venv under ``scratch``; its python."""
    tree, dist, venv = scratch / "src", scratch / "dist", scratch / "venv"
    shutil.copytree(source, tree, ignore=_SKIP, symlinks=True)
    _pip("wheel", "--no-deps", "--quiet", "--wheel-dir", str(dist), str(tree))
    (wheel,) = dist.glob("tribunal_gate-*.whl")  # the distribution is tribunal-gate
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    _pip("--python", str(python), "install", "--no-deps", "--quiet", str(wheel))
    _share_dependencies(python)
    return python


def _pip(*args: str) -> None:
    subprocess.run(
        [sys.executable, "-m", "pip", "--disable-pip-version-check", *args],
        check=True,
        stdout=subprocess.DEVNULL,
    )


def _share_dependencies(python: Path) -> None:
    """Put this interpreter's site-packages after the venv's own (a plain path, no hooks).

    Paths listed in a ``.pth`` file are added to ``sys.path`` but their own
    ``.pth`` files are not run, so the editable install's finder stays out.
    """
    out = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True,
        capture_output=True,
        text=True,
    )
    own = Path(out.stdout.strip())
    lines = "".join(f"{p}\n" for p in site.getsitepackages() if Path(p) != own)
    (own / "zz_tribunal_bench_deps.pth").write_text(lines, encoding="utf-8")
