"""End-to-end hook scenarios, run once through the pre-commit framework and once through
the shims of ``tribunal install`` (``test_hooks_precommit.py``, ``test_hooks_plain.py``).

Each scenario drives real git in a repository whose path has spaces and non-ASCII
characters, pushes to a real bare remote, and checks that nothing of the user's
changed."""

from __future__ import annotations

import shlex
import signal
import subprocess
from collections.abc import Callable
from pathlib import Path

from tests.gitrepo import GitRepo, Result
from tests.hooktools import (
    ASSERTION_FREE_TEST,
    GOOD_TEST,
    LEAVE_BEHIND,
    UserRepo,
    all_gone,
    global_git_configs,
    kill_pid_file,
    left_behind,
    object_files,
    remote_refs,
    signal_group,
    start,
    state,
    wait_for,
)
from tribunal.gate.decision import Expectation, evaluate
from tribunal.gate.summary import Summary, load, user_key

Install = Callable[[UserRepo], None]
BAD = {"tests/test_new thing ü.py": ASSERTION_FREE_TEST}
GOOD = {"tests/test_fine ü.py": GOOD_TEST}


def install_plain(user: UserRepo) -> None:
    """The hooks of ``tribunal install`` (plain git: every ref of a push)."""
    result = user.repo.tribunal("install", env=user.env)
    assert result.code == 0, result.stderr


def colleague(user: UserRepo, path: Path) -> GitRepo:
    """A clone of ``user``'s remote at ``path``, as a colleague's, with no hooks."""
    subprocess.run(["git", "clone", "-q", str(user.remote), str(path)], check=True)
    repo = GitRepo(path)
    repo.git("config", "user.name", "Colleague")
    repo.git("config", "user.email", "colleague@example.com")
    return repo


def make_user(tmp_path: Path, install: Install, env: dict[str, str] | None = None) -> UserRepo:
    """A repository with one pushed commit (pushed before the hooks existed)."""
    sandboxes = tmp_path / "sandboxes"
    sandboxes.mkdir()
    user = UserRepo.create(
        tmp_path / "dir with space ü", {"TRIBUNAL_WORKTREE_PARENT": str(sandboxes), **(env or {})}
    )
    user.commit({"calc.py": "def add(a, b):\n    return a + b\n", ".gitignore": "*.log\n"}, "init")
    install(user)
    user.git("push", "-q", "--no-verify", "-u", "origin", "main")
    user.repo.write({"notes.log": "ignored\n", "scratch.txt": "untracked\n"})
    return user


def push(user: UserRepo, *args: str, cwd: Path | None = None) -> Result:
    return user.run("push", *args, cwd=cwd)


def output(result: Result) -> str:
    return result.stdout + result.stderr


def tribunal_lines(result: Result) -> list[str]:
    return [line for line in output(result).splitlines() if line.startswith("tribunal:")]


def only_summary(user: UserRepo, commit: str) -> Summary:
    found = user.summaries(commit)
    assert len(found) == 1, found
    return load(found[0], user_key())


def no_sandboxes_left(user: UserRepo) -> None:
    assert user.worktrees() == [str(user.path)]
    assert list(Path(user.env["TRIBUNAL_WORKTREE_PARENT"]).iterdir()) == []


def set_remote_config(user: UserRepo, text: str) -> None:
    """Put ``tribunal.yml`` on the remote's default branch (the config the gate trusts)."""
    user.commit({"tribunal.yml": text}, "config")
    user.git("push", "-q", "--no-verify", "origin", "main")


# -- pre-commit stage ---------------------------------------------------------------


def commit_blocked_and_clean_commit(user: UserRepo) -> None:
    user.repo.write(BAD)
    user.git("add", "-A")
    before = state(user.path)
    blocked = user.run("commit", "-m", "bad test")
    assert blocked.code != 0
    text = output(blocked)
    assert "CONTRADICTED" in text and "tests/test_new thing ü.py:1" in text
    assert "`git commit --no-verify` bypasses the gate for this commit" in text
    assert "the push gate judges it again" in text
    assert state(user.path) == before
    user.git("reset", "-q")
    user.repo.write({"tests/test_new thing ü.py": GOOD_TEST})
    user.git("add", "-A")
    clean = user.run("commit", "-m", "good test")
    assert clean.code == 0, output(clean)
    assert tribunal_lines(clean) == [tribunal_lines(clean)[0]]
    assert tribunal_lines(clean)[0].startswith("tribunal: ✓ staged changes"), output(clean)


