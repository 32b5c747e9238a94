"""The action end to end: its real scripts, a real repository, a local GitHub API.

``tests/actionrunner.py`` runs ``action.yml``'s steps as the runner does;
``tests/github_server.py`` answers the comment API on 127.0.0.1. The install
step runs for real once per session (pip, into a fresh virtualenv, from a copy
of this checkout: the action's own version); the other runs reuse that
environment. Each test asserts what a team would see: the job's outcome, the
annotations, the comment the server received, and the job summary.
"""

from __future__ import annotations

import json
import shutil
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.actionrunner import ActionRun, Runner
from tests.github_server import TOKEN, FakeGitHub, actions_env
from tests.gitrepo import GitRepo
from tests.hooktools import ASSERTION_FREE_TEST, GOOD_TEST
from tests.test_render_github import parse_command
from tribunal.render.markdown import MARKER

ROOT = Path(__file__).resolve().parents[1]
CALC = {"calc.py": "def add(a, b):\n    return a + b\n"}
PR = 7
_NOT_COPIED = shutil.ignore_patterns(
    ".git", ".venv", "venv", "build", "dist", "*.egg-info", ".*_cache", ".hypothesis", "__pycache__"
)


@dataclass(frozen=True)
class Installed:
    action_path: Path
    venv: Path
    first_run: ActionRun
    server_requests: list[Any]


@pytest.fixture(scope="session")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Installed]:
    """The action installed for real, once, by its own install step, on a clean PR."""
    base_dir = tmp_path_factory.mktemp("action")
    action_path = base_dir / "tribunal"
    shutil.copytree(ROOT, action_path, symlinks=True, ignore=_NOT_COPIED)
    repo = GitRepo.init(base_dir / "work")
    base = repo.commit(CALC, "base")
    head = repo.commit({"tests/test_calc.py": GOOD_TEST}, "test add")
    with FakeGitHub() as server:
        job = _job(base_dir, repo, server, action_path, _event(base, head), install=True)
        run = job.run({})
        requests = server.made()
    yield Installed(action_path, base_dir / "temp" / "tribunal-venv", run, requests)


@pytest.fixture
def server() -> Iterator[FakeGitHub]:
    with FakeGitHub() as fake:
        yield fake


@pytest.fixture
def pr_repo(repo: GitRepo) -> tuple[GitRepo, str, str]:
    base = repo.commit(CALC, "base")
    head = repo.commit({"tests/test_calc.py": ASSERTION_FREE_TEST}, "add a test")
    return repo, base, head


def _event(base: str, head: str, body: str | None = "Adds a test.") -> dict[str, Any]:
    return {
        "action": "synchronize",
        "number": PR,
        "pull_request": {
            "number": PR,
            "body": body,
            "base": {"sha": base},
            "head": {"sha": head},
        },
    }


def _job(
    tmp: Path,
    repo: GitRepo,
    server: FakeGitHub,
    action_path: Path,
    event: dict[str, Any],
    *,
    install: bool = False,
    venv: Path | None = None,
) -> Runner:
    temp = tmp / "temp"
    temp.mkdir(parents=True, exist_ok=True)
    if venv is not None:
        (temp / "tribunal-venv").symlink_to(venv)
    env = actions_env(tmp, server.url, event)
    env.pop("PATH"), env.pop("HOME"), env.pop("LANG")  # the runner's own are kept
    return Runner(
        workspace=repo.path,
        temp=temp,
        action_path=action_path,
        event=event,
        env=env,
        skip=() if install else ("Install",),
    )


def run_action(
    installed: Installed,
    tmp_path: Path,
    repo: GitRepo,
    server: FakeGitHub,
    event: dict[str, Any],
    **inputs: str,
) -> ActionRun:
    job = _job(tmp_path, repo, server, installed.action_path, event, venv=installed.venv)
    return job.run(inputs)


def passed_the_gate(run: ActionRun) -> bool:
    gate = run.step("Gate")
    return gate.ran and gate.code == 0 and "::" not in gate.stdout


