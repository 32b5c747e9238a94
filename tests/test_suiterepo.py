"""The suite lens's throwaway repository: its own refs, config, index, stash and hooks; the
user's objects and tags read-only; nothing the suite does to git reaches the user."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.gitrepo import GitRepo, run_git
from tests.hooktools import global_git_configs, marker_hook, object_files, state
from tribunal.worktree.suiterepo import (
    SuiteRepoError,
    global_config_text,
    suite_env,
    suite_repository,
)

CARELESS = """
set -e
git config user.name careless
git config --global user.name careless-global
git config --global alias.zz status
git tag t
git branch b
git checkout -q -b side
echo x > s.txt
git add s.txt
git stash -q
git update-ref refs/heads/main HEAD
git commit -q --allow-empty -m "made in the suite"
git gc -q --prune=now
git remote add origin /nowhere
"""


@pytest.fixture
def user(repo: GitRepo) -> GitRepo:
    repo.commit({"calc.py": "x = 1\n"}, "first")
    repo.git("tag", "-a", "v1.0", "-m", "release")
    repo.commit({"calc.py": "x = 2\n"}, "second")
    repo.git("stash", "list")
    return repo


def sh(script: str, cwd: Path, env: dict[str, str]) -> str:
    proc = subprocess.run(
        ["sh", "-c", script], cwd=cwd, env=env, capture_output=True, text=True, check=False
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc.stdout.strip()


def test_a_careless_suite_changes_nothing_of_the_users(user: GitRepo, sandbox_parent: Path) -> None:
    head = user.git("rev-parse", "HEAD")
    before, objs, configs = state(user.path), object_files(user.path), global_git_configs()
    with suite_repository(user.path, user.path / ".git", head) as box:
        assert box.path.parent.parent == sandbox_parent and box.path.name == user.path.name
        assert sh("git rev-parse HEAD", box.path, box.env) == head
        assert sh("git describe --tags", box.path, box.env) == f"v1.0-1-g{head[:7]}"
        assert sh("git describe --always", box.path, box.env) == f"v1.0-1-g{head[:7]}"
        assert sh("git status --porcelain", box.path, box.env) == ""
        assert (box.path / "calc.py").read_text() == "x = 2\n"
        sh(CARELESS, box.path, box.env)
        assert sh("git config --global user.name", box.path, box.env) == "careless-global"
        assert sh("git tag --list t", box.path, box.env) == "t"
    assert state(user.path) == before
    assert object_files(user.path) == objs
    assert global_git_configs() == configs
    assert list(sandbox_parent.iterdir()) == []


def test_its_own_config_hooks_and_no_remote(
    user: GitRepo, sandbox_parent: Path, tmp_path: Path
) -> None:
    marker = tmp_path / "fired"
    marker_hook(user.path, "post-commit", marker)
    user.git("config", "user.email", "local@example.com")
    user.git("config", "remote.origin.url", str(tmp_path / "remote.git"))
    with suite_repository(user.path, user.path / ".git", "HEAD") as box:
        hooks = Path(sh("git config core.hooksPath", box.path, box.env))
        assert hooks.is_dir() and list(hooks.iterdir()) == []
        assert sh("git config user.email", box.path, box.env) == "local@example.com"
        assert sh("git remote", box.path, box.env) == ""
        assert sh("git stash list", box.path, box.env) == ""
        assert sh("git for-each-ref --format='%(refname)'", box.path, box.env) == "refs/tags/v1.0"
        sh("git commit -q --allow-empty -m x", box.path, box.env)
        alternates = box.path / ".git" / "objects" / "info" / "alternates"
        assert alternates.read_text().strip() == str((user.path / ".git" / "objects").resolve())
    assert not marker.exists()


def test_the_environment_has_nothing_of_tribunal_and_a_throwaway_global_config(
    user: GitRepo, sandbox_parent: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TRIBUNAL_API_KEY", "secret")
    monkeypatch.setenv("GIT_INDEX_FILE", str(user.path / ".git" / "index"))
    monkeypatch.setenv("GIT_DIR", str(user.path / ".git"))
    with suite_repository(user.path, user.path / ".git", "HEAD") as box:
        assert not [k for k in box.env if k.startswith("TRIBUNAL_")]
        assert "GIT_DIR" not in box.env and "GIT_INDEX_FILE" not in box.env
        throwaway = Path(box.env["GIT_CONFIG_GLOBAL"])
        assert throwaway.parent == box.path.parent
        assert sh("env | grep '^TRIBUNAL_' || true", box.path, box.env) == ""
        # conftest's global config (init.defaultBranch) is read through the include
        assert sh("git config init.defaultBranch", box.path, box.env) == "main"
        assert sh("git config --global --includes init.defaultBranch", box.path, box.env) == "main"


def test_relative_includes_in_the_users_global_config_keep_working(tmp_path: Path) -> None:
    home = tmp_path / "home with ' and \" quote"
    (home / "conf").mkdir(parents=True)
    (home / ".gitconfig").write_text("[include]\n\tpath = conf/extra\n")
    (home / "conf" / "extra").write_text("[tribunaltest]\n\tfrom = extra\n")
    env = {"HOME": str(home), "PATH": os.environ["PATH"], "GIT_CONFIG_NOSYSTEM": "1"}
    throwaway = tmp_path / "gitconfig"
    throwaway.write_text(global_config_text(env))
    lookup = ("config", "--global", "--includes", "tribunaltest.from")
    got = run_git(tmp_path, lookup, suite_env(throwaway, env), check=True)
    assert got.stdout.strip() == "extra"
    run_git(tmp_path, ("config", "--global", "x.y", "z"), suite_env(throwaway, env), check=True)
    assert "[x]" not in (home / ".gitconfig").read_text()
    assert "[x]" in throwaway.read_text()
    explicit = {**env, "GIT_CONFIG_GLOBAL": str(home / "conf" / "extra")}
    assert str(home / "conf" / "extra").replace('"', '\\"') in global_config_text(explicit)


def test_a_shallow_clone_has_history_up_to_its_cut(
    user: GitRepo, sandbox_parent: Path, tmp_path: Path
) -> None:
    user.commit({"calc.py": "x = 3\n"}, "third")
    shallow = tmp_path / "shallow"
    run_git(
        tmp_path,
        ("clone", "-q", "--depth", "2", f"file://{user.path}", str(shallow)),
        {},
        check=True,
    )
    with suite_repository(shallow, shallow / ".git", "HEAD") as box:
        assert sh("git log --format=%s", box.path, box.env).splitlines() == ["third", "second"]


def test_a_partial_clone_fetches_missing_objects_into_the_throwaway(
    sandbox_parent: Path, tmp_path: Path
) -> None:
    remote = tmp_path / "remote.git"
    run_git(tmp_path, ("init", "-q", "--bare", "-b", "main", str(remote)), {}, check=True)
    run_git(remote, ("config", "uploadpack.allowFilter", "true"), {}, check=True)
    run_git(remote, ("config", "uploadpack.allowAnySHA1InWant", "true"), {}, check=True)
    seed = GitRepo.init(tmp_path / "seed")
    seed.commit({"big.txt": "one\n"})
    seed.commit({"big.txt": "two\n"})
    seed.git("push", "-q", str(remote), "main")
    user = tmp_path / "user"
    run_git(
        tmp_path,
        ("clone", "-q", "--filter=blob:none", f"file://{remote}", str(user)),
        {},
        check=True,
    )
    old = run_git(user, ("rev-parse", "HEAD~1:big.txt"), {}, check=True).stdout.strip()
    tree = run_git(
        user, ("mktree", "--missing"), {}, check=True, stdin=f"100644 blob {old}\tbig.txt\n"
    )
    commit = run_git(
        user, ("commit-tree", tree.stdout.strip(), "-p", "HEAD", "-m", "restore"), {}, check=True
    ).stdout.strip()
    missing = ("rev-list", "--objects", "--missing=print", commit)
    assert f"?{old}" in run_git(user, missing, {}, check=True).stdout
    with suite_repository(user, user / ".git", commit) as box:
        assert (box.path / "big.txt").read_text() == "one\n"
        assert sh("git remote", box.path, box.env) == "origin"
        push = subprocess.run(
            ["git", "push", "origin", "HEAD:refs/heads/x"],
            cwd=box.path,
            env=box.env,
            capture_output=True,
            check=False,
        )
        assert push.returncode != 0
    assert f"?{old}" in run_git(user, missing, {}, check=True).stdout  # still missing there
    shutil.rmtree(remote)
    with (
        pytest.raises(SuiteRepoError, match="read-tree"),
        suite_repository(user, user / ".git", commit),
    ):
        pass
    assert list(sandbox_parent.iterdir()) == []


needs_lfs = pytest.mark.skipif(shutil.which("git-lfs") is None, reason="git-lfs is not installed")
LFS_FILTER = {
    "filter.lfs.clean": "git-lfs clean -- %f",
    "filter.lfs.smudge": "git-lfs smudge -- %f",
    "filter.lfs.process": "git-lfs filter-process",
    "filter.lfs.required": "true",
}


@needs_lfs
def test_git_lfs_files_are_checked_out_from_the_users_lfs_objects(
    repo: GitRepo, sandbox_parent: Path
) -> None:
    for key, value in LFS_FILTER.items():
        repo.git("config", key, value)
    payload = os.urandom(3000)
    repo.commit({".gitattributes": "*.bin filter=lfs -text\n", "data.bin": payload})
    assert repo.git("show", "HEAD:data.bin").startswith("version https://git-lfs")
    with suite_repository(repo.path, repo.path / ".git", "HEAD") as box:
        assert (box.path / "data.bin").read_bytes() == payload
    pointer = f"version https://git-lfs.github.com/spec/v1\noid sha256:{'ab' * 32}\nsize 12\n"
    blob = (
        subprocess.run(
            ["git", "hash-object", "-w", "--stdin"],
            cwd=repo.path,
            input=pointer.encode(),
            capture_output=True,
            check=True,
        )
        .stdout.decode()
        .strip()
    )
    repo.git("update-index", "--add", "--cacheinfo", f"100644,{blob},missing.bin")
    repo.git("commit", "-q", "--no-verify", "-m", "pointer without its object")
    with (
        pytest.raises(SuiteRepoError, match=r"read-tree .*filter"),
        suite_repository(repo.path, repo.path / ".git", "HEAD"),
    ):
        pass


def test_a_sha256_repository(sandbox_parent: Path, tmp_path: Path) -> None:
    path = tmp_path / "sha256"
    run_git(
        tmp_path, ("init", "-q", "--object-format=sha256", "-b", "main", str(path)), {}, check=True
    )
    repo = GitRepo(path)
    head = repo.commit({"a.py": "a = 1\n"})
    assert len(head) == 64
    with suite_repository(path, path / ".git", head) as box:
        assert sh("git rev-parse HEAD", box.path, box.env) == head


def test_removed_when_the_block_raises(user: GitRepo, sandbox_parent: Path) -> None:
    with pytest.raises(KeyboardInterrupt), suite_repository(user.path, user.path / ".git", "HEAD"):
        raise KeyboardInterrupt
    assert list(sandbox_parent.iterdir()) == []


def test_an_unknown_commit_is_a_clear_error(user: GitRepo, sandbox_parent: Path) -> None:
    with (
        pytest.raises(SuiteRepoError, match="rev-parse"),
        suite_repository(user.path, user.path / ".git", "0" * 40),
    ):
        pass
    assert list(sandbox_parent.iterdir()) == []
