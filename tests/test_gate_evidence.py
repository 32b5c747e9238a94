"""Evidence of what the remote has (issue 13, case 1): only what git wrote from the remote.

A remote-tracking ref written locally (``update-ref``, ``fetch .``, a forged
reflog message, a write with no reflog, another remote whose name makes its
namespace look like a sub-directory of ``origin``'s) must not excuse a pushed
commit from being judged; each trick is recorded. And the ordinary ways of
learning what the remote has (a fresh or shallow clone, a fetch that changes
nothing, ``pull``, ``fetch --all``, ``remote update``) must still judge exactly
the pushed commits. Every case runs through the plain hooks and through the
pre-commit framework, with a control: the same push without the trick.
"""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from tests import hookscenarios as sc
from tests import test_hooks_precommit
from tests.audittools import log_records
from tests.gitrepo import GitRepo, run_git
from tests.hooktools import ASSERTION_FREE_TEST, GOOD_TEST, UserRepo, state

framework = test_hooks_precommit.framework

Trick = Callable[[UserRepo, Path], str]  # returns the ref it wrote


def update_ref(user: UserRepo, tmp_path: Path) -> str:
    user.git("update-ref", "refs/remotes/origin/scratch", "HEAD")
    return "refs/remotes/origin/scratch"


def fetch_from_dot(user: UserRepo, tmp_path: Path) -> str:
    user.git("fetch", "-q", ".", "HEAD:refs/remotes/origin/wip")
    return "refs/remotes/origin/wip"


def forged_reflog(user: UserRepo, tmp_path: Path) -> str:
    ref = "refs/remotes/origin/forged"
    user.git("update-ref", "-m", "fetch origin: fast-forward", ref, "HEAD")
    assert user.git("log", "-g", "--format=%gs", ref, "--") == "fetch origin: fast-forward"
    return ref


def no_reflog(user: UserRepo, tmp_path: Path) -> str:
    ref = "refs/remotes/origin/quiet"
    user.git("-c", "core.logAllRefUpdates=false", "update-ref", ref, "HEAD")
    assert user.git("reflog", "exists", ref, check=False) == ""
    return ref


def mirror_remote(user: UserRepo, tmp_path: Path) -> str:
    """A second remote named ``origin/mirror``: its refs live in ``refs/remotes/origin/mirror/``."""
    mirror = tmp_path / "mirror.git"
    subprocess.run(["git", "init", "-q", "--bare", str(mirror)], check=True)
    user.git("remote", "add", "origin/mirror", str(mirror))
    assert user.run("push", "-q", "--no-verify", "origin/mirror", "main").code == 0
    return "refs/remotes/origin/mirror/main"


TRICKS: dict[str, tuple[Trick, bool]] = {  # trick, and whether it is itself a recorded write
    "update-ref": (update_ref, True),
    "fetch-from-dot": (fetch_from_dot, True),
    "forged-reflog-message": (forged_reflog, True),
    "no-reflog": (no_reflog, True),
    "remote-named-origin/mirror": (mirror_remote, False),
}