def commit_a_and_partial_commit_keep_their_content(user: UserRepo) -> None:
    user.commit({"a.py": "a = 1\n", "b.py": "b = 1\n"})
    user.repo.write({"a.py": "a = 2\n", "b.py": "b = 2\n"})
    result = user.run("commit", "-a", "-m", "all")
    assert result.code == 0 and tribunal_lines(result), output(result)
    assert user.git("show", "HEAD:a.py") == "a = 2" and user.git("show", "HEAD:b.py") == "b = 2"
    user.repo.write({"a.py": "a = 3\n", "b.py": "b = 3\n"})
    result = user.run("commit", "a.py", "-m", "partial")
    assert result.code == 0 and tribunal_lines(result), output(result)
    assert user.git("show", "HEAD:a.py") == "a = 3" and user.git("show", "HEAD:b.py") == "b = 2"
    assert user.git("diff", "--name-only") == "b.py"
    assert user.git("diff", "--cached", "--name-only") == ""


def config_error_blocks_the_commit(user: UserRepo) -> None:
    user.repo.write({"tribunal.yml": "strict: maybe\n", "x.py": "x = 1\n"})
    user.git("add", "-A")
    result = user.run("commit", "-m", "x")
    assert result.code != 0
    assert "tribunal.yml:1: strict: expected" in output(result)
    assert "`git commit --no-verify` bypasses the gate" in output(result)


# -- pre-push stage -----------------------------------------------------------------


def rejected_push(user: UserRepo) -> None:
    sha = user.commit(BAD, "bad test")
    before, tracking = state(user.path), remote_refs(user.path)
    result = push(user)
    assert result.code != 0
    text = output(result)
    assert f"push of refs/heads/main ({sha[:12]}) rejected" in text
    assert "lens tests: CONTRADICTED" in text
    assert "tests/test_new thing ü.py:1  [tests/assertion-free-test]" in text
    assert "`git push --no-verify` bypasses the gate; the bypass is logged" in text
    summary = only_summary(user, sha)
    assert f"summary: {user.path / '.git' / 'tribunal' / 'runs'}" in text
    assert summary.gate.decision == "reject"
    assert {m.lens: m.verdict for m in summary.members}["tests"] == "CONTRADICTED"
    assert summary.range.head == sha and summary.range.commits == 1
    [path] = user.summaries(sha)
    assert path.name == "summary.json" and path.parent.parent.name == "runs"
    expected = Expectation(
        sha,
        summary.range.base,
        summary.config.digest,
        summary.tool.version,
        ("tests",),
        False,
        "origin",
    )
    assert not evaluate(path, expected, user_key()).passed
    assert user.remote_sha("main") != sha
    assert state(user.path) == before and remote_refs(user.path) == tracking
    no_sandboxes_left(user)


def clean_push(user: UserRepo) -> None:
    base = user.git("rev-parse", "HEAD")
    sha = user.commit(GOOD, "good test")
    before = state(user.path)
    result = push(user)
    assert result.code == 0, output(result)
    assert f"tribunal: ✓ refs/heads/main ({sha[:12]}): unanimous pass from 5 lenses" in output(
        result
    )
    summary = only_summary(user, sha)
    assert summary.gate.decision == "pass" and summary.range.base == base
    assert {m.verdict for m in summary.members} == {"PASS"}
    assert [m.lens for m in summary.members] == ["tests", "symbols", "security", "docs", "claims"]
    assert summary.remote.name == "origin" and summary.ref.remote == "refs/heads/main"
    assert user.remote_sha("main") == sha
    assert state(user.path) == before
    no_sandboxes_left(user)
    again = push(user, "origin", "HEAD:refs/heads/copy")
    assert again.code == 0
    assert len(user.summaries()) == 1


