"""A passing summary excuses a push only if it was made for that push (issue 13, case 2).

Its range base must be the remote's old value (or the base the gate would have
used), its config the one in force, its remote the one pushed to. A summary
for a later commit alone (``verify-pushes --base HEAD~1``), for another remote
or under another config is no evidence: the push past the gate is recorded.
Controls: the same ``--no-verify`` push after a convene of exactly that push is
not a record.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests import hookscenarios as sc
from tests import test_hooks_precommit
from tests.audittools import log_records
from tests.hooktools import GOOD_TEST, UserRepo

framework = test_hooks_precommit.framework


@pytest.fixture(params=test_hooks_precommit.KINDS)
def user(request: pytest.FixtureRequest, tmp_path: Path) -> UserRepo:
    user = test_hooks_precommit.user_of_kind(request.param, request, tmp_path)
    if request.param == "pre-commit":
        user.commit({"tests/test_first.py": GOOD_TEST}, "first convened push")
        assert sc.push(user).code == 0  # installs the reference-transaction hook
    return user


def tribunal(user: UserRepo, *args: str) -> None:
    result = user.repo.tribunal(*args, env=user.env)
    assert result.code == 0, result.stdout + result.stderr


def records_for(user: UserRepo, sha: str) -> list[dict[str, object]]:
    return [r for r in log_records(user) if r["new"] == sha]


def test_a_summary_of_a_later_commit_alone_does_not_excuse_the_push(user: UserRepo) -> None:
    user.commit(sc.BAD, "bad")
    later = user.commit({"tests/test_c.py": GOOD_TEST}, "c")
    tribunal(user, "verify-pushes", "--base", "HEAD~1", "--head", "HEAD")  # C alone passes
    result = user.run("push", "--no-verify", "origin", "main")
    assert result.code == 0, sc.output(result)
    [record] = records_for(user, later)
    assert record["how"][0] == "no-verify"


def test_a_summary_of_exactly_this_push_excuses_it(user: UserRepo) -> None:
    """The control: the same --no-verify push, after a convene of what it pushes."""
    user.commit({"tests/test_b.py": GOOD_TEST}, "b")
    later = user.commit({"tests/test_c.py": GOOD_TEST}, "c")
    tribunal(user, "verify-pushes", "--base", "HEAD~1", "--head", "HEAD")
    tribunal(user, "convene", "--ref", "main", "--remote", "origin")
    assert user.run("push", "--no-verify", "origin", "main").code == 0
    assert records_for(user, later) == []


def test_a_summary_for_another_remote_does_not_excuse_the_push(
    user: UserRepo, tmp_path: Path
) -> None:
    upstream = tmp_path / "upstream.git"
    subprocess.run(["git", "clone", "-q", "--bare", str(user.remote), str(upstream)], check=True)
    user.git("remote", "add", "upstream", str(upstream))
    user.git("fetch", "-q", "upstream")
    sha = user.commit({"tests/test_b.py": GOOD_TEST}, "b")
    tribunal(user, "convene", "--ref", "main", "--remote", "upstream")
    assert user.run("push", "--no-verify", "origin", "main").code == 0
    assert [r["remote"]["name"] for r in records_for(user, sha)] == ["origin"]
    assert user.run("push", "--no-verify", "upstream", "main").code == 0
    assert [r["remote"]["name"] for r in records_for(user, sha)] == ["origin"]


def test_a_summary_made_under_another_config_does_not_excuse_the_push(
    user: UserRepo, tmp_path: Path
) -> None:
    user.git("checkout", "-q", "-b", "feature")
    sha = user.commit({"tests/test_b.py": GOOD_TEST}, "b")
    tribunal(user, "convene", "--ref", "feature", "--remote", "origin")
    other = sc.colleague(user, tmp_path / "colleague")
    other.commit({"tribunal.yml": "risky-words: [frobnicate]\n"}, "team config")
    other.git("push", "-q", "origin", "main")
    user.git("fetch", "-q", "origin")
    assert user.run("push", "--no-verify", "origin", "feature").code == 0
    [record] = records_for(user, sha)
    assert record["how"][0] == "no-verify"
