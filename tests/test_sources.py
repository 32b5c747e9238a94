"""Every diff source, end to end through the real CLI in real repositories.

``fake-echo`` (tests/fake_analyzers.py) reports exactly which head and base
contents the engine handed to analyzers, so each test proves where they came from.
"""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
import textwrap
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from tests.fake_analyzers import run_cli, seen
from tests.gitrepo import GitRepo

ROOT = Path(__file__).resolve().parent.parent


def echo(
    repo: GitRepo,
    *args: str,
    stdin: str | None = None,
    env: Mapping[str, str] | None = None,
    cwd: Path | None = None,
) -> dict[str, dict[str, Any]]:
    result = run_cli(repo, "check", "--format", "json", *args, stdin=stdin, env=env, cwd=cwd)
    assert result.code == 0, result.stderr
    assert result.stderr == ""
    return seen(result)


# --- --base --head --------------------------------------------------------------------


def test_range_reads_the_object_database_not_the_working_tree(repo: GitRepo) -> None:
    c1 = repo.commit({"a.py": "v1\n", "same.py": "s\n"})
    c2 = repo.commit({"a.py": "v2\n", "b.py": "new\n"})
    repo.write({"a.py": "dirty working tree\n", "b.py": "also dirty\n", "c.py": "untracked\n"})
    got = echo(repo, "--base", c1, "--head", c2)
    assert set(got) == {"a.py", "b.py"}
    assert got["a.py"]["head"] == "v2\n" and got["a.py"]["base"] == "v1\n"
    assert got["b.py"]["head"] == "new\n" and got["b.py"]["base"] is None
    assert got["a.py"]["added"] == {"1": "v2"} and got["a.py"]["removed"] == {"1": "v1"}


def test_range_starts_at_the_merge_base(repo: GitRepo) -> None:
    repo.commit({"a.py": "base\n"})
    repo.git("checkout", "-q", "-b", "feature")
    repo.commit({"feature.py": "f\n"})
    repo.git("checkout", "-q", "main")
    repo.commit({"main_only.py": "m\n", "a.py": "changed on main\n"})
    got = echo(repo, "--base", "main", "--head", "feature")
    assert set(got) == {"feature.py"}
    report = json.loads(run_cli(repo, "check", "--format", "json", "--base", "main",
                                "--head", "feature").stdout)  # fmt: skip
    assert report["range"]["kind"] == "range"
    assert report["range"]["merge_base"] == repo.git("merge-base", "main", "feature")


def test_range_from_the_root_commit(repo: GitRepo) -> None:
    root = repo.commit({"a.py": "1\n"})
    repo.commit({"a.py": "2\n", "b.py": "b\n"})
    assert set(echo(repo, "--base", root, "--head", "HEAD")) == {"a.py", "b.py"}
    assert echo(repo, "--base", root, "--head", root) == {}


def test_range_without_shared_history_is_exit_2(repo: GitRepo) -> None:
    repo.commit({"a.py": "1\n"})
    repo.git("checkout", "-q", "--orphan", "other")
    repo.commit({"b.py": "2\n"})
    result = repo.tribunal("check", "--base", "main", "--head", "other")
    assert result.code == 2
    assert result.stderr == (
        "tribunal: error: --base main and --head other share no history (no merge base)\n"
    )


# --- --base alone and the working tree ------------------------------------------------


def test_base_alone_is_the_working_tree_against_that_commit(repo: GitRepo) -> None:
    c1 = repo.commit({"a.py": "v1\n"})
    repo.commit({"b.py": "committed later\n"})
    repo.write({"a.py": "v2 on disk\n", "u.py": "untracked\n"})
    got = echo(repo, "--base", c1)
    assert set(got) == {"a.py", "b.py", "u.py"}
    assert got["a.py"]["head"] == "v2 on disk\n" and got["a.py"]["base"] == "v1\n"


def test_working_tree_counts_untracked_but_not_ignored(repo: GitRepo) -> None:
    repo.commit({".gitignore": "*.log\nbuild/\n", "a.py": "a\n"})
    repo.write(
        {
            "a.py": "a2\n",
            "new.py": "n1\nn2\n",
            "debug.log": "ignored\n",
            "build/out.py": "ignored\n",
        }
    )
    got = echo(repo)
    assert set(got) == {"a.py", "new.py"}
    assert got["new.py"]["added"] == {"1": "n1", "2": "n2"}
    assert got["new.py"]["head"] == "n1\nn2\n"


