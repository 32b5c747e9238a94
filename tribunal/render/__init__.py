"""Renderers: a report in, text out. One module per format, imported on use."""

from __future__ import annotations

import importlib

from tribunal.findings import Report

_MODULES = {
    "text": "tribunal.render.text",
    "md": "tribunal.render.markdown",
    "json": "tribunal.render.json_report",
    "sarif": "tribunal.render.sarif",
}


def render(report: Report, fmt: str, *, color: bool = False, hard_fail: bool = False) -> str:
    """``report`` in format ``fmt`` (text, md, json, sarif)."""
    module = importlib.import_module(_MODULES[fmt])
    text: str = module.render(report, color=color, hard_fail=hard_fail)
    return text
