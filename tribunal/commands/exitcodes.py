"""Each command's ``--help`` epilog: the exit codes that command can return, and no other.

Every command can end in 2 (usage, config, git or input error: the CLI's one
handler), 3 (internal error) and 130 (Ctrl-C); ``0`` and ``1`` mean something
different per command, and some never return 1.
"""

from __future__ import annotations

_ALWAYS = (
    (2, "usage, configuration, git or input-file error"),
    (3, "internal error (a bug report with the traceback is written)"),
    (130, "interrupted"),
)


def epilog(
    ok: str,
    blocked: str | None = None,
    *,
    usage: str | None = None,
    internal: str | None = None,
) -> str:
    """``exit codes:`` with 0 (``ok``), 1 (``blocked``, if the command can return it), 2, 3, 130.

    ``usage`` and ``internal`` replace the common meaning of 2 and 3 for a
    command that has more to say about them.
    """
    rows = [(0, ok)]
    rows += [(1, blocked)] if blocked else []
    override = {2: usage, 3: internal}
    rows += [(code, override.get(code) or text) for code, text in _ALWAYS]
    return "exit codes:\n" + "".join(_row(code, text) for code, text in rows)


def _row(code: int, text: str) -> str:
    """One code and its meaning; a newline in ``text`` continues under the meaning."""
    first, *rest = text.split("\n")
    return f"  {code:<4} {first}\n" + "".join(f"       {line}\n" for line in rest)
