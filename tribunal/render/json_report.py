"""``--format json``: the versioned machine shape (``tribunal.report/1``).

The shape is pinned in the design (other tools parse it) and described by
``tribunal/schemas/report.schema.json``; ``verdict`` appears on findings only.
"""

from __future__ import annotations

import json
from typing import Any

from tribunal import __version__
from tribunal.findings import Finding, Report
from tribunal.render.common import span

SCHEMA_ID = "tribunal.report/1"


def finding_to_dict(finding: Finding) -> dict[str, Any]:
    start, end = span(finding)  # 1-based or null, as the schema says
    out: dict[str, Any] = {
        "analyzer": finding.analyzer,
        "verdict": finding.verdict.name,
        "file": finding.file,
        "line": start,
        "end_line": end,
        "title": finding.title,
        "detail": finding.detail,
    }
    for key in ("claim", "source", "language", "suppressed"):
        value = getattr(finding, key)
        if value is not None:
            out[key] = value
    out["fingerprint"] = finding.fingerprint
    return out


def report_to_dict(
    report: Report, *, hard_fail: bool = False, strict: bool = False
) -> dict[str, Any]:
    rng = report.range
    notes = {"notes": list(report.notes)} if report.notes else {}
    return {
        "schema": SCHEMA_ID,
        "tool": {"name": "tribunal", "version": __version__},
        "range": {
            "kind": rng.kind,
            "base": rng.base,
            "head": rng.head,
            "merge_base": rng.merge_base,
            "description": rng.description,
        },
        "findings": [finding_to_dict(f) for f in report.findings],
        "counts": report.counts,
        "advisory": [item.as_dict() for item in report.advisory],
        "analyzers": list(report.analyzers),
        "files_analyzed": report.files_analyzed,
        "skipped": [{"file": path, "reason": reason} for path, reason in report.skipped],
        "errors": [
            {"analyzer": e.analyzer, "file": e.file, "message": e.message} for e in report.errors
        ],
        "duration_ms": round(report.duration_ms, 1),
        "hard_fail": hard_fail,
        "strict": strict,
        **notes,
    }


def render(
    report: Report, *, color: bool = False, hard_fail: bool = False, strict: bool = False
) -> str:
    from tribunal.git.cquote import printable_data

    # Names that are not UTF-8 in git's quoted form: never a lone surrogate, which
    # strict JSON readers reject even as a \\uXXXX escape.
    data = printable_data(report_to_dict(report, hard_fail=hard_fail, strict=strict))
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"
