"""The diff parser, fed by real git (and real ``diff -u``) wherever possible.

Each status, odd file name and marker line comes from a real repository, so a
change in git's output format breaks these tests rather than the users' runs.
"""

from __future__ import annotations

import io
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.gitrepo import GitRepo
from tribunal.change.diff.lines import bounded_lines
from tribunal.change.diff.model import FileChange, Hunk, Status
from tribunal.change.diff.parse import parse_diff
from tribunal.engine.sources import empty_tree, git_diff
from tribunal.errors import InputError
from tribunal.git.cmd import Git

CAP = 1 << 20


def parse(text: str | bytes, cap: int = CAP, **kw: bool) -> list[FileChange]:
    data = text.encode() if isinstance(text, str) else text
    return parse_diff(io.BytesIO(data), max_file_bytes=cap, **kw)


def staged(repo: GitRepo) -> dict[str, FileChange]:
    """What ``--staged`` sees, parsed from git's real output, by path."""
    with Git(repo.path) as git:
        head = repo.git("rev-parse", "--verify", "-q", "HEAD", check=False) or empty_tree(git)
        return {fc.path: fc for fc in git_diff(git, "diff-index", "--cached", head)}


def git_text(repo: GitRepo, *args: str) -> bytes:
    return subprocess.run(["git", *args], cwd=repo.path, capture_output=True, check=True).stdout


# --- statuses -------------------------------------------------------------------------


def test_added_modified_deleted(repo: GitRepo) -> None:
    repo.commit({"keep.py": "a\nb\nc\n", "gone.py": "x\ny\n"})
    repo.write({"keep.py": "a\nB\nc\nd\n", "gone.py": None, "new.py": "n1\nn2\n"})
    repo.git("add", "-A")
    files = staged(repo)
    assert set(files) == {"keep.py", "gone.py", "new.py"}
    keep, gone, new = files["keep.py"], files["gone.py"], files["new.py"]
    assert keep.status is Status.MODIFIED and keep.old_path == "keep.py"
    assert dict(keep.added_text) == {2: "B", 4: "d"}
    assert dict(keep.removed_text) == {2: "b"}
    assert gone.status is Status.DELETED and gone.has_head is False
    assert gone.removed == {1, 2} and gone.added == frozenset()
    assert new.status is Status.ADDED and new.old_path is None and new.has_base is False
    assert dict(new.added_text) == {1: "n1", 2: "n2"}
    assert len(keep.new_blob or "") == 40 and keep.old_blob and keep.old_blob != keep.new_blob


def test_renamed_with_edit_keeps_only_the_edit(repo: GitRepo) -> None:
    body = "".join(f"line {i}\n" for i in range(20))
    repo.commit({"old/name.py": body})
    (repo.path / "new").mkdir()
    repo.git("mv", "old/name.py", "new/name.py")
    repo.write({"new/name.py": body.replace("line 7\n", "line seven\n")})
    repo.git("add", "-A")
    fc = staged(repo)["new/name.py"]
    assert fc.status is Status.RENAMED
    assert fc.old_path == "old/name.py"
    assert dict(fc.added_text) == {8: "line seven"}
    assert dict(fc.removed_text) == {8: "line 7"}


def test_pure_rename_has_no_lines(repo: GitRepo) -> None:
    repo.commit({"a.py": "x = 1\n"})
    repo.git("mv", "a.py", "b.py")
    fc = staged(repo)["b.py"]
    assert (fc.status, fc.old_path, fc.added, fc.removed) == (
        Status.RENAMED,
        "a.py",
        frozenset(),
        frozenset(),
    )


def test_copied_from_git_diff_C(repo: GitRepo) -> None:
    body = "".join(f"row {i}\n" for i in range(30))
    repo.commit({"src.py": body})
    repo.write({"copy.py": body + "extra\n"})
    repo.git("add", "-A")
    text = git_text(repo, "diff", "--cached", "-C", "--find-copies-harder", "-U0")
    (fc,) = parse(text)
    assert fc.status is Status.COPIED
    assert (fc.path, fc.old_path) == ("copy.py", "src.py")
    assert dict(fc.added_text) == {31: "extra"}


