"""Directory listings of one side, one directory at a time.

Resolving an import needs a handful of directories, never the whole tree, so
a directory is listed only when a lookup reaches it (its tree object, read
through the run's ``cat-file --batch``: no process per directory) and the
answer is kept for the run: the cost of a run follows its imports, not the
size of the repository. The staged tree and the working tree
have no commit to list; they are the base commit with the change's own added
and deleted files laid over it, which is exactly what the diff says they are.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from pathlib import Path

from tribunal.errors import GitError
from tribunal.git.cmd import Git
from tribunal.lang.treepaths import join, parent_dir

#: name -> whether it is a directory
Entries = dict[str, bool]


class DirLister:
    """Lazy listings of commit ``rev`` (None: the empty tree) plus an overlay of changes."""

    def __init__(
        self,
        git: Git,
        root: Path,
        rev: str | None,
        added: Iterable[str] = (),
        deleted: Iterable[str] = (),
    ) -> None:
        self.git = git
        self.root = root
        self.rev = rev
        self.deleted = frozenset(deleted)
        self._added = _tree_of(added)
        self._cache: dict[str, Entries] = {}
        self.symlinks: set[str] = set()

    def entries(self, directory: str) -> Entries:
        if directory not in self._cache:
            parent, _, name = directory.rpartition("/")
            exists = not directory or self.entries(parent).get(name) is True
            self._cache[directory] = self._merge(directory) if exists else {}
        return self._cache[directory]

    def _merge(self, directory: str) -> Entries:
        out: Entries = {}
        for name, is_dir in self._list(directory).items():
            path = join(directory, name)
            if path in self.deleted or (is_dir and self._emptied(path)):
                continue
            out[name] = is_dir
        out.update(self._added.get(directory, {}))
        return out

    def _list(self, directory: str) -> Entries:
        if self.rev is None:
            return {}
        try:
            found = self.git.read_tree(f"{self.rev}:{directory}")
        except GitError:
            return {}
        entries: Entries = {}
        for entry in found or ():
            entries[entry.name] = entry.is_tree
            if entry.mode == b"120000":
                self.symlinks.add(join(directory, entry.name))
        return entries

    def _emptied(self, directory: str) -> bool:
        """A base directory whose every file the change deleted (and added none back)."""
        prefix = f"{directory}/"
        if not any(p.startswith(prefix) for p in self.deleted) or directory in self._added:
            return False
        try:
            out = self.git.run(
                "-C", str(self.root), "ls-tree", "-r", "-z", "--name-only", str(self.rev), "--",
                prefix,
            )  # fmt: skip
        except GitError:
            return False
        files = [p.decode("utf-8", "surrogateescape") for p in out.split(b"\0") if p]
        return all(f in self.deleted for f in files)


def _tree_of(paths: Iterable[str]) -> dict[str, Entries]:
    """The directory structure a set of file paths implies."""
    tree: dict[str, Entries] = defaultdict(dict)
    for path in paths:
        tree[parent_dir(path)][path.rpartition("/")[2]] = False
        directory = parent_dir(path)
        while directory:
            tree[parent_dir(directory)][directory.rpartition("/")[2]] = True
            directory = parent_dir(directory)
    return dict(tree)
