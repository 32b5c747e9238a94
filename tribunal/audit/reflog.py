"""The reflogs of remote-tracking refs, and which remote and ref each one tracks.

A push that git completes writes ``update by push`` to the reflog of the
remote-tracking ref it moved (also with ``--no-verify``, and also when every
hook is disabled); a fetch writes ``fetch ...`` or ``pull ...``. Entries are
read straight from ``logs/refs/remotes/`` under the common dir (the files
backend: a stat tells whether anything is new, and no process is started per
ref); other ref backends (reftable) are read through ``git reflog show``.
"""

import hashlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from tribunal.audit.state import Position
from tribunal.git.cmd import Git, is_zero

PUSH_MESSAGE = "update by push"
_FIELD = "\x1f"


class Entry(NamedTuple):
    """One reflog entry (oldest first); ``old``/``new`` are None for the all-zero id."""

    ref: str
    old: str | None
    new: str | None
    name: str
    email: str
    when: int
    message: str
    digest: str

    @property
    def by_push(self) -> bool:
        return self.message.startswith(PUSH_MESSAGE)


@dataclass(frozen=True)
class Remote:
    name: str
    url: str | None
    fetch: tuple[str, ...]  # refspecs
    push_urls: tuple[str, ...] = ()  # remote.<name>.pushurl

    def named_by(self, url: str) -> bool:
        """Whether ``url`` (as git hands it to a pre-push hook) is this remote's."""
        return url == self.url or url in self.push_urls


@dataclass(frozen=True)
class Refs:
    """The repository's remotes and the current tips of its remote-tracking refs."""

    remotes: dict[str, Remote]
    tips: dict[str, str]  # tracking ref -> object id (symbolic refs left out)
    files_backend: bool
    symrefs: dict[str, str] = field(default_factory=dict)  # e.g. <remote>/HEAD -> its target
    groups: dict[str, tuple[str, ...]] = field(default_factory=dict)  # remotes.<group>

    def owner(self, tracking_ref: str) -> tuple[Remote, str | None] | None:
        """The remote whose fetch refspec maps to ``tracking_ref``, and the remote's ref.

        Exactly one remote owns a ref: the one whose refspec names the longest
        part of it. ``refs/remotes/origin/mirror/x`` belongs to a remote named
        ``origin/mirror`` (``refs/remotes/origin/mirror/*``), not to ``origin``
        (``refs/remotes/origin/*``), whose namespace merely contains it. Two
        remotes that map a ref equally closely leave it owned by neither.
        """
        best: list[tuple[int, Remote, str]] = []
        for remote in self.remotes.values():
            for spec in remote.fetch:
                found = _reverse(spec, tracking_ref)
                if found is not None:
                    best.append((found[1], remote, found[0]))
        if not best:
            return None
        best.sort(key=lambda item: -item[0])
        closest = [item for item in best if item[0] == best[0][0]]
        if len({item[1].name for item in closest}) > 1:
            return None
        return closest[0][1], closest[0][2]

    def of_remote(self, remote: Remote) -> dict[str, str]:
        return {ref: sha for ref, sha in self.tips.items() if self._owned_by(ref, remote)}

    def _owned_by(self, ref: str, remote: Remote) -> bool:
        owner = self.owner(ref)
        return owner is not None and owner[0].name == remote.name


def read_refs(git: Git) -> Refs:
    config = git.run(
        "config",
        "-z",
        "--get-regexp",
        r"^(remote\.|remotes\.|extensions\.refstorage)",
        ok_codes=(0, 1),
    )
    remotes: dict[str, dict[str, list[str]]] = {}
    groups: dict[str, tuple[str, ...]] = {}
    backend = "files"
    for item in config.decode("utf-8", "surrogateescape").split("\0"):
        key, _, value = item.partition("\n")
        if key.lower() == "extensions.refstorage":
            backend = value.strip().lower()
            continue
        if key.startswith("remotes."):
            groups[key.removeprefix("remotes.")] = tuple(value.split())
            continue
        name, dot, var = key.removeprefix("remote.").rpartition(".")
        if dot and var in ("url", "fetch", "pushurl"):
            remotes.setdefault(name, {"url": [], "fetch": [], "pushurl": []})[var].append(value)
    tips, symrefs = {}, {}
    listing = git.text(
        "for-each-ref", "--format=%(objectname) %(symref) %(refname)", "refs/remotes/"
    )
    for line in listing.splitlines():
        sha, symref, ref = line.split(" ", 2)
        if symref:
            symrefs[ref] = symref
        else:
            tips[ref] = sha
    found = {
        name: Remote(
            name, v["url"][-1] if v["url"] else None, tuple(v["fetch"]), tuple(v["pushurl"])
        )
        for name, v in remotes.items()
    }
    return Refs(found, tips, backend == "files", symrefs, groups)


