"""The hooks through plain git: the shims of ``tribunal install`` (every ref of a push)."""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from tests import hookscenarios as sc
from tests.audittools import log_records
from tests.gitrepo import GitRepo
from tests.hooktools import GOOD_TEST, UserRepo, state
from tribunal.hooks.progress import Progress
from tribunal.hooks.suite import run_suite


@pytest.fixture
def user(tmp_path: Path) -> UserRepo:
    return sc.make_user(tmp_path, sc.install_plain)


def test_install_writes_shims_that_uninstall_removes(tmp_path: Path) -> None:
    user = UserRepo.create(tmp_path)
    user.commit({"a.py": "a = 1\n"})
    hooks = tmp_path / "shared hooks"
    user.git("config", "core.hooksPath", str(hooks))
    result = user.repo.tribunal("install")
    assert result.code == 0
    for name in ("pre-commit", "pre-push"):
        text = (hooks / name).read_text()
        assert text.startswith("#!/bin/sh\n# tribunal-shim:") and repr(sys.executable)[1:-1] in text
        assert (hooks / name).stat().st_mode & 0o111
    assert "pre-push: installed" in result.stdout
    assert user.repo.tribunal("install").stdout.count("updated") == 3
    result = user.repo.tribunal("uninstall")
    assert result.code == 0 and sorted(p.name for p in hooks.iterdir()) == []


def test_a_foreign_hook_is_never_overwritten_silently(tmp_path: Path) -> None:
    user = sc.make_user(tmp_path, lambda u: None)
    record = tmp_path / "foreign ran"
    hook = user.path / ".git" / "hooks" / "pre-push"
    hook.write_text(f"#!/bin/sh\necho \"$1\" >> '{record}'\ncat >> '{record}'\n")
    hook.chmod(0o755)
    original = hook.read_bytes()
    refused = user.repo.tribunal("install")
    assert refused.code == 2
    assert "already exists and is not tribunal's" in refused.stderr and "--force" in refused.stderr
    assert hook.read_bytes() == original and not (hook.parent / "pre-commit").exists()
    assert user.repo.tribunal("install", "--force").code == 0
    sha = user.commit(sc.GOOD, "good")
    result = sc.push(user)
    assert result.code == 0, sc.output(result)
    assert "unanimous pass" in sc.output(result)
    ran = record.read_text()
    assert ran.startswith("origin\n") and f"refs/heads/main {sha} refs/heads/main" in ran
    assert "restored the earlier pre-push hook" in user.repo.tribunal("uninstall").stdout
    assert hook.read_bytes() == original


def test_audit_only_installs_just_the_bypass_recording_hook(tmp_path: Path) -> None:
    user = sc.make_user(tmp_path, lambda u: None)
    result = user.repo.tribunal("install", "--audit-only")
    assert result.code == 0 and "reference-transaction: installed" in result.stdout
    hooks = user.path / ".git" / "hooks"
    assert [p.name for p in hooks.iterdir() if not p.name.endswith(".sample")] == [
        "reference-transaction"
    ]


def test_commit_blocked_and_clean_commit(user: UserRepo) -> None:
    sc.commit_blocked_and_clean_commit(user)


def test_commit_a_and_partial_commit(user: UserRepo) -> None:
    sc.commit_a_and_partial_commit_keep_their_content(user)


def test_config_error_blocks_the_commit(user: UserRepo) -> None:
    sc.config_error_blocks_the_commit(user)


def test_rejected_push(user: UserRepo) -> None:
    sc.rejected_push(user)


def test_clean_push(user: UserRepo) -> None:
    sc.clean_push(user)


def test_new_branch_tag_and_deletion(user: UserRepo) -> None:
    sc.new_branch_tag_and_deletion(user)


def test_orphan_branch(user: UserRepo) -> None:
    sc.first_push_of_an_orphan_branch(user)


