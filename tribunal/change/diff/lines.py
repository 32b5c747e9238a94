"""Reading a diff line by line without ever holding one unbounded line."""

from __future__ import annotations

from collections.abc import Iterator
from typing import IO


def bounded_lines(stream: IO[bytes], limit: int) -> Iterator[bytes]:
    """Lines of ``stream``, each cut to ``limit`` bytes (the rest is read and dropped).

    A cut line still ends with a newline, so line counts stay right; it is longer
    than the size cap, so the parser marks its file skipped. One minified
    megabyte-long line is therefore never held whole.
    """
    while True:
        line = stream.readline(limit)
        if not line:
            return
        if len(line) == limit and not line.endswith(b"\n"):
            while True:
                tail = stream.readline(1 << 16)
                if not tail or tail.endswith(b"\n"):
                    break
            line += b"\n"
        yield line