def test_working_tree_reads_disk_not_index(repo: GitRepo) -> None:
    repo.commit({"a.py": "v1\n"})
    repo.write({"a.py": "v2 staged\n"})
    repo.git("add", "a.py")
    repo.write({"a.py": "v3 on disk\n"})
    assert echo(repo)["a.py"]["head"] == "v3 on disk\n"


def test_working_tree_deleted_and_unchanged_files(repo: GitRepo) -> None:
    repo.commit({"a.py": "a\n", "b.py": "b\n"})
    repo.write({"a.py": None})
    (repo.path / "b.py").touch()  # stat-dirty, same content: no change
    got = echo(repo)
    assert set(got) == {"a.py"}
    assert got["a.py"]["status"] == "deleted" and got["a.py"]["head"] is None


def test_untracked_symlink_out_of_the_repository_is_never_followed(
    repo: GitRepo, tmp_path: Path
) -> None:
    secret = tmp_path / "secret.py"
    secret.write_text("TOKEN = 'CONTRADICT'\n")
    repo.commit({"a.py": "a\n"})
    (repo.path / "link.py").symlink_to(secret)
    (repo.path / "linkdir").symlink_to(tmp_path)
    result = run_cli(repo, "check", "--format", "json")
    report = json.loads(result.stdout)
    assert "TOKEN" not in result.stdout
    assert {"file": "link.py", "reason": "not a regular file"} in report["skipped"]
    assert report["counts"]["CONTRADICTED"] == 0


def test_oversized_untracked_and_staged_files_are_skipped_with_a_note(repo: GitRepo) -> None:
    repo.commit({"a.py": "a\n"})
    repo.write({"big.py": "x = 1\n" * 600_000})  # 3.6 MB
    report = json.loads(run_cli(repo, "check", "--format", "json").stdout)
    skipped = {s["file"]: s["reason"] for s in report["skipped"]}
    assert "size cap" in skipped["big.py"]
    repo.git("add", "big.py")
    report = json.loads(run_cli(repo, "check", "--staged", "--format", "json").stdout)
    assert "size cap" in {s["file"]: s["reason"] for s in report["skipped"]}["big.py"]


# --- --staged -------------------------------------------------------------------------


def test_staged_reads_the_index(repo: GitRepo) -> None:
    repo.commit({"a.py": "v1\n"})
    repo.write({"a.py": "v2 staged\n", "u.py": "untracked\n"})
    repo.git("add", "a.py")
    repo.write({"a.py": "v3 unstaged\n"})
    got = echo(repo, "--staged")
    assert set(got) == {"a.py"}
    assert got["a.py"]["head"] == "v2 staged\n" and got["a.py"]["base"] == "v1\n"


def test_staged_on_an_unborn_branch(repo: GitRepo) -> None:
    repo.write({"a.py": "first\n", "b.py": "unstaged\n"})
    repo.git("add", "a.py")
    got = echo(repo, "--staged")
    assert set(got) == {"a.py"} and got["a.py"]["base"] is None
    assert set(echo(repo)) == {"a.py", "b.py"}


def _install_hook(repo: GitRepo, out_dir: Path) -> None:
    """A pre-commit hook that runs the real CLI twice: real analyzers, then the echo fake."""
    hook = repo.path / ".git" / "hooks" / "pre-commit"
    script = f"""\
        #!/bin/sh
        printf '%s\\n' "$GIT_INDEX_FILE" > {out_dir}/index-file.txt
        "{sys.executable}" -m tribunal check --staged --format json > {out_dir}/real.json
        PYTHONPATH="{ROOT}" "{sys.executable}" -m tests.fake_analyzers check --staged \\
            --format json > {out_dir}/out.json
        """
    hook.write_text(textwrap.dedent(script))
    hook.chmod(hook.stat().st_mode | stat.S_IXUSR)


def _hook_saw(out_dir: Path) -> dict[str, dict[str, Any]]:
    real = json.loads((out_dir / "real.json").read_text())  # the real analyzers ran too
    assert real["range"]["kind"] == "staged"
    report = json.loads((out_dir / "out.json").read_text())
    return {
        f["file"]: json.loads(f["detail"])
        for f in report["findings"]
        if f["analyzer"] == "fake-echo"
    }