def test_every_ref_of_a_push_is_convened(user: UserRepo) -> None:
    user.git("checkout", "-q", "-b", "good", "main")
    good = user.commit(sc.GOOD, "good")
    user.git("checkout", "-q", "-b", "bad", "main")
    bad = user.commit(sc.BAD, "bad")
    result = sc.push(user, "origin", "good", "bad")
    assert result.code != 0
    text = sc.output(result)
    assert f"tribunal: ✓ refs/heads/good ({good[:12]})" in text
    assert f"push of refs/heads/bad ({bad[:12]}) rejected" in text
    said = [line for line in text.splitlines() if "git pushes nothing" in line]
    assert said == [
        "tribunal: git pushes nothing when any ref is rejected, so refs/heads/good was not "
        "pushed either; push it on its own"
    ]
    assert text.index(said[0]) > text.index("push of refs/heads/bad")
    assert user.remote_sha("refs/heads/good") == "" and user.remote_sha("refs/heads/bad") == ""
    user.git("checkout", "-q", "good")
    user.commit({"tests/test_more.py": GOOD_TEST}, "more")
    result = sc.push(user, "origin", "good", "main")
    assert result.code == 0, sc.output(result)


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_interrupted_convene(user: UserRepo, tmp_path: Path, sig: signal.Signals) -> None:
    sc.interrupted_convene_leaves_no_worktree(user, tmp_path, sig)


def test_killed_convene_is_cleaned_by_the_next_run(user: UserRepo, tmp_path: Path) -> None:
    sc.killed_convene_is_cleaned_by_the_next_run(user, tmp_path)


def test_failing_suite(user: UserRepo) -> None:
    sc.failing_suite_rejects_with_its_output(user)


def test_a_careless_suite_touches_nothing_of_the_users(user: UserRepo, tmp_path: Path) -> None:
    sc.careless_suite_touches_nothing(user, tmp_path)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="setsid(1) is Linux-only")
@pytest.mark.parametrize("how", ["pass", "timeout", "interrupt"])
def test_the_suite_leaves_nothing_running(user: UserRepo, tmp_path: Path, how: str) -> None:
    sc.suite_leaves_nothing_running(user, tmp_path, how)


@pytest.mark.skipif(
    not sys.platform.startswith("linux") or not os.access("/dev/shm", os.W_OK),
    reason="needs a writable /dev/shm",
)
def test_junk_in_the_shared_temp_directory_stops_no_push(user: UserRepo, tmp_path: Path) -> None:
    """Anyone can ``mkdir /dev/shm/tribunal-wt-99999999999999999999-x`` (it once made every
    convene on the machine fail); a look-alike of our private directory is not used either."""
    junk = Path("/dev/shm/tribunal-wt-99999999999999999999-x")
    runtime = tmp_path / "runtime"
    runtime.mkdir()
    (runtime / f"tribunal-{os.getuid()}").symlink_to(tmp_path)
    user.env.update({"TRIBUNAL_WORKTREE_PARENT": "", "XDG_RUNTIME_DIR": str(runtime)})
    made = not junk.exists()
    junk.mkdir(exist_ok=True)
    try:
        sha = user.commit(sc.GOOD, "good")
        result = sc.push(user)
        assert result.code == 0, sc.output(result)
        assert user.remote_sha("main") == sha
        assert junk.is_dir()
        assert "is a symbolic link; using private temporary directories" in sc.output(result)
        assert [p.name for p in runtime.iterdir()] == [f"tribunal-{os.getuid()}"]
    finally:
        if made:
            junk.rmdir()


def test_concurrent_pushes(user: UserRepo, tmp_path: Path) -> None:
    sc.concurrent_pushes(user, tmp_path, together=True)


def test_push_from_a_linked_worktree(user: UserRepo) -> None:
    sc.push_from_a_linked_worktree(user)


def test_pushed_config_weakening(user: UserRepo) -> None:
    sc.pushed_config_weakening(user)


def test_convene_by_hand_matches_the_hook(user: UserRepo) -> None:
    sha = user.commit(sc.BAD, "bad")
    before = state(user.path)
    result = user.repo.tribunal("convene", "--ref", "HEAD", env={"TRIBUNAL_CONFIG": "/nonexistent"})
    assert result.code == 1
    assert f"push of refs/heads/main ({sha[:12]}) rejected" in result.stdout
    assert user.repo.tribunal("convene", "--ref", "HEAD").stdout.count("from an earlier run") == 1
    assert user.repo.tribunal("convene", "--ref", "HEAD", "--remote", "nope").code == 2
    assert state(user.path) == before


