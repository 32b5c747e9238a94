"""SHA-256 hex digests without loading OpenSSL, for the per-commit path.

``hashlib`` imports ``_hashlib``, which loads and initializes OpenSSL: ~2 ms of
every commit, spent on a few short digests (the findings' fingerprints).
CPython also ships its own SHA-256 (``_sha2`` since 3.12, ``_sha256`` before),
which is what ``hashlib`` itself falls back to; it is used when present, and
``hashlib`` otherwise. SHA-256 is SHA-256: the digests are the same either way.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from functools import cache
from typing import Any

#: CPython's own SHA-256 modules, newest name first.
_BUILTIN = ("_sha2", "_sha256")


def sha256_hex(data: bytes) -> str:
    """The SHA-256 of ``data`` in hexadecimal."""
    result: str = _sha256()(data).hexdigest()
    return result


@cache
def _sha256() -> Callable[[bytes], Any]:
    for name in _BUILTIN:
        try:
            constructor: Callable[[bytes], Any] = importlib.import_module(name).sha256
        except (ImportError, AttributeError):
            continue
        return constructor
    import hashlib

    return hashlib.sha256
