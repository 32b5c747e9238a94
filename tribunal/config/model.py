"""The settings of a run, as validated from ``tribunal.yml`` (``config_file`` reads it).

Config is purely additive where the seed says so: ``generated-paths`` and
``risky-words`` extend the built-ins and can never replace them. This module holds
only the typed settings, so the change model can carry them without importing the
analyzer table that validating the file needs.
"""

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, NamedTuple

#: The default of the mapping fields: shared, so it must be read-only.
_EMPTY: Mapping[str, Any] = MappingProxyType({})


class Config(NamedTuple):
    """Validated settings; ``source`` says where they came from (None: built-in defaults)."""

    source: str | None = None
    analyzers: Mapping[str, bool] = _EMPTY
    generated_paths: tuple[str, ...] = ()
    risky_words: tuple[str, ...] = ()
    python_roots: tuple[str, ...] = ()
    strict: bool = False
    raw: Mapping[str, Any] = _EMPTY

    def enabled(self, analyzer_id: str) -> bool:
        return self.analyzers.get(analyzer_id, True)

    @property
    def digest(self) -> str:
        """A stable digest of the effective settings (for cache keys)."""
        import hashlib
        import json

        # dict(): json writes a read-only mapping (the default) as a string.
        canonical = json.dumps(dict(self.raw), sort_keys=True, separators=(",", ":"), default=str)
        return hashlib.sha256(canonical.encode()).hexdigest()[:16]
