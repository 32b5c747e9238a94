"""Turn the ways a user names a change into a ``Change``.

- ``--base A --head B``: from the merge base of A and B to B, both read from the
  object database (never the working tree);
- ``--base A``: the working tree (tracked and untracked files) against A;
- nothing: the working tree against HEAD;
- ``--staged``: the index against HEAD, read from the index git is using
  (``$GIT_INDEX_FILE``), i.e. exactly what is being committed;
- ``--diff FILE|-``: a unified diff, with contents from the repository only where
  they provably match it (``tribunal.change.diff_file``).
"""

from pathlib import Path
from typing import NamedTuple

from tribunal.change.diff.linetable import LineTable
from tribunal.change.diff.model import FileChange, Hunk, Status
from tribunal.change.diff.parse import parse_diff
from tribunal.change.model import Change
from tribunal.change.snapshot import (
    MAX_FILE_BYTES,
    CommitSnapshot,
    EmptySnapshot,
    IndexSnapshot,
    Snapshot,
    WorktreeSnapshot,
    read_file_safely,
)
from tribunal.config.model import Config
from tribunal.errors import GitError, UsageError
from tribunal.findings import RangeInfo
from tribunal.git.cmd import BlobTooLarge, Git, RepoAt

#: Flags for every diff we ask git for: our own parser reads it, so no user
#: diff driver, text conversion, colour, prefix or relative-path setting may
#: change it.
DIFF_FLAGS = (
    "-p",
    "-U0",
    "--full-index",
    "-M",
    "--no-ext-diff",
    "--no-textconv",
    "--no-color",
    "--no-relative",
    "--src-prefix=a/",
    "--dst-prefix=b/",
    "--submodule=short",
)

#: Longest diff line kept whole: one byte past the cap marks its file oversized.
MAX_LINE = MAX_FILE_BYTES + 2


class Selection(NamedTuple):
    """Which change to analyze, as the CLI parsed it."""

    base: str | None = None
    head: str | None = None
    staged: bool = False
    diff: str | None = None


def build_change(
    sel: Selection,
    git: Git | None,
    root: Path | None,
    cwd: Path,
    config: Config,
    repo: RepoAt | None = None,
) -> Change:
    """The Change named by ``sel``; raises a TribunalError for bad refs or input.

    ``repo`` is what ``find_repo`` learned: HEAD's commit is not asked of git again.
    """
    check_selection(sel)
    if sel.diff is not None:
        from tribunal.change.diff_file import from_diff_file

        return from_diff_file(sel.diff, git, root, cwd, config)
    if git is None or root is None:
        raise GitError(f"{cwd}: not inside a git repository (use --cwd DIR, or --diff FILE)")
    if sel.staged:
        return _staged(git, root, config, _head_commit(git, repo))
    if sel.head is not None:
        assert sel.base is not None
        return _range(git, root, config, sel.base, sel.head)
    if sel.base is not None:
        return _worktree(git, root, config, sel.base, require_commit(git, sel.base, "--base"))
    return _worktree(git, root, config, "HEAD", _head_commit(git, repo))


def check_selection(sel: Selection) -> None:
    """Refuse the flag combinations that name no change, for every command that takes them."""
    if sel.head is not None and sel.base is None:
        raise UsageError("--head needs --base (the range is --base REF --head REF)")
    if sel.diff is not None and (sel.base is not None or sel.staged):
        raise UsageError("--diff cannot be combined with --base, --head or --staged")
    if sel.staged and sel.base is not None:
        raise UsageError("--staged compares the index with HEAD; it takes no --base/--head")


def empty_tree(git: Git) -> str:
    """The empty tree's id (computed, so SHA-256 repositories work too)."""
    return git.text("hash-object", "-t", "tree", "/dev/null")


def resolve_commit(git: Git, ref: str) -> str | None:
    """The commit id ``ref`` names, or None if it names none."""
    if not ref or ref.startswith("-"):
        return None  # never let a ref be read as an option
    out = git.text("rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}", ok_codes=(0, 1, 128))
    return out or None


def require_commit(git: Git, ref: str, flag: str) -> str:
    """The commit ``ref`` names; a GitError that says what to do when it names none."""
    sha = resolve_commit(git, ref)
    if sha is None:
        raise GitError(f"{flag} {ref}: no such commit in this repository{shallow_hint(git)}")
    return sha


def shallow_hint(git: Git) -> str:
    """Why a commit may be missing in CI: a shallow clone has only the tip."""
    shallow = git.text("rev-parse", "--is-shallow-repository", ok_codes=(0, 128))
    if shallow != "true":
        return ""
    return "; this clone is shallow: fetch full history (actions/checkout: fetch-depth: 0)"