def test_type_change_file_to_symlink_is_skipped(repo: GitRepo) -> None:
    repo.commit({"target.py": "t\n", "thing.py": "was a file\n"})
    (repo.path / "thing.py").unlink()
    (repo.path / "thing.py").symlink_to("target.py")
    repo.git("add", "-A")
    fc = staged(repo)["thing.py"]
    assert fc.status is Status.TYPE_CHANGED
    assert fc.skip_reason == "symlink"
    assert (fc.old_mode, fc.new_mode) == ("100644", "120000")
    assert fc.removed == {1}


def test_type_change_symlink_to_file_is_a_new_file(repo: GitRepo) -> None:
    repo.write({"target.py": "t\n"})
    (repo.path / "thing.py").symlink_to("target.py")
    repo.commit()
    (repo.path / "thing.py").unlink()
    repo.write({"thing.py": "def test_x():\n    pass\n"})
    repo.git("add", "-A")
    fc = staged(repo)["thing.py"]
    assert fc.status is Status.TYPE_CHANGED
    assert fc.skip_reason is None
    assert fc.old_path is None  # the link's target text is not a base version of the file
    assert dict(fc.added_text) == {1: "def test_x():", 2: "    pass"}
    assert fc.removed == frozenset()


def test_mode_only(repo: GitRepo) -> None:
    repo.commit({"run.sh": "echo hi\n"})
    (repo.path / "run.sh").chmod(0o755)
    repo.git("add", "-A")
    fc = staged(repo)["run.sh"]
    assert fc.status is Status.MODE_ONLY
    assert (fc.old_mode, fc.new_mode) == ("100644", "100755")
    assert fc.added == frozenset() and fc.skip_reason is None


def test_mode_change_with_edit_is_modified(repo: GitRepo) -> None:
    repo.commit({"run.sh": "echo hi\n"})
    repo.write({"run.sh": "echo bye\n"})
    (repo.path / "run.sh").chmod(0o755)
    repo.git("add", "-A")
    fc = staged(repo)["run.sh"]
    assert fc.status is Status.MODIFIED and fc.added == {1}


def test_binary_is_skipped_with_a_note(repo: GitRepo) -> None:
    repo.commit({"blob.bin": b"\x00\x01old"})
    repo.write({"blob.bin": b"\x00\x01new", "fresh.bin": b"\x00\xff"})
    repo.git("add", "-A")
    files = staged(repo)
    for name in ("blob.bin", "fresh.bin"):
        assert files[name].binary and files[name].skip_reason == "binary file"
    assert files["blob.bin"].status is Status.MODIFIED
    assert files["fresh.bin"].status is Status.ADDED


def test_submodule_is_skipped(repo: GitRepo) -> None:
    sha = repo.commit({"a.py": "a\n"})
    repo.git("update-index", "--add", "--cacheinfo", f"160000,{sha},vendor/lib")
    fc = staged(repo)["vendor/lib"]
    assert fc.skip_reason == "submodule"
    assert fc.new_mode == "160000"


def test_symlink_added_is_skipped(repo: GitRepo, tmp_path: Path) -> None:
    (tmp_path / "outside.py").write_text("secret = 1\n")
    repo.commit({"a.py": "a\n"})
    (repo.path / "evil.py").symlink_to(tmp_path / "outside.py")
    repo.git("add", "-A")
    fc = staged(repo)["evil.py"]
    assert fc.skip_reason == "symlink"
    assert "secret" not in "".join(fc.added_text.values())


def test_empty_diff(repo: GitRepo) -> None:
    repo.commit({"a.py": "a\n"})
    assert staged(repo) == {}
    assert parse(b"") == []
    assert parse(b"", require_diff=True) == []
    assert parse(b"\n\n", require_diff=True) == []


# --- names ----------------------------------------------------------------------------

