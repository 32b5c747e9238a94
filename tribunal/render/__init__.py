"""Renderers: a report in, text out. One module per format, imported on use."""

from __future__ import annotations

import importlib

from tribunal.findings import Report

_MODULES = {
    "text": "tribunal.render.text",
    "md": "tribunal.render.markdown",
    "json": "tribunal.render.json_report",
    "sarif": "tribunal.render.sarif",
    "github": "tribunal.render.github",
}
#: Every format, in ``--help`` order.
FORMATS = tuple(_MODULES)


def render(
    report: Report, fmt: str, *, color: bool = False, hard_fail: bool = False, strict: bool = False
) -> str:
    """``report`` in format ``fmt`` (one of ``FORMATS``); ``hard_fail`` and ``strict`` say
    what the exit code gates on (``tribunal.gate.policy``), for the formats that say it."""
    module = importlib.import_module(_MODULES[fmt])
    text: str = module.render(report, color=color, hard_fail=hard_fail, strict=strict)
    return text
