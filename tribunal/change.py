"""The analyzed change: changed files plus read access to both sides.

Every analyzer receives the same ``Change``; each file's base and head
contents are read at most once per run (cached here) and shared.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cached_property
from pathlib import Path
from types import MappingProxyType
from typing import Final, NamedTuple

from tribunal.config import Config
from tribunal.diff.model import FileChange
from tribunal.findings import RangeInfo
from tribunal.gitcmd import BlobTooLarge, Git
from tribunal.paths import is_generated, language_of
from tribunal.snapshot import Blob, Snapshot

_BINARY_PROBE = 8000


class Source:
    """A file's contents with the views analyzers need, decoded once.

    Compared and hashed by identity (memos such as ``lang.decorators`` hold it
    in a ``WeakKeyDictionary``). A plain class so that the pre-commit hook's
    start-up needs no ``dataclasses`` (see ``tribunal.findings``).
    """

    path: Final[str]
    data: Final[bytes]

    def __init__(self, path: str, data: bytes) -> None:
        self.path = path
        self.data = data

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


_NO_OVERRIDES: Mapping[str, bytes] = MappingProxyType({})


class Change:
    """What a run analyzes. ``base`` is None when no base is known (a bare diff).

    Mutable (callers set ``claims`` and ``skip_generated`` after building it)
    and compared by identity; ``skipped`` collects files found unreadable.
    """

    __slots__ = (
        "__weakref__",  # lang.per_change memos hold a change weakly
        "_cache",
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
        self._cache: dict[tuple[str, str], Source | None] = {}
        self.skipped: dict[str, str] = {}

    @property
    def has_base(self) -> bool:
        return self.base is not None

    def is_generated(self, path: str) -> bool:
        return self.skip_generated and is_generated(path, self.config.generated_paths)

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

    def _source(
        self, side: str, path: str, snap: Snapshot | None, overrides: Mapping[str, bytes]
    ) -> Source | None:
        key = (side, path)
        if key in self._cache:
            return self._cache[key]
        blob: Blob = overrides.get(path)
        if blob is None and snap is not None:
            blob = snap.read(path)
        source = self._to_source(path, blob)
        self._cache[key] = source
        return source

    def _to_source(self, path: str, blob: Blob) -> Source | None:
        if blob is None:
            return None
        if isinstance(blob, BlobTooLarge):
            self.skipped[path] = f"larger than the size cap ({blob.size} bytes)"
            return None
        if b"\0" in blob[:_BINARY_PROBE]:
            self.skipped[path] = "binary file"
            return None
        return Source(path, blob)