def test_a_broken_trusted_config_fails_closed(user: UserRepo) -> None:
    sc.set_remote_config(user, "lenses: [oops]\n")
    user.commit(sc.GOOD, "good")
    result = sc.push(user)
    assert result.code != 0
    assert "tribunal: error: tribunal.yml at " in sc.output(result)
    assert "`git push --no-verify` bypasses the gate" in sc.output(result)


def test_a_rebased_and_force_pushed_branch_is_judged_from_the_fork(user: UserRepo) -> None:
    user.git("checkout", "-q", "-b", "feature")
    user.commit({"tests/test_f.py": GOOD_TEST}, "feature")
    assert sc.push(user, "-u", "origin", "feature").code == 0
    user.git("checkout", "-q", "main")
    new_main = user.commit({"other.py": "o = 1\n"}, "main moves")
    assert sc.push(user, "origin", "main").code == 0
    user.git("checkout", "-q", "feature")
    user.git("rebase", "-q", "main")
    rebased = user.git("rev-parse", "HEAD")
    result = sc.push(user, "--force", "origin", "feature")
    assert result.code == 0, sc.output(result)
    summary = sc.only_summary(user, rebased)
    assert summary.range.base == new_main and summary.range.commits == 1


def test_a_merge_of_upstream_work_is_not_judged_again(user: UserRepo) -> None:
    user.git("checkout", "-q", "-b", "feature")
    user.commit({"tests/test_f.py": GOOD_TEST}, "feature")
    assert sc.push(user, "-u", "origin", "feature").code == 0
    user.git("checkout", "-q", "main")
    user.commit({"tests/test_upstream.py": "def test_u():\n    pass\n"}, "upstream (bypassed)")
    assert user.run("push", "--no-verify", "origin", "main").code == 0
    user.git("checkout", "-q", "feature")
    user.git("merge", "-q", "--no-edit", "--no-verify", "main")
    merge = user.git("rev-parse", "HEAD")
    result = sc.push(user)
    assert result.code == 0, sc.output(result)  # upstream's assertion-free test is not ours
    summary = sc.only_summary(user, merge)
    assert summary.range.commits == 1
    assert all(not m.findings for m in summary.members)


def test_a_shallow_clone_analyzes_what_it_has_and_says_so(user: UserRepo, tmp_path: Path) -> None:
    user.commit({"a.py": "a = 1\n"}, "more history")
    user.run("push", "--no-verify", "origin", "main")
    clone = tmp_path / "shallow"
    subprocess.run(
        ["git", "clone", "-q", "--depth", "1", f"file://{user.remote}", str(clone)], check=True
    )
    other = tmp_path / "other.git"
    subprocess.run(["git", "init", "-q", "--bare", str(other)], check=True)
    shallow = UserRepo(GitRepo(clone), other, user.env)
    shallow.git("remote", "add", "other", str(other))
    assert shallow.repo.tribunal("install").code == 0
    cut = shallow.git("rev-parse", "HEAD")
    shallow.commit({"tests/test_s.py": GOOD_TEST}, "new")
    result = sc.push(shallow, "other", "main")  # the remote refuses a shallow push afterwards
    assert "tribunal: ✓ refs/heads/main" in sc.output(result), sc.output(result)
    summary = sc.only_summary(shallow, shallow.git("rev-parse", "HEAD"))
    assert summary.range.base == cut
    assert any("shallow clone" in note for note in summary.range.notes)


def test_a_tampered_cached_summary_is_ignored_and_convened_again(user: UserRepo) -> None:
    sha = user.commit(sc.BAD, "bad")
    assert sc.push(user).code != 0
    path = user.summaries()[0]
    data = json.loads(path.read_text())
    for member in data["members"]:
        member["verdict"], member["findings"] = "PASS", []
    path.write_text(json.dumps(data))
    result = sc.push(user)
    assert result.code != 0
    assert "ignoring a cached summary" in sc.output(
        result
    ) and "does not authenticate" in sc.output(result)
    assert sc.only_summary(user, sha).gate.decision == "reject"
    [record] = [r for r in log_records(user) if r["how"] == ["summary-unauthenticated"]]
    assert record["new"] == sha and record["summary"] == str(path)
    assert f"tribunal: ⚠ {path} does not authenticate" in sc.output(result)


