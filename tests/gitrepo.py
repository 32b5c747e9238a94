"""A small driver for real git repositories used by tests and the bench."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path


@dataclass
class Result:
    code: int
    stdout: str
    stderr: str


@dataclass
class GitRepo:
    path: Path

    @classmethod
    def init(cls, path: Path) -> GitRepo:
        path.mkdir(parents=True, exist_ok=True)
        subprocess.run(["git", "init", "-q", "-b", "main", str(path)], check=True)
        repo = cls(path)
        repo.git("config", "user.name", "Test Author")
        repo.git("config", "user.email", "author@example.com")
        repo.git("config", "commit.gpgsign", "false")
        return repo

    def git(self, *args: str, env: Mapping[str, str] | None = None, check: bool = True) -> str:
        return run_git(self.path, args, env or {}, check=check).stdout.strip()

    def write(self, files: Mapping[str, str | bytes | None]) -> None:
        """Write (str/bytes) or delete (None) files relative to the work tree."""
        for name, content in files.items():
            target = self.path / name
            if content is None:
                target.unlink()
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            if isinstance(content, bytes):
                target.write_bytes(content)
            else:
                target.write_text(content, encoding="utf-8")

    def commit(
        self, files: Mapping[str, str | bytes | None] | None = None, message: str = "c"
    ) -> str:
        """Write ``files``, stage everything and commit; returns the new commit id."""
        if files:
            self.write(files)
        self.git("add", "-A")
        self.git("commit", "-q", "--allow-empty", "--no-verify", "-m", message)
        return self.git("rev-parse", "HEAD")

    def tribunal(
        self,
        *args: str,
        stdin: str | None = None,
        env: Mapping[str, str] | None = None,
        cwd: Path | None = None,
    ) -> Result:
        """Run the real CLI as a subprocess (``python -m tribunal``)."""
        proc = subprocess.run(
            [sys.executable, "-m", "tribunal", *args],
            cwd=cwd or self.path,
            input=stdin,
            env={**os.environ, **(env or {})},
            capture_output=True,
            text=True,
            check=False,
        )
        return Result(proc.returncode, proc.stdout, proc.stderr)


def run_git(
    cwd: Path,
    args: tuple[str, ...] | list[str],
    env: Mapping[str, str],
    *,
    check: bool,
    stdin: str | None = None,
) -> Result:
    """git in ``cwd`` with ``env`` over ours (the session pins identity and config: conftest).

    With ``check``, a failure is an AssertionError showing git's exit code and output.
    """
    proc = subprocess.run(
        ["git", *args],
        cwd=cwd,
        env={**os.environ, **env},
        input=stdin,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    if check and proc.returncode != 0:
        raise AssertionError(
            f"git {' '.join(args)} failed ({proc.returncode}):\n{proc.stdout}{proc.stderr}"
        )
    return Result(proc.returncode, proc.stdout, proc.stderr)
