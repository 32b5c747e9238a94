"""Names that are not UTF-8, written the way git writes them.

git holds a file name as bytes; one that is not valid UTF-8 reaches Python as
lone surrogates (``surrogateescape``), which no UTF-8 writer accepts and which
strict JSON and SARIF readers reject even as ``\\udcXX`` escapes. So every
writer (the summary, the audit log, the reports) turns such a name into git's
C-quoted form, as ``git status`` shows it with ``core.quotePath``:
``"tests/test_\\377.py"``. Other text that embeds such bytes gets the same
octal escapes in place. Valid UTF-8 is left exactly as it is.
"""

from __future__ import annotations

from typing import Any

from tribunal.util.lazyre import lazy

_LETTERS = {0x07: "a", 0x08: "b", 0x09: "t", 0x0A: "n", 0x0B: "v", 0x0C: "f", 0x0D: "r"}


_SURROGATE = lazy("[\ud800-\udfff]")


def has_surrogates(text: str) -> bool:
    """Whether ``text`` holds a lone surrogate (checked in C: a report has thousands of strings)."""
    return not text.isascii() and _SURROGATE().search(text) is not None


def quote_path(name: str) -> str:
    """``name`` unchanged when it is valid UTF-8, else git's C-quoted form of its bytes."""
    if not has_surrogates(name):
        return name
    raw = name.encode("utf-8", "surrogateescape" if _bytes_only(name) else "backslashreplace")
    return '"' + "".join(_quoted(byte) for byte in raw) + '"'


def printable(text: str) -> str:
    """``text`` with each byte that is not UTF-8 written as an octal escape (``\\377``)."""
    if not has_surrogates(text):
        return text
    return "".join(_escaped(ch) if "\ud800" <= ch <= "\udfff" else ch for ch in text)


def _escaped(ch: str) -> str:
    """An undecodable byte as an octal escape; any other lone surrogate as ``\\uXXXX``."""
    return f"\\{ord(ch) - 0xDC00:03o}" if "\udc80" <= ch <= "\udcff" else f"\\u{ord(ch):04x}"


def _bytes_only(text: str) -> bool:
    """Whether every surrogate in ``text`` stands for an undecodable byte."""
    return all(not ("\ud800" <= ch <= "\udfff") or "\udc80" <= ch <= "\udcff" for ch in text)


def printable_data(data: Any, path_keys: frozenset[str] = frozenset({"file"})) -> Any:
    """A JSON-like value with every string made writable: values under ``path_keys``
    as quoted names, everything else with escapes in place (``data`` itself when no
    string needs it: a report of thousands of findings is checked in one pass)."""
    if not _any_surrogates(data):
        return data
    return _printable(data, path_keys)


def _any_surrogates(data: Any) -> bool:
    """Whether any string in ``data`` holds a lone surrogate: one C-speed dump, one search."""
    import json

    try:
        text = json.dumps(data, ensure_ascii=False, check_circular=False)
    except (TypeError, ValueError, RecursionError):  # not plain JSON: walk it
        return True
    return has_surrogates(text)


def _printable(data: Any, path_keys: frozenset[str]) -> Any:
    if isinstance(data, str):
        return printable(data)
    if isinstance(data, dict):
        return {
            key: quote_path(value)
            if key in path_keys and isinstance(value, str)
            else _printable(value, path_keys)
            for key, value in data.items()
        }
    if isinstance(data, list | tuple):
        return [_printable(item, path_keys) for item in data]
    return data


def _quoted(byte: int) -> str:
    if byte in (0x22, 0x5C):
        return "\\" + chr(byte)
    if byte in _LETTERS:
        return "\\" + _LETTERS[byte]
    if byte < 0x20 or byte >= 0x7F:
        return f"\\{byte:03o}"
    return chr(byte)
