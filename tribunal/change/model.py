"""The analyzed change: changed files plus read access to both sides.

Every analyzer receives the same ``Change``; each file's base and head
contents are read once and shared while they stay in the change's caches, which
are bounded so that a 20,000-file change never holds every file at once. Two
tiers: the file's bytes as git gave them (``RAW_CACHE_BYTES``; once a change has
read more than that, compressed, so a change of a few thousand files fits whole), and
the ``Source`` objects made from them with their decoded text and lines
(``SOURCE_CACHE_BYTES``, three to five times the bytes, only for the files in
use). Analyzers walk the change one after another, so a file that left the
second tier is made again from the first, without a round trip to git; only a
file that left both is read again from git. What was parsed from it is kept by
content in ``tribunal.lang.trees``. Reading a changed file also fetches the next changed
files of its language on that side in one batch: analyzers walk the change in
order, and one round trip to git per file is what a big change would wait on.
"""

from collections.abc import Mapping, Sequence
from functools import cached_property
from pathlib import Path
from types import MappingProxyType
from typing import Any, Final, NamedTuple

from tribunal.change.diff.model import FileChange
from tribunal.change.snapshot import Blob, Snapshot
from tribunal.config.model import Config
from tribunal.findings import RangeInfo
from tribunal.git.cmd import BlobTooLarge, Git
from tribunal.lang.paths import is_generated, language_of
from tribunal.util.lru import BoundedCache
from tribunal.util.packed import PACK_FROM, pack, unpack

_BINARY_PROBE = 8000
#: Estimated bytes of decoded sources a change keeps (contents, text, lines).
SOURCE_CACHE_BYTES = 8 << 20
SOURCE_CACHE_ENTRIES = 16384
#: Bytes of file contents (as read from git) a change keeps for making its sources again;
#: past this much read, what it keeps is compressed (three to five times as many files).
RAW_CACHE_BYTES = 8 << 20
#: Changed files fetched together when one of them is read.
PREFETCH = 32


class Source:
    """A file's contents with the views analyzers need, decoded once.

    Compared and hashed by identity (memos such as ``lang.decorators`` hold it
    in a ``WeakKeyDictionary``). A plain class so that the pre-commit hook's
    start-up needs no ``dataclasses`` (see ``tribunal.findings``).
    """

    path: Final[str]
    data: Final[bytes]
    #: Where trees parsed from it are kept: its change's cache (``tribunal.lang.trees``).
    trees: Final[BoundedCache[Any, Any] | None]

    def __init__(self, path: str, data: bytes, trees: BoundedCache[Any, Any] | None = None) -> None:
        self.path = path
        self.data = data
        self.trees = trees

    @cached_property
    def text(self) -> str:
        return self.data.decode("utf-8", "replace").removeprefix("\ufeff")

    @cached_property
    def lines(self) -> list[str]:
        """Lines as git numbers them (split on ``\\n`` only); ``lines[n - 1]`` is line n."""
        return [line.removesuffix("\r") for line in self.text.split("\n")]

    def line(self, number: int) -> str:
        return self.lines[number - 1] if 0 < number <= len(self.lines) else ""


class Claim(NamedTuple):
    """A claim to verify (filled in by the claims parser)."""

    key: str
    arg: str | None
    source: str
    line: int | None = None
    #: What ``source`` names: "file" (--claims), "pr-body" (--pr-body) or "commit" (a sha).
    origin: str = "file"
    #: Other sources that made the same claim; it is judged once.
    also: tuple[str, ...] = ()


class _Packed(NamedTuple):
    """A file's contents as ``util.packed`` keeps them."""

    data: bytes


_NO_OVERRIDES: Mapping[str, bytes] = MappingProxyType({})