ODD_NAMES = [
    "sp ace.py",
    "two  spaces /x y.py",
    "tab\tname.py",
    "new\nline.py",
    "héllo/wörld.py",
    'quo"te.py',
    "back\\slash.py",
    "日本語.py",
    "-- x.py",
    "a b",
]


@pytest.mark.parametrize("name", ODD_NAMES)
def test_odd_names_survive_every_status(repo: GitRepo, name: str) -> None:
    repo.commit({name: "one\n"})
    repo.write({name: "two\n"})
    repo.git("add", "-A")
    assert staged(repo)[name].added_text == {1: "two"}
    repo.commit()
    repo.git("mv", "--", name, name + ".moved")
    assert staged(repo)[name + ".moved"].old_path == name
    repo.commit()
    (repo.path / (name + ".moved")).chmod(0o755)
    repo.git("add", "-A")
    assert staged(repo)[name + ".moved"].status is Status.MODE_ONLY
    repo.commit()
    repo.git("rm", "-q", "--", name + ".moved")
    assert staged(repo)[name + ".moved"].status is Status.DELETED


def test_core_quotepath_false_in_user_config_changes_nothing(repo: GitRepo) -> None:
    repo.git("config", "core.quotePath", "false")
    repo.git("config", "diff.noprefix", "true")
    repo.git("config", "diff.mnemonicPrefix", "true")
    repo.git("config", "diff.relative", "true")
    repo.commit({"héllo.py": "a\n"})
    repo.write({"héllo.py": "b\n"})
    repo.git("add", "-A")
    assert staged(repo)["héllo.py"].added_text == {1: "b"}


# --- line content ---------------------------------------------------------------------


def test_crlf_lines_lose_only_the_carriage_return(repo: GitRepo) -> None:
    repo.commit({"win.py": b"a\r\nb\r\n"})
    repo.write({"win.py": b"a\r\nc\r\nd\r\n"})
    repo.git("add", "-A")
    fc = staged(repo)["win.py"]
    assert dict(fc.added_text) == {2: "c", 3: "d"}
    assert dict(fc.removed_text) == {2: "b"}


def test_no_newline_at_end_of_file_markers(repo: GitRepo) -> None:
    repo.commit({"a.py": "x\ny", "b.py": "p\nq\n"})
    repo.write({"a.py": "x\ny\nz", "b.py": "p\nr"})
    repo.git("add", "-A")
    files = staged(repo)
    assert dict(files["a.py"].added_text) == {2: "y", 3: "z"}
    assert dict(files["a.py"].removed_text) == {2: "y"}
    assert dict(files["b.py"].added_text) == {2: "r"}
    assert dict(files["b.py"].removed_text) == {2: "q"}


def test_content_that_looks_like_headers(repo: GitRepo) -> None:
    tricky = ["-- x", "--- x", "++ y", "+++ y", "@@ -1 +1 @@", "diff --git a/q b/q", "\\ odd"]
    repo.commit({"t.txt": "".join(f"{t}\n" for t in tricky), "after.txt": "1\n"})
    repo.write({"t.txt": "".join(f"{t}!\n" for t in tricky), "after.txt": "2\n"})
    repo.git("add", "-A")
    files = staged(repo)
    assert set(files) == {"t.txt", "after.txt"}
    assert list(files["t.txt"].removed_text.values()) == tricky
    assert list(files["t.txt"].added_text.values()) == [f"{t}!" for t in tricky]
    assert dict(files["after.txt"].added_text) == {1: "2"}


def test_suppress_blank_empty_context_lines(repo: GitRepo) -> None:
    repo.git("config", "diff.suppressBlankEmpty", "true")
    repo.commit({"a.py": "a\n\nb\n\nc\n"})
    repo.write({"a.py": "a\n\nB\n\nc\n"})
    repo.git("add", "-A")
    text = git_text(repo, "diff", "--cached", "-U3")
    assert b"\n\n" in text  # git really printed an empty context line
    (fc,) = parse(text)
    assert dict(fc.added_text) == {3: "B"}
    assert fc.context_text[2] == "" and fc.context_map[4] == 4


