"""The one place that runs git.

Every git call goes through ``Git.run`` so that the environment, the error
message and the safety flags are decided once: ``GIT_OPTIONAL_LOCKS=0`` keeps
read-only commands from refreshing the user's index, and a failure names the
command, its exit code and git's own words. Blob contents come from one
long-lived ``git cat-file --batch`` reader instead of a process per file, one
per process: a forked child (the convene's analyzer child) starts its own and
never writes to or reads from the one it inherited, which a kill mid-read would
leave half-answered for the parent.

Each git keeps at most ``DELTA_BASE_CACHE`` of delta bases (git's default is
96 MiB): what tribunal reads is a file's two sides, whose delta chains are
short, and a tree-wide ``git grep``, whose files rarely share a base, so a
bigger cache only grows the reader and the grep beside a big push's analysis
(6 MiB less each on a 20,000-file push, measured no slower).
"""

import contextlib
import os
import subprocess
import threading
import weakref
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import IO, NamedTuple

from tribunal.errors import GitError

#: Variables a hook inherits that point git at *the user's* index or git dir.
#: They must not leak into git commands that target another repository or a
#: throwaway worktree (pre-commit's ``no_git_env`` keeps the same idea).
REPO_POINTING_VARS = (
    "GIT_INDEX_FILE",
    "GIT_DIR",
    "GIT_WORK_TREE",
    "GIT_PREFIX",
    "GIT_OBJECT_DIRECTORY",
    "GIT_ALTERNATE_OBJECT_DIRECTORIES",
    "GIT_QUARANTINE_PATH",
    "GIT_COMMON_DIR",
    "GIT_NAMESPACE",
)


#: The delta bases each git command keeps (``core.deltaBaseCacheLimit``).
DELTA_BASE_CACHE = "8m"
#: Settings every git command runs with (see the module docstring).
_SETTINGS = ("-c", "core.quotePath=true", "-c", f"core.deltaBaseCacheLimit={DELTA_BASE_CACHE}")


def no_git_env(env: Mapping[str, str] | None = None) -> dict[str, str]:
    """Return ``env`` (default: ours) without the variables that pin a repository."""
    source = os.environ if env is None else env
    return {k: v for k, v in source.items() if k not in REPO_POINTING_VARS}


class BlobTooLarge:
    """Marker for a blob that exceeded the read cap; only its size is kept."""

    def __init__(self, size: int) -> None:
        self.size = size

    def __repr__(self) -> str:
        return f"BlobTooLarge({self.size})"


Blob = bytes | BlobTooLarge | None

#: Requests written to ``cat-file --batch`` before reading any answer, and
#: their most bytes: far below a pipe's capacity, so our write always completes
#: even while git waits for us to read its answers (no writer thread needed).
_PIPELINE = 128
_PIPELINE_BYTES = 8 << 10


#: every ``Git`` alive in this process, so a forked child can renew their locks
_LIVE: "weakref.WeakSet[Git]" = weakref.WeakSet()


def _renew_locks_in_child() -> None:
    """A fork copies each ``_reader_lock`` as it is: held, if another thread held it then.

    That thread does not exist in the child, so nothing would release it and the
    child's first read would wait forever (until the convene's deadline kills it).
    """
    for git in list(_LIVE):
        git._reader_lock = threading.Lock()


os.register_at_fork(after_in_child=_renew_locks_in_child)