class Change:
    """What a run analyzes. ``base`` is None when no base is known (a bare diff).

    Mutable (callers set ``claims`` and ``skip_generated`` after building it)
    and compared by identity; ``skipped`` collects files found unreadable.
    """

    __slots__ = (
        "__weakref__",  # lang.per_change memos hold a change weakly
        "_cache",
        "_generated",
        "_ids",
        "_order",
        "_raw",
        "_raw_read",
        "_trees",
        "base",
        "base_overrides",
        "claims",
        "config",
        "files",
        "git",
        "head",
        "head_overrides",
        "range",
        "root",
        "skip_generated",
        "skipped",
    )

    def __init__(
        self,
        files: tuple[FileChange, ...],
        base: Snapshot | None,
        head: Snapshot | None,
        root: Path | None,
        config: Config,
        range: RangeInfo,
        git: Git | None = None,
        skip_generated: bool = True,
        claims: tuple[Claim, ...] = (),
        head_overrides: Mapping[str, bytes] = _NO_OVERRIDES,
        base_overrides: Mapping[str, bytes] = _NO_OVERRIDES,
    ) -> None:
        self.files = files
        self.base = base
        self.head = head
        self.root = root
        self.config = config
        self.range = range
        self.git = git
        self.skip_generated = skip_generated
        self.claims = claims
        self.head_overrides = head_overrides
        self.base_overrides = base_overrides
        self._cache: BoundedCache[tuple[str, str], Source | None] = BoundedCache(
            SOURCE_CACHE_ENTRIES, SOURCE_CACHE_BYTES
        )
        self._raw: BoundedCache[tuple[str, str], Blob | _Packed] = BoundedCache(
            SOURCE_CACHE_ENTRIES, RAW_CACHE_BYTES
        )
        self._raw_read = 0  # bytes of contents read so far: past the bound, kept compressed
        self._order: dict[str, tuple[list[str], dict[str, int]]] = {}
        self._ids: dict[tuple[str, str], str] = {}
        self._trees: BoundedCache[Any, Any] | None = None
        self._generated: dict[str, bool] = {}  # every analyzer asks of every file
        self.skipped: dict[str, str] = {}

    @property
    def has_base(self) -> bool:
        return self.base is not None

    def is_generated(self, path: str) -> bool:
        if not self.skip_generated:
            return False
        found = self._generated.get(path)
        if found is None:
            found = self._generated[path] = is_generated(path, self.config.generated_paths)
        return found

    def analyzable(self, languages: Sequence[str] | None = None) -> list[FileChange]:
        """Files an analyzer should read: not skipped, not generated, of ``languages``."""
        out = []
        for fc in self.files:
            if fc.skip_reason is not None or self.is_generated(fc.path):
                continue
            if languages is not None and language_of(fc.path) not in languages:
                continue
            out.append(fc)
        return out

    def head_source(self, fc: FileChange) -> Source | None:
        """The file as it is after the change; None if deleted or unreadable."""
        if not fc.has_head:
            return None
        return self._source("head", fc.path, self.head, self.head_overrides)

    def base_source(self, fc: FileChange) -> Source | None:
        """The file as it was before the change; None if new or no base is known."""
        if fc.old_path is None:
            return None
        return self._source("base", fc.old_path, self.base, self.base_overrides)

    def read_head(self, path: str) -> Source | None:
        """Any file of the head tree (not only changed ones), for cross-file analyzers."""
        return self._source("head", path, self.head, self.head_overrides)

    def read_base(self, path: str) -> Source | None:
        return self._source("base", path, self.base, self.base_overrides)

    def prefetch_head(self, paths: Sequence[str]) -> None:
        """Read ``paths`` of the head tree in one batch, so that ``read_head`` finds them.

        For lookups that probe many names (a config file under any of its
        forty names, in every directory up to the root): one round trip to git
        instead of one per name.
        """
        wanted = [p for p in dict.fromkeys(paths) if not self._holds("head", p)]
        if self.head is None or not wanted:
            return
        blobs = self.head.read_many(wanted, [self._ids.get(("head", p)) for p in wanted])
        for path, blob in zip(wanted, blobs, strict=True):
            if path not in self.head_overrides:
                self._keep_fetched("head", path, blob)

    def _source(
        self, side: str, path: str, snap: Snapshot | None, overrides: Mapping[str, bytes]
    ) -> Source | None:
        cached = self._cache.get((side, path))
        if cached is not None:
            return cached[0]
        raw = self._raw.get((side, path))
        if raw is not None:
            kept = raw[0]
            source = self._to_source(path, unpack(kept.data) if isinstance(kept, _Packed) else kept)
            self._cache.put((side, path), source, _cost(source))
            return source
        paths = self._batch(side, path)
        blobs: list[Blob] = [overrides.get(p) for p in paths]
        wanted = [i for i, blob in enumerate(blobs) if blob is None]
        if snap is not None and wanted:
            ids = [self._ids.get((side, paths[i])) for i in wanted]
            read = snap.read_many([paths[i] for i in wanted], ids)
            for i, blob in zip(wanted, read, strict=True):
                blobs[i] = blob
        for other, blob in zip(paths, blobs, strict=True):
            self._keep_fetched(side, other, blob)
        source = self._to_source(path, blobs[0])
        self._cache.put((side, path), source, _cost(source))
        return source

    def _keep_fetched(self, side: str, path: str, blob: Blob) -> None:
        """A file as git gave it, kept to make its source from (skips are noted on demand)."""
        kept: Blob | _Packed = blob
        cost = 160
        if isinstance(blob, bytes):
            self._raw_read += len(blob)
            if len(blob) >= PACK_FROM and self._raw_read > RAW_CACHE_BYTES:
                kept = _Packed(pack(blob))
            cost += len(kept.data) if isinstance(kept, _Packed) else len(blob)
        self._raw.put((side, path), kept, cost)

    def _holds(self, side: str, path: str) -> bool:
        return (side, path) in self._cache or (side, path) in self._raw

    def _batch(self, side: str, path: str) -> list[str]:
        """``path`` and, when it is a changed file, the next ones of its language not cached."""
        paths, where = self._changed_paths(side)
        start = where.get(path)
        if start is None:
            return [path]
        language = language_of(path)
        ahead = paths[start + 1 : start + 1 + 4 * PREFETCH]
        same = [p for p in ahead if language_of(p) == language and not self._holds(side, p)]
        return [path, *same[: PREFETCH - 1]]

    def _changed_paths(self, side: str) -> tuple[list[str], dict[str, int]]:
        """The side's changed paths in change order, and where each is in that list."""
        order = self._order.get(side)
        if order is None:
            files = [fc for fc in self.files if fc.skip_reason is None]
            files = [fc for fc in files if not self.is_generated(fc.path)]
            if side == "head":
                named = [(fc.path, fc.new_blob) for fc in files if fc.has_head]
            else:
                named = [(fc.old_path, fc.old_blob) for fc in files if fc.old_path is not None]
            paths = [path for path, _ in named]
            self._ids.update(((side, path), oid) for path, oid in named if oid is not None)
            order = (paths, {p: i for i, p in enumerate(paths)})
            self._order[side] = order
        return order

    def _to_source(self, path: str, blob: Blob) -> Source | None:
        if blob is None:
            return None
        if isinstance(blob, BlobTooLarge):
            self.skipped[path] = f"larger than the size cap ({blob.size} bytes)"
            return None
        if b"\0" in blob[:_BINARY_PROBE]:
            self.skipped[path] = "binary file"
            return None
        return Source(path, blob, self.tree_cache())

    def tree_cache(self) -> BoundedCache[Any, Any]:
        """The change's parsed trees, bounded, shared by every analyzer and lens of the run."""
        if self._trees is None:
            from tribunal.lang.tree_cache import new_cache

            self._trees = new_cache()
        return self._trees


def _cost(source: Source | None) -> int:
    """Estimated bytes once decoded: the bytes, the text, and a string per line."""
    if source is None:
        return 256
    return 3 * len(source.data) + 64 * source.data.count(b"\n") + 256