# --- plain diff -----------------------------------------------------------------------


needs_diff = pytest.mark.skipif(shutil.which("diff") is None, reason="no diff(1) here")


@needs_diff
def test_plain_diff_u(tmp_path: Path) -> None:
    (tmp_path / "old.py").write_text("a\nb\nc\n")
    (tmp_path / "new.py").write_text("a\nB\nc\nd\n")
    text = subprocess.run(
        ["diff", "-u", "old.py", "new.py"], cwd=tmp_path, capture_output=True
    ).stdout
    (fc,) = parse(text)
    assert (fc.path, fc.old_path, fc.status) == ("new.py", "old.py", Status.MODIFIED)
    assert dict(fc.added_text) == {2: "B", 4: "d"}
    assert dict(fc.removed_text) == {2: "b"}
    assert fc.old_blob is None and fc.new_blob is None


@needs_diff
def test_plain_diff_ruN_directories(tmp_path: Path) -> None:
    for side, tree in {
        "old": {"d/x.py": "1\n2\n", "gone.py": "bye\n", "same.py": "s\n"},
        "new": {"d/x.py": "1\nTWO\n", "added.py": "hi\n", "same.py": "s\n"},
    }.items():
        for name, body in tree.items():
            (tmp_path / side / name).parent.mkdir(parents=True, exist_ok=True)
            (tmp_path / side / name).write_text(body)
    text = subprocess.run(["diff", "-ruN", "old", "new"], cwd=tmp_path, capture_output=True).stdout
    files = {fc.path: fc for fc in parse(text)}
    assert set(files) == {"new/d/x.py", "new/added.py", "old/gone.py"}
    assert files["new/d/x.py"].status is Status.MODIFIED
    assert files["new/added.py"].status is Status.ADDED
    assert files["new/added.py"].old_path is None
    assert files["old/gone.py"].status is Status.DELETED
    assert dict(files["new/d/x.py"].added_text) == {2: "TWO"}


def test_mail_prose_with_dashes_is_not_a_file() -> None:
    text = (
        "From: someone\nSubject: x\n\n--- a note in the message\nmore prose\n---\n"
        " a.py | 1 +\n\ndiff --git a/a.py b/a.py\n--- a/a.py\n+++ b/a.py\n"
        "@@ -1 +1 @@\n-x\n+y\n-- \n2.39.5\n"
    )
    (fc,) = parse(text)
    assert fc.path == "a.py" and dict(fc.added_text) == {1: "y"}


# --- malformed input ------------------------------------------------------------------

GOOD_HEAD = "diff --git a/a.py b/a.py\n--- a/a.py\n+++ b/a.py\n"


@pytest.mark.parametrize(
    ("text", "words"),
    [
        (GOOD_HEAD + "@@ -1,3 +1,3 @@\n a\n-b\n", "ends inside a hunk of a.py"),
        (GOOD_HEAD + "@@ -x +1 @@\n", "malformed hunk header in a.py"),
        (GOOD_HEAD + "@@ -1 +1 @@\n-a\n*b\n", "does not fit its hunk"),
        (GOOD_HEAD + "@@ -1 +1 @@\n-a\n+b\n+c\n", "more lines than its header counts"),
        (GOOD_HEAD + "@@ -1 +1 @@\n-a\n+b\n d\n", "more lines than its header counts"),
        ("@@ -1 +1 @@\n-a\n+b\n", "a hunk comes before any file header"),
        ("diff --git a/a.py b/a.py\n--- a/a.py\n@@ -1 +1 @@\n-a\n+b\n", "'---' without '+++'"),
        ("diff --git a/a.py b/a.py\n+++ b/a.py\n", "'+++' without '---'"),
        ("diff --git garbage\nold mode 100644\nnew mode 100755\n", "cannot tell the file name"),
    ],
)
def test_malformed_diffs_raise_one_line_input_errors(text: str, words: str) -> None:
    with pytest.raises(InputError) as info:
        parse(text)
    message = str(info.value)
    assert words in message
    assert "\n" not in message


