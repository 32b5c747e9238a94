"""``tribunal install`` / ``uninstall``: small hook scripts for repositories without pre-commit.

The shims (``pre-commit.sh`` and ``pre-push.sh`` beside this module) run the same
entry points as the pre-commit framework, with the Python that installed them;
``reference-transaction.sh`` records pushes that got past the gate (it never fails).
They go where git looks for hooks (``core.hooksPath`` is honoured). A hook that
is already there and is not ours is never overwritten silently: without
``--force`` the install stops and says so; with it, the old hook is kept as
``<hook>.pre-tribunal`` and the shim runs it first (and ``uninstall`` puts it
back).
"""

from __future__ import annotations

import os
import shlex
import sys
from dataclasses import dataclass
from pathlib import Path

from tribunal.errors import UsageError
from tribunal.git.cmd import Git
from tribunal.util.fsutil import write_atomically

MARKER = "# tribunal-shim:"
CHAINED_SUFFIX = ".pre-tribunal"
GATE_HOOKS = ("pre-commit", "pre-push")
#: Hooks that only record bypasses (the weakened-gate audit; ``reference-transaction.sh``).
AUDIT_HOOKS: tuple[str, ...] = ("reference-transaction",)


@dataclass(frozen=True)
class Action:
    hook: str
    path: Path
    what: str  # for people: "installed", "updated", "chained", "removed", "restored", "left"


def hooks_dir(git: Git) -> Path:
    return Path(git.text("rev-parse", "--path-format=absolute", "--git-path", "hooks"))


def is_ours(path: Path) -> bool:
    try:
        with path.open("rb") as handle:
            head = handle.read(512)
    except OSError:
        return False
    return MARKER.encode() in head


def install(git: Git, hooks: tuple[str, ...], force: bool) -> list[Action]:
    """Write the shims for ``hooks``; refuse (before writing any) if a foreign hook is there."""
    directory = hooks_dir(git)
    plan = [(hook, directory / hook) for hook in hooks]
    for hook, path in plan:
        _check_replaceable(hook, path, force)
    actions = []
    for hook, path in plan:
        what = "updated" if is_ours(path) else "installed"
        if _present(path) and not is_ours(path):
            os.replace(path, _chained(path))
            what = f"installed; the existing hook is kept as {_chained(path).name} and runs first"
        _write_shim(path, render(hook))
        actions.append(Action(hook, path, what))
    return actions


def uninstall(git: Git, hooks: tuple[str, ...]) -> list[Action]:
    """Remove our shims and put back any hook they were chained to."""
    directory = hooks_dir(git)
    actions = []
    for hook in hooks:
        path = directory / hook
        if not _present(path):
            continue
        if not is_ours(path):
            actions.append(Action(hook, path, "left alone (not tribunal's)"))
            continue
        path.unlink()
        if _chained(path).exists():
            os.replace(_chained(path), path)
            actions.append(Action(hook, path, f"removed; restored the earlier {hook} hook"))
        else:
            actions.append(Action(hook, path, "removed"))
    return actions


def shim_python(path: Path) -> str | None:
    """The Python a shim of ours runs (its ``python=`` line), or None."""
    try:
        with path.open(encoding="utf-8", errors="replace") as handle:
            head = handle.read(2048)
    except OSError:
        return None
    for line in head.splitlines():
        if line.startswith("python="):
            try:
                words = shlex.split(line.removeprefix("python="))
            except ValueError:
                return None
            return words[0] if words else None
    return None


def render(hook: str) -> str:
    template = (Path(__file__).parent / f"{hook}.sh").read_text(encoding="utf-8")
    return template.replace("@PYTHON@", _sh_quote(sys.executable))


def _check_replaceable(hook: str, path: Path, force: bool) -> None:
    if not _present(path) or is_ours(path):
        return
    if not force:
        raise UsageError(
            f"{path} already exists and is not tribunal's; nothing was installed. "
            f"Rerun with --force to keep it as {path.name}{CHAINED_SUFFIX} and run it "
            "before tribunal, or remove it yourself"
        )
    if _present(_chained(path)):
        raise UsageError(f"{path} and {_chained(path)} both exist; nothing was installed")


def _present(path: Path) -> bool:
    return path.is_symlink() or path.exists()


def _chained(path: Path) -> Path:
    return path.with_name(path.name + CHAINED_SUFFIX)


def _write_shim(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomically(path, text, mode=0o755)


def _sh_quote(text: str) -> str:
    return "'" + text.replace("'", "'\\''") + "'"
