"""The pre-push hook judges the repository git runs it for, and the refs git hands it
(issue 21, cases 1 and 2).

``git --git-dir=...`` from another repository or from a directory that is no
repository, a push to a URL, and ``PRE_COMMIT=1`` (with or without a forged
``PRE_COMMIT_TO_REF``) in front of a plain hook must all be judged like the
same push made from inside the repository: rejected when it carries a
CONTRADICTED finding. A bare repository and a ``--separate-git-dir`` checkout
still work; a deletion and a tag of a blob are named as not judged; a pushed
object the repository lacks blocks with exit 3.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests import hookscenarios as sc
from tests import test_hooks_precommit
from tests.audittools import log_records
from tests.gitrepo import GitRepo, Result, run_git
from tests.hooktools import GOOD_TEST, UserRepo, state

framework = test_hooks_precommit.framework


@pytest.fixture
def user(tmp_path: Path) -> UserRepo:
    """Plain hooks, and a branch ``bad`` holding an assertion-free test (made with
    --no-verify); ``main`` is checked out."""
    user = sc.make_user(tmp_path, sc.install_plain)
    user.git("checkout", "-q", "-b", "bad")
    user.commit(sc.BAD, "bad test")
    user.git("checkout", "-q", "main")
    return user


def push_from(user: UserRepo, cwd: Path, *args: str, env: dict[str, str] | None = None) -> Result:
    git_dir = str(user.path / ".git")
    return run_git(cwd, ("--git-dir", git_dir, "push", *args), {**user.env, **(env or {})},
                   check=False)


def rejected(user: UserRepo, result: Result, ref: str = "refs/heads/bad") -> None:
    text = sc.output(result)
    assert result.code != 0, text
    assert "lens tests: CONTRADICTED" in text, text
    assert user.remote_sha(ref) == ""


def test_a_push_from_inside_the_repository_is_rejected(user: UserRepo) -> None:
    """The control for every case below."""
    before = state(user.path)
    rejected(user, sc.push(user, "origin", "bad"))
    assert state(user.path) == before


def test_git_dir_from_another_repository_is_judged_in_the_right_one(
    user: UserRepo, tmp_path: Path
) -> None:
    other = tmp_path / "other repo"
    subprocess.run(["git", "init", "-q", str(other)], check=True)
    before, theirs = state(user.path), state(other)
    result = push_from(user, other, "origin", "bad")
    rejected(user, result)
    assert "without a work tree" in sc.output(result)
    assert state(user.path) == before and state(other) == theirs
    assert push_from(user, other, "--no-verify", "origin", "bad").code == 0
    # the reference-transaction hook, too, saw the right repository
    [record] = [r for r in log_records(user) if r["remote_ref"] == "refs/heads/bad"]
    assert record["how"][0] == "no-verify" and record["remote_ref"] == "refs/heads/bad"


def test_git_dir_from_a_directory_that_is_no_repository(user: UserRepo, tmp_path: Path) -> None:
    nowhere = tmp_path / "nowhere"
    nowhere.mkdir()
    (nowhere / ".venv").mkdir()  # never read: this is not the push's checkout
    result = push_from(user, nowhere, "origin", "bad")
    rejected(user, result)
    assert sorted(p.name for p in nowhere.iterdir()) == [".venv"]


def test_a_push_to_a_url_is_judged(user: UserRepo) -> None:
    result = sc.push(user, str(user.remote), "bad")
    rejected(user, result)
    url = f"file://{user.remote}"
    result = sc.push(user, url, "bad:refs/heads/by-url")
    rejected(user, result, "refs/heads/by-url")


@pytest.mark.parametrize("forged", [False, True])
def test_pre_commit_variables_do_not_steer_a_plain_hook(user: UserRepo, forged: bool) -> None:
    good = user.git("rev-parse", "main")
    env = {"PRE_COMMIT": "1", "PRE_COMMIT_LOCAL_BRANCH": "refs/heads/main"}
    if forged:
        env |= {"PRE_COMMIT_TO_REF": good, "PRE_COMMIT_FROM_REF": good}
    user.env.update(env)
    rejected(user, sc.push(user, str(user.remote), "bad"))
    rejected(user, sc.push(user, "origin", "bad"))


def test_a_shim_of_an_older_version_reads_stdin_too(user: UserRepo) -> None:
    hook = user.path / ".git" / "hooks" / "pre-push"
    hook.write_text(hook.read_text().replace(" --plain", ""))
    user.env["PRE_COMMIT"] = "1"
    rejected(user, sc.push(user, "origin", "bad"))


def test_a_bare_repository_and_a_separate_git_dir_still_work(
    user: UserRepo, tmp_path: Path
) -> None:
    bare = tmp_path / "bare.git"
    subprocess.run(["git", "clone", "-q", "--bare", str(user.path), str(bare)], check=True)
    run_git(bare, ("remote", "add", "up", str(user.remote)), {}, check=True)
    assert user.repo.tribunal("install", cwd=bare, env=user.env).code == 0
    result = run_git(bare, ("push", "up", "bad"), user.env, check=False)
    rejected(user, result)
    result = run_git(bare, ("push", "up", "main:refs/heads/fine"), user.env, check=False)
    assert result.code == 0, sc.output(result)

    work, git_dir = tmp_path / "separate", tmp_path / "separate.git"
    subprocess.run(["git", "clone", "-q", f"--separate-git-dir={git_dir}", str(user.remote),
                    str(work)], check=True)
    separate = UserRepo(GitRepo(work), user.remote, user.env)
    assert separate.repo.tribunal("install").code == 0
    separate.commit(sc.BAD, "bad here")
    rejected(separate, sc.push(separate, "origin", "main:refs/heads/bad2"), "refs/heads/bad2")
    separate.git("reset", "-q", "--hard", "HEAD~1")
    separate.commit({"tests/test_ok.py": GOOD_TEST}, "good here")
    result = sc.push(separate, "origin", "main")
    assert result.code == 0, sc.output(result)
    assert "without a work tree" not in sc.output(result)  # its checkout is known


def test_deletions_and_a_tag_of_a_blob_are_named_as_not_judged(user: UserRepo) -> None:
    assert user.run("push", "-q", "--no-verify", "origin", "main:refs/heads/old").code == 0
    blob = user.git("hash-object", "-w", "calc.py")
    user.git("tag", "-a", "-m", "a blob", "blobtag", blob)
    result = sc.push(user, "origin", "blobtag", ":refs/heads/old")
    assert result.code == 0, sc.output(result)
    text = sc.output(result)
    assert "tribunal: refs/heads/old: a deletion: nothing to judge" in text
    assert "tribunal: refs/tags/blobtag: names a blob, not a commit: nothing to judge" in text
    assert user.remote_sha("refs/tags/blobtag") != "" and user.remote_sha("refs/heads/old") == ""


def test_a_pushed_object_the_repository_lacks_blocks(user: UserRepo) -> None:
    missing = "1" * 40
    line = f"refs/heads/x {missing} refs/heads/x {'0' * 40}\n"
    result = user.repo.tribunal(
        "hook", "pre-push", "--plain", "origin", str(user.remote), stdin=line, env=user.env
    )
    assert result.code == 3, result.stderr
    assert f"the pushed object {missing} is not in the repository" in result.stderr
    assert "`git push --no-verify` bypasses the gate" in result.stderr


# -- the pre-commit framework's inputs -------------------------------------------------------


def test_the_framework_path_needs_all_four_variables(user: UserRepo) -> None:
    result = user.repo.tribunal("hook", "pre-push", env={**user.env, "PRE_COMMIT": "1"})
    assert result.code == 3
    assert "PRE_COMMIT_LOCAL_BRANCH, PRE_COMMIT_REMOTE_BRANCH" in result.stderr
    assert "pre-commit 3.2 or later sets them" in result.stderr


def test_the_framework_path_judges_the_local_branch_never_head(user: UserRepo) -> None:
    env = {
        **user.env,
        "PRE_COMMIT_LOCAL_BRANCH": "refs/heads/bad",
        "PRE_COMMIT_REMOTE_BRANCH": "refs/heads/bad",
        "PRE_COMMIT_REMOTE_NAME": "origin",
        "PRE_COMMIT_REMOTE_URL": str(user.remote),
    }
    result = user.repo.tribunal("hook", "pre-push", env=env)  # HEAD is main, which passes
    assert result.code == 1 and "lens tests: CONTRADICTED" in result.stdout
    good = user.git("rev-parse", "main")
    result = user.repo.tribunal("hook", "pre-push", env={**env, "PRE_COMMIT_TO_REF": good})
    assert result.code == 3
    assert f"PRE_COMMIT_TO_REF ({good})" in result.stderr and "set by hand" in result.stderr


def test_a_forged_to_ref_on_a_root_commit_push_under_pre_commit(
    tmp_path: Path, framework: dict[str, str]
) -> None:
    """pre-commit leaves FROM_REF/TO_REF unset when the pushed history reaches a root
    commit, so an exported value reaches the hook: it must block, not steer."""
    user = test_hooks_precommit.framework_user(tmp_path, framework)
    good = user.git("rev-parse", "main")
    user.git("checkout", "-q", "--orphan", "fresh")
    user.git("rm", "-rq", "--cached", ".")
    orphan = user.commit(sc.BAD, "orphan")
    control = sc.push(user, "origin", "fresh")
    assert control.code != 0 and "lens tests: CONTRADICTED" in sc.output(control)
    user.env |= {"PRE_COMMIT_TO_REF": good, "PRE_COMMIT_FROM_REF": good}
    result = sc.push(user, "origin", "fresh")
    assert result.code != 0
    assert f"PRE_COMMIT_TO_REF ({good})" in sc.output(result)
    assert user.remote_sha("refs/heads/fresh") == ""
    user.env |= {"PRE_COMMIT_TO_REF": orphan}  # the true value changes nothing
    result = sc.push(user, "origin", "fresh")
    assert result.code != 0 and "lens tests: CONTRADICTED" in sc.output(result)


def test_git_dir_from_elsewhere_under_pre_commit_is_not_let_through(
    tmp_path: Path, framework: dict[str, str]
) -> None:
    user = test_hooks_precommit.framework_user(tmp_path, framework)
    user.git("checkout", "-q", "-b", "bad")
    user.commit(sc.BAD, "bad")
    user.git("checkout", "-q", "main")
    other = tmp_path / "other"
    subprocess.run(["git", "init", "-q", str(other)], check=True)
    result = push_from(user, other, "origin", "bad")
    assert result.code != 0, sc.output(result)
    assert user.remote_sha("refs/heads/bad") == ""


def test_a_submodule_push_is_judged_by_the_submodules_own_gate(tmp_path: Path) -> None:
    """Issue 21, case 5: ``push --recurse-submodules=on-demand`` runs ``git push`` in the
    submodule, and git runs the submodule's own pre-push hook: with the gate installed
    there, the submodule's commits are judged; without it they are outside the gate
    (the superproject's gate sees only the pointer change)."""
    env = {
        "GIT_CONFIG_COUNT": "1",
        "GIT_CONFIG_KEY_0": "protocol.file.allow",
        "GIT_CONFIG_VALUE_0": "always",
        "TRIBUNAL_WORKTREE_PARENT": str(tmp_path),
    }
    sub_remote, super_remote = tmp_path / "sub.git", tmp_path / "super.git"
    for bare in (sub_remote, super_remote):
        subprocess.run(["git", "init", "-q", "--bare", "-b", "main", str(bare)], check=True)
    seed = GitRepo.init(tmp_path / "seed")
    seed.commit({"lib.py": "x = 1\n"}, "sub init")
    seed.git("push", "-q", str(sub_remote), "main")
    top = UserRepo(GitRepo.init(tmp_path / "top"), super_remote, env)
    top.git("remote", "add", "origin", str(super_remote))
    top.git("submodule", "add", "-q", str(sub_remote), "sub")
    top.git("commit", "-q", "-m", "add sub")
    top.git("push", "-q", "-u", "origin", "main")
    sub = UserRepo(GitRepo(top.path / "sub"), sub_remote, env)
    for repo in (top, sub):
        repo.git("config", "user.name", "Test Author")
        repo.git("config", "user.email", "author@example.com")
        sc.install_plain(repo)
    pushed = top.git("rev-parse", "HEAD")
    sub.commit(sc.BAD, "bad in the submodule")
    top.commit({}, "bump sub")
    result = top.run("push", "--recurse-submodules=on-demand", "origin", "main")
    assert result.code != 0
    assert "lens tests: CONTRADICTED" in sc.output(result)
    assert sub.remote_sha("main") == seed.git("rev-parse", "HEAD")
    assert top.remote_sha("main") == pushed
    assert sub.repo.tribunal("uninstall").code == 0  # the control: no gate in the submodule
    result = top.run("push", "--recurse-submodules=on-demand", "origin", "main")
    assert result.code == 0, sc.output(result)
    assert sub.remote_sha("main") == sub.git("rev-parse", "HEAD")  # outside the gate