def test_text_that_is_no_diff_is_an_error_only_for_user_input() -> None:
    prose = "just some notes\nnothing to see\n"
    assert parse(prose) == []
    with pytest.raises(InputError, match="not a unified diff"):
        parse(prose, require_diff=True)


# --- size cap and streaming -----------------------------------------------------------


def test_oversized_file_is_skipped_and_keeps_no_lines() -> None:
    big = "".join(f"+{i:08d}\n" for i in range(500))
    text = (
        f"diff --git a/big.py b/big.py\n--- a/big.py\n+++ b/big.py\n@@ -0,0 +1,500 @@\n{big}"
        "diff --git a/small.py b/small.py\n--- a/small.py\n+++ b/small.py\n"
        "@@ -1 +1 @@\n-a\n+b\n"
    )
    big_fc, small_fc = parse(text, cap=1000)
    assert big_fc.skip_reason is not None and "size cap" in big_fc.skip_reason
    assert big_fc.added == frozenset() and dict(big_fc.added_text) == {}
    assert big_fc.hunks == (Hunk(0, 0, 1, 500),)
    assert small_fc.skip_reason is None and dict(small_fc.added_text) == {1: "b"}


def test_bounded_lines_cuts_a_huge_line_and_keeps_counting() -> None:
    data = b"short\n" + b"x" * 5_000_000 + b"\nlast\n"
    lines = list(bounded_lines(io.BytesIO(data), 1000))
    assert [len(line) for line in lines] == [6, 1001, 5]
    assert lines[1].endswith(b"\n") and lines[2] == b"last\n"


def test_a_huge_minified_line_marks_its_file_oversized(repo: GitRepo) -> None:
    repo.commit({"a.js": "x\n"})
    repo.write({"a.js": "y" * 3_000_000 + "\n", "b.js": "ok\n"})
    repo.git("add", "-A")
    files = staged(repo)
    assert "size cap" in (files["a.js"].skip_reason or "")
    assert files["a.js"].added_text == {}
    assert dict(files["b.js"].added_text) == {1: "ok"}


# --- the removed-lines mapping --------------------------------------------------------

OLD = [f"l{i}" for i in range(1, 21)]


def _diff(repo: GitRepo, new: list[str], context: int) -> FileChange:
    repo.commit({"f.txt": "".join(f"{x}\n" for x in OLD)})
    repo.write({"f.txt": "".join(f"{x}\n" for x in new)})
    text = git_text(repo, "diff", f"-U{context}", "--no-ext-diff")
    repo.git("checkout", "--", "f.txt")
    (fc,) = parse(text)
    return fc


@pytest.mark.parametrize("context", [0, 3])
def test_removed_anchor_touches_and_new_line_for(repo: GitRepo, context: int) -> None:
    # delete l5 (an "assertion"), replace l10 with two lines, insert after l15
    new = [*OLD[:4], *OLD[5:9], "ten-a", "ten-b", *OLD[10:15], "ins", *OLD[15:]]
    fc = _diff(repo, new, context)
    assert fc.removed == {5, 10}
    assert fc.removed_anchor[5] == 4  # after new line 4 (l4)
    assert fc.removed_anchor[10] == 8  # after new line 8 (l9)
    assert fc.added == {9, 10, 16}
    # new_line_for maps every unchanged old line to its equal new line
    for old_no, text in enumerate(OLD, 1):
        mapped = fc.new_line_for(old_no)
        if old_no in fc.removed:
            assert mapped is None
        else:
            assert mapped is not None and new[mapped - 1] == text
    # a test spanning new lines 2-6 (old 2-7) only lost a line: touched
    assert fc.touches(2, 6)
    assert fc.touches(2, 6, old_span=(2, 7))
    # a span ending right before the deletion counts without old spans (edge) ...
    assert fc.touches(1, 4)
    # ... but not when the old span proves the deletion lies outside it
    assert not fc.touches(1, 4, old_span=(1, 4))
    # a span far from every change is untouched either way
    assert not fc.touches(11, 14)
    assert not fc.touches(11, 14, old_span=(11, 14))
    # added lines touch
    assert fc.touches(16, 16) and fc.touches(9, 9, old_span=(99, 99))
    assert fc.removed_in_old_span(1, 9) == [5]
    assert fc.removed_in_old_span(1, 20) == [5, 10]


