"""The append-only, hash-chained log: ``<git common dir>/tribunal/weakened-gate.jsonl``.

Each line is one record whose ``prev`` is the SHA-256 of the exact bytes of the
line before it (the first line's is all zeros), so editing or removing a record
inside the chain breaks the link after it. Appends happen under an exclusive
``flock`` and each line is written with a single ``write`` on an ``O_APPEND``
descriptor, so concurrent writers never interleave.

A sidecar (``weakened-gate.head``) remembers how many records were written and
the hash of the last one, which also catches a truncated tail or an edited last
record. Both are keyless: whoever can write ``.git`` can rewrite the whole
chain and the sidecar consistently, or delete both. That is said plainly to
users; CI re-running the gate is what cannot be edited away locally.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from pydantic import ValidationError

from tribunal.audit.record import Record
from tribunal.util.fsutil import write_atomically
from tribunal.worktree.lock import admin_lock, state_dir

LOG_NAME = "weakened-gate.jsonl"
HEAD_NAME = "weakened-gate.head"
LOCK_NAME = "weakened-gate.lock"
GENESIS = "0" * 64


@dataclass(frozen=True)
class Problem:
    line: int | None  # 1-based; None: the log as a whole
    message: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}" if self.line else self.message


def log_path(common_dir: Path) -> Path:
    return state_dir(common_dir) / LOG_NAME


def line_hash(line: bytes) -> str:
    return hashlib.sha256(line).hexdigest()


@contextlib.contextmanager
def locked(common_dir: Path, timeout: float = 30.0) -> Iterator[None]:
    """Hold the log's lock: one writer (and one reflog scan) at a time."""
    with admin_lock(common_dir, timeout, LOCK_NAME):
        yield


def read_lines(common_dir: Path) -> list[bytes]:
    """The log's lines without their newlines; empty when there is no log."""
    try:
        data = log_path(common_dir).read_bytes()
    except FileNotFoundError:
        return []
    return data.splitlines()


def append(common_dir: Path, records: Sequence[Record]) -> list[Record]:
    """Chain and append ``records`` (the caller holds ``locked``); return them as written."""
    if not records:
        return []
    path = log_path(common_dir)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        data = path.read_bytes()
        lines = data.splitlines()
        prev = line_hash(lines[-1]) if lines else GENESIS
        if data and not data.endswith(b"\n"):
            os.write(fd, b"\n")  # a damaged last line; --verify reports it
        written = []
        for record in records:
            chained = _writable(record).model_copy(update={"prev": prev})
            line = chained.model_dump_json(by_alias=True).encode()
            os.write(fd, line + b"\n")
            prev = line_hash(line)
            written.append(chained)
        os.fsync(fd)
    finally:
        os.close(fd)
    _write_head(common_dir, len(lines) + len(written), prev)
    return written


def _writable(record: Record) -> Record:
    """``record`` with names that are not UTF-8 in git's quoted form (``tribunal.git.cquote``)."""
    from tribunal.git.cquote import printable_data

    return Record.model_validate(printable_data(record.model_dump(mode="json", by_alias=True)))


def records(common_dir: Path) -> Iterator[tuple[int, Record | None]]:
    """Each line's number and record (None for a line that is not a valid record)."""
    for number, line in enumerate(read_lines(common_dir), 1):
        yield number, parse(line)


def parse(line: bytes) -> Record | None:
    try:
        return Record.model_validate_json(line)
    except ValidationError:
        return None


def verify(common_dir: Path) -> list[Problem]:
    """Where the chain is broken; empty when every link and the remembered head hold."""
    lines = read_lines(common_dir)
    problems = [*_links(lines)]
    head = _read_head(common_dir)
    if head is not None:
        problems += _against_head(lines, *head)
    return problems


def _links(lines: list[bytes]) -> Iterator[Problem]:
    prev = GENESIS
    for number, line in enumerate(lines, 1):
        record = parse(line)
        if record is None:
            yield Problem(number, "not a valid record (edited, or damaged)")
        elif record.prev != prev:
            yield Problem(number, _broken(number))
        prev = line_hash(line)


def _broken(number: int) -> str:
    if number == 1:
        return "the chain does not start here: records before it were removed"
    return (
        f"the chain is broken: its prev does not match line {number - 1} "
        f"(line {number - 1} was edited, or records between them were removed)"
    )


def _against_head(lines: list[bytes], count: int, last: str) -> list[Problem]:
    if not lines and count:
        return [Problem(None, f"the log is gone, but {count} records were written to it")]
    if len(lines) < count:
        message = f"{count} records were written but only {len(lines)} remain"
        return [Problem(None, f"{message}: the tail was truncated or records were removed")]
    if len(lines) > count:
        after = len(lines) - count - 1
        also = f" (nor the {after} lines after it)" if after else ""
        return [Problem(count + 1, f"not written by tribunal{also}")]
    if lines and line_hash(lines[-1]) != last:
        return [Problem(len(lines), "the last record is not the one tribunal wrote (edited)")]
    return []


def _write_head(common_dir: Path, count: int, last: str) -> None:
    path = state_dir(common_dir) / HEAD_NAME
    write_atomically(path, json.dumps({"count": count, "last": last}), encoding="ascii")


def _read_head(common_dir: Path) -> tuple[int, str] | None:
    try:
        data = json.loads((state_dir(common_dir) / HEAD_NAME).read_text(encoding="ascii"))
        return int(data["count"]), str(data["last"])
    except (OSError, ValueError, KeyError, TypeError):
        return None


def new_only(common_dir: Path, found: Iterable[Record | None]) -> list[Record]:
    """``found`` without what the log (or an earlier record of this batch) already covers."""
    seen = {record.key() for _, record in records(common_dir) if record is not None}
    out = []
    for record in found:
        if record is not None and record.key() not in seen:
            seen.add(record.key())
            out.append(record)
    return out