def _reverse(spec: str, tracking_ref: str) -> tuple[str, int] | None:
    """The source of ``tracking_ref`` under refspec ``spec`` (``+src:dst``), if it maps,
    and how much of ``tracking_ref`` the refspec names (an exact name beats a pattern)."""
    spec = spec.removeprefix("+")
    if spec.startswith("^") or ":" not in spec:
        return None
    src, dst = spec.split(":", 1)
    if "*" not in dst:
        return (src, len(dst) + 1) if dst == tracking_ref else None
    before, after = dst.split("*", 1)
    if not (tracking_ref.startswith(before) and tracking_ref.endswith(after)):
        return None
    middle = tracking_ref[len(before) : len(tracking_ref) - len(after)]
    return (src.replace("*", middle, 1), len(before) + len(after)) if middle else None


def forward(spec: str, remote_ref: str) -> str | None:
    """Where refspec ``spec`` stores the remote's ``remote_ref`` (its remote-tracking ref)."""
    spec = spec.removeprefix("+")
    if spec.startswith("^") or ":" not in spec:
        return None
    src, dst = spec.split(":", 1)
    if "*" not in src:
        return dst if src == remote_ref and "*" not in dst else None
    before, after = src.split("*", 1)
    if not (remote_ref.startswith(before) and remote_ref.endswith(after)):
        return None
    middle = remote_ref[len(before) : len(remote_ref) - len(after)]
    return dst.replace("*", middle, 1) if middle and "*" in dst else None


def reflog_file(common_dir: Path, ref: str) -> Path:
    return common_dir / "logs" / ref


def entries(git: Git, common_dir: Path, ref: str, files_backend: bool) -> list[Entry]:
    """Every entry of ``ref``'s reflog, oldest first (empty when it has none)."""
    if not files_backend:
        return _git_entries(git, ref)
    try:
        data = reflog_file(common_dir, ref).read_bytes()
    except OSError:
        return []
    return [e for e in (parse_line(ref, raw) for raw in data.splitlines()) if e is not None]


def parse_line(ref: str, raw: bytes) -> Entry | None:
    """``<old> <new> <name> <<email>> <time> <tz>\\t<message>`` as git writes it."""
    text = raw.decode("utf-8", "surrogateescape")
    head, _, message = text.partition("\t")
    parts = head.split(" ", 2)
    if len(parts) != 3:
        return None
    old, new, rest = parts
    ident, _, stamp = rest.rpartition(">")
    name, _, email = ident.rpartition("<")
    fields = stamp.split()
    when = int(fields[0]) if fields and fields[0].isdigit() else 0
    digest = hashlib.sha256(raw).hexdigest()
    return Entry(ref, _id(old), _id(new), name.strip(), email, when, message, digest)


def _git_entries(git: Git, ref: str) -> list[Entry]:
    """Through ``git reflog show`` (other ref backends); the old id is the entry before."""
    fields = _FIELD.join(("%H", "%gn", "%ge", "%gd", "%gs"))
    out = git.text(
        "reflog",
        "show",
        "--no-abbrev",
        "--date=unix",
        f"--format={fields}",
        ref,
        "--",
        ok_codes=(0, 128),
    )
    newest_first = []
    for line in out.splitlines():
        parts = line.split(_FIELD)
        if len(parts) != 5:
            continue
        new, name, email, selector, message = parts
        stamp = selector.rpartition("@{")[2].rstrip("}")
        when = int(stamp) if stamp.isdigit() else 0
        digest = hashlib.sha256(line.encode("utf-8", "surrogateescape")).hexdigest()
        newest_first.append(Entry(ref, None, _id(new), name, email, when, message, digest))
    ordered = list(reversed(newest_first))
    return [e._replace(old=ordered[i - 1].new if i else None) for i, e in enumerate(ordered)]


def _id(text: str) -> str | None:
    return None if not text or is_zero(text) else text


def unaudited(all_entries: Sequence[Entry], position: Position | None) -> list[Entry]:
    """The entries after ``position`` (all of them for a ref that has none)."""
    if position is None or position.count == 0:
        return list(all_entries)
    count = position.count
    if len(all_entries) >= count and all_entries[count - 1].digest == position.digest:
        return list(all_entries[count:])
    for index in range(len(all_entries) - 1, -1, -1):  # expired or recreated: find it again
        if all_entries[index].digest == position.digest:
            return list(all_entries[index + 1 :])
    return [e for e in all_entries if e.when >= position.when]


def position_after(all_entries: Sequence[Entry], size: int) -> Position:
    if not all_entries:
        return Position(0, size=size)
    last = all_entries[-1]
    return Position(len(all_entries), last.digest, last.when, size)


def file_size(common_dir: Path, ref: str) -> int:
    try:
        return reflog_file(common_dir, ref).stat().st_size
    except OSError:
        return 0


def push_entries(entries_: Iterator[Entry] | Sequence[Entry]) -> list[Entry]:
    return [e for e in entries_ if e.by_push and e.new is not None]
