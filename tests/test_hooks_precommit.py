"""The hooks through the real pre-commit framework, with this project as the hook repository.

The hook repository is a snapshot of the current working tree of this project,
committed into a temporary git repository (so the tests see uncommitted work and
never touch this checkout's git state). pre-commit builds its environment for it
once per session: every test shares one ``PRE_COMMIT_HOME``.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests import hookscenarios as sc
from tests.gitrepo import run_git
from tests.hooktools import ASSERTION_FREE_TEST, UserRepo
from tribunal.hooks.precommit import NOTHING_STAGED

PROJECT = Path(__file__).resolve().parents[1]


def snapshot_project(dest: Path) -> str:
    """Copy tracked and untracked (not ignored) files of this project; commit; return the sha."""
    env = {"GIT_OPTIONAL_LOCKS": "0"}
    listed = run_git(PROJECT, ["ls-files", "-z", "-co", "--exclude-standard"], env, check=True)
    for name in filter(None, listed.stdout.split("\0")):
        source, target = PROJECT / name, dest / name
        if not (source.is_symlink() or source.exists()):
            continue  # deleted in the working tree
        target.parent.mkdir(parents=True, exist_ok=True)
        if source.is_symlink():
            target.symlink_to(os.readlink(source))
        else:
            shutil.copy2(source, target)
    run_git(dest, ["init", "-q"], {}, check=True)
    run_git(dest, ["add", "-A"], {}, check=True)
    run_git(dest, ["commit", "-q", "--no-verify", "-m", "snapshot"], {}, check=True)
    return run_git(dest, ["rev-parse", "HEAD"], {}, check=True).stdout.strip()


#: Built once per session, also for other modules that import ``framework`` (a fixture
#: imported into a second module is a second fixture to pytest, with its own cache).
_BUILT: list[dict[str, str]] = []


@pytest.fixture(scope="session")
def framework(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The hook repository, its rev, and a PRE_COMMIT_HOME with the environment built."""
    if _BUILT:
        return _BUILT[0]
    hook_repo = tmp_path_factory.mktemp("hook-repo")
    rev = snapshot_project(hook_repo)
    home = tmp_path_factory.mktemp("pre-commit-home")
    setup = {"repo": str(hook_repo), "rev": rev, "PRE_COMMIT_HOME": str(home)}
    scratch = UserRepo.create(tmp_path_factory.mktemp("env-build"), {"PRE_COMMIT_HOME": str(home)})
    write_config(scratch, setup)
    result = pre_commit(scratch, "install-hooks")
    assert result.returncode == 0, result.stdout + result.stderr
    _BUILT.append(setup)
    return setup


def write_config(
    user: UserRepo, setup: dict[str, str], *, top: str = "", hook: str = "", convene: str = ""
) -> None:
    """The config; ``top`` adds top-level lines, ``hook`` lines under ``id: tribunal``,
    ``convene`` lines under ``id: tribunal-convene``."""
    user.repo.write(
        {
            ".pre-commit-config.yaml": (
                "default_install_hook_types: [pre-commit, pre-push]\n"
                f"{top}"
                "repos:\n"
                f"  - repo: '{setup['repo']}'\n"
                f"    rev: {setup['rev']}\n"
                "    hooks:\n"
                "      - id: tribunal\n"
                + "".join(f"        {line}\n" for line in hook.splitlines())
                + "      - id: tribunal-convene\n"
                + "".join(f"        {line}\n" for line in convene.splitlines())
            )
        }
    )


def pre_commit(user: UserRepo, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pre_commit", *args],
        cwd=user.path,
        env={**os.environ, **user.env},
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )


def installer(framework: dict[str, str]) -> sc.Install:
    """Install the hooks through pre-commit (the config committed, as a team shares it)."""

    def install(user: UserRepo) -> None:
        write_config(user, framework)
        user.commit({}, "pre-commit config")
        result = pre_commit(user, "install")
        assert result.returncode == 0, result.stderr
        assert "pre-push" in result.stdout

    return install


def framework_user(tmp_path: Path, framework: dict[str, str]) -> UserRepo:
    env = {"PRE_COMMIT_HOME": framework["PRE_COMMIT_HOME"]}
    return sc.make_user(tmp_path, installer(framework), env)


