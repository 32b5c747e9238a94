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
from pathlib import Path
from typing import TextIO

from tribunal.audit.context import hook_context
from tribunal.audit.record import Found, Record
from tribunal.git.cmd import Git, is_zero
from tribunal.hooks.repo import Repo, open_repo

HOOK = "reference-transaction"
OFFERED = "reference-transaction-offered"  # the first convene under pre-commit installs it


def run_reference_transaction(
    cwd: Path, state: str, git_pid: int | None, stdin: TextIO, err: TextIO
) -> int:
    """Record pushes past the gate, and remote-tracking refs written locally, among the
    updated refs on ``stdin``; always 0."""
    text = stdin.read()
    if state != "committed":
        return 0
    lines = _remote_lines(text)
    if not lines:
        return 0
    try:
        from tribunal.audit.context import parent_argv
        from tribunal.audit.remote_state import git_subcommand

        argv = parent_argv(git_pid) if git_pid else None
        sub, args = git_subcommand(argv) if argv else ("", [])
        repo = open_repo(cwd)
        with repo.git() as git:
            if sub in ("push", ""):
                _record_pushes(repo, git, lines, git_pid, err)
            else:
                assert argv is not None
                _record_written(repo, git, lines, sub, args, " ".join(argv), err)
    except Exception as exc:
        print(
            f"tribunal: could not check this ref update for a bypassed gate ({exc}); "
            "`tribunal audit` finds pushes later",
            file=err,
        )
    return 0


def _record_pushes(
    repo: Repo, git: Git, lines: list[tuple[str, str, str]], git_pid: int | None, err: TextIO
) -> None:
    from tribunal.audit.scan import record_transaction
    from tribunal.hooks.shims import hooks_dir

    updates = [(ref, new) for old, new, ref in lines if is_zero(old) and not is_zero(new)]
    if not updates:
        return
    ctx = hook_context(hooks_dir(git), "reference-transaction", git_pid, None, repo.checkout)
    _warn(record_transaction(repo.common_dir, git, updates, ctx), repo.common_dir, err)


def _record_written(
    repo: Repo,
    git: Git,
    lines: list[tuple[str, str, str]],
    sub: str,
    args: list[str],
    command: str,
    err: TextIO,
) -> None:
    """A command that is not a push wrote remote-tracking refs: record the ones it did not
    fetch from their own remote (``remote`` subcommands manage the namespace: their
    reflog entries are no evidence, and nothing is recorded for them)."""
    from tribunal.audit.local import record_written
    from tribunal.audit.reflog import read_refs
    from tribunal.audit.remote_state import fetch_source, from_remote

    if sub == "remote":
        return
    refs = read_refs(git)
    fetched = fetch_source(args) if sub in ("fetch", "pull") else None
    local = []
    for old, new, ref in lines:
        owner = refs.owner(ref)
        if owner is None:
            continue
        if fetched is not None and from_remote(fetched, owner[0], refs):
            continue
        local.append((old, new, ref))
    if local:
        _warn(record_written(repo.common_dir, git, local, command), repo.common_dir, err)


def lazy(repo: Repo, git: Git, found: Found, err: TextIO) -> list[Record]:
    """The reflog scan; records found are written and announced on ``err``."""
    from tribunal.audit.scan import lazy_scan
    from tribunal.hooks.shims import hooks_dir

    ctx = hook_context(hooks_dir(git), found, workdir=repo.checkout)
    written = lazy_scan(repo.common_dir, git, ctx)
    _warn(written, repo.common_dir, err)
    return written


def audit_before_push(repo: Repo, git: Git, framework: bool, err: TextIO) -> None:
    """At pre-push: scan the reflogs; under pre-commit, make sure our hook is installed."""
    try:
        lazy(repo, git, "pre-push", err)
        if framework:
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


def _remote_lines(text: str) -> list[tuple[str, str, str]]:
    """``(old, new, ref)`` of each update of a remote-tracking ref."""
    out = []
    for line in text.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[2].startswith("refs/remotes/"):
            out.append((parts[0], parts[1], parts[2]))
    return out


def _warn(written: list[Record], common_dir: Path, err: TextIO) -> None:
    from tribunal.audit.scan import warning_line

    for record in written:
        print(warning_line(record, common_dir), file=err)
    err.flush()
