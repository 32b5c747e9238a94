"""git for the bench's generated repositories: a pinned identity, no user or system config.

Every repository the corpus harness, the symbol-cost benchmark and the history
replay build goes through ``git_out`` here, so that the machine's settings (hooks
path, signing, default branch, identity) cannot change what is labelled or
measured, and a failing git command stops the run with one line naming it.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Mapping
from pathlib import Path

IDENTITY = {
    "GIT_AUTHOR_NAME": "bench",
    "GIT_AUTHOR_EMAIL": "bench@example.com",
    "GIT_COMMITTER_NAME": "bench",
    "GIT_COMMITTER_EMAIL": "bench@example.com",
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_CONFIG_GLOBAL": os.devnull,
}


def git_out(cwd: Path, *args: str, env: Mapping[str, str] | None = None) -> str:
    """git's stripped stdout; ``env`` is the whole environment (default: ours plus ``IDENTITY``)."""
    proc = subprocess.run(
        ["git", *args],
        cwd=cwd,
        env=dict(env) if env is not None else {**os.environ, **IDENTITY},
        capture_output=True,
        text=True,
    )
    if proc.returncode != 0:
        raise SystemExit(f"git {' '.join(args)} failed: {proc.stderr.strip()}")
    return proc.stdout.strip()