def new_branch_tag_and_deletion(user: UserRepo) -> None:
    main = user.git("rev-parse", "HEAD")
    user.git("checkout", "-q", "-b", "feature")
    sha = user.commit(GOOD, "feature work")
    result = push(user, "-u", "origin", "feature")
    assert result.code == 0, output(result)
    summary = only_summary(user, sha)
    assert summary.range.base == main and summary.range.commits == 1
    tagged = user.commit({"src/more.py": "y = 1\n"}, "tagged")
    user.git("tag", "-a", "v1", "-m", "release")
    result = push(user, "origin", "v1")
    assert result.code == 0, output(result)
    assert only_summary(user, tagged).commit == tagged
    result = push(user, "origin", "--delete", "feature")
    assert result.code == 0, output(result)
    assert "rejected" not in output(result) and user.remote_sha("refs/heads/feature") == ""


def first_push_of_an_orphan_branch(user: UserRepo) -> None:
    user.git("checkout", "-q", "--orphan", "fresh")
    user.git("rm", "-rq", "--cached", ".")
    sha = user.commit(BAD, "orphan")
    result = push(user, "origin", "fresh")
    assert result.code != 0 and "lens tests: CONTRADICTED" in output(result)
    summary = only_summary(user, sha)
    assert summary.range.base is None


def interrupted_convene_leaves_no_worktree(
    user: UserRepo, tmp_path: Path, sig: signal.Signals
) -> None:
    pid_file = tmp_path / "suite.pid"
    set_remote_config(user, suite_config(f"echo $$ > {shlex.quote(str(pid_file))}; exec sleep 60"))
    user.commit(GOOD, "good")
    before = state(user.path)
    proc = start(user.path, ["git", "push"], user.env)
    try:
        wait_for(
            lambda: pid_file.exists() and len(user.worktrees()) > 1, what="the convene to start"
        )
        signal_group(proc, sig)
        proc.wait(timeout=60)
        wait_for(lambda: user.worktrees() == [str(user.path)], timeout=30, what="cleanup")
    finally:
        kill_pid_file(pid_file)
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode != 0
    assert user.remote_sha("main") != user.git("rev-parse", "HEAD")
    assert state(user.path) == before
    no_sandboxes_left(user)


def killed_convene_is_cleaned_by_the_next_run(user: UserRepo, tmp_path: Path) -> None:
    pid_file, slow = tmp_path / "suite.pid", tmp_path / "slow"
    slow.touch()
    q_slow, q_pid = shlex.quote(str(slow)), shlex.quote(str(pid_file))
    set_remote_config(
        user, suite_config(f"if [ -e {q_slow} ]; then echo $$ > {q_pid}; exec sleep 60; fi; true")
    )
    user.commit(GOOD, "good")
    proc = start(user.path, ["git", "push"], user.env)
    try:
        wait_for(
            lambda: pid_file.exists() and len(user.worktrees()) > 1, what="the convene to start"
        )
        signal_group(proc, signal.SIGKILL)
        proc.wait(timeout=30)
    finally:
        kill_pid_file(pid_file)
    leftover = [p for p in user.worktrees() if p != str(user.path)]
    assert len(leftover) == 1 and Path(leftover[0]).is_dir()
    slow.unlink()
    result = push(user)
    assert result.code == 0, output(result)
    assert "unanimous pass from 6 lenses" in output(result)
    no_sandboxes_left(user)


#: The shipped lenses that run analyzers (all but ``suite``).
ANALYZER_LENSES = ("tests", "symbols", "security", "docs", "claims")


def suite_config(command: str) -> str:
    return f"suite:\n  command: {quote_yaml(command)}\n  timeout: 120\n"