def test_staged_during_a_partial_commit_sees_exactly_what_is_committed(
    repo: GitRepo, tmp_path: Path
) -> None:
    repo.commit({"commit_me.py": "v1\n", "staged_other.py": "s1\n", "unstaged.py": "u1\n"})
    out = tmp_path / "hook-out"
    out.mkdir()
    _install_hook(repo, out)
    repo.write({"commit_me.py": "v2 committed\n", "staged_other.py": "s2 staged only\n"})
    repo.git("add", "staged_other.py")
    repo.write({"unstaged.py": "u2 not staged\n"})
    repo.git("commit", "-q", "commit_me.py", "-m", "partial")
    index_file = (out / "index-file.txt").read_text().strip()
    assert index_file and not index_file.endswith("/.git/index")  # git's temporary index
    got = _hook_saw(out)
    assert json.loads((out / "real.json").read_text())["files_analyzed"] == 1
    assert set(got) == {"commit_me.py"}
    assert got["commit_me.py"]["head"] == "v2 committed\n"
    assert got["commit_me.py"]["base"] == "v1\n"
    # the commit recorded what the hook saw; the rest is untouched
    assert repo.git("show", "HEAD:commit_me.py") == "v2 committed"
    assert repo.git("diff", "--cached", "--name-only") == "staged_other.py"
    assert (repo.path / "unstaged.py").read_text() == "u2 not staged\n"


def test_staged_during_commit_all(repo: GitRepo, tmp_path: Path) -> None:
    repo.commit({"a.py": "a1\n", "b.py": "b1\n"})
    out = tmp_path / "hook-out"
    out.mkdir()
    _install_hook(repo, out)
    repo.write({"a.py": "a2\n", "b.py": "b2\n", "untracked.py": "never committed\n"})
    repo.git("commit", "-q", "-a", "-m", "all")
    got = _hook_saw(out)
    assert set(got) == {"a.py", "b.py"}
    assert got["a.py"]["head"] == "a2\n" and got["b.py"]["head"] == "b2\n"


# --- --diff ---------------------------------------------------------------------------


def _make_diff(repo: GitRepo) -> str:
    repo.commit({"m.py": "one\ntwo\nthree\n"})
    repo.write({"m.py": "one\nTWO\nthree\nfour\n", "n.py": "fresh\n"})
    repo.git("add", "-N", "n.py")
    return repo.git("diff") + "\n"


def test_diff_file_with_a_matching_working_tree(repo: GitRepo, tmp_path: Path) -> None:
    patch = tmp_path / "change.diff"
    patch.write_text(_make_diff(repo))
    got = echo(repo, "--diff", str(patch))
    assert got["m.py"]["head"] == "one\nTWO\nthree\nfour\n"
    assert got["m.py"]["base"] == "one\ntwo\nthree\n"  # the diff's index line names the blob
    assert got["n.py"]["head"] == "fresh\n"
    assert got["m.py"]["added"] == {"2": "TWO", "4": "four"}


def test_diff_from_stdin_without_a_matching_working_tree(repo: GitRepo) -> None:
    patch = _make_diff(repo)
    repo.write({"m.py": "someone edited it since\n"})
    got = echo(repo, "--diff", "-", stdin=patch)
    # disk does not match, but HEAD holds the preimage: the diff is applied to it
    assert got["m.py"]["head"] == "one\nTWO\nthree\nfour\n"
    assert got["m.py"]["added"] == {"2": "TWO", "4": "four"}
    assert got["n.py"]["head"] == "fresh\n"  # a whole new file is its own post-image


@pytest.mark.skipif(shutil.which("diff") is None, reason="no diff(1) here")
def test_diff_outside_any_repository(tmp_path: Path, repo: GitRepo) -> None:
    (tmp_path / "old").mkdir()
    (tmp_path / "new").mkdir()
    (tmp_path / "old" / "x.py").write_text("a\nb\n")
    (tmp_path / "new" / "x.py").write_text("a\nB\n")
    text = subprocess.run(
        ["diff", "-ruN", "old", "new"], cwd=tmp_path, capture_output=True, text=True
    ).stdout
    plain = tmp_path / "plain"
    plain.mkdir()
    got = echo(repo, "--diff", "-", stdin=text, cwd=plain)
    assert set(got) == {"new/x.py"} and got["new/x.py"]["head"] is None
    assert got["new/x.py"]["base"] is None
    # run from the directory holding new/: the file on disk matches, so it is used
    got = echo(repo, "--diff", "-", stdin=text, cwd=tmp_path)
    assert got["new/x.py"]["head"] == "a\nB\n"