def test_convene_by_hand_says_when_the_remote_has_every_commit(user: UserRepo) -> None:
    result = user.repo.tribunal("convene", "--ref", "main", env=user.env)
    assert result.code == 0
    assert "tribunal: refs/heads/main: origin already has every commit; nothing to judge" in (
        result.stdout
    )


def test_audit_outside_a_repository_says_so(tmp_path: Path) -> None:
    nowhere = tmp_path / "nowhere"
    nowhere.mkdir()
    result = GitRepo(nowhere).tribunal("audit")
    assert result.code == 2
    assert result.stderr == f"tribunal: error: {nowhere}: not inside a git repository\n"


def test_the_convene_time_budget_turns_an_overrun_into_error(user: UserRepo) -> None:
    sc.set_remote_config(user, sc.suite_config("sleep 30") + "convene:\n  timeout: 1\n")
    sha = user.commit(sc.GOOD, "good")
    started = time.monotonic()
    result = sc.push(user)
    assert time.monotonic() - started < 15
    assert result.code != 0
    assert (
        "lens suite could not complete: did not finish within the convene time budget"
        in sc.output(result)
    )
    members = {m.lens: m.verdict for m in sc.only_summary(user, sha).members}
    assert members["suite"] == "ERROR" and members["tests"] == "PASS"
    sc.no_sandboxes_left(user)


@pytest.mark.parametrize(
    ("command", "timeout", "what"),
    [
        ("echo fine", 30, "passed"),
        ("echo broken; exit 2", 30, "failed"),
        ("no-such-command-here", 30, "could not start"),
        ("sleep 30", 0.3, "timed out"),
    ],
)
def test_the_suite_command_outcomes(
    tmp_path: Path, command: str, timeout: float, what: str
) -> None:
    result = run_suite(command, tmp_path, dict(os.environ), timeout, threading.Event())
    assert result.what == what and result.passed == (what == "passed")
    if what in ("passed", "failed"):
        assert result.tail.startswith(command.split(";")[0].removeprefix("echo "))


def test_progress_is_whole_lines_and_only_on_a_terminal() -> None:
    quiet, loud = io.StringIO(), io.StringIO()
    for stream, enabled in ((quiet, None), (loud, True)):
        progress = Progress(stream, enabled)
        progress.say("convening refs/heads/main (5 lenses)")
        progress.member_done("tests", "PASS", 12.0)
        progress.member_done("suite", "ERROR", 61_000.0)
        progress._last_beat -= 60
        progress.heartbeat({"suite": time.monotonic() - 42})
    assert quiet.getvalue() == ""
    assert loud.getvalue().splitlines() == [
        "tribunal: convening refs/heads/main (5 lenses)",
        "tribunal:   suite      ERROR        61.0 s",
        "tribunal:   still running: suite (42 s)",
    ]
    assert "\r" not in loud.getvalue()


def test_the_hooks_benchmark_runs_on_a_small_repository(capsys: pytest.CaptureFixture[str]) -> None:
    from bench import perf_hooks

    assert perf_hooks.main(["--runs", "1", "--files", "400"]) == 0
    out = capsys.readouterr().out
    assert "check: 5 of 400 files" in out and "convene adds" in out
    assert "exit [0]" in out.split("convene (fresh")[1].splitlines()[0]


def test_the_all_or_nothing_line_names_every_ref_that_passed() -> None:
    from tribunal.hooks.prepush import all_or_nothing
    from tribunal.hooks.pushinfo import Push, PushedRef

    refs = [PushedRef(f"refs/heads/{n}", "1" * 40, f"refs/heads/{n}", "0" * 40) for n in "abc"]
    push = Push("origin", "url", refs)
    assert all_or_nothing(push, [True, False, True]) == [
        "tribunal: git pushes nothing when any ref is rejected, so refs/heads/a, refs/heads/c "
        "were not pushed either; push them on their own"
    ]
    assert all_or_nothing(push, [False, False, False]) == []
