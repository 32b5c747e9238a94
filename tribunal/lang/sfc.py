"""The script blocks of single-file components (``.vue``, ``.svelte``), as JS/TS sources.

A component's imports, exports and defaults live in its ``<script>`` blocks:
Vue's plain ``<script>`` and ``<script setup>``, Svelte's instance script and
module script (``<script context="module">``, Svelte 5 ``<script module>``).
Each block is cut out with its line offset, so findings point at the
component's own lines. A block whose ``lang`` Tribunal cannot parse
(CoffeeScript, a preprocessor) or whose code lives elsewhere (``src=``) is
listed as unreadable: what it imports, exports or defaults is unknown.
"""

import re
from typing import NamedTuple

from tribunal.change.model import Source
from tribunal.util.lazyre import lazy

SFC_EXTENSIONS = (".vue", ".svelte")
_LANGS = {
    None: "javascript", "js": "javascript", "javascript": "javascript", "jsx": "javascript",
    "ts": "typescript", "typescript": "typescript", "tsx": "tsx",
}  # fmt: skip
#: An opening ``<script ...>`` tag at the start of a line (template code cannot hold one).
_OPEN = lazy(r"^<script\b([^>]*)>", re.MULTILINE | re.IGNORECASE)
_CLOSE = lazy(r"</script\s*>", re.IGNORECASE)
_ATTR = lazy(r"""([\w:-]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+)))?""")


class ScriptBlock(NamedTuple):
    """One ``<script>`` block: its code as a source, where it starts, what kind it is."""

    source: Source
    language: str | None  # None when its ``lang`` cannot be parsed or it has ``src=``
    line_offset: int  # add to a line of ``source`` to get the component's line
    setup: bool  # Vue ``<script setup>``
    module: bool  # Svelte's module script (``context="module"`` or ``module``)
    attributes: str  # the tag's attributes as written, for messages


def is_sfc(path: str) -> bool:
    return path.lower().endswith(SFC_EXTENSIONS)


def script_blocks(source: Source) -> list[ScriptBlock]:
    """The component's script blocks in order; an unterminated one runs to the end."""
    text = source.text
    out = []
    for match in _OPEN().finditer(text):
        start = match.end()
        close = _CLOSE().search(text, start)
        end = close.start() if close is not None else len(text)
        attrs = _attributes(match.group(1))
        lang = attrs.get("lang")
        language = None if "src" in attrs else _LANGS.get(lang.lower() if lang else None)
        offset = text.count("\n", 0, start)
        code = text[start:end]
        out.append(
            ScriptBlock(
                Source(source.path, code.encode("utf-8")),
                language,
                offset,
                "setup" in attrs,
                attrs.get("context") == "module" or "module" in attrs,
                match.group(1).strip(),
            )
        )
    return out


def unreadable(block: ScriptBlock) -> str | None:
    """Why a block's code cannot be read, or None."""
    if block.language is not None:
        return None
    return f"<script {block.attributes}> is not JavaScript or TypeScript Tribunal can read"


def _attributes(raw: str) -> dict[str, str]:
    out = {}
    for match in _ATTR().finditer(raw):
        value = match.group(2) or match.group(3) or match.group(4) or ""
        out[match.group(1).lower()] = value
    return out