def test_deletion_at_the_start_of_a_file_anchors_to_zero(repo: GitRepo) -> None:
    fc = _diff(repo, OLD[2:], 0)
    assert fc.removed_anchor == {1: 0, 2: 0}
    assert fc.touches(1, 3) and not fc.touches(2, 3)
    assert fc.new_line_for(3) == 1 and fc.new_line_for(20) == 18


def test_type_changed_file_pair_in_a_hand_written_diff_stays_one_record() -> None:
    text = (
        "diff --git a/x b/x\ndeleted file mode 100644\nindex 1111111..0000000\n"
        "--- a/x\n+++ /dev/null\n@@ -1 +0,0 @@\n-hello\n"
        "diff --git a/x b/x\nnew file mode 120000\nindex 0000000..2222222\n"
        "--- /dev/null\n+++ b/x\n@@ -0,0 +1 @@\n+target\n\\ No newline at end of file\n"
    )
    (fc,) = parse(text)
    assert fc.status is Status.TYPE_CHANGED and fc.skip_reason == "symlink"


# --- property: git's own diffs, applied back ------------------------------------------

LINES = st.lists(st.sampled_from(["a", "b", "c", "", "-- x", "+++ y", "@@ -1 +1 @@", " s"]))


def _git_no_index(tmp: Path, old: list[str], new: list[str], context: int) -> bytes:
    (tmp / "old").write_text("".join(f"{x}\n" for x in old))
    (tmp / "new").write_text("".join(f"{x}\n" for x in new))
    proc = subprocess.run(
        ["git", "diff", "--no-index", "--no-ext-diff", f"-U{context}", "old", "new"],
        cwd=tmp,
        capture_output=True,
        check=False,
    )
    assert proc.returncode in (0, 1), proc.stderr
    return proc.stdout


def _apply(fc: FileChange, old: list[str], new_len: int) -> list[str | None]:
    """Rebuild the new file from old's kept lines plus the added ones."""
    out: list[str | None] = [None] * new_len
    for number, text in fc.added_text.items():
        out[number - 1] = text
    kept = iter(line for n, line in enumerate(old, 1) if n not in fc.removed)
    return [next(kept) if slot is None else slot for slot in out]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(old=LINES, new=LINES, context=st.sampled_from([0, 3]))
def test_git_diffs_apply_back_and_map_every_kept_line(
    tmp_path_factory: pytest.TempPathFactory, old: list[str], new: list[str], context: int
) -> None:
    tmp = tmp_path_factory.mktemp("prop")
    files = parse(_git_no_index(tmp, old, new, context))
    if old == new:
        assert files == []
        return
    (fc,) = files
    assert {n for n in fc.removed} <= set(range(1, len(old) + 1))
    assert [old[n - 1] for n in sorted(fc.removed)] == [
        fc.removed_text[n] for n in sorted(fc.removed)
    ]
    assert _apply(fc, old, len(new)) == new
    mapped = []
    for number, text in enumerate(old, 1):
        target = fc.new_line_for(number)
        if number in fc.removed:
            assert target is None
            continue
        assert target is not None and new[target - 1] == text
        assert target not in fc.added
        mapped.append(target)
    assert mapped == sorted(set(mapped))  # order kept, nothing mapped twice
    for removed, anchor in fc.removed_anchor.items():
        before = [fc.new_line_for(n) for n in range(1, removed) if n not in fc.removed]
        after = [fc.new_line_for(n) for n in range(removed + 1, len(old) + 1)]
        assert all(t is not None and t <= anchor for t in before)
        assert all(t is None or t > anchor for t in after)
        assert fc.touches(anchor + 1, anchor + 1)  # the line after a deletion is touched