def _summary(tmp_path: Path) -> str:
    return (tmp_path / "step_summary.md").read_text(encoding="utf-8")


def test_the_real_install_runs_the_whole_action(installed: Installed) -> None:
    run = installed.first_run
    assert not run.failed, [(s.name, s.code, s.stderr[-2000:]) for s in run.steps]
    assert run.step("Install").stdout.startswith("tribunal ")
    assert (installed.venv / "bin" / "tribunal").exists()
    assert run.outputs["exit-code"] == "0" and run.outputs["contradicted"] == "0"
    assert [r.method for r in installed.server_requests] == ["GET", "POST"]
    assert passed_the_gate(run)


def test_report_only_annotates_comments_and_passes(
    installed: Installed, tmp_path: Path, pr_repo: tuple[GitRepo, str, str], server: FakeGitHub
) -> None:
    repo, base, head = pr_repo
    run = run_action(installed, tmp_path, repo, server, _event(base, head))
    assert not run.failed, run.step("Run the gate").stderr
    annotations = [parse_command(line) for line in run.stdout.splitlines() if line[:2] == "::"]
    assert ("error", "tests/test_calc.py", "1") in {
        (name, props.get("file"), props.get("line")) for name, props, _ in annotations
    }
    assert run.outputs["contradicted"] == "1" and run.outputs["exit-code"] == "0"
    (post,) = server.made("POST")
    assert post.path == f"/repos/octo/widgets/issues/{PR}/comments"
    assert post.headers["authorization"] == f"Bearer {TOKEN}"
    assert post.body["body"].startswith(MARKER + "\n## ⚖️ Tribunal: 🔴 1 CONTRADICTED")
    assert "report only" in post.body["body"]
    assert "tests/test\\_calc.py" in _summary(tmp_path)
    assert passed_the_gate(run)


def test_a_second_run_updates_the_same_comment(
    installed: Installed, tmp_path: Path, pr_repo: tuple[GitRepo, str, str], server: FakeGitHub
) -> None:
    repo, base, head = pr_repo
    first = run_action(installed, tmp_path / "1", repo, server, _event(base, head))
    fixed = repo.commit({"tests/test_calc.py": GOOD_TEST}, "a real test")
    second = run_action(installed, tmp_path / "2", repo, server, _event(base, fixed))
    assert not first.failed and not second.failed
    (comment,) = server.comments[PR]
    (patch,) = server.made("PATCH")
    assert patch.path == f"/repos/octo/widgets/issues/comments/{comment['id']}"
    assert len(server.made("POST")) == 1
    assert "🔴 0 CONTRADICTED" in comment["body"]


def test_hard_fail_fails_the_job_after_posting_the_comment(
    installed: Installed, tmp_path: Path, pr_repo: tuple[GitRepo, str, str], server: FakeGitHub
) -> None:
    repo, base, head = pr_repo
    run = run_action(installed, tmp_path, repo, server, _event(base, head), **{"hard-fail": "true"})
    assert run.failed
    assert run.outputs["exit-code"] == "1"
    assert run.step("Post the report").code == 0
    gate = run.step("Gate")
    assert gate.ran and gate.code == 1
    assert "::error title=Tribunal::the gate blocks (hard-fail)" in gate.stdout
    assert "blocking: --hard-fail" in server.made("POST")[0].body["body"]


def test_hard_fail_with_nothing_contradicted_passes(
    installed: Installed, tmp_path: Path, repo: GitRepo, server: FakeGitHub
) -> None:
    base = repo.commit(CALC, "base")
    head = repo.commit({"tests/test_calc.py": GOOD_TEST}, "test add")
    run = run_action(installed, tmp_path, repo, server, _event(base, head), **{"hard-fail": "true"})
    assert not run.failed and passed_the_gate(run)