def test_diff_inputs_that_are_not_diffs(repo: GitRepo, tmp_path: Path) -> None:
    repo.commit({"a.py": "a\n"})
    (tmp_path / "notes.txt").write_text("hello\n")
    result = repo.tribunal("check", "--diff", str(tmp_path / "notes.txt"))
    assert result.code == 2
    assert result.stderr == (
        f"tribunal: error: {tmp_path / 'notes.txt'}: not a unified diff: "
        "no 'diff --git' or '---'/'+++' file header found\n"
    )
    result = repo.tribunal("check", "--diff", "missing.diff")
    assert (result.code, result.stderr) == (
        2,
        "tribunal: error: missing.diff: cannot read diff: No such file or directory\n",
    )
    broken = "diff --git a/a.py b/a.py\n--- a/a.py\n+++ b/a.py\n@@ -1,3 +1,3 @@\n a\n"
    result = repo.tribunal("check", "--diff", "-", stdin=broken)
    assert result.code == 2
    assert result.stderr == (
        "tribunal: error: stdin: malformed diff: it ends inside a hunk of a.py\n"
    )
    assert "Traceback" not in result.stderr


def test_empty_diff_input_is_an_empty_change(repo: GitRepo) -> None:
    result = run_cli(repo, "check", "--format", "json", "--diff", "-", stdin="")
    assert result.code == 0 and json.loads(result.stdout)["files_analyzed"] == 0


# --- refs, repositories and flags -----------------------------------------------------


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--head", "HEAD"), "--head needs --base (the range is --base REF --head REF)"),
        (("--base", "nope", "--head", "HEAD"), "--base nope: no such commit in this repository"),
        (("--base", "HEAD", "--head", "nope"), "--head nope: no such commit in this repository"),
        (("--base", "nope"), "--base nope: no such commit in this repository"),
        (("--base", "HEAD^{tree}", "--head", "HEAD"), "--base HEAD^{tree}: no such commit"),
        (("--staged", "--base", "HEAD"), "--staged compares the index with HEAD; it takes no"),
        (("--diff", "-", "--staged"), "--diff cannot be combined with --base, --head or --staged"),
        (("--cwd", "no/such/dir"), "--cwd no/such/dir: not a directory"),
    ],
)
def test_usage_and_ref_errors_exit_2_with_one_line(
    repo: GitRepo, args: tuple[str, ...], message: str
) -> None:
    repo.commit({"a.py": "a\n"})
    result = repo.tribunal("check", *args)
    assert result.code == 2
    assert result.stderr.startswith(f"tribunal: error: {message}")
    assert result.stderr.count("\n") == 1 and result.stdout == ""


def test_not_a_repository(tmp_path: Path, repo: GitRepo) -> None:
    outside = tmp_path / "plain"
    outside.mkdir()
    result = repo.tribunal("check", cwd=outside)
    assert result.code == 2
    assert result.stderr == (
        f"tribunal: error: {outside}: not inside a git repository (use --cwd DIR, or --diff FILE)\n"
    )


def test_cwd_flag_and_subdirectories(repo: GitRepo, tmp_path: Path) -> None:
    repo.commit({"pkg/a.py": "a\n"})
    repo.write({"pkg/a.py": "a2\n", "top.py": "t\n"})
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    assert set(echo(repo, "--cwd", str(repo.path), cwd=elsewhere)) == {"pkg/a.py", "top.py"}
    assert set(echo(repo, cwd=repo.path / "pkg")) == {"pkg/a.py", "top.py"}


def test_sha256_repository(tmp_path: Path) -> None:
    path = tmp_path / "sha256"
    init = subprocess.run(
        ["git", "init", "-q", "--object-format=sha256", str(path)], capture_output=True
    )
    if init.returncode != 0:
        pytest.skip("this git cannot create SHA-256 repositories")
    repo = GitRepo(path)
    first = repo.commit({"a.py": "1\n"})
    assert len(first) == 64
    repo.commit({"a.py": "2\n", "b.py": "b\n"})
    got = echo(repo, "--base", first, "--head", "HEAD")
    assert got["a.py"]["head"] == "2\n" and got["a.py"]["base"] == "1\n"
    repo.write({"c.py": "c\n"})
    repo.git("add", "c.py")
    assert set(echo(repo, "--staged")) == {"c.py"}
    patch = repo.git("diff", "--cached", "--full-index") + "\n"
    assert echo(repo, "--diff", "-", stdin=patch)["c.py"]["head"] == "c\n"


