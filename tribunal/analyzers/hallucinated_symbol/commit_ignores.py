"""Whether one commit's own ``.gitignore`` files cover a path, answered by git itself.

``git check-ignore`` reads rules only from files on disk. For a commit (a
range, the pre-push convene, CI on a merge checkout) the rules must be the
commit's, not the checkout's (DESIGN 7), so the commit's ``.gitignore`` blobs
are copied into a private scratch directory and git is asked there, with a
repository of its own and no global or system config: neither the user's
``core.excludesFile`` nor ``.git/info/exclude`` decides a commit's verdict.

Only the ``.gitignore`` files of the directories above a path asked about are
listed and copied (the only ones git would read for it), so the cost follows
the questions, not the number of ``.gitignore`` files in the repository. A
symlinked ``.gitignore`` is not copied (git does not follow one either). A path
inside a submodule, or below a ``.gitignore`` too large to read, gets no answer.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from tribunal.change.snapshot import MAX_FILE_BYTES
from tribunal.git.cmd import BlobTooLarge, Git, no_git_env

if TYPE_CHECKING:
    import tempfile

#: Regular files; a symlink (120000) named .gitignore is no rule file to git.
_REGULAR = (b"100644", b"100755")
#: Path arguments per ``ls-tree`` call, well under any command-line limit.
_CHUNK = 200
NAME = ".gitignore"
#: Rules git matches in time proportional to the path: git's own matcher backtracks
#: over every ``*`` of a rule (a 1 MB ``*a*a*a...`` line ran for minutes).
MAX_RULE_CHARS = 1000
MAX_RULE_STARS = 32


class CommitIgnores:
    """The ``.gitignore`` rules of commit ``rev``, laid out on demand in a scratch directory.

    ``ask`` raises ``GitError`` or ``OSError`` when git or the scratch
    directory fails; the caller treats that as "git cannot say".
    """

    def __init__(self, git: Git, root: Path, rev: str) -> None:
        self._git = git
        self._root = root
        self._rev = rev
        #: directory -> whether its rules are known (False: a submodule, an unreadable file)
        self._dirs: dict[str, bool] = {}
        self._scratch: tempfile.TemporaryDirectory[str] | None = None
        self._checker: tuple[Git, tuple[str, ...]] | None = None

    def ask(self, paths: Sequence[str]) -> dict[str, bool | None]:
        """For each path: whether the commit's rules ignore it; None when they cannot say."""
        above = {p: ancestors(p) for p in paths}
        self._lay_out({d for dirs in above.values() if dirs is not None for d in dirs})
        askable = [
            p for p, dirs in above.items() if dirs is not None and all(self._dirs[d] for d in dirs)
        ]
        hits = self._check(askable) if askable else set()
        return {p: (p in hits) if p in askable else None for p in paths}

    def close(self) -> None:
        """Remove the scratch directory; safe to call twice."""
        if self._scratch is not None:
            self._scratch.cleanup()
            self._scratch = None
            self._checker = None

    # -- copying the commit's rule files -------------------------------------------------

    def _lay_out(self, directories: Iterable[str]) -> None:
        new = sorted(d for d in directories if d not in self._dirs)
        if not new:
            return
        tree = self._scratch_git()[0].cwd
        entries = self._list(new)
        for directory in new:
            known = entries.get(directory, (b"", b""))[0] != b"160000"
            mode, oid = entries.get(_rule_file(directory), (b"", b""))
            if known and mode in _REGULAR:
                known = self._copy(oid.decode("ascii"), tree / _rule_file(directory))
            self._dirs[directory] = known

    def _list(self, directories: list[str]) -> dict[str, tuple[bytes, bytes]]:
        """Mode and object id of each directory (to spot submodules) and its ``.gitignore``."""
        specs = [s for d in directories for s in ((d, _rule_file(d)) if d else (NAME,))]
        found: dict[str, tuple[bytes, bytes]] = {}
        for start in range(0, len(specs), _CHUNK):
            out = self._git.run(
                "--literal-pathspecs", "-C", str(self._root), "ls-tree", "-z", "--full-tree",
                self._rev, "--", *specs[start : start + _CHUNK],
            )  # fmt: skip
            for record in out.split(b"\0"):
                meta, _, raw = record.partition(b"\t")
                fields = meta.split(b" ")
                if raw and len(fields) == 3:
                    found[raw.decode("utf-8", "surrogateescape")] = (fields[0], fields[2])
        return found

    def _copy(self, oid: str, target: Path) -> bool:
        blob = self._git.read_blob(oid, MAX_FILE_BYTES)
        if blob is None or isinstance(blob, BlobTooLarge) or not _tame(blob):
            return False
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(blob)
        return True

    # -- asking git ------------------------------------------------------------------------

    def _check(self, paths: list[str]) -> set[str]:
        checker, pinned = self._scratch_git()
        return check_ignore(checker, pinned, paths)

    def _scratch_git(self) -> tuple[Git, tuple[str, ...]]:
        """git run in the scratch work tree (made on first use), and the options that pin it."""
        if self._checker is None:
            import tempfile  # only ranges ask; the commit hook's start-up must not pay

            self._scratch = tempfile.TemporaryDirectory(
                prefix="tribunal-ignore-", ignore_cleanup_errors=True
            )
            self._checker = _checker(Path(self._scratch.name), self._git.env)
        return self._checker