def test_claims_come_from_the_pull_request_body(
    installed: Installed, tmp_path: Path, repo: GitRepo, server: FakeGitHub
) -> None:
    base = repo.commit(CALC, "base")
    head = repo.commit({"calc.py": "def add(a, b):\n    return b + a\n"}, "refactor")
    body = "Refactor.\n\n```tribunal\n- added-test\n```\n"
    run = run_action(installed, tmp_path, repo, server, _event(base, head, body))
    assert run.outputs["contradicted"] == "1"
    comment = server.made("POST")[0].body["body"]
    assert "claim added-test from pr-body" in comment


def test_a_hostile_pull_request_body_stays_data(
    installed: Installed, tmp_path: Path, pr_repo: tuple[GitRepo, str, str], server: FakeGitHub
) -> None:
    """The body is the PR author's: it reaches the script through env, never as code."""
    repo, base, head = pr_repo
    canary = tmp_path / "pwned"
    body = f'$(touch {canary})\n`touch {canary}`\n"; touch {canary}; echo "\n::add-mask::x'
    run = run_action(installed, tmp_path, repo, server, _event(base, head, body))
    assert not run.failed
    assert not canary.exists()


def test_a_pull_request_may_not_switch_its_own_checks_off(
    installed: Installed, tmp_path: Path, repo: GitRepo, server: FakeGitHub
) -> None:
    base = repo.commit(CALC, "base")
    weaker = "analyzers:\n  assertion-free-test: false\n"
    head = repo.commit(
        {"tribunal.yml": weaker, "tests/test_calc.py": ASSERTION_FREE_TEST}, "switch it off"
    )
    run = run_action(installed, tmp_path, repo, server, _event(base, head))
    assert run.outputs["contradicted"] == "1"
    comment = server.made("POST")[0].body["body"]
    assert "gate weakened by this change: disables analyzer assertion-free-test" in comment


def test_a_forks_read_only_token_warns_and_still_writes_the_summary(
    installed: Installed, tmp_path: Path, pr_repo: tuple[GitRepo, str, str], server: FakeGitHub
) -> None:
    repo, base, head = pr_repo
    server.fail("POST", 403, body={"message": "Resource not accessible by integration"})
    run = run_action(installed, tmp_path, repo, server, _event(base, head))
    assert not run.failed
    post = run.step("Post the report")
    assert "::warning title=Tribunal::" in post.stdout and "pull-requests: write" in post.stdout
    assert "tests/test\\_calc.py" in _summary(tmp_path)


def test_with_hard_fail_a_comment_that_cannot_be_posted_fails_the_job(
    installed: Installed, tmp_path: Path, repo: GitRepo, server: FakeGitHub
) -> None:
    base = repo.commit(CALC, "base")
    head = repo.commit({"tests/test_calc.py": GOOD_TEST}, "test add")
    server.fail("POST", 403, body={"message": "Resource not accessible by integration"})
    run = run_action(installed, tmp_path, repo, server, _event(base, head), **{"hard-fail": "true"})
    assert run.failed and run.step("Post the report").code == 2
    assert passed_the_gate(run)  # nothing CONTRADICTED: the failure is the comment's


def test_comment_false_makes_no_request_but_writes_the_summary(
    installed: Installed, tmp_path: Path, pr_repo: tuple[GitRepo, str, str], server: FakeGitHub
) -> None:
    repo, base, head = pr_repo
    sarif = "tribunal.sarif"
    run = run_action(
        installed,
        tmp_path,
        repo,
        server,
        _event(base, head),
        comment="false",
        annotations="false",
        **{"sarif-file": sarif},
    )
    assert not run.failed
    assert server.made() == []
    assert MARKER in _summary(tmp_path)
    log = json.loads((repo.path / sarif).read_text(encoding="utf-8"))
    assert [r["level"] for r in log["runs"][0]["results"]] == ["error"]
    assert not any(
        line.startswith("::error") for line in run.step("Run the gate").stdout.splitlines()
    )