#: The two ways the hooks are installed; tests that run both parametrize over these.
KINDS = ("plain", "pre-commit")


def user_of_kind(kind: str, request: pytest.FixtureRequest, tmp_path: Path) -> UserRepo:
    """A user repository with the hooks installed the ``kind`` way (one of ``KINDS``); the
    framework's environment is built (once per session) only when a pre-commit case runs."""
    if kind == "plain":
        return sc.make_user(tmp_path, sc.install_plain)
    return framework_user(tmp_path, request.getfixturevalue("framework"))


@pytest.fixture
def user(tmp_path: Path, framework: dict[str, str]) -> UserRepo:
    return framework_user(tmp_path, framework)


def test_the_manifest_uses_current_stage_names() -> None:
    import yaml

    hooks = {h["id"]: h for h in yaml.safe_load((PROJECT / ".pre-commit-hooks.yaml").read_text())}
    assert hooks["tribunal"]["stages"] == ["pre-commit"]
    assert hooks["tribunal-convene"]["stages"] == ["pre-push"]
    for hook in hooks.values():
        assert hook["pass_filenames"] is False and hook["always_run"] and hook["verbose"]
        assert hook["require_serial"] and hook["language"] == "python"


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


def test_orphan_branch_has_no_from_or_to_ref(user: UserRepo) -> None:
    sc.first_push_of_an_orphan_branch(user)


def test_only_the_first_ref_with_new_commits_is_shown(user: UserRepo) -> None:
    """pre-commit's limitation, documented: the second ref of a push is never convened."""
    for branch in ("one", "two"):
        user.git("checkout", "-q", "-b", branch, "main")
        user.commit({f"tests/test_{branch}.py": sc.GOOD["tests/test_fine ü.py"]}, branch)
    result = sc.push(user, "origin", "one", "two")
    assert result.code == 0, sc.output(result)
    assert sc.output(result).count("unanimous pass") == 1
    assert len(user.summaries()) == 1


def test_interrupted_convene(user: UserRepo, tmp_path: Path) -> None:
    sc.interrupted_convene_leaves_no_worktree(user, tmp_path, signal.SIGINT)


def test_killed_convene_is_cleaned_by_the_next_run(user: UserRepo, tmp_path: Path) -> None:
    sc.killed_convene_is_cleaned_by_the_next_run(user, tmp_path)


def test_failing_suite(user: UserRepo) -> None:
    sc.failing_suite_rejects_with_its_output(user)


def test_a_careless_suite_touches_nothing_of_the_users(user: UserRepo, tmp_path: Path) -> None:
    sc.careless_suite_touches_nothing(user, tmp_path)


def test_concurrent_pushes(user: UserRepo, tmp_path: Path) -> None:
    sc.concurrent_pushes(user, tmp_path, together=False)


def test_push_from_a_linked_worktree(user: UserRepo) -> None:
    sc.push_from_a_linked_worktree(user)


def test_pushed_config_weakening(user: UserRepo) -> None:
    sc.pushed_config_weakening(user)


# --- the pre-commit stage in CI: a range, --all-files, the framework's filter, args ------


def test_from_ref_to_ref_judges_the_range(user: UserRepo) -> None:
    """What CI setups run: the range is judged, not the (empty) index."""
    user.commit({"tests/test_thing.py": ASSERTION_FREE_TEST}, "add a test")
    result = pre_commit(user, "run", "tribunal", "--from-ref", "HEAD~1", "--to-ref", "HEAD")
    assert result.returncode == 1, result.stdout + result.stderr
    assert "HEAD~1...HEAD blocked: 1 CONTRADICTED" in result.stdout
    assert "tests/test_thing.py:1" in result.stdout
    clean = pre_commit(user, "run", "tribunal", "--from-ref", "HEAD~2", "--to-ref", "HEAD~1")
    assert clean.returncode == 0, clean.stdout + clean.stderr
    assert "nothing CONTRADICTED or UNVERIFIED" in clean.stdout


