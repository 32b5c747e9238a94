"""The weakened-gate log on its own: the hash chain, what --verify reports, concurrent
appends from several processes, and the reflog reading the scans rely on."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.gitrepo import GitRepo
from tribunal.audit import log
from tribunal.audit.context import Context, immediate_how, lazy_how, prepush_kind
from tribunal.audit.record import Record, RemoteInfo, Who
from tribunal.audit.reflog import Refs, Remote, entries, parse_line, read_refs, unaudited
from tribunal.audit.state import Position
from tribunal.commands.audit import parse_since
from tribunal.git.cmd import Git

WRITER = """\
import sys
from pathlib import Path
sys.path.insert(0, sys.argv[3])
from tests.test_audit_log import record
from tribunal.audit import log
common, who = Path(sys.argv[1]), sys.argv[2]
for n in range(int(sys.argv[4])):
    with log.locked(common):
        log.append(common, [record(f"{who}-{n}")])
"""


def record(tag: str = "a", how: str = "no-verify") -> Record:
    return Record.model_validate(
        {
            "time": "2026-01-01T00:00:00Z",
            "found": "reference-transaction",
            "user": Who(name="A", email="a@example.com"),
            "host": "h",
            "remote": RemoteInfo(name="origin", url="https://example.com/r.git"),
            "remote_ref": "refs/heads/main",
            "tracking_ref": "refs/remotes/origin/main",
            "old": None,
            "new": (tag.encode().hex() + "0" * 40)[:40],
            "how": [how],
            "detail": tag,
        }
    )


def write(common: Path, count: int) -> list[bytes]:
    with log.locked(common):
        log.append(common, [record(str(n)) for n in range(count)])
    return log.log_path(common).read_bytes().splitlines()


def test_records_are_chained_to_the_exact_bytes_before_them(tmp_path: Path) -> None:
    lines = write(tmp_path, 3)
    parsed = [json.loads(line) for line in lines]
    assert parsed[0]["prev"] == "0" * 64
    assert parsed[1]["prev"] == log.line_hash(lines[0]) and parsed[2]["prev"] == log.line_hash(
        lines[1]
    )
    assert log.verify(tmp_path) == []
    more = write(tmp_path, 1)
    assert len(more) == 4 and json.loads(more[3])["prev"] == log.line_hash(lines[2])


def test_an_edited_record_breaks_the_chain_after_it(tmp_path: Path) -> None:
    lines = write(tmp_path, 4)
    lines[1] = lines[1].replace(b"no-verify", b"unknown")
    log.log_path(tmp_path).write_bytes(b"\n".join(lines) + b"\n")
    problems = [str(p) for p in log.verify(tmp_path)]
    assert problems == [
        "line 3: the chain is broken: its prev does not match line 2 "
        "(line 2 was edited, or records between them were removed)"
    ]


def test_a_removed_middle_record_is_found(tmp_path: Path) -> None:
    lines = write(tmp_path, 4)
    del lines[1]
    log.log_path(tmp_path).write_bytes(b"\n".join(lines) + b"\n")
    problems = [str(p) for p in log.verify(tmp_path)]
    assert problems[0].startswith("line 2: the chain is broken: its prev does not match line 1")
    assert "4 records were written but only 3 remain" in problems[1]


@pytest.mark.parametrize(
    ("damage", "expected"),
    [
        (lambda lines: lines[:-1], "4 records were written but only 3 remain"),
        (lambda lines: [*lines[:-1], lines[-1].replace(b'"h"', b'"x"')], "line 4: the last record"),
        (lambda lines: lines[1:], "line 1: the chain does not start here"),
        (lambda lines: [*lines[:2], b"{not json"], "line 3: not a valid record"),
    ],
)
def test_tail_and_head_damage_is_reported(tmp_path: Path, damage: object, expected: str) -> None:
    lines = write(tmp_path, 4)
    assert callable(damage)
    log.log_path(tmp_path).write_bytes(b"\n".join(damage(lines)) + b"\n")
    assert any(expected in str(p) for p in log.verify(tmp_path)), log.verify(tmp_path)


def test_a_deleted_log_is_reported_but_a_fresh_repository_is_clean(tmp_path: Path) -> None:
    assert log.verify(tmp_path) == []
    write(tmp_path, 2)
    log.log_path(tmp_path).unlink()
    assert [str(p) for p in log.verify(tmp_path)] == [
        "the log is gone, but 2 records were written to it"
    ]


def test_concurrent_appends_from_several_processes_stay_well_formed(tmp_path: Path) -> None:
    root = str(Path(__file__).resolve().parents[1])
    procs = [
        subprocess.Popen([sys.executable, "-c", WRITER, str(tmp_path), f"w{i}", root, "15"])
        for i in range(6)
    ]
    assert [p.wait(timeout=120) for p in procs] == [0] * 6
    lines = log.log_path(tmp_path).read_bytes().splitlines()
    assert len(lines) == 90
    details = sorted(json.loads(line)["detail"] for line in lines)
    assert details == sorted(f"w{i}-{n}" for i in range(6) for n in range(15))
    assert log.verify(tmp_path) == []


def test_a_damaged_last_line_does_not_swallow_the_next_record(tmp_path: Path) -> None:
    write(tmp_path, 1)
    with log.log_path(tmp_path).open("ab") as handle:
        handle.write(b'{"half')
    write(tmp_path, 1)
    lines = log.log_path(tmp_path).read_bytes().splitlines()
    assert len(lines) == 3 and json.loads(lines[2])["prev"] == log.line_hash(b'{"half')
    assert log.verify(tmp_path)[0].line == 2


def test_reflog_lines_parse_as_git_writes_them() -> None:
    raw = (
        b"0000000000000000000000000000000000000000 "
        + b"a" * 40
        + b" Jane Q. Doe <jane@example.com>"
        b" 1767225600 +0100\tupdate by push"
    )
    entry = parse_line("refs/remotes/origin/main", raw)
    assert entry is not None and entry.by_push
    assert (entry.old, entry.new, entry.name, entry.email) == (
        None,
        "a" * 40,
        "Jane Q. Doe",
        "jane@example.com",
    )
    assert entry.when == 1767225600
    fetched = parse_line("r", b"a" * 40 + b" " + b"b" * 40 + b" X <x> 1 +0000\tfetch: fast-forward")
    assert fetched is not None and not fetched.by_push and fetched.old == "a" * 40


def test_remote_refs_map_back_through_the_fetch_refspec() -> None:
    remotes = {
        "origin": Remote("origin", None, ("+refs/heads/*:refs/remotes/origin/*",)),
        "my.fork": Remote("my.fork", None, ("+refs/heads/*:refs/remotes/fork/*", "^refs/heads/x")),
        "one": Remote("one", None, ("refs/heads/main:refs/remotes/one/main",)),
    }
    refs = Refs(remotes, {}, True)
    assert refs.owner("refs/remotes/origin/a/b") == (remotes["origin"], "refs/heads/a/b")
    assert refs.owner("refs/remotes/fork/x") == (remotes["my.fork"], "refs/heads/x")
    assert refs.owner("refs/remotes/one/main") == (remotes["one"], "refs/heads/main")
    assert refs.owner("refs/remotes/one/other") is None


def test_positions_survive_an_expired_or_recreated_reflog() -> None:
    def entry(n: int) -> bytes:
        return f"{'0' * 40} {n:040d} A <a> {1000 + n} +0000\tupdate by push".encode()

    every = [e for e in (parse_line("r", entry(n)) for n in range(5)) if e is not None]
    at_three = Position(3, every[2].digest, every[2].when)
    assert [e.when for e in unaudited(every, at_three)] == [1003, 1004]
    assert [e.when for e in unaudited(every[1:], at_three)] == [1003, 1004]  # expired head
    assert [e.when for e in unaudited(every[3:], at_three)] == [1003, 1004]  # recreated
    assert len(unaudited(every, None)) == 5


def test_the_git_reflog_reader_matches_the_files_reader(tmp_path: Path) -> None:
    """Other ref backends (reftable) are read through git; both readers must agree."""
    remote = tmp_path / "r.git"
    subprocess.run(["git", "init", "-q", "--bare", str(remote)], check=True)
    repo = GitRepo.init(tmp_path / "w")
    repo.git("remote", "add", "origin", str(remote))
    for n in range(3):
        repo.commit({"a.py": f"a = {n}\n"})
        repo.git("push", "-q", "--no-verify", "origin", "main")
    with Git(repo.path) as git:
        refs = read_refs(git)
        common = repo.path / ".git"
        files = entries(git, common, "refs/remotes/origin/main", True)
        through_git = entries(git, common, "refs/remotes/origin/main", False)
    assert list(refs.tips) == ["refs/remotes/origin/main"] and refs.files_backend
    assert len(files) == 3 and all(e.by_push for e in files)
    strip = [(e.old, e.new, e.email, e.when, e.message) for e in files]
    assert strip[1:] == [(e.old, e.new, e.email, e.when, e.message) for e in through_git][1:]
    assert through_git[0].new == files[0].new


def test_since_accepts_dates_times_and_ages() -> None:
    assert parse_since("2026-05-01").isoformat() == "2026-05-01T00:00:00+00:00"
    assert parse_since("2026-05-01T10:00:00Z").hour == 10
    assert parse_since("7d") < parse_since("12h")
    with pytest.raises(Exception, match="expected a date"):
        parse_since("last tuesday")


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("99999999999d", "--since 99999999999d: too far back"),
        ("9" * 20 + "d", "expected a date"),
        ("9" * 5000 + "d", "--since " + "9" * 40 + "...: expected a date"),
    ],
)
def test_since_out_of_range_is_a_usage_error(text: str, said: str) -> None:
    from tribunal.errors import UsageError

    with pytest.raises(UsageError, match=re.escape(said)):
        parse_since(text)


def test_whose_pre_push_hook_is_installed(tmp_path: Path) -> None:
    hooks = tmp_path / "hooks"
    hooks.mkdir()
    assert prepush_kind(hooks) == "none"
    (hooks / "pre-push").write_text("#!/usr/bin/env bash\n# File generated by pre-commit: x\n")
    assert prepush_kind(hooks) == "pre-commit"  # whether it convenes is its config's business
    (hooks / "pre-push").write_text("#!/bin/sh\n# tribunal-shim: pre-push\n")
    assert prepush_kind(hooks) == "tribunal"
    (hooks / "pre-push").write_text("#!/bin/sh\nexit 0\n")
    assert prepush_kind(hooks) == "other"


@pytest.mark.parametrize(
    ("ctx", "how"),
    [
        (Context("reference-transaction", ("git", "push", "--no-veri")), "no-verify"),
        (Context("reference-transaction", ("git", "push", "--no-ve")), "no-gate"),  # ambiguous
        (
            Context("reference-transaction", ("git", "push"), frozenset({"tribunal-convene"})),
            "skipped-hook",
        ),
        (Context("reference-transaction", ("git", "push"), prepush="pre-commit"), "not-convened"),
        (Context("reference-transaction", ("git", "push"), prepush="tribunal"), "unknown"),
    ],
)
def test_how_the_gate_was_passed_seen_from_inside_the_push(ctx: Context, how: str) -> None:
    assert immediate_how(ctx)[0] == [how]


def test_a_push_found_later_says_only_what_can_be_known() -> None:
    assert lazy_how(Context("audit", hook_live=True))[0] == ["hooks-disabled"]
    assert lazy_how(Context("audit", hook_live=False))[0] == ["unknown"]
