"""Turn the ways a user names a change into a ``Change``.

- ``--base A --head B``: from the merge base of A and B to B, both read from the
  object database (never the working tree);
- ``--base A``: the working tree (tracked and untracked files) against A;
- nothing: the working tree against HEAD;
- ``--staged``: the index against HEAD, read from the index git is using
  (``$GIT_INDEX_FILE``), i.e. exactly what is being committed;
- ``--diff FILE|-``: a unified diff, with contents from the repository only where
  they provably match it.
"""

from __future__ import annotations

import dataclasses
import sys
from dataclasses import dataclass
from pathlib import Path

from tribunal.change import Change
from tribunal.config import Config
from tribunal.diff.model import FileChange, Status
from tribunal.diff.parse import parse_diff
from tribunal.errors import GitError, InputError, UsageError
from tribunal.findings import RangeInfo
from tribunal.gitcmd import BlobTooLarge, Git
from tribunal.snapshot import (
    MAX_FILE_BYTES,
    CommitSnapshot,
    EmptySnapshot,
    IndexSnapshot,
    Snapshot,
    WorktreeSnapshot,
    read_file_safely,
)

#: Flags for every diff we ask git for: our own parser reads it, so no user
#: diff driver, text conversion, colour or prefix setting may change it.
DIFF_FLAGS = (
    "-p",
    "-U0",
    "--full-index",
    "-M",
    "--no-ext-diff",
    "--no-textconv",
    "--no-color",
    "--src-prefix=a/",
    "--dst-prefix=b/",
    "--submodule=short",
)


@dataclass(frozen=True)
class Selection:
    """Which change to analyze, as the CLI parsed it."""

    base: str | None = None
    head: str | None = None
    staged: bool = False
    diff: str | None = None


def build_change(
    sel: Selection, git: Git | None, root: Path | None, cwd: Path, config: Config
) -> Change:
    """The Change named by ``sel``; raises a TribunalError for bad refs or input."""
    if sel.head is not None and sel.base is None:
        raise UsageError("--head needs --base (the range is --base REF --head REF)")
    if sel.diff is not None:
        if sel.base is not None or sel.staged:
            raise UsageError("--diff cannot be combined with --base, --head or --staged")
        return _from_diff_file(sel.diff, git, root, cwd, config)
    if git is None or root is None:
        raise GitError(f"{cwd}: not inside a git repository (use --cwd DIR, or --diff FILE)")
    if sel.staged:
        if sel.base is not None:
            raise UsageError("--staged compares the index with HEAD; it takes no --base/--head")
        return _staged(git, root, config)
    if sel.head is not None:
        assert sel.base is not None
        return _range(git, root, config, sel.base, sel.head)
    return _worktree(git, root, config, sel.base or "HEAD", explicit=sel.base is not None)


def empty_tree(git: Git) -> str:
    """The empty tree's id (computed, so SHA-256 repositories work too)."""
    return git.text("hash-object", "-t", "tree", "/dev/null")


def resolve_commit(git: Git, ref: str) -> str | None:
    """The commit id ``ref`` names, or None if it names none."""
    out = git.text("rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}", ok_codes=(0, 1, 128))
    return out or None


def _require_commit(git: Git, ref: str, flag: str) -> str:
    sha = resolve_commit(git, ref)
    if sha is None:
        raise GitError(f"{flag} {ref}: no such commit in this repository")
    return sha


def _range(git: Git, root: Path, config: Config, base: str, head: str) -> Change:
    base_sha = _require_commit(git, base, "--base")
    head_sha = _require_commit(git, head, "--head")
    merge_base = git.text("merge-base", base_sha, head_sha, ok_codes=(0, 1))
    if not merge_base:
        raise GitError(f"--base {base} and --head {head} share no history (no merge base)")
    files = _git_diff(git, "diff-tree", "-r", merge_base, head_sha)
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


def _staged(git: Git, root: Path, config: Config) -> Change:
    head_sha = resolve_commit(git, "HEAD")
    base_rev = head_sha or empty_tree(git)
    files = _git_diff(git, "diff-index", "--cached", base_rev)
    base: Snapshot = CommitSnapshot(git, head_sha) if head_sha else EmptySnapshot()
    info = RangeInfo("staged", head_sha, None, head_sha, "staged changes (index vs HEAD)")
    return Change(tuple(files), base, IndexSnapshot(git), root, config, info, git=git)


def _worktree(git: Git, root: Path, config: Config, ref: str, explicit: bool) -> Change:
    sha = resolve_commit(git, ref)
    if sha is None and explicit:
        raise GitError(f"--base {ref}: no such commit in this repository")
    base_rev = sha or empty_tree(git)
    files = _git_diff(git, "diff-index", base_rev)
    files.extend(_untracked(git, root))
    base: Snapshot = CommitSnapshot(git, sha) if sha else EmptySnapshot()
    info = RangeInfo("worktree", sha, None, sha, f"working tree vs {ref}")
    return Change(tuple(files), base, WorktreeSnapshot(git, root), root, config, info, git=git)


def _git_diff(git: Git, command: str, *revs: str) -> list[FileChange]:
    lines = git.stream(command, *DIFF_FLAGS, *revs, "--")
    return [f for f in parse_diff(lines, max_file_bytes=MAX_FILE_BYTES) if _has_change(f)]