def quote_yaml(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def failing_suite_rejects_with_its_output(user: UserRepo) -> None:
    set_remote_config(user, suite_config("echo the-suite-said-no; exit 4"))
    sha = user.commit(GOOD, "good")
    result = push(user)
    assert result.code != 0
    assert "lens suite could not complete: failed: " in output(result)
    assert "(exit 4)" in output(result) and "the-suite-said-no" in output(result)
    suite = {m.lens: m for m in only_summary(user, sha).members}["suite"]
    assert suite.verdict == "ERROR" and suite.kind == "suite"


def concurrent_pushes(user: UserRepo, tmp_path: Path, *, together: bool) -> None:
    """Two convenes of one repository overlap for certain: each push's suite waits until
    the other's has started, so serialized convenes would time out and reject.

    ``together`` starts both pushes at the same instant (their worktree adds race too).
    Under the pre-commit framework the second starts only once the first is inside its
    convene: pre-commit's own preamble (``git diff``, then ``git write-tree`` on the
    user's index) dies on git's index lock when another pre-commit holds it, a race of
    the framework before any hook runs (README, "Use it as git hooks").
    """
    meet = tmp_path / "meet"
    meet.mkdir()
    q_meet = shlex.quote(str(meet))
    set_remote_config(
        user,
        suite_config(
            f"for b in one two; do [ -e src/$b.py ] && touch {q_meet}/$b; done; i=0; "
            f"until [ -e {q_meet}/one ] && [ -e {q_meet}/two ]; do "
            "i=$((i+1)); [ $i -gt 900 ] && exit 9; sleep 0.1; done"
        ),
    )
    for branch in ("one", "two"):
        user.git("checkout", "-q", "-b", branch, "main")
        user.commit(
            {f"src/{branch}.py": f"{branch} = 1\n", f"tests/test_{branch}.py": GOOD_TEST}, branch
        )
    user.git("checkout", "-q", "main")
    before = state(user.path)
    procs = [start(user.path, ["git", "push", "origin", "one"], user.env)]
    if not together:
        wait_for(
            lambda: (meet / "one").exists() or procs[0].poll() is not None,
            timeout=90,
            what="the first convene (or the end of its push)",
        )
    procs.append(start(user.path, ["git", "push", "origin", "two"], user.env))
    outputs = [proc.communicate(timeout=180)[0] for proc in procs]
    assert [proc.returncode for proc in procs] == [0, 0], outputs
    assert all("unanimous pass from 6 lenses" in text for text in outputs), outputs
    assert sorted(p.name for p in meet.iterdir()) == ["one", "two"]
    assert [user.remote_sha(b) for b in ("one", "two")] == [
        user.git("rev-parse", b) for b in ("one", "two")
    ]
    assert state(user.path) == before
    no_sandboxes_left(user)


def push_from_a_linked_worktree(user: UserRepo) -> None:
    linked = user.path.parent / "linked wörktree"
    user.git("worktree", "add", "-q", "-b", "side", str(linked))
    (linked / "tests").mkdir()
    (linked / "tests" / "test_side.py").write_text(ASSERTION_FREE_TEST)
    user.git("add", "-A", cwd=linked)
    user.git("commit", "-q", "--no-verify", "-m", "side", cwd=linked)
    before_main, before_linked = state(user.path), state(linked)
    result = push(user, "-u", "origin", "side", cwd=linked)
    assert result.code != 0 and "lens tests: CONTRADICTED" in output(result)
    assert state(user.path) == before_main and state(linked) == before_linked
    (linked / "tests" / "test_side.py").write_text(GOOD_TEST)
    user.git("commit", "-q", "-a", "--no-verify", "-m", "fix", cwd=linked)
    result = push(user, "-u", "origin", "side", cwd=linked)
    assert result.code == 0, output(result)
    assert user.worktrees() == [str(user.path), str(linked)]


def pushed_config_weakening(user: UserRepo) -> None:
    set_remote_config(user, "strict: true\n")
    weakened = "strict: true\nanalyzers:\n  assertion-free-test: false\n"
    user.commit({"tribunal.yml": weakened, **BAD}, "weaken and sneak")
    result = push(user)
    assert result.code != 0, output(result)
    text = output(result)
    assert "lens tests: CONTRADICTED" in text
    assert "gate weakened by this change: disables analyzer assertion-free-test" in text
    # generated-paths is a layout key: a finding it would hide is UNVERIFIED, never a
    # pass by itself (strict blocks it here), and the weakening is reported
    user.git("reset", "-q", "--hard", "origin/main")
    user.commit({"tribunal.yml": "strict: true\ngenerated-paths: [tests/]\n", **BAD}, "hide")
    result = push(user)
    assert result.code != 0, output(result)
    text = output(result)
    assert "lens tests: UNVERIFIED (strict: true)" in text
    assert "gate weakened by this change: adds generated paths" in text
    assert "layout keys (python-roots, generated-paths)" in text
    user.git("reset", "-q", "--hard", "origin/main")
    user.commit({"tribunal.yml": "strict: false\n", **GOOD}, "relax")
    result = push(user)
    assert result.code == 0, output(result)
    assert "gate weakened by this change: turns strict off" in output(result)


# -- the suite lens: its own repository, nothing left running -------------------------

CARELESS_CI = """\
set -e
out={out}
git rev-parse HEAD > "$out/head"
git describe --always > "$out/describe"
git describe --tags > "$out/describe-tags"
git config init.defaultBranch > "$out/global-read"
env | grep '^TRIBUNAL_' > "$out/tribunal-env" || true
git config user.name x
git config --global user.name x
git tag t
git branch b
echo x > s.txt
git add s.txt
git stash -q
git update-ref refs/heads/main HEAD~1
echo run >> "$out/runs"
"""


def careless_suite_touches_nothing(user: UserRepo, tmp_path: Path) -> None:
    """The issue's ``ci.sh``: config, tag, branch, stash, update-ref, ``--global``."""
    out = tmp_path / "suite-saw"
    out.mkdir()
    set_remote_config(user, suite_config("sh ci.sh"))
    user.git("tag", "-a", "v0.1", "-m", "release")
    sha = user.commit({"ci.sh": CARELESS_CI.format(out=shlex.quote(str(out))), **GOOD}, "ci")
    before, objects, configs = state(user.path), object_files(user.path), global_git_configs()
    by_hand = [user.repo.tribunal("convene", "--ref", "HEAD", env=user.env) for _ in range(2)]
    assert [r.code for r in by_hand] == [0, 0], [r.stdout + r.stderr for r in by_hand]
    assert not any("from an earlier run" in r.stdout for r in by_hand)
    # no summary is reused while the suite lens is on: the suite ran both times
    assert len((out / "runs").read_text().splitlines()) == 2
    result = push(user)
    assert result.code == 0, output(result)
    assert "unanimous pass from 6 lenses" in output(result)
    assert (out / "head").read_text().strip() == sha
    assert (out / "describe").read_text().strip() == f"v0.1-1-g{sha[:7]}"
    assert (out / "describe-tags").read_text().strip() == f"v0.1-1-g{sha[:7]}"
    assert (out / "global-read").read_text().strip() == "main"  # the user's global config
    assert (out / "tribunal-env").read_text() == ""
    assert state(user.path) == before
    assert object_files(user.path) == objects
    assert global_git_configs(user.env) == configs
    no_sandboxes_left(user)


def suite_leaves_nothing_running(user: UserRepo, tmp_path: Path, how: str) -> None:
    """A ``setsid`` child and a double-forked daemon are gone after the push (``how`` =
    "pass"), after a timeout ("timeout"), and after Ctrl-C ("interrupt")."""
    script, pid_dir = tmp_path / "leave.sh", tmp_path / "left"
    script.write_text(LEAVE_BEHIND)
    pid_dir.mkdir()
    leave = f"sh {shlex.quote(str(script))} {shlex.quote(str(pid_dir))}"
    command = {"pass": leave, "timeout": f"{leave}; sleep 120", "interrupt": f"{leave}; sleep 120"}
    timeout = 10 if how == "timeout" else 120
    set_remote_config(
        user, f"suite:\n  command: {quote_yaml(command[how])}\n  timeout: {timeout}\n"
    )
    sha = user.commit(GOOD, "good")
    before = state(user.path)
    if how == "interrupt":
        proc = start(user.path, ["git", "push"], user.env)
        try:
            wait_for(lambda: (pid_dir / "daemon.pid").exists(), 90, "the suite to start")
            signal_group(proc, signal.SIGINT)
            proc.wait(timeout=60)
            wait_for(lambda: user.worktrees() == [str(user.path)], 30, "cleanup")
        finally:
            if proc.poll() is None:
                proc.kill()
        assert proc.returncode != 0
    else:
        result = push(user)
        if how == "pass":
            assert result.code == 0, output(result)
            suite = {m.lens: m for m in only_summary(user, sha).members}["suite"]
            assert any("stopped 2 processes it left running" in n for n in suite.notes)
        else:
            assert result.code != 0
            assert "lens suite could not complete: timed out: " in output(result)
    pids = left_behind(pid_dir)
    wait_for(lambda: all_gone(pids), 30, f"what the suite left to stop ({how})")
    after = state(user.path)
    changed = {k: v for k, v in after.items() if before[k] != v}
    assert not changed, changed
    no_sandboxes_left(user)
