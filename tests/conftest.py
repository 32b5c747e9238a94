"""Shared fixtures: real git repositories in temporary directories.

Tests never write to the real ``$HOME``: it is pointed at a temporary directory
for the whole session, with a pinned git identity and no user or system git
config, so a developer's settings cannot change what the tests see.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.gitrepo import GitRepo


@pytest.fixture(autouse=True, scope="session")
def _isolated_home(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    home = tmp_path_factory.mktemp("home")
    saved = dict(os.environ)
    os.environ.update(
        {
            "HOME": str(home),
            "XDG_CONFIG_HOME": str(home / ".config"),
            "XDG_CACHE_HOME": str(home / ".cache"),
            "GIT_CONFIG_NOSYSTEM": "1",
            "GIT_AUTHOR_NAME": "Test Author",
            "GIT_AUTHOR_EMAIL": "author@example.com",
            "GIT_COMMITTER_NAME": "Test Committer",
            "GIT_COMMITTER_EMAIL": "committer@example.com",
            "GIT_AUTHOR_DATE": "2026-01-01T00:00:00Z",
            "GIT_COMMITTER_DATE": "2026-01-01T00:00:00Z",
        }
    )
    for name in (
        "GIT_DIR",
        "GIT_INDEX_FILE",
        "GIT_WORK_TREE",
        "NO_COLOR",
        "TRIBUNAL_CONFIG",
        "TRIBUNAL_NO_SKIP_GENERATED",
    ):
        os.environ.pop(name, None)
    subprocess.run(["git", "config", "--global", "init.defaultBranch", "main"], check=True)
    try:
        yield
    finally:
        os.environ.clear()
        os.environ.update(saved)


@pytest.fixture
def repo(tmp_path: Path) -> GitRepo:
    """An empty git repository with one directory level of room around it."""
    return GitRepo.init(tmp_path / "repo")


@pytest.fixture
def sandbox_parent(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty directory that sandboxes are made in (``$TRIBUNAL_WORKTREE_PARENT``)."""
    from tribunal.worktree.tempparent import PARENT_ENV

    path = tmp_path / "sandboxes"
    path.mkdir()
    monkeypatch.setenv(PARENT_ENV, str(path))
    return path