def _has_change(fc: FileChange) -> bool:
    """diff-index against the work tree lists stat-dirty files with no real change."""
    return fc.status is not Status.MODIFIED or bool(fc.added or fc.removed or fc.binary)


def _untracked(git: Git, root: Path) -> list[FileChange]:
    out = git.run("ls-files", "-z", "--others", "--exclude-standard", "--full-name")
    files = []
    for raw in out.split(b"\0"):
        if not raw:
            continue
        path = raw.decode("utf-8", "surrogateescape")
        files.append(whole_file_added(path, read_file_safely(root, path, MAX_FILE_BYTES)))
    return files


def whole_file_added(path: str, blob: bytes | BlobTooLarge | None) -> FileChange:
    """A new file whose every line counts as added (untracked files)."""
    if blob is None:
        return FileChange(path, None, Status.ADDED, skip_reason="not a regular file")
    if isinstance(blob, BlobTooLarge):
        return FileChange(path, None, Status.ADDED, skip_reason="larger than the size cap")
    if b"\0" in blob[:8000]:
        return FileChange(path, None, Status.ADDED, binary=True, skip_reason="binary file")
    count = blob.count(b"\n") + (0 if blob.endswith(b"\n") or not blob else 1)
    return FileChange(path, None, Status.ADDED, added=frozenset(range(1, count + 1)))


def _from_diff_file(
    name: str, git: Git | None, root: Path | None, cwd: Path, config: Config
) -> Change:
    files = _parse_diff_input(name, cwd)
    if root is not None:
        files = [_resolve_plain_path(fc, root) for fc in files]
    head: dict[str, bytes] = {}
    base: dict[str, bytes] = {}
    for fc in files:
        if fc.skip_reason is not None:
            continue
        post = _post_image(fc, git, root)
        if post is not None:
            head[fc.path] = post
        pre = _read_object(git, fc.old_blob) if fc.old_path is not None else None
        if pre is not None and fc.old_path is not None:
            base[fc.old_path] = pre
    wanted_base = [fc for fc in files if fc.old_path is not None and fc.skip_reason is None]
    has_base = bool(wanted_base) and all(fc.old_path in base for fc in wanted_base)
    info = RangeInfo("diff", description=f"diff {'from stdin' if name == '-' else name}")
    return Change(
        files=tuple(files),
        base=EmptySnapshot() if has_base else None,
        head=EmptySnapshot(),
        root=root,
        config=config,
        range=info,
        git=git,
        head_overrides=head,
        base_overrides=base,
    )


def _parse_diff_input(name: str, cwd: Path) -> list[FileChange]:
    if name == "-":
        return parse_diff(sys.stdin.buffer, max_file_bytes=MAX_FILE_BYTES)
    path = Path(name) if Path(name).is_absolute() else cwd / name
    try:
        with path.open("rb") as handle:
            return parse_diff(handle, max_file_bytes=MAX_FILE_BYTES)
    except OSError as exc:
        raise InputError(f"{name}: cannot read diff: {exc.strerror or exc}") from None


def _resolve_plain_path(fc: FileChange, root: Path) -> FileChange:
    """``diff -ru old/ new/`` names files with a leading directory; drop it if that helps."""
    if (root / fc.path).exists() or "/" not in fc.path:
        return fc
    stripped = fc.path.split("/", 1)[1]
    if not (root / stripped).exists():
        return fc
    old = fc.old_path.split("/", 1)[1] if fc.old_path and "/" in fc.old_path else fc.old_path
    return dataclasses.replace(fc, path=stripped, old_path=old)


def _post_image(fc: FileChange, git: Git | None, root: Path | None) -> bytes | None:
    """Head contents we can trust: a file or object that matches the diff, or the diff itself."""
    if not fc.has_head:
        return None
    candidates: list[bytes | None] = []
    if root is not None:
        disk = read_file_safely(root, fc.path, MAX_FILE_BYTES)
        candidates.append(disk if isinstance(disk, bytes) else None)
    candidates.append(_read_object(git, fc.new_blob))
    for data in candidates:
        if data is not None and _matches_post_image(fc, data):
            return data
    if fc.status is Status.ADDED and _covers_whole_file(fc):
        return "".join(fc.added_text[n] + "\n" for n in sorted(fc.added_text)).encode(
            "utf-8", "surrogateescape"
        )
    return None


def _matches_post_image(fc: FileChange, data: bytes) -> bool:
    lines = data.decode("utf-8", "surrogateescape").split("\n")
    for number, text in fc.added_text.items():
        if number > len(lines) or lines[number - 1].removesuffix("\r") != text:
            return False
    return True


def _covers_whole_file(fc: FileChange) -> bool:
    return len(fc.hunks) == 1 and fc.hunks[0].new_start <= 1 and len(fc.added_text) == len(fc.added)


def _read_object(git: Git | None, object_id: str | None) -> bytes | None:
    if git is None or not object_id:
        return None
    try:
        blob = git.read_blob(object_id, MAX_FILE_BYTES)
    except GitError:
        return None
    return blob if isinstance(blob, bytes) else None