@pytest.mark.parametrize(
    ("inputs", "message"),
    [
        ({"hard-fail": "yes"}, "input hard-fail must be 'true' or 'false'"),
        ({"base": ""}, "no range: set the base and head inputs"),
        ({"base": "f" * 40}, "no such commit in this repository"),
    ],
)
def test_a_report_that_cannot_be_made_fails_the_job_and_posts_nothing(
    installed: Installed,
    tmp_path: Path,
    pr_repo: tuple[GitRepo, str, str],
    server: FakeGitHub,
    inputs: dict[str, str],
    message: str,
) -> None:
    repo, base, head = pr_repo
    run = run_action(installed, tmp_path, repo, server, _event(base, head), **inputs)
    check = run.step("Run the gate")
    assert run.failed and check.code == 2
    assert message in check.stdout + check.stderr
    assert not run.step("Post the report").ran and server.made() == []


def test_the_job_environment_is_left_alone(
    installed: Installed, tmp_path: Path, pr_repo: tuple[GitRepo, str, str], server: FakeGitHub
) -> None:
    """Nothing in the user's checkout changes: no report, no venv, no index update."""
    repo, base, head = pr_repo
    before = repo.git("status", "--porcelain", "--ignored"), repo.git("rev-parse", "HEAD")
    run_action(installed, tmp_path, repo, server, _event(base, head))
    assert (repo.git("status", "--porcelain", "--ignored"), repo.git("rev-parse", "HEAD")) == before


def _crashing_venv(tmp_path: Path) -> Path:
    """A stand-in install whose ``tribunal`` runs the real CLI with ``fake-boom`` as an analyzer
    (``tests/fake_analyzers.py``): it crashes on any file named ``boom``, so check exits 3."""
    venv = tmp_path / "crashing-venv"
    (venv / "bin").mkdir(parents=True)
    (venv / "bin" / "python").symlink_to(sys.executable)
    script = venv / "bin" / "tribunal"
    script.write_text(
        f'#!/bin/sh\nPYTHONPATH="{ROOT}" exec "{sys.executable}" -m tests.fake_analyzers "$@"\n'
    )
    script.chmod(0o755)
    return venv


@pytest.mark.parametrize("hard_fail", ["false", "true"])
def test_an_analyzer_crash_still_posts_the_report_and_fails_closed_only_when_gating(
    installed: Installed, tmp_path: Path, repo: GitRepo, server: FakeGitHub, hard_fail: str
) -> None:
    lens = "lenses:\n  boom:\n    analyzers: [fake-boom]\n"  # CI runs what the lenses run
    base = repo.commit({**CALC, "tribunal.yml": lens}, "base")
    head = repo.commit({"boom.py": "x = 1\n"}, "a file the fake analyzer crashes on")
    job = _job(
        tmp_path, repo, server, installed.action_path, _event(base, head),
        venv=_crashing_venv(tmp_path),
    )  # fmt: skip
    run = job.run({"hard-fail": hard_fail})
    assert run.outputs["exit-code"] == "3"
    body = server.made("POST")[0].body["body"]
    assert "Analyzer errors" in body and "results are incomplete" in body
    gate = run.step("Gate")
    if hard_fail == "true":
        assert run.failed and gate.code == 3
        assert "::error title=Tribunal::an analyzer crashed" in gate.stdout
    else:
        assert not run.failed and gate.code == 0
        assert "::warning title=Tribunal::an analyzer crashed" in gate.stdout


@pytest.mark.parametrize("body", [None, "本" * 60_000 + "\n```tribunal\n- added-test\n```\n"])
def test_a_null_or_huge_pull_request_body_is_read_from_the_event(
    installed: Installed, tmp_path: Path, repo: GitRepo, server: FakeGitHub, body: str | None
) -> None:
    """GitHub sends null for an empty body, and a 65,536-character body can be 190 KiB of
    UTF-8, more than one environment variable may hold: neither may break the step."""
    base = repo.commit(CALC, "base")
    head = repo.commit({"calc.py": "def add(a, b):\n    return b + a\n"}, "refactor")
    run = run_action(installed, tmp_path, repo, server, _event(base, head, body))
    assert run.step("Run the gate").code == 0, run.step("Run the gate").stderr
    assert run.outputs["contradicted"] == ("0" if body is None else "1")