def test_all_files_with_nothing_staged_says_what_it_judges(user: UserRepo) -> None:
    user.commit({"tests/test_thing.py": ASSERTION_FREE_TEST}, "add a test")
    result = pre_commit(user, "run", "tribunal", "--all-files")
    assert result.returncode == 0, result.stdout + result.stderr
    assert NOTHING_STAGED in result.stdout
    assert "0 files" not in result.stdout


def test_exclude_and_files_skip_what_pre_commit_filters_out(
    user: UserRepo, framework: dict[str, str]
) -> None:
    write_config(user, framework, top="exclude: ^tests/generated/\n", hook="files: ^tests/")
    user.commit({}, "filter the hook")
    user.commit(
        {
            "tests/generated/test_made.py": ASSERTION_FREE_TEST,
            "docs/test_doc.py": ASSERTION_FREE_TEST,
        },
        "tests the filters leave out",
    )
    result = pre_commit(user, "run", "tribunal", "--from-ref", "HEAD~1", "--to-ref", "HEAD")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "2 excluded by .pre-commit-config.yaml" in result.stdout
    user.commit({"tests/test_kept.py": ASSERTION_FREE_TEST}, "one it keeps")
    kept = pre_commit(user, "run", "tribunal", "--from-ref", "HEAD~2", "--to-ref", "HEAD")
    assert kept.returncode == 1, kept.stdout + kept.stderr
    assert "tests/test_kept.py:1" in kept.stdout and "test_made" not in kept.stdout


def test_args_reach_the_hook(user: UserRepo, framework: dict[str, str]) -> None:
    write_config(user, framework, hook="args: [--config, ci/tribunal.yml]")
    user.commit({"ci/tribunal.yml": "analyzers: {no-such-analyzer: true}\n"}, "a CI config")
    result = pre_commit(user, "run", "tribunal", "--from-ref", "HEAD~1", "--to-ref", "HEAD")
    assert result.returncode == 1 and "exit code: 2" in result.stdout, result.stdout
    assert "unrecognized arguments" not in result.stdout + result.stderr
    assert "no-such-analyzer" in result.stdout + result.stderr


def test_manual_stage_hooks_show_every_finding_and_the_audit(
    tmp_path: Path, framework: dict[str, str]
) -> None:
    """A framework user has no `tribunal` on PATH: the folded report names a manual-stage hook."""
    from tests.test_hook_brief import FORTY
    from tribunal.hooks.brief import FRAMEWORK_ROWS, SCREEN_LINES, rows

    user = UserRepo.create(tmp_path, {"PRE_COMMIT_HOME": framework["PRE_COMMIT_HOME"]})
    hooks = "".join(f"      - id: {i}\n" for i in ("tribunal", "tribunal-check", "tribunal-audit"))
    config = f"repos:\n  - repo: '{framework['repo']}'\n    rev: {framework['rev']}\n    hooks:\n"
    user.commit(
        {
            ".pre-commit-config.yaml": config + hooks,
            "pyproject.toml": '[project]\nname = "app"\ndependencies = []\n',
        },
        "config",
    )
    assert pre_commit(user, "install").returncode == 0
    user.repo.write(FORTY)
    user.git("add", "-A")
    commit = user.run("commit", "-m", "forty imports")
    assert commit.code == 0, commit.stdout + commit.stderr
    hook_output = commit.stderr  # git hands a hook's output to stderr
    assert rows(hook_output.strip().splitlines()) <= SCREEN_LINES, hook_output
    ours = hook_output.split("- duration:", 1)[1].splitlines()[1:]
    assert rows([line for line in ours if line]) <= SCREEN_LINES - FRAMEWORK_ROWS
    manual = "pre-commit run tribunal-check --hook-stage manual --from-ref HEAD~1 --to-ref HEAD"
    assert f"`{manual}`" in hook_output
    shown = pre_commit(user, *manual.split()[1:])
    assert shown.returncode == 0, shown.stdout + shown.stderr
    assert shown.stdout.count("is not a declared or installed package") == 40
    audit = pre_commit(user, "run", "tribunal-audit", "--hook-stage", "manual")
    assert audit.returncode == 0, audit.stdout + audit.stderr
    assert "0 weakened-gate records" in audit.stdout