@pytest.fixture(params=test_hooks_precommit.KINDS)
def kind(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def user(kind: str, tmp_path: Path, request: pytest.FixtureRequest) -> UserRepo:
    return test_hooks_precommit.user_of_kind(kind, request, tmp_path)


def tracking(user: UserRepo) -> dict[str, str]:
    out = user.git("for-each-ref", "--format=%(refname) %(objectname)", "refs/remotes")
    return dict(line.split(" ", 1) for line in out.splitlines())


@pytest.mark.parametrize("trick", TRICKS)
def test_a_remote_tracking_ref_written_locally_is_no_evidence(
    user: UserRepo, tmp_path: Path, trick: str
) -> None:
    base = user.git("rev-parse", "HEAD")
    bad = user.commit(sc.BAD, "bad test")
    control = sc.push(user, "origin", "main")
    assert control.code != 0 and "lens tests: CONTRADICTED" in sc.output(control)
    assert sc.only_summary(user, bad).range.base == base
    write, recorded = TRICKS[trick]
    ref = write(user, tmp_path)
    assert tracking(user)[ref] == bad  # the trick's ref claims the remote has the bad commit
    before = state(user.path)
    result = sc.push(user, "origin", "main")
    assert result.code != 0, sc.output(result)
    assert "lens tests: CONTRADICTED" in sc.output(result)
    assert sc.only_summary(user, bad).range.base == base  # judged as in the control
    assert user.remote_sha("main") == base
    assert state(user.path) == before
    written = [r for r in log_records(user) if "tracking-ref-written" in r["how"]]
    if recorded:
        assert [(r["tracking_ref"], r["new"]) for r in written] == [(ref, bad)]
        assert r"written by `git " in written[0]["detail"]
    else:
        assert written == []
    # the audit reads the same evidence: pushed past the gate, the commit is recorded
    assert user.run("push", "-q", "--no-verify", "origin", "main").code == 0
    bypass = [
        r
        for r in log_records(user)
        if r["new"] == bad and r["remote"]["name"] == "origin" and r not in written
    ]
    assert [(r["tracking_ref"], r["how"][0]) for r in bypass] == [
        ("refs/remotes/origin/main", "no-verify")
    ]


def test_a_push_whose_remote_value_is_known_judges_only_the_new_commits(user: UserRepo) -> None:
    """The remote sha on git's pre-push line is evidence even when no tracking ref has it."""
    pushed = user.commit({"tests/test_one.py": GOOD_TEST}, "one")
    assert sc.push(user, "origin", "main").code == 0
    user.git("update-ref", "-d", "refs/remotes/origin/main")
    sha = user.commit({"tests/test_two.py": GOOD_TEST}, "two")
    result = sc.push(user, "origin", "main")
    assert result.code == 0, sc.output(result)
    summary = sc.only_summary(user, sha)
    if "PRE_COMMIT_HOME" in user.env:  # pre-commit shows no remote value: the whole history
        assert summary.range.base is None and summary.range.notes
    else:
        assert summary.range.base == pushed and summary.range.commits == 1


# -- the ordinary ways of learning what the remote has judge exactly the pushed commits -------


def colleague_pushes_past_the_gate(user: UserRepo, tmp_path: Path) -> str:
    """The remote gets a commit with an assertion-free test from someone without hooks: a
    push that judged more than its own commits would be rejected for it."""
    other = sc.colleague(user, tmp_path / "colleague")
    other.commit({"tests/test_theirs.py": ASSERTION_FREE_TEST}, "theirs")
    other.git("push", "-q", "origin", "main")
    return other.git("rev-parse", "HEAD")


FETCHES = {
    "fetch-then-no-op-fetch": [("fetch", "-q"), ("fetch", "-q", "origin")],
    "pull": [("pull", "-q", "--no-rebase", "--no-edit")],
    "fetch-all": [("fetch", "-q", "--all")],
    "remote-update": [("remote", "update")],
}


@pytest.mark.parametrize("how", FETCHES)
def test_fetched_refs_judge_exactly_the_pushed_commits(
    user: UserRepo, tmp_path: Path, how: str
) -> None:
    theirs = colleague_pushes_past_the_gate(user, tmp_path)
    for step in FETCHES[how]:
        result = user.run(*step)
        assert result.code == 0, sc.output(result)
    if how != "pull":
        user.git("merge", "-q", "--ff-only", "origin/main")
    entry = user.git("log", "-g", "-1", "--format=%gs", "refs/remotes/origin/main", "--")
    assert entry.startswith(("fetch", "pull")), entry
    sha = user.commit({"tests/test_mine.py": GOOD_TEST}, "mine")
    result = sc.push(user, "origin", "main")
    assert result.code == 0, sc.output(result)
    summary = sc.only_summary(user, sha)
    assert (summary.range.base, summary.range.commits) == (theirs, 1)


@pytest.mark.parametrize("depth", [None, 1])
def test_a_fresh_clone_judges_exactly_the_pushed_commits(
    user: UserRepo, kind: str, tmp_path: Path, depth: int | None
) -> None:
    theirs = colleague_pushes_past_the_gate(user, tmp_path)
    path = tmp_path / "fresh clone"
    shallow = ["--depth", str(depth)] if depth else []
    subprocess.run(
        ["git", "clone", "-q", *shallow, f"file://{user.remote}", str(path)], check=True
    )
    clone = UserRepo(GitRepo(path), user.remote, user.env)
    assert clone.git("reflog", "exists", "refs/remotes/origin/main", check=False) == ""
    if kind == "plain":
        sc.install_plain(clone)
    else:
        assert test_hooks_precommit.pre_commit(clone, "install").returncode == 0
    sha = clone.commit({"tests/test_mine.py": GOOD_TEST}, "mine")
    result = sc.push(clone, "origin", "main")
    assert result.code == 0, sc.output(result)
    summary = sc.only_summary(clone, sha)
    assert (summary.range.base, summary.range.commits) == (theirs, 1)
    assert summary.config.commit is None and "the tip of origin/main" in summary.config.source
    clone.git("checkout", "-q", "-b", "feature")
    feature = clone.commit({"tests/test_feature.py": GOOD_TEST}, "feature")
    result = sc.push(clone, "origin", "feature")
    assert result.code == 0, sc.output(result)
    summary = sc.only_summary(clone, feature)
    assert (summary.range.base, summary.range.commits) == (sha, 1)
    assert summary.range.notes == ["origin has no feature known here: judged from the merge base "
                                   "with origin/main"]


def test_a_fetch_from_another_remote_into_origins_namespace_is_recorded(
    tmp_path: Path,
) -> None:
    user = sc.make_user(tmp_path, sc.install_plain)
    other = tmp_path / "other.git"
    subprocess.run(["git", "init", "-q", "--bare", "-b", "main", str(other)], check=True)
    user.git("remote", "add", "other", str(other))
    bad = user.commit(sc.BAD, "bad")
    assert user.run("push", "-q", "--no-verify", "other", "main").code == 0
    user.git("fetch", "-q", "other", "main:refs/remotes/origin/theirs")
    [record] = [r for r in log_records(user) if "tracking-ref-written" in r["how"]]
    assert (record["tracking_ref"], record["new"]) == ("refs/remotes/origin/theirs", bad)
    assert "git fetch -q other main:refs/remotes/origin/theirs" in record["detail"]
    result = sc.push(user, "origin", "main")
    assert result.code != 0 and "lens tests: CONTRADICTED" in sc.output(result)


def test_ordinary_fetches_record_nothing(tmp_path: Path) -> None:
    user = sc.make_user(tmp_path, sc.install_plain)
    colleague_pushes_past_the_gate(user, tmp_path)
    for step in (("fetch", "-q"), ("fetch", "-q", "origin", "main"), ("fetch", "--all", "-q")):
        assert user.run(*step).code == 0
    assert run_git(user.path, ("remote", "update"), user.env, check=True).code == 0
    assert [r for r in log_records(user) if "tracking-ref-written" in r["how"]] == []