def _checker(scratch: Path, env: dict[str, str]) -> tuple[Git, tuple[str, ...]]:
    """A git that sees only the scratch directory, with an empty repository of its own.

    No system, global or inherited config (so no user excludes file), an
    empty ``core.excludesFile``, a repository with no ``info/exclude``, and
    case-exact matching: the same answer on every machine.
    """
    empty = scratch / "empty"
    empty.write_bytes(b"")
    tree = scratch / "tree"
    tree.mkdir()
    # Config handed down by the caller (``git -c``, GIT_CONFIG_COUNT/KEY/VALUE) goes too.
    isolated = {k: v for k, v in no_git_env(env).items() if not k.startswith("GIT_CONFIG")}
    isolated.update(GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL=str(empty))
    git_dir = scratch / "git"
    Git(scratch, isolated).run("init", "-q", "--bare", "--template=", str(git_dir))
    pinned = (
        f"--git-dir={git_dir}", f"--work-tree={tree}",
        "-c", f"core.excludesFile={empty}", "-c", "core.ignoreCase=false",
    )  # fmt: skip
    return Git(tree, isolated), pinned


def check_ignore(git: Git, options: Sequence[str], paths: Sequence[str]) -> set[str]:
    """Which of ``paths`` git's ignore rules cover (``git [options] check-ignore``), in one call.

    ``--no-index``: a tracked file that matches a rule still counts, since the
    question is what the rules say, not what git would add.
    """
    stdin = b"".join(p.encode("utf-8", "surrogateescape") + b"\0" for p in paths)
    out = git.run(
        *options, "check-ignore", "-z", "--stdin", "--no-index", stdin=stdin, ok_codes=(0, 1)
    )
    return {p.decode("utf-8", "surrogateescape") for p in out.split(b"\0") if p}


def ancestors(path: str) -> list[str] | None:
    """The directories whose ``.gitignore`` git reads for ``path``, root first.

    None for a path no checkout could hold (an empty, ``.``, ``..`` or ``.git``
    component), so that nothing is written outside the scratch tree, and for one
    git would read as pathspec magic (a leading ``:``): such paths are never asked.
    """
    parts = path.split("/")
    if path.startswith(":") or any(p in ("", ".", "..") or p.lower() == ".git" for p in parts):
        return None
    return ["/".join(parts[:i]) for i in range(len(parts))]


def _rule_file(directory: str) -> str:
    return f"{directory}/{NAME}" if directory else NAME


def _tame(rules: bytes) -> bool:
    """Whether every rule of a ``.gitignore`` is short enough to hand to git.

    A file with a longer rule is not read at all (its directory's answers are
    "cannot say", so the verdicts that depend on them stay UNVERIFIED). Comments
    are no rules: git never matches them, so any length is fine.
    """
    return all(
        line.startswith(b"#")
        or (len(line) <= MAX_RULE_CHARS and line.count(b"*") <= MAX_RULE_STARS)
        for line in rules.split(b"\n")
    )
