"""The bypass audit as the hooks run it: never in the way of git, never blocking a push.

- ``reference-transaction`` (``tribunal hook reference-transaction``): after a
  push moved remote-tracking refs, record the ones whose commit got past the
  gate. It always exits 0: a failing reference-transaction hook aborts ref
  updates, and recording is not worth a broken ``git fetch``.
- pre-push: the lazy reflog scan (what the hook above could not see), and under
  the pre-commit framework, which cannot install a reference-transaction hook,
  installing ours on the first run (saying so once).
- ``tribunal install`` and ``tribunal audit``: the same lazy scan.

Any failure here is one warning line; the gate's own decision is untouched.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import TextIO

from tribunal.audit.context import hook_context
from tribunal.audit.record import Found, Record
from tribunal.gitcmd import Git, is_zero
from tribunal.hooks.repo import Repo, open_repo

HOOK = "reference-transaction"
OFFERED = "reference-transaction-offered"  # the first convene under pre-commit installs it


def run_reference_transaction(
    cwd: Path, state: str, git_pid: int | None, stdin: TextIO, err: TextIO
) -> int:
    """Record pushes past the gate among the updated refs on ``stdin``; always 0."""
    text = stdin.read()
    if state != "committed":
        return 0
    updates = _remote_updates(text)
    if not updates:
        return 0
    try:
        from tribunal.audit.scan import record_transaction
        from tribunal.hooks.shims import hooks_dir

        repo = open_repo(cwd)
        with repo.git() as git:
            ctx = hook_context(hooks_dir(git), "reference-transaction", git_pid, None, repo.workdir)
            written = record_transaction(repo.common_dir, git, updates, ctx)
        _warn(written, repo.common_dir, err)
    except Exception as exc:
        print(
            f"tribunal: could not check this push for a bypassed gate ({exc}); "
            "`tribunal audit` finds it later",
            file=err,
        )
    return 0


def lazy(repo: Repo, git: Git, found: Found, err: TextIO) -> list[Record]:
    """The reflog scan; records found are written and announced on ``err``."""
    from tribunal.audit.scan import lazy_scan
    from tribunal.hooks.shims import hooks_dir

    ctx = hook_context(hooks_dir(git), found, workdir=repo.workdir)
    written = lazy_scan(repo.common_dir, git, ctx)
    _warn(written, repo.common_dir, err)
    return written


def audit_before_push(repo: Repo, git: Git, env: Mapping[str, str], err: TextIO) -> None:
    """At pre-push: scan the reflogs; under pre-commit, make sure our hook is installed."""
    try:
        lazy(repo, git, "pre-push", err)
        if env.get("PRE_COMMIT") == "1":
            ensure_audit_hook(repo, git, err)
    except Exception as exc:
        print(f"tribunal: the bypass audit could not run ({exc}); the gate is unaffected", file=err)
    err.flush()


def ensure_audit_hook(repo: Repo, git: Git, err: TextIO) -> None:
    """On the first run in a repository, install our reference-transaction hook (saying
    so); later, only rewrite ours when its Python is gone (e.g. after ``pre-commit gc``).
    A hook the user removed stays removed; ``tribunal install --audit-only`` puts it back."""
    from tribunal.audit.scan import note_once
    from tribunal.hooks import shims

    path = shims.hooks_dir(git) / HOOK
    if shims.is_ours(path):
        python = shims.shim_python(path)
        if python is None or not os.access(python, os.X_OK):
            shims.install(git, (HOOK,), force=False)
        return
    if not note_once(repo.common_dir, OFFERED):
        return
    if path.is_symlink() or path.exists():
        print(
            f"tribunal: {path} is not tribunal's, so pushes past the gate are found only "
            "later, by `tribunal audit`; `tribunal install --audit-only --force` chains to it",
            file=err,
        )
        return
    shims.install(git, (HOOK,), force=False)
    print(
        f"tribunal: installed {path}: it records pushes that get past this gate "
        "(`tribunal audit` lists them; `tribunal uninstall` removes it)",
        file=err,
    )


def _remote_updates(text: str) -> list[tuple[str, str]]:
    """``(ref, new id)`` of each update of a remote-tracking ref that is not a deletion."""
    out = []
    for line in text.splitlines():
        parts = line.split()
        if len(parts) != 3:
            continue
        _old, new, ref = parts
        if ref.startswith("refs/remotes/") and not is_zero(new):
            out.append((ref, new))
    return out


def _warn(written: list[Record], common_dir: Path, err: TextIO) -> None:
    from tribunal.audit.scan import warning_line

    for record in written:
        print(warning_line(record, common_dir), file=err)
    err.flush()