class Git:
    """A repository's git, run as subprocesses from ``cwd``.

    ``env`` is the environment for every call; by default the caller's own, so
    that ``GIT_INDEX_FILE`` set by ``git commit`` during a partial commit is
    honoured when reading the index. ``git_dir`` pins the repository
    (``git --git-dir=<absolute path>``) instead of discovering it from ``cwd``:
    a hook's git commands must read the repository git ran the hook for, wherever
    the hook's current directory happens to be.
    The blob reader is shared by every thread of a run, one request (or one
    pipelined batch) at a time.
    """

    def __init__(
        self, cwd: Path, env: Mapping[str, str] | None = None, git_dir: Path | None = None
    ) -> None:
        self.cwd = cwd
        self.git_dir = git_dir
        base = dict(os.environ if env is None else env)
        index = base.get("GIT_INDEX_FILE")
        if index and not os.path.isabs(index):
            # Relative to where the hook started us; our git calls may run elsewhere.
            base["GIT_INDEX_FILE"] = os.path.abspath(index)
        base["GIT_OPTIONAL_LOCKS"] = "0"
        base.setdefault("GIT_TERMINAL_PROMPT", "0")
        self.env = base
        self._reader: _BatchReader | None = None
        self._reader_lock = threading.Lock()
        _LIVE.add(self)
        #: readers of the processes this one was forked from: kept, so that nothing here
        #: flushes, closes or waits for them when they are dropped
        self._inherited: list[_BatchReader] = []

    def argv(self, args: tuple[str, ...]) -> list[str]:
        pinned = [f"--git-dir={self.git_dir}"] if self.git_dir is not None else []
        return ["git", *pinned, *_SETTINGS, *args]

    def run(
        self, *args: str, ok_codes: tuple[int, ...] = (0,), stdin: bytes | None = None
    ) -> bytes:
        """Run ``git args`` and return stdout; raise ``GitError`` on other exit codes."""
        try:
            proc = subprocess.run(
                self.argv(args),
                cwd=self.cwd,
                env=self.env,
                input=stdin,
                stdin=None if stdin is not None else subprocess.DEVNULL,
                capture_output=True,
                check=False,
            )
        except FileNotFoundError as exc:
            raise GitError("git is not installed or not on PATH") from exc
        if proc.returncode not in ok_codes:
            raise GitError(_failure(args, proc.returncode, proc.stderr))
        return proc.stdout

    def text(self, *args: str, ok_codes: tuple[int, ...] = (0,)) -> str:
        """``run`` decoded as UTF-8 with the trailing newline removed."""
        return self.run(*args, ok_codes=ok_codes).decode("utf-8", "surrogateescape").rstrip("\n")

    def stream(self, *args: str, max_line: int = 1 << 24) -> Iterator[bytes]:
        """Yield stdout lines of ``git args`` as they come, so huge output is never held whole.

        Lines are cut at ``max_line`` bytes (see ``bounded_lines``). A thread
        drains stderr: git may warn once per file, and a full stderr pipe that
        nobody reads would stall it forever.
        """
        from tribunal.change.diff.lines import bounded_lines

        try:
            proc = subprocess.Popen(
                self.argv(args),
                cwd=self.cwd,
                env=self.env,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
            )
        except FileNotFoundError as exc:
            raise GitError("git is not installed or not on PATH") from exc
        assert proc.stdout is not None and proc.stderr is not None
        errors = _Drain(proc.stderr)
        try:
            yield from bounded_lines(proc.stdout, max_line)
        finally:
            proc.stdout.close()
            code = proc.wait()
            message = errors.finish()
        if code != 0:
            raise GitError(_failure(args, code, message))

    def read_blob(self, spec: str, limit: int) -> Blob:
        """Contents of ``spec`` (an object id, ``rev:path`` or ``:path``), or None if absent."""
        return self.read_blobs([spec], limit)[0]

    def read_blobs(self, specs: Sequence[str], limit: int) -> list[Blob]:
        """``read_blob`` for each of ``specs``, asked of git in pipelined batches.

        One round trip per batch rather than per blob: on a busy machine each
        round trip waits for git to be scheduled, which costs more than the read.
        """
        out: dict[int, Blob] = {}
        for i, spec in enumerate(specs):
            if "\n" in spec:  # a name cat-file --batch cannot express
                out[i] = self._read_blob_slow(spec, limit)
        batch = [i for i in range(len(specs)) if i not in out]
        with self._reader_lock:
            for chunk in _chunks(batch, specs):
                blobs = self._own_reader().read([specs[i] for i in chunk], limit)
                out.update(zip(chunk, blobs, strict=True))
        return [out[i] for i in range(len(specs))]

    def read_tree(self, spec: str) -> "list[TreeEntry] | None":
        """The entries of the tree ``spec`` names (``rev:dir``), or None if it names none.

        Read through the running batch reader: listing a directory costs one
        round trip, not a ``git ls-tree`` process.
        """
        if "\n" in spec:
            return None
        with self._reader_lock:
            oid, found = self._own_reader().read_named([spec], _MAX_TREE, b"tree")[0]
        return _tree_entries(found, len(oid) // 2) if isinstance(found, bytes) else None

    def _own_reader(self) -> "_BatchReader":
        """This process's batch reader (held under ``_reader_lock``): one of its own, never
        one inherited through a fork, which a kill mid-read would leave half read."""
        if self._reader is None or self._reader.owner != os.getpid():
            if self._reader is not None:  # a parent's, inherited through a fork: leave it be
                self._inherited.append(self._reader)
            self._reader = _BatchReader(self)
        return self._reader

    def _read_blob_slow(self, spec: str, limit: int) -> Blob:
        size_text = self.text("cat-file", "-s", spec, ok_codes=(0, 128))
        if not size_text.isdigit():
            return None
        size = int(size_text)
        if size > limit:
            return BlobTooLarge(size)
        return self.run("cat-file", "blob", spec)

    def close(self) -> None:
        """Stop this process's batch reader; safe to call twice."""
        with self._reader_lock:
            if self._reader is not None and self._reader.owner != os.getpid():
                self._inherited.append(self._reader)
            elif self._reader is not None:
                self._reader.close()
            self._reader = None

    def __enter__(self) -> "Git":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class _BatchReader:
    """A ``git cat-file --batch`` child answering requests in the order they were written."""

    def __init__(self, git: Git) -> None:
        self.owner = os.getpid()
        self._proc = subprocess.Popen(
            git.argv(("cat-file", "--batch")),
            cwd=git.cwd,
            env=git.env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )

    def read(self, specs: Sequence[str], limit: int, kind: bytes = b"blob") -> list[Blob]:
        """Write every request, then read every answer (``specs`` is one small batch).

        An object of another ``kind`` than asked for reads as None, like a missing one.
        """
        return [data for _, data in self.read_named(specs, limit, kind)]

    def read_named(self, specs: Sequence[str], limit: int, kind: bytes) -> list[tuple[bytes, Blob]]:
        """``read``, each answer with the object id git resolved the spec to."""
        stdin, stdout = self._pipes()
        stdin.write(b"".join(spec.encode("utf-8", "surrogateescape") + b"\n" for spec in specs))
        stdin.flush()
        return [self._answer(stdout, spec, limit, kind) for spec in specs]

    @staticmethod
    def _answer(stdout: IO[bytes], spec: str, limit: int, kind: bytes) -> tuple[bytes, Blob]:
        header = stdout.readline()
        if not header:
            raise GitError(f"git cat-file --batch stopped while reading {spec!r}")
        parts = header.split()
        if len(parts) != 3:
            return b"", None  # "<spec> missing" or "<spec> ambiguous"
        size = int(parts[2])
        if parts[1] != kind:
            _discard(stdout, size + 1)
            return parts[0], None
        if size > limit:
            _discard(stdout, size + 1)
            return parts[0], BlobTooLarge(size)
        data = stdout.read(size)
        stdout.read(1)
        return parts[0], data

    def _pipes(self) -> tuple[IO[bytes], IO[bytes]]:
        assert self._proc.stdin is not None and self._proc.stdout is not None
        return self._proc.stdin, self._proc.stdout

    def close(self) -> None:
        stdin, stdout = self._pipes()
        with contextlib.suppress(BrokenPipeError):
            stdin.close()
        try:
            self._proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self._proc.kill()
            self._proc.wait()
        stdout.close()


class _Drain:
    """Read a pipe to its end on a thread, keeping only its last 64 KiB (git ends with why)."""

    def __init__(self, stream: IO[bytes]) -> None:
        import threading

        self._stream = stream
        self._kept = bytearray()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        fd = self._stream.fileno()
        while chunk := os.read(fd, 1 << 16):
            self._kept += chunk
            del self._kept[: -(1 << 16)]

    def finish(self) -> bytes:
        """Wait for the writer to finish and return what was kept."""
        self._thread.join()
        self._stream.close()
        return bytes(self._kept)


class TreeEntry(NamedTuple):
    """One entry of a tree object: its mode as git writes it (``40000`` for a tree) and name."""

    mode: bytes
    name: str

    @property
    def is_tree(self) -> bool:
        return self.mode == b"40000"


#: A tree object larger than this (a directory of some 100,000 entries) is not listed.
_MAX_TREE = 16 << 20


def _tree_entries(data: bytes, id_size: int) -> list[TreeEntry]:
    """Parse a raw tree object: ``<mode> <name>\\0<raw id of id_size bytes>`` repeated."""
    entries = []
    at = 0
    while at < len(data):
        space = data.index(b" ", at)
        nul = data.index(b"\0", space)
        name = data[space + 1 : nul].decode("utf-8", "surrogateescape")
        entries.append(TreeEntry(data[at:space], name))
        at = nul + 1 + id_size
    return entries


def _chunks(indexes: list[int], specs: Sequence[str]) -> Iterator[list[int]]:
    """``indexes`` in runs of at most ``_PIPELINE`` requests and about ``_PIPELINE_BYTES``."""
    chunk: list[int] = []
    size = 0
    for i in indexes:
        if chunk and (len(chunk) >= _PIPELINE or size + len(specs[i]) > _PIPELINE_BYTES):
            yield chunk
            chunk, size = [], 0
        chunk.append(i)
        size += len(specs[i]) + 1
    if chunk:
        yield chunk


def _discard(stream: IO[bytes], count: int) -> None:
    while count > 0:
        chunk = stream.read(min(count, 1 << 16))
        if not chunk:
            return
        count -= len(chunk)


def _failure(args: tuple[str, ...], code: int, stderr: bytes) -> str:
    words = stderr.decode("utf-8", "replace").strip().splitlines()
    fatal = [w for w in words if w.startswith(("fatal:", "error:"))]
    reason = (fatal or words or ["no message"])[0 if fatal else -1]
    return f"git {' '.join(args)} failed (exit {code}): {reason}"


def is_zero(object_id: str) -> bool:
    """Git's all-zeros object id: "no commit" (a created or deleted ref), in any hash length."""
    return bool(object_id) and set(object_id) == {"0"}


def find_repo_root(start: Path) -> Path | None:
    """The top of the work tree containing ``start``, or None outside a repository."""
    git = Git(start)
    try:
        top = git.text("rev-parse", "--show-toplevel")
    except GitError:
        return None
    return Path(top) if top else None


class RepoAt(NamedTuple):
    """A work tree's top, and the commit its HEAD named when it was found."""

    root: Path
    head: str | None  # None on a branch with no commit yet


def find_repo(start: Path) -> RepoAt | None:
    """The work tree containing ``start`` and HEAD's commit, from one ``git rev-parse``.

    One git process fewer on every commit than asking for each. ``--verify
    --quiet`` exits 1 when HEAD names no commit yet: then (and outside a work
    tree) the top is asked for alone. None outside a work tree.
    """
    git = Git(start)
    try:  # exit 0: the top, then HEAD's commit on a line of its own
        out = git.text("rev-parse", "--show-toplevel", "--verify", "--quiet", "HEAD^{commit}")
        top, _, head = out.rpartition("\n")
        return RepoAt(Path(top), head)
    except GitError:
        pass
    root = find_repo_root(start)
    return RepoAt(root, None) if root is not None else None
