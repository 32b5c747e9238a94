"""``gitcmd.Git``'s blob reader across a fork: each process reads through its own.

The convene judges in a forked child that is killed at its deadline. Had the
child kept using the ``git cat-file --batch`` pipe it inherited, a kill in the
middle of a read would leave the rest of that answer in the pipe, and the
parent's next read would return it as its own blob.
"""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

from tests.gitrepo import GitRepo
from tribunal.git.cmd import Git

BIG = b"0123456789abcdef" * (1 << 20)  # 16 MiB: a read the kill can land in the middle of
LIMIT = 32 << 20


def bytes_read(pid: int) -> int:
    """What process ``pid`` has read so far, from pipes and files (``rchar``)."""
    fields = dict(line.split(": ") for line in Path(f"/proc/{pid}/io").read_text().splitlines())
    return int(fields["rchar"])


def test_a_child_killed_mid_read_leaves_the_parents_reader_whole(repo: GitRepo) -> None:
    repo.commit({"big.bin": BIG, "small.txt": "hello\n"}, "blobs")
    with Git(repo.path) as git:
        assert git.read_blob("HEAD:small.txt", LIMIT) == b"hello\n"  # the parent's reader runs
        ready_read, ready_write = os.pipe()
        pid = os.fork()
        if pid == 0:  # the child: read the big blob through the inherited ``Git``, forever
            try:
                os.close(ready_read)
                marks = []
                for _ in range(2):
                    assert git.read_blob("HEAD:big.bin", LIMIT) == BIG
                    marks.append(bytes_read(os.getpid()))
                os.write(ready_write, f"{marks[0]} {marks[1]}".encode())
                while True:
                    git.read_blob("HEAD:big.bin", LIMIT)
            finally:
                os._exit(1)
        os.close(ready_write)
        try:
            first, second = map(int, os.read(ready_read, 64).split())
            stop_mid_read(pid, first, second - first)
        finally:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            os.close(ready_read)
        for _ in range(3):
            assert git.read_blob("HEAD:small.txt", LIMIT) == b"hello\n"
            assert git.read_blob("HEAD:big.bin", LIMIT) == BIG


def stop_mid_read(pid: int, start: int, per_read: int) -> None:
    """Stop ``pid`` (SIGSTOP) at a moment it is well inside one of its reads."""
    for _ in range(1000):
        os.kill(pid, signal.SIGSTOP)
        os.waitpid(pid, os.WUNTRACED)
        into = (bytes_read(pid) - start) % per_read
        if per_read // 10 < into < per_read - per_read // 10:
            return
        os.kill(pid, signal.SIGCONT)
        time.sleep(0.001)
    raise AssertionError("never caught the child in the middle of a read")


def test_a_child_closing_an_inherited_git_leaves_the_parents_reader_running(
    repo: GitRepo,
) -> None:
    repo.commit({"small.txt": "hello\n"}, "blob")
    with Git(repo.path) as git:
        assert git.read_blob("HEAD:small.txt", LIMIT) == b"hello\n"
        pid = os.fork()
        if pid == 0:
            code = 1
            try:
                assert git.read_blob("HEAD:small.txt", LIMIT) == b"hello\n"
                git.close()  # a child's ``with Git(...)`` ending must not stop the parent's
                code = 0
            finally:
                os._exit(code)
        _, status = os.waitpid(pid, 0)
        assert os.waitstatus_to_exitcode(status) == 0
        assert git.read_blob("HEAD:small.txt", LIMIT) == b"hello\n"


def test_a_lock_held_by_another_thread_at_the_fork_does_not_stall_the_child(
    repo: GitRepo,
) -> None:
    repo.commit({"small.txt": "hello\n"}, "blob")
    with Git(repo.path) as git:
        assert git.read_blob("HEAD:small.txt", LIMIT) == b"hello\n"
        with git._reader_lock:  # as a parent's reading thread holds it at the fork
            pid = os.fork()
            if pid == 0:
                code = 1
                try:
                    if git.read_blob("HEAD:small.txt", LIMIT) == b"hello\n":
                        code = 0
                finally:
                    os._exit(code)
        deadline = time.monotonic() + 60
        while (done := os.waitpid(pid, os.WNOHANG)) == (0, 0) and time.monotonic() < deadline:
            time.sleep(0.05)
        if done == (0, 0):
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            raise AssertionError("the child waited for a lock no thread of its own held")
        assert os.waitstatus_to_exitcode(done[1]) == 0
        assert git.read_blob("HEAD:small.txt", LIMIT) == b"hello\n"


def test_every_git_keeps_a_small_delta_base_cache_whatever_the_repository_says(
    repo: GitRepo,
) -> None:
    """git's 96 MiB default grew the reader and the grep beside a big push's analysis."""
    repo.git("config", "core.deltaBaseCacheLimit", "96m")
    repo.commit({"a.txt": "a\n"}, "one")
    with Git(repo.path) as git:
        assert git.text("config", "core.deltaBaseCacheLimit") == "8m"
