"""``tribunal verify-pushes``: CI re-running the gate on pushed commits, in a fresh clone."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tests.gitrepo import GitRepo
from tests.hooktools import ASSERTION_FREE_TEST, GOOD_TEST

CALC = {"calc.py": "def add(a, b):\n    return a + b\n"}


@pytest.fixture
def dev(tmp_path: Path) -> GitRepo:
    """A developer's repository; what it pushes is checked in a clone of the remote."""
    remote = tmp_path / "remote.git"
    subprocess.run(["git", "init", "-q", "--bare", "-b", "main", str(remote)], check=True)
    repo = GitRepo.init(tmp_path / "dev")
    repo.git("remote", "add", "origin", str(remote))
    repo.commit(CALC, "init")
    repo.git("push", "-q", "origin", "main")
    return repo


def ci_clone(dev: GitRepo, tmp_path: Path) -> GitRepo:
    """What CI has: a fresh clone with full history, no hooks, no tribunal state."""
    dev.git("push", "-q", "--force", "origin", "HEAD:refs/heads/pushed")
    path = tmp_path / "ci"
    subprocess.run(
        ["git", "clone", "-q", str(dev.git("remote", "get-url", "origin")), str(path)], check=True
    )
    return GitRepo(path)


def test_a_pushed_range_with_a_contradicted_commit_is_rejected(
    dev: GitRepo, tmp_path: Path
) -> None:
    base = dev.git("rev-parse", "HEAD")
    bad = dev.commit({"tests/test_bad.py": ASSERTION_FREE_TEST}, "add a test")
    ci = ci_clone(dev, tmp_path)
    result = ci.tribunal("verify-pushes", "--base", base, "--head", "origin/pushed")
    assert result.code == 1, result.stderr
    assert f"push of {base[:12]}..{bad[:12]} ({bad[:12]}) rejected" in result.stdout
    assert "tests/test_bad.py:1  [tests/assertion-free-test]" in result.stdout
    assert f"verify-pushes {base[:12]}..{bad[:12]}: rejected" in result.stdout
    as_json = json.loads(
        ci.tribunal("verify-pushes", f"{base}..origin/pushed", "--format", "json").stdout
    )
    assert as_json["results"][0]["passed"] is False and as_json["head"] == bad
    assert as_json["results"][0]["commits"] == [
        {"commit": bad, "subject": "add a test", "alone": "rejected"}
    ]


def test_a_rejected_range_names_every_commit_that_would_have_been_turned_away(
    dev: GitRepo, tmp_path: Path
) -> None:
    """The local gate rejects a push as a whole: CI lists each commit of it, merges aside,
    and says which of them would be rejected on its own (where the defect is)."""
    base = dev.git("rev-parse", "HEAD")
    first = dev.commit({"tests/test_bad.py": ASSERTION_FREE_TEST}, "add a test")
    second = dev.commit({"notes.txt": "x\n"}, "unrelated follow-up")
    ci = ci_clone(dev, tmp_path)
    result = ci.tribunal("verify-pushes", "--base", base, "--head", "origin/pushed")
    assert result.code == 1
    listed = result.stdout.split("commits that would have been rejected (2):\n", 1)[1]
    assert listed.splitlines()[:2] == [
        f"    {first[:12]} add a test  [rejected on its own]",
        f"    {second[:12]} unrelated follow-up  [passes on its own]",
    ]


def test_github_format_adds_one_error_annotation_per_rejected_range(
    dev: GitRepo, tmp_path: Path
) -> None:
    base = dev.git("rev-parse", "HEAD")
    bad = dev.commit({"tests/test_bad.py": ASSERTION_FREE_TEST}, "add a test")
    ci = ci_clone(dev, tmp_path)
    result = ci.tribunal(
        "verify-pushes", "--base", base, "--head", "origin/pushed", "--format", "github"
    )
    assert result.code == 1
    lines = result.stdout.splitlines()
    token = lines[0].removeprefix("::stop-commands::")
    assert len(token) > 32 and lines.index(f"::{token}::") > 0  # the text is never obeyed
    errors = [line for line in lines if line.startswith("::error")]
    assert len(errors) == 1 and lines.index(errors[0]) > lines.index(f"::{token}::")
    assert errors[0].startswith(
        f"::error title=Tribunal%3A push rejected::the pre-push gate would have rejected "
        f"{base[:12]}..{bad[:12]} (1 commit)%0A"
    )
    assert f"push of {base[:12]}..{bad[:12]} ({bad[:12]}) rejected" in result.stdout


