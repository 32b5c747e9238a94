"""The weakened-gate audit with the plain-git hooks of ``tribunal install``: real pushes
to a real bare remote, real fetches from a colleague's clone, and ``tribunal audit``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests import hookscenarios as sc
from tests.audittools import audit, log_file, log_records, warnings
from tests.gitrepo import GitRepo
from tests.hooktools import ASSERTION_FREE_TEST, UserRepo

SUPPRESSED = (
    "# tribunal: ignore[assertion-free-test] a placeholder the next release fills in\n"
    + ASSERTION_FREE_TEST
)


@pytest.fixture
def user(tmp_path: Path) -> UserRepo:
    """A repository whose first push happened before ``tribunal install`` (the baseline)."""
    user = UserRepo.create(
        tmp_path / "wörk dir", {"TRIBUNAL_WORKTREE_PARENT": str(tmp_path / "sandboxes")}
    )
    (tmp_path / "sandboxes").mkdir()
    user.commit({"calc.py": "def add(a, b):\n    return a + b\n"}, "init")
    user.git("push", "-q", "--no-verify", "-u", "origin", "main")
    result = user.repo.tribunal("install", env=user.env)
    assert result.code == 0, result.stderr
    assert "reference-transaction: installed" in result.stdout
    return user


def colleague(user: UserRepo, tmp_path: Path) -> GitRepo:
    return sc.colleague(user, tmp_path / "colleague")


def test_a_no_verify_push_of_a_contradicted_commit_gives_one_record_and_one_warning(
    user: UserRepo,
) -> None:
    before = user.git("rev-parse", "HEAD")
    sha = user.commit(sc.BAD, "bad test")
    assert sc.push(user).code != 0
    assert log_records(user) == []  # a rejected push moves nothing
    result = user.run("push", "--no-verify")
    assert result.code == 0, sc.output(result)
    assert len(warnings(result)) == 1
    assert sha[:12] in warnings(result)[0] and str(log_file(user)) in warnings(result)[0]
    [record] = log_records(user)
    assert record["how"] == ["no-verify", "failing-summary"]
    assert (record["old"], record["new"]) == (before, sha)
    assert record["remote"] == {"name": "origin", "url": str(user.remote)}
    assert (record["remote_ref"], record["tracking_ref"]) == (
        "refs/heads/main",
        "refs/remotes/origin/main",
    )
    assert record["found"] == "reference-transaction"
    assert record["user"]["email"] == "committer@example.com" and record["host"]
    assert record["detail"] == "the push command had --no-verify"
    [finding] = record["findings"]
    assert finding["verdict"] == "CONTRADICTED" and finding["analyzer"] == "assertion-free-test"
    assert finding["file"] == "tests/test_new thing ü.py" and finding["lens"] == "tests"
    assert Path(record["summary"]).is_file()
    listed = audit(user, "--verify")
    assert listed.code == 0, listed.stderr
    assert listed.stdout.startswith("tribunal: 1 weakened-gate record in ")
    assert "how: --no-verify; failing summary pushed anyway" in listed.stdout
    assert "the hash chain is intact" in listed.stdout
    as_json = json.loads(audit(user, "--format", "json").stdout)
    assert [r["new"] for r in as_json["records"]] == [sha] and len(log_records(user)) == 1


def test_a_passing_push_leaves_no_record(user: UserRepo) -> None:
    user.commit(sc.GOOD, "good test")
    result = sc.push(user)
    assert result.code == 0, sc.output(result)
    assert warnings(result) == [] and log_records(user) == []
    user.git("checkout", "-q", "-b", "copy")
    result = sc.push(user, "-u", "origin", "copy")  # nothing new: nothing convened
    assert result.code == 0 and warnings(result) == []
    assert audit(user).stdout.startswith("tribunal: 0 weakened-gate records")
    assert log_records(user) == []


def test_fetches_pulls_and_prunes_never_become_records(user: UserRepo, tmp_path: Path) -> None:
    other = colleague(user, tmp_path)
    other.git("checkout", "-q", "-b", "theirs")
    other.commit({"tests/test_theirs.py": ASSERTION_FREE_TEST}, "their branch")
    other.git("push", "-q", "origin", "theirs")
    other.git("checkout", "-q", "main")
    other.commit({"more.py": "m = 1\n"}, "their main")
    other.git("push", "-q", "origin", "main")
    steps = [
        ("fetch",),  # a new remote-tracking ref arrives from an all-zero old value
        ("pull", "-q", "--no-rebase", "--no-edit"),
        ("fetch", "--prune"),
    ]
    for step in steps:
        result = user.run(*step)
        assert result.code == 0 and warnings(result) == [], (step, sc.output(result))
    other.git("push", "-q", "origin", "--delete", "theirs")
    for step in (("remote", "prune", "origin"), ("fetch", "--prune")):
        result = user.run(*step)
        assert result.code == 0 and warnings(result) == [], (step, sc.output(result))
    assert user.git("branch", "-r").split() == ["origin/main"]
    assert audit(user).code == 0 and log_records(user) == []


def test_two_refs_pushed_with_no_verify_in_one_command_give_two_records(user: UserRepo) -> None:
    shas = {}
    for branch in ("one", "two"):
        user.git("checkout", "-q", "-b", branch, "main")
        shas[branch] = user.commit({f"tests/test_{branch}.py": ASSERTION_FREE_TEST}, branch)
    result = user.run("push", "--no-verify", "origin", "one", "two")
    assert result.code == 0, sc.output(result)
    assert len(warnings(result)) == 2
    records = log_records(user)
    assert sorted((r["remote_ref"], r["new"]) for r in records) == [
        ("refs/heads/one", shas["one"]),
        ("refs/heads/two", shas["two"]),
    ]
    assert all(r["how"] == ["no-verify"] for r in records)
    assert audit(user, "--verify").code == 0 and len(log_records(user)) == 2


def test_a_push_with_every_hook_disabled_is_found_by_the_lazy_audit(user: UserRepo) -> None:
    sha = user.commit(sc.BAD, "bad")
    result = user.run("-c", "core.hooksPath=/dev/null", "push")
    assert result.code == 0 and warnings(result) == [] and log_records(user) == []
    user.git("checkout", "-q", "-b", "next")
    user.commit(sc.GOOD, "good")
    result = sc.push(user, "-u", "origin", "next")  # the next push's pre-push finds it
    assert result.code == 0, sc.output(result)
    assert len(warnings(result)) == 1 and sha[:12] in warnings(result)[0]
    [record] = log_records(user)
    assert record["how"] == ["hooks-disabled"] and record["found"] == "pre-push"
    assert record["new"] == sha and record["findings"] == []
    again = audit(user)
    assert again.code == 0 and warnings(again) == [] and len(log_records(user)) == 1


def test_the_audit_command_finds_what_no_hook_saw(user: UserRepo) -> None:
    sha = user.commit(sc.BAD, "bad")
    assert user.run("-c", "core.hooksPath=/dev/null", "push").code == 0
    result = audit(user, "--since", "1d")
    assert result.code == 0 and len(warnings(result)) == 1
    assert f"{sha[:12]}  origin refs/heads/main" in result.stdout
    assert "how: hooks disabled" in result.stdout
    assert [r["found"] for r in log_records(user)] == ["audit"]
    assert "0 weakened-gate records" in audit(user, "--since", "2099-01-01").stdout


def test_a_push_to_a_url_leaves_no_trace(user: UserRepo) -> None:
    user.commit(sc.BAD, "bad")
    result = user.run("push", "--no-verify", str(user.remote), "HEAD:refs/heads/by-url")
    assert result.code == 0, sc.output(result)
    assert user.remote_sha("refs/heads/by-url") == user.git("rev-parse", "HEAD")
    assert warnings(result) == [] and warnings(audit(user)) == [] and log_records(user) == []


def test_a_tampered_log_fails_audit_verify(user: UserRepo) -> None:
    for branch in ("a", "b", "c"):
        user.git("checkout", "-q", "-b", branch, "main")
        user.commit({f"tests/test_{branch}.py": ASSERTION_FREE_TEST}, branch)
        assert user.run("push", "--no-verify", "origin", branch).code == 0
    path = log_file(user)
    original = path.read_text().splitlines()
    assert len(original) == 3 and audit(user, "--verify").code == 0
    edited = original[1].replace('"no-verify"', '"unknown"')
    path.write_text("\n".join([original[0], edited, original[2]]) + "\n")
    result = audit(user, "--verify")
    assert result.code == 1
    assert "line 3: the chain is broken: its prev does not match line 2" in result.stdout
    path.write_text("\n".join([original[0], original[2]]) + "\n")
    result = audit(user, "--verify")
    assert result.code == 1 and "line 2: the chain is broken" in result.stdout
    assert "3 records were written but only 2 remain" in result.stdout
    as_json = json.loads(audit(user, "--verify", "--format", "json").stdout)
    assert as_json["verify"]["ok"] is False and as_json["verify"]["problems"][0]["line"] == 2


def test_a_push_that_brings_nothing_new_is_not_a_record(user: UserRepo) -> None:
    sha = user.commit(sc.BAD, "bad")
    assert user.run("push", "--no-verify").code == 0
    assert len(log_records(user)) == 1
    result = user.run(
        "push", "--no-verify", "origin", "main:refs/heads/copy", "HEAD~1:refs/heads/old"
    )
    assert result.code == 0 and warnings(result) == []
    result = user.run("push", "--no-verify", "--force", "origin", "HEAD~1:main")  # a rewind
    assert result.code == 0 and warnings(result) == []
    assert [r["new"] for r in log_records(user)] == [sha]


def test_a_pushed_weakening_and_an_added_suppression_are_recorded(user: UserRepo) -> None:
    weaker = {"tribunal.yml": "analyzers:\n  comment-code-drift: false\n", **sc.GOOD}
    sha = user.commit(weaker, "turn drift off")
    result = sc.push(user)
    assert result.code == 0, sc.output(result)
    assert len(warnings(result)) == 1 and "weakens the gate" in warnings(result)[0]
    [record] = log_records(user)
    assert record["how"] == ["gate-weakened"] and record["new"] == sha
    assert "disables analyzer comment-code-drift" in record["findings"][0]["title"]
    suppressed = user.commit({"tests/test_later.py": SUPPRESSED}, "placeholder")
    result = sc.push(user)
    assert result.code == 0, sc.output(result)
    kinds = [(r["new"], r["how"]) for r in log_records(user)]
    assert kinds[1] == (suppressed, ["suppression-added"])
    assert audit(user, "--verify").code == 0


def test_a_suppression_is_noted_by_a_convene_with_no_analyzer_lens(user: UserRepo) -> None:
    """The analyzers' child reads the change and notes its suppressions; with every analyzer
    lens off there is no child, and the hook's own process must still note them."""
    off = "".join(f"  {lens}: {{enabled: false}}\n" for lens in sc.ANALYZER_LENSES)
    sc.set_remote_config(user, "lenses:\n" + off + sc.suite_config("exit 0"))
    sha = user.commit({"tests/test_later.py": SUPPRESSED}, "placeholder")
    result = sc.push(user)
    assert result.code == 0, sc.output(result)
    summary = sc.only_summary(user, sha)
    assert [m.lens for m in summary.members] == ["suite"]
    assert [(n.file, n.title) for n in summary.notes] == [
        ("tests/test_later.py", "this change adds a suppression of assertion-free-test")
    ]
    assert [r["how"] for r in log_records(user)][-1] == ["suppression-added"]


def test_pushes_before_the_install_are_never_records(tmp_path: Path) -> None:
    user = UserRepo.create(tmp_path)
    user.commit({"tests/test_x.py": ASSERTION_FREE_TEST}, "bad, before tribunal")
    assert user.run("push", "--no-verify", "-u", "origin", "main").code == 0
    assert user.repo.tribunal("install", "--audit-only").code == 0
    assert sorted(p.name for p in (user.path / ".git" / "hooks").glob("reference-*")) == [
        "reference-transaction"
    ]
    assert not (user.path / ".git" / "hooks" / "pre-push").exists()
    assert warnings(audit(user)) == [] and log_records(user) == []
    sha = user.commit({"tests/test_y.py": ASSERTION_FREE_TEST}, "bad, after")
    result = user.run("push")
    assert result.code == 0 and len(warnings(result)) == 1
    [record] = log_records(user)
    assert record["new"] == sha and record["how"] == ["no-gate"]
    assert user.repo.tribunal("install", "--audit-only").code == 0 and len(log_records(user)) == 1
    assert "reference-transaction: removed" in user.repo.tribunal("uninstall").stdout
