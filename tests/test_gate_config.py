"""The config a push is judged by (issue 13, case 3): the remote's default branch's tip.

An orphan branch, a default branch written locally, a ``HEAD`` chosen with
``git remote set-head``: none of them escapes the team's ``tribunal.yml``, and
the summary and the output name the branch and commit the config came from.
The layout keys (``python-roots``, ``generated-paths``) of a pushed
``tribunal.yml`` may turn a CONTRADICTED into UNVERIFIED, never the reverse.
Plain hooks and the pre-commit framework, each with a control.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests import hookscenarios as sc
from tests import test_hooks_precommit
from tests.audittools import audit, log_records
from tests.hooktools import UserRepo

framework = test_hooks_precommit.framework

#: A change whose only finding is UNVERIFIED (a suppressed assertion-free test).
SUPPRESSED = {
    "tests/test_smoke.py": (
        "def test_smoke():  # tribunal: ignore[assertion-free-test] a smoke test\n    pass\n"
    )
}


@pytest.fixture(params=test_hooks_precommit.KINDS)
def user(request: pytest.FixtureRequest, tmp_path: Path) -> UserRepo:
    return test_hooks_precommit.user_of_kind(request.param, request, tmp_path)


def strict_remote(user: UserRepo) -> str:
    sc.set_remote_config(user, "strict: true\n")
    return user.git("rev-parse", "HEAD")


def rejected_under_strict(user: UserRepo, branch: str, config: str) -> None:
    result = sc.push(user, "origin", branch)
    text = sc.output(result)
    assert result.code != 0, text
    assert "(strict: true)" in text
    assert f"config: tribunal.yml at {config[:12]} (the tip of origin/main as last fetched)" in text
    sha = user.git("rev-parse", branch)
    summary = sc.only_summary(user, sha)
    assert summary.config.commit == config and summary.config.strict
    assert user.remote_sha(f"refs/heads/{branch}") == ""


def test_an_orphan_branch_is_judged_by_the_remotes_config(user: UserRepo) -> None:
    config = strict_remote(user)
    user.git("checkout", "-q", "-b", "normal")
    user.commit(SUPPRESSED, "smoke test")
    rejected_under_strict(user, "normal", config)  # the control
    user.git("checkout", "-q", "--orphan", "fresh")
    user.commit({}, "the same tree, no history")
    assert user.git("rev-parse", "fresh^{tree}") == user.git("rev-parse", "normal^{tree}")
    rejected_under_strict(user, "fresh", config)
    assert sc.only_summary(user, user.git("rev-parse", "fresh")).range.base is None


def test_without_a_config_on_the_default_branch_the_defaults_say_where_they_looked(
    user: UserRepo,
) -> None:
    tip = user.git("rev-parse", "origin/main")
    user.git("checkout", "-q", "-b", "normal")
    sha = user.commit(SUPPRESSED, "smoke test")
    result = sc.push(user, "origin", "normal")
    assert result.code == 0, sc.output(result)
    source = f"built-in defaults (no tribunal.yml at {tip[:12]}, the tip of origin/main as last"
    assert f"config: {source}" in sc.output(result)
    assert sc.only_summary(user, sha).config.source.startswith(source)


def test_a_default_branch_written_locally_does_not_choose_the_config(user: UserRepo) -> None:
    config = strict_remote(user)
    user.git("checkout", "-q", "-b", "lax")
    lax = user.commit({"tribunal.yml": "strict: false\n"}, "lax config, never pushed")
    user.git("update-ref", "refs/remotes/origin/main", lax)
    user.git("checkout", "-q", "-b", "normal", config)
    user.commit(SUPPRESSED, "smoke test")
    result = sc.push(user, "origin", "normal")
    assert result.code != 0 and "(strict: true)" in sc.output(result)
    summary = sc.only_summary(user, user.git("rev-parse", "normal"))
    assert summary.config.commit == config
    assert "the tip of origin/main as last fetched (" in summary.config.source
    assert "the value before it)" in summary.config.source


def test_a_default_branch_git_never_fetched_blocks(tmp_path: Path) -> None:
    user = sc.make_user(tmp_path, sc.install_plain)
    user.git("remote", "add", "other", str(user.remote))
    user.commit(sc.GOOD, "good")
    user.git("update-ref", "refs/remotes/other/main", "HEAD")  # never fetched from other
    result = sc.push(user, "other", "main")
    assert result.code != 0 and "tribunal: error: " in sc.output(result)
    assert "holds no value git fetched from other" in sc.output(result)
    assert "`git fetch other` restores it" in sc.output(result)
    assert user.run("fetch", "-q", "other").code == 0
    assert sc.push(user, "other", "main").code == 0


def test_a_head_set_locally_comes_after_main_and_is_recorded(user: UserRepo) -> None:
    config = strict_remote(user)
    user.git("checkout", "-q", "-b", "lax")
    user.commit({"tribunal.yml": "strict: false\n"}, "lax config")
    assert user.run("push", "-q", "--no-verify", "origin", "lax").code == 0
    user.git("remote", "set-head", "origin", "lax")
    user.git("checkout", "-q", "-b", "normal", config)
    user.commit(SUPPRESSED, "smoke test")
    result = sc.push(user, "origin", "normal")
    assert result.code != 0 and "(strict: true)" in sc.output(result)
    assert "set here by `git remote set-head`, is not taken as its default" in sc.output(result)
    assert audit(user).code == 0
    [record] = [r for r in log_records(user) if r["how"] == ["default-branch-set"]]
    assert record["tracking_ref"] == "refs/remotes/origin/HEAD"


# -- layout keys -----------------------------------------------------------------------------

HELPERS = {"helpers.py": "def helper_a():\n    return 1\n"}
MOVED = {
    "lib/helpers.py": "def helper_b():\n    return 2\n",
    "app.py": "from helpers import helper_b\n\n\ndef run():\n    return helper_b()\n",
}


def test_a_contradiction_only_the_remotes_layout_keys_make_is_unverified(
    user: UserRepo,
) -> None:
    user.commit(HELPERS, "helpers")
    assert user.run("push", "-q", "--no-verify", "origin", "main").code == 0
    user.git("checkout", "-q", "-b", "control")
    user.commit(MOVED, "use lib/ without saying so")
    control = sc.push(user, "origin", "control")
    assert control.code != 0 and "'helpers' has no name 'helper_b'" in sc.output(control)
    user.git("checkout", "-q", "-b", "moved", "main")
    sha = user.commit({**MOVED, "tribunal.yml": "python-roots: [lib]\n"}, "move to lib/")
    result = sc.push(user, "origin", "moved")
    assert result.code == 0, sc.output(result)
    [finding] = [f for m in sc.only_summary(user, sha).members for f in m.findings]
    assert finding.verdict == "UNVERIFIED" and finding.analyzer == "hallucinated-symbol"
    assert "layout keys (python-roots, generated-paths)" in finding.detail
    user.git("checkout", "-q", "-b", "other-keys", "main")
    sha = user.commit({**MOVED, "tribunal.yml": "risky-words: [x]\n"}, "not a layout key")
    result = sc.push(user, "origin", "other-keys")
    assert result.code != 0 and "'helpers' has no name 'helper_b'" in sc.output(result)