def test_a_clean_range_passes_and_an_empty_one_has_nothing_to_verify(
    dev: GitRepo, tmp_path: Path
) -> None:
    base = dev.git("rev-parse", "HEAD")
    good = dev.commit({"tests/test_calc.py": GOOD_TEST}, "test add")
    ci = ci_clone(dev, tmp_path)
    result = ci.tribunal("verify-pushes", "--base", base, "--head", "origin/pushed")
    assert result.code == 0, result.stdout + result.stderr
    assert f"tribunal: ✓ {base[:12]}..{good[:12]} ({good[:12]}): unanimous pass" in result.stdout
    nothing = ci.tribunal("verify-pushes", "--base", "origin/pushed", "--head", base)
    assert nothing.code == 0 and "nothing to verify" in nothing.stdout


def test_each_commit_catches_a_bad_commit_that_a_later_one_fixed(
    dev: GitRepo, tmp_path: Path
) -> None:
    base = dev.git("rev-parse", "HEAD")
    bad = dev.commit({"tests/test_calc.py": ASSERTION_FREE_TEST}, "placeholder test")
    dev.commit({"tests/test_calc.py": GOOD_TEST}, "real test")
    ci = ci_clone(dev, tmp_path)
    whole = ci.tribunal("verify-pushes", "--base", base, "--head", "origin/pushed")
    assert whole.code == 0, whole.stdout
    each = ci.tribunal("verify-pushes", "--base", base, "--head", "origin/pushed", "--each-commit")
    assert each.code == 1
    assert f"push of {base[:12]}..{bad[:12]} ({bad[:12]}) rejected" in each.stdout
    assert each.stdout.count("unanimous pass") == 1


def test_the_config_comes_from_the_base_never_from_the_pushed_change(
    dev: GitRepo, tmp_path: Path
) -> None:
    base = dev.git("rev-parse", "HEAD")
    weaker = "analyzers:\n  assertion-free-test: false\n"
    dev.commit({"tribunal.yml": weaker, "tests/test_bad.py": ASSERTION_FREE_TEST}, "sneak")
    ci = ci_clone(dev, tmp_path)
    result = ci.tribunal(
        "verify-pushes", "--base", base, "--head", "origin/pushed", env={"TRIBUNAL_CONFIG": weaker}
    )
    assert result.code == 1
    assert "lens tests: CONTRADICTED" in result.stdout
    assert "gate weakened by this change: disables analyzer assertion-free-test" in result.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--base", "0" * 40), "all zeros (a new branch)"),
        (("--head", "HEAD"), "--base is required"),
        (("--base", "nope"), "--base nope: no such commit"),
        (("--base", "f" * 40), "after a force-push the old tip is gone"),
        (("HEAD~1..HEAD", "--base", "HEAD"), "not both"),
    ],
)
def test_usage_errors_say_what_to_do(dev: GitRepo, args: tuple[str, ...], message: str) -> None:
    result = dev.tribunal("verify-pushes", *args)
    assert result.code == 2 and message in result.stderr


def test_the_config_is_the_bases_tip_not_an_older_fork_point(repo: GitRepo) -> None:
    """A branch made before the team tightened tribunal.yml is judged by the tightened one."""
    old = repo.commit({**CALC, "tribunal.yml": "analyzers:\n  assertion-free-test: false\n"})
    main = repo.commit({"tribunal.yml": None}, "assertion-free-test back on")
    repo.git("checkout", "-q", "-b", "pr", old)
    repo.commit({"tests/test_bad.py": ASSERTION_FREE_TEST}, "add a test")
    result = repo.tribunal("verify-pushes", "--base", main, "--head", "HEAD")
    assert result.code == 1, result.stdout
    assert "lens tests: CONTRADICTED" in result.stdout
