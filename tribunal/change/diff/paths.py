"""Path spellings in diff headers: git's C-style quoting and diff prefixes."""

from __future__ import annotations

_ESCAPES = {
    ord("a"): 7, ord("b"): 8, ord("t"): 9, ord("n"): 10, ord("v"): 11,
    ord("f"): 12, ord("r"): 13, ord('"'): 34, ord("\\"): 92,
}  # fmt: skip

#: Prefixes git puts before paths: the default a/ b/ and the mnemonic ones
#: (commit, index, worktree, object) that ``diff.mnemonicPrefix`` selects.
DIFF_PREFIXES = ("a/", "b/", "c/", "i/", "w/", "o/", "1/", "2/")

DEV_NULL = "/dev/null"


def unquote(raw: bytes) -> str:
    """Decode a header path; git wraps unusual names in quotes with C escapes."""
    if not (len(raw) >= 2 and raw[:1] == b'"' and raw[-1:] == b'"'):
        return raw.decode("utf-8", "surrogateescape")
    out = bytearray()
    body = raw[1:-1]
    i = 0
    while i < len(body):
        byte = body[i]
        if byte != 0x5C or i + 1 >= len(body):  # not a backslash
            out.append(byte)
            i += 1
            continue
        nxt = body[i + 1]
        if 0x30 <= nxt <= 0x37:  # octal escape, up to three digits
            digits = body[i + 1 : i + 4]
            octal = bytes(d for d in digits if 0x30 <= d <= 0x37)[:3]
            out.append(int(octal, 8) & 0xFF)
            i += 1 + len(octal)
            continue
        out.append(_ESCAPES.get(nxt, nxt))
        i += 2
    return out.decode("utf-8", "surrogateescape")


def split_header_path(raw: bytes) -> str:
    """A ``---``/``+++`` path without the timestamp or the tab git appends."""
    raw = raw.rstrip(b"\r\n")
    if raw.startswith(b'"'):
        end = _closing_quote(raw)
        if end > 0:
            return unquote(raw[: end + 1])
    return unquote(raw.split(b"\t", 1)[0].rstrip(b" ") if b"\t" in raw else raw)


def split_git_header(rest: bytes) -> tuple[str, str] | None:
    """The two paths of ``diff --git A B``; None when the split is ambiguous."""
    rest = rest.rstrip(b"\r\n")
    if rest.startswith(b'"'):
        end = _closing_quote(rest)
        if end < 0:
            return None
        first, tail = rest[: end + 1], rest[end + 2 :]
        return unquote(first), unquote(tail)
    if rest.endswith(b'"'):
        start = rest.rfind(b' "')
        if start < 0:
            return None
        return unquote(rest[:start]), unquote(rest[start + 1 :])
    # Unquoted and no rename: both names are equal, so split in the middle.
    if len(rest) % 2 == 1:
        half = len(rest) // 2
        left, right = rest[:half], rest[half + 1 :]
        if rest[half : half + 1] == b" " and _strip(left) == _strip(right):
            return unquote(left), unquote(right)
    return None


def strip_prefix(path: str) -> str:
    """Drop one of git's diff prefixes (``a/``, ``b/``, mnemonic ones)."""
    return path[2:] if path[:2] in DIFF_PREFIXES else path


def _strip(raw: bytes) -> bytes:
    return raw[2:] if raw[:2].decode("latin-1") in DIFF_PREFIXES else raw


def _closing_quote(raw: bytes) -> int:
    i = 1
    while i < len(raw):
        if raw[i] == 0x5C:
            i += 2
            continue
        if raw[i] == 0x22:
            return i
        i += 1
    return -1
