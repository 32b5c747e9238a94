"""Where sandboxes live: a directory of this user's alone, inside tmpfs or the temp dir.

``/dev/shm`` and ``/tmp`` are shared by every user of the machine, and anyone can
create names there. So sandboxes (the throwaway worktree and the suite's
repository) go into ``tribunal-<uid>/`` inside the chosen location, created with
mode 0700. If that name already exists and is not a directory owned by this user
with mode 0700 (checked with ``lstat``, so a symbolic link is never followed),
it is not ours: sandboxes are then made with ``mkdtemp`` directly in the shared
location (private by construction) and the run says so once. In a sticky shared
directory nobody else can rename or remove our ``tribunal-<uid>``, so the check
cannot be raced.

``TRIBUNAL_WORKTREE_PARENT`` names the parent outright (no per-user directory):
the person who sets it has chosen a place of their own.
"""

from __future__ import annotations

import contextlib
import os
import stat
import sys
import tempfile
from pathlib import Path

PARENT_ENV = "TRIBUNAL_WORKTREE_PARENT"
_TMPFS_MARGIN = 256 << 20
_warned: set[Path] = set()


def private_name() -> str:
    return f"tribunal-{os.getuid()}"


def bases() -> list[Path]:
    """Shared locations sandboxes may go in, preferred first: an override, tmpfs, the temp dir."""
    override = os.environ.get(PARENT_ENV)
    if override:
        return [Path(override)]
    found = [Path(p) for p in (os.environ.get("XDG_RUNTIME_DIR"), "/dev/shm") if p]
    found.append(Path(tempfile.gettempdir()))
    return [p for p in dict.fromkeys(found) if p.is_dir() and os.access(p, os.W_OK | os.X_OK)]


def disk_base() -> Path:
    """The last resort: the (disk) temp dir, or the override."""
    found = bases()
    return found[-1] if found else Path(tempfile.gettempdir())


def choose_base(size_hint: int) -> Path:
    """The first location with room for ``size_hint`` bytes (tmpfs only if well clear)."""
    candidates = bases()
    for path in candidates[:-1]:
        with contextlib.suppress(OSError):
            fs = os.statvfs(path)
            if fs.f_bavail * fs.f_frsize >= 2 * size_hint + _TMPFS_MARGIN:
                return path
    return candidates[-1] if candidates else Path(tempfile.gettempdir())


def parent_in(base: Path) -> Path:
    """Where to make sandboxes in ``base``: our private directory, else ``base`` itself."""
    if os.environ.get(PARENT_ENV):
        return base
    path = base / private_name()
    try:
        os.mkdir(path, 0o700)
        os.chmod(path, 0o700)  # a umask can take bits away; nobody else can swap what we made
    except FileExistsError:
        pass
    except OSError as exc:
        return _fallback(base, path, f"cannot be created ({exc.strerror or exc})")
    problem = not_private(path)
    return path if problem is None else _fallback(base, path, problem)


def existing_private(base: Path) -> Path | None:
    """``base``'s private directory if it exists and is ours (for sweeping; never creates)."""
    if os.environ.get(PARENT_ENV):
        return None
    path = base / private_name()
    return path if not_private(path) is None else None


def not_private(path: Path) -> str | None:
    """Why ``path`` is not a directory of this user's alone; None when it is."""
    try:
        info = os.lstat(path)
    except OSError as exc:
        return f"cannot be examined ({exc.strerror or exc})"
    if stat.S_ISLNK(info.st_mode):
        return "is a symbolic link"
    if not stat.S_ISDIR(info.st_mode):
        return "is not a directory"
    if info.st_uid != os.getuid():
        return f"is owned by uid {info.st_uid}, not {os.getuid()}"
    if stat.S_IMODE(info.st_mode) != 0o700:
        return f"has mode {stat.S_IMODE(info.st_mode):04o}, not 0700"
    return None


def _fallback(base: Path, path: Path, problem: str) -> Path:
    if path not in _warned:
        _warned.add(path)
        print(
            f"tribunal: {path} {problem}; using private temporary directories in {base} instead",
            file=sys.stderr,
        )
    return base