def test_text_output_cannot_issue_workflow_commands(
    installed: Installed, tmp_path: Path, repo: GitRepo, server: FakeGitHub
) -> None:
    """With annotations off the report is plain text, which starts lines with file names;
    a file named like a command is shown inside a stop-commands block, never obeyed."""
    base = repo.commit(CALC, "base")
    head = repo.commit({"::add-mask::/test_x.py": ASSERTION_FREE_TEST})
    run = run_action(installed, tmp_path, repo, server, _event(base, head), annotations="false")
    lines = run.step("Run the gate").stdout.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("::stop-commands::"))
    token = lines[start].removeprefix("::stop-commands::")
    assert len(token) >= 32 and lines.index(f"::{token}::") > start
    inside = lines[start + 1 : lines.index(f"::{token}::")]
    assert "::add-mask::/test_x.py" in inside  # the file's own line, shown, not obeyed
    outside = lines[:start] + lines[lines.index(f"::{token}::") + 1 :]
    assert not any(line.startswith("::") for line in outside)


def test_a_merge_queue_run_checks_the_queued_range_and_posts_no_comment(
    installed: Installed, tmp_path: Path, pr_repo: tuple[GitRepo, str, str], server: FakeGitHub
) -> None:
    """A required check must also run for the merge queue, whose event has no pull request."""
    repo, base, head = pr_repo
    event = {"action": "checks_requested", "merge_group": {"base_sha": base, "head_sha": head}}
    run = run_action(installed, tmp_path, repo, server, event, **{"hard-fail": "true"})
    assert run.outputs["contradicted"] == "1" and run.failed
    assert server.made() == []
    assert "no pull request to comment on" in run.step("Post the report").stdout
    assert "tests/test\\_calc.py" in _summary(tmp_path)


def test_comment_key_gives_each_project_its_own_comment(
    installed: Installed, tmp_path: Path, pr_repo: tuple[GitRepo, str, str], server: FakeGitHub
) -> None:
    repo, base, head = pr_repo
    for key in ("api", "web"):
        run = run_action(
            installed, tmp_path / key, repo, server, _event(base, head), **{"comment-key": key}
        )
        assert not run.failed
    firsts = [c["body"].splitlines()[0] for c in server.comments[PR]]
    assert firsts == ["<!-- tribunal-report: api -->", "<!-- tribunal-report: web -->"]


def _stub_venv(tmp: Path, real: Path) -> Path:
    """An install whose `tribunal check` dies with an internal error before writing any
    report (exit 3, as the CLI does on an unexpected exception); every other command
    is the real one."""
    venv = tmp / "stub-venv"
    (venv / "bin").mkdir(parents=True)
    (venv / "bin" / "python").symlink_to(real / "bin" / "python")
    script = venv / "bin" / "tribunal"
    script.write_text(
        "#!/bin/sh\n"
        'if [ "$1" = check ]; then echo "tribunal: internal error" >&2; exit 3; fi\n'
        f'exec "{real}/bin/tribunal" "$@"\n'
    )
    script.chmod(0o755)
    return venv


def test_a_second_run_in_the_same_job_never_posts_the_first_runs_report(
    installed: Installed, tmp_path: Path, repo: GitRepo, server: FakeGitHub
) -> None:
    """A job may run the action twice (comment-key). $RUNNER_TEMP is the job's, so the
    first run's report would still be there when the second run's check crashes before
    writing one: that stale report must not become the second comment (nor its counts
    the outputs), and a run with no report of its own is no pass."""
    base = repo.commit(CALC, "base")
    head = repo.commit({"tests/test_calc.py": GOOD_TEST}, "test add")
    temp = tmp_path / "temp"
    temp.mkdir()
    env = actions_env(tmp_path, server.url, _event(base, head))
    env.pop("PATH"), env.pop("HOME"), env.pop("LANG")
    venv = temp / "tribunal-venv"

    def run(key: str, install: Path) -> Any:
        if venv.is_symlink():
            venv.unlink()
        venv.symlink_to(install)
        job = Runner(repo.path, temp, installed.action_path, _event(base, head), env, ("Install",))
        return job.run({"comment-key": key})

    first = run("api", installed.venv)
    assert not first.failed and len(server.made("POST")) == 1
    second = run("web", _stub_venv(tmp_path, installed.venv))
    assert second.outputs["exit-code"] == "3"
    assert len(server.made("POST")) == 1, "web's comment is api's report"
    assert second.failed