def _range(git: Git, root: Path, config: Config, base: str, head: str) -> Change:
    base_sha = require_commit(git, base, "--base")
    head_sha = require_commit(git, head, "--head")
    merge_base = git.text("merge-base", base_sha, head_sha, ok_codes=(0, 1))
    if not merge_base:
        raise GitError(
            f"--base {base} and --head {head} share no history (no merge base){shallow_hint(git)}"
        )
    files = git_diff(git, "diff-tree", "-r", merge_base, head_sha)
    info = RangeInfo("range", base_sha, head_sha, merge_base, f"{base}...{head}")
    return Change(
        files=tuple(files),
        base=CommitSnapshot(git, merge_base),
        head=CommitSnapshot(git, head_sha, label=head),
        root=root,
        config=config,
        range=info,
        git=git,
    )


def _head_commit(git: Git, repo: RepoAt | None) -> str | None:
    """HEAD's commit (None: none yet), as ``find_repo`` found it or else asked of git."""
    return repo.head if repo is not None else resolve_commit(git, "HEAD")


def _staged(git: Git, root: Path, config: Config, head_sha: str | None) -> Change:
    base_rev = head_sha or empty_tree(git)
    files = git_diff(git, "diff-index", "--cached", base_rev)
    base: Snapshot = CommitSnapshot(git, head_sha) if head_sha else EmptySnapshot()
    info = RangeInfo("staged", head_sha, None, head_sha, "staged changes (index vs HEAD)")
    return Change(tuple(files), base, IndexSnapshot(git), root, config, info, git=git)


def _worktree(git: Git, root: Path, config: Config, ref: str, sha: str | None) -> Change:
    base_rev = sha or empty_tree(git)
    tracked = git_diff(git, "diff-index", base_rev)
    untracked = _untracked(git, root)
    fresh = {fc.path for fc in untracked}
    # A file removed from the index but still on disk shows up twice; keep it as added.
    files = [fc for fc in tracked if not (fc.status is Status.DELETED and fc.path in fresh)]
    files.extend(untracked)
    base: Snapshot = CommitSnapshot(git, sha) if sha else EmptySnapshot()
    info = RangeInfo("worktree", sha, None, sha, f"working tree vs {ref}")
    return Change(tuple(files), base, WorktreeSnapshot(git, root), root, config, info, git=git)


def git_diff(git: Git, command: str, *revs: str) -> list[FileChange]:
    """The parsed output of ``git <command>`` with our fixed diff flags."""
    lines = git.stream(command, *DIFF_FLAGS, *revs, "--", max_line=MAX_LINE)
    return [f for f in parse_diff(lines, max_file_bytes=MAX_FILE_BYTES) if _has_change(f)]


def _has_change(fc: FileChange) -> bool:
    """diff-index against the work tree lists stat-dirty files with no real change."""
    if fc.status is not Status.MODIFIED or fc.skip_reason is not None:
        return True
    return bool(fc.added or fc.removed or fc.binary)


def _untracked(git: Git, root: Path) -> list[FileChange]:
    out = git.run("ls-files", "-z", "--others", "--exclude-standard", "--full-name")
    files = []
    for raw in out.split(b"\0"):
        if not raw:
            continue
        path = raw.decode("utf-8", "surrogateescape")
        if path.endswith("/"):  # a nested repository
            files.append(FileChange(path, None, Status.ADDED, skip_reason="nested repository"))
            continue
        files.append(whole_file_added(path, read_file_safely(root, path, MAX_FILE_BYTES)))
    return files


def whole_file_added(path: str, blob: bytes | BlobTooLarge | None) -> FileChange:
    """A new file whose every line counts as added (untracked files)."""
    if blob is None:
        return FileChange(path, None, Status.ADDED, skip_reason="not a regular file")
    if isinstance(blob, BlobTooLarge):
        return FileChange(
            path, None, Status.ADDED, skip_reason=f"larger than the size cap ({blob.size} bytes)"
        )
    if b"\0" in blob[:8000]:
        return FileChange(path, None, Status.ADDED, binary=True, skip_reason="binary file")
    text = blob.decode("utf-8", "surrogateescape").split("\n")
    if text[-1] == "":
        text.pop()
    lines = LineTable({n: line.removesuffix("\r") for n, line in enumerate(text, 1)})
    hunks = (Hunk(0, 0, 1, len(lines)),) if lines else ()
    return FileChange(
        path, None, Status.ADDED, hunks=hunks, added=lines.numbers(), added_text=lines
    )