def test_git_environment_of_a_hook_does_not_confuse_cwd(repo: GitRepo, tmp_path: Path) -> None:
    repo.commit({"a.py": "a\n"})
    repo.write({"a.py": "b\n"})
    env = {"GIT_INDEX_FILE": os.path.relpath(repo.path / ".git" / "index", repo.path)}
    assert set(echo(repo, "--staged", env=env)) == set()
    repo.git("add", "a.py")
    assert set(echo(repo, "--staged", env=env)) == {"a.py"}


@pytest.mark.parametrize("mode", ["--staged", "worktree", "range"])
def test_odd_file_names_are_read_back_in_every_mode(repo: GitRepo, mode: str) -> None:
    names = ["new\nline.py", "tab\tname.py", "héllo wörld.py", 'quo"te.py', "-- x.py"]
    base = repo.commit({"keep.py": "k\n"})
    repo.write({name: f"# {name!r}\n" for name in names})
    args: tuple[str, ...] = ()
    if mode == "--staged":
        repo.git("add", "-A")
        args = ("--staged",)
    elif mode == "range":
        repo.commit()
        args = ("--base", base, "--head", "HEAD")
    got = echo(repo, *args)
    assert set(got) == set(names)
    for name in names:
        assert got[name]["head"] == f"# {name!r}\n"


def test_untracked_nested_repository_is_skipped(repo: GitRepo) -> None:
    repo.commit({"a.py": "a\n"})
    GitRepo.init(repo.path / "vendored")
    (repo.path / "vendored" / "x.py").write_text("x\n")
    report = json.loads(run_cli(repo, "check", "--format", "json").stdout)
    assert {"file": "vendored/", "reason": "nested repository"} in report["skipped"]
    assert report["files_analyzed"] == 0


def test_git_stream_survives_a_flood_on_stderr(repo: GitRepo) -> None:
    from tribunal.errors import GitError
    from tribunal.git.cmd import Git

    noisy = (
        "alias.noisy=!f() { i=0; while [ $i -lt 4000 ]; do "
        "echo warning: $i xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx >&2; echo line$i; "
        "i=$((i+1)); done; [ -z $1 ]; }; f"
    )
    with Git(repo.path) as git:
        lines = list(git.stream("-c", noisy, "noisy"))
        assert len(lines) == 4000 and lines[-1] == b"line3999\n"
        with pytest.raises(GitError) as info:
            list(git.stream("-c", noisy, "noisy", "fail"))
    assert str(info.value).startswith("git -c alias.noisy=")
    assert str(info.value).endswith("failed (exit 1): warning: 3999 " + "x" * 40)  # the tail


def test_git_errors_quote_the_fatal_line(repo: GitRepo) -> None:
    from tribunal.errors import GitError
    from tribunal.git.cmd import Git

    repo.commit({"a.py": "a\n"})
    with Git(repo.path) as git, pytest.raises(GitError) as info:
        list(git.stream("diff-tree", "-r", "no-such-rev", "HEAD"))
    message = str(info.value)
    assert message.startswith("git diff-tree -r no-such-rev HEAD failed (exit 128): fatal: ")
    assert "ambiguous argument 'no-such-rev'" in message and "\n" not in message


def test_working_tree_reads_never_leave_the_repository(repo: GitRepo, tmp_path: Path) -> None:
    from tribunal.change.snapshot import WorktreeSnapshot, read_file_safely
    from tribunal.git.cmd import BlobTooLarge, Git

    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.py").write_text("secret\n")
    repo.commit({"ok.py": "fine\n"})
    (repo.path / "link.py").symlink_to(outside / "secret.py")
    (repo.path / "linkdir").symlink_to(outside)
    (repo.path / "inner.py").symlink_to("ok.py")  # even a link inside the repository
    os.mkfifo(repo.path / "pipe.py")
    root = repo.path
    assert read_file_safely(root, "ok.py", 100) == b"fine\n"
    for name in ("link.py", "linkdir/secret.py", "inner.py", "../outside/secret.py",
                 str(outside / "secret.py"), "pipe.py", "missing.py", "."):  # fmt: skip
        assert read_file_safely(root, name, 100) is None, name
    too_big = read_file_safely(root, "ok.py", 3)
    assert isinstance(too_big, BlobTooLarge) and too_big.size == 5
    with Git(root) as git:
        assert WorktreeSnapshot(git, root).paths() == {"ok.py"}