class _PullRequestRunner(Runner):
    """The runner with the `github` context fields a pull_request run also has."""

    def _github(self) -> dict[str, Any]:
        return {
            **super()._github(),
            "event_name": "pull_request",
            "base_ref": self.env["GITHUB_BASE_REF"],
            "sha": self.env["GITHUB_SHA"],
        }


def test_the_config_is_the_base_branchs_tip_not_the_events_frozen_base_sha(
    installed: Installed, tmp_path: Path, repo: GitRepo, server: FakeGitHub
) -> None:
    """GitHub freezes `pull_request.base.sha` (the base tip when the PR was opened); it
    does not follow the base branch. A team tightens tribunal.yml on main after the PR
    was opened: the PR must be judged by main's config now (what actions/checkout
    fetched as origin/main and merged into refs/pull/N/merge), not by the old one."""
    loose = "analyzers:\n  assertion-free-test: false\n"
    opened_at = repo.commit({**CALC, "tribunal.yml": loose}, "base when the PR was opened")
    repo.git("checkout", "-q", "-b", "feature")
    head = repo.commit({"tests/test_calc.py": ASSERTION_FREE_TEST}, "add a test")
    repo.git("checkout", "-q", "main")
    tip = repo.commit({"tribunal.yml": None}, "tighten: every analyzer on")
    repo.git("update-ref", "refs/remotes/origin/main", tip)
    repo.git("merge", "-q", "--no-ff", "--no-edit", head)  # what checkout puts at HEAD
    merge = repo.git("rev-parse", "HEAD")
    temp = tmp_path / "temp"
    temp.mkdir()
    (temp / "tribunal-venv").symlink_to(installed.venv)
    event = _event(opened_at, head)
    env = actions_env(tmp_path, server.url, event, GITHUB_BASE_REF="main", GITHUB_SHA=merge)
    env.pop("PATH"), env.pop("HOME"), env.pop("LANG")
    job = _PullRequestRunner(repo.path, temp, installed.action_path, event, env, ("Install",))
    run = job.run({})
    assert run.outputs["exit-code"] == "0", run.step("Run the gate").stderr
    assert run.outputs["contradicted"] == "1", server.made("POST")[0].body["body"]


def test_error_messages_naming_files_are_never_obeyed_as_commands(
    installed: Installed, tmp_path: Path, repo: GitRepo, server: FakeGitHub
) -> None:
    """The runner reads ``##[cmd]`` anywhere in a line: an analyzer's crash message names
    the file, so it is printed inside a stop-commands block, after the annotations."""
    lens = "lenses:\n  boom:\n    analyzers: [fake-boom]\n"
    base = repo.commit({**CALC, "tribunal.yml": lens}, "base")
    head = repo.commit({"x##[add-mask]boom.py": "x = 1\n"}, "a hostile name")
    job = _job(
        tmp_path, repo, server, installed.action_path, _event(base, head),
        venv=_crashing_venv(tmp_path),
    )  # fmt: skip
    lines = job.run({}).step("Run the gate").stdout.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("::stop-commands::"))
    end = lines.index("::" + lines[start].removeprefix("::stop-commands::") + "::")
    hostile = [i for i, line in enumerate(lines) if "##[add-mask]" in line and line[:2] != "::"]
    assert hostile and all(start < i < end for i in hostile)
