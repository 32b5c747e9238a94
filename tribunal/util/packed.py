"""Bytes kept compressed while nobody reads them: a big change's file texts and contents.

A 20,000-file change holds, for the run, the text its new files add and the
contents its analyzers read in turn; analyzers read one file at a time, so the
rest can wait compressed. zlib at its fastest level: code compresses three to
five times, at hundreds of MB/s each way, well under a read from git.
"""

from __future__ import annotations

#: Fewer bytes than this are kept as they are: zlib's header would eat the gain.
PACK_FROM = 256


def pack(data: bytes) -> bytes:
    import zlib

    return zlib.compress(data, 1)


def unpack(packed: bytes) -> bytes:
    import zlib

    return zlib.decompress(packed)
