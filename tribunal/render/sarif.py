"""``--format sarif``: SARIF 2.1.0, for code scanning.

CONTRADICTED is an ``error``, UNVERIFIED a ``note``, PASS is left out. SARIF is
data, never a gate: the exit code still comes from the verdicts.

Locations follow what GitHub's ingestion accepts: every result carries a
physical location with a repository-relative, percent-encoded URI, and a region
only for a real (>= 1) line. A claim finding points at its claims source; the
code it is about, when that is another file, is a related location. A finding
with nothing to point at (a claim from a commit message, about no file) cannot
be a result without making GitHub reject the whole file, so it is reported as a
notification of the run instead of being dropped.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import quote

from tribunal import __version__
from tribunal.engine.registry import BUILTINS, SUPPRESSION_ID
from tribunal.findings import AnalyzerError, Finding, Report, Verdict
from tribunal.render.common import is_claim, places, printable

SCHEMA_URI = (
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
)
#: The project's public home; a placeholder until it has one.
INFORMATION_URI = "https://example.invalid/tribunal"
#: Versioned so that a future change of the digest cannot silently merge alerts.
FINGERPRINT_KEY = "tribunal/v1"
SRCROOT = "%SRCROOT%"

_LEVEL = {Verdict.CONTRADICTED: "error", Verdict.UNVERIFIED: "note"}
_SUPPRESSION_RULE = (
    "Suppressions added by the change",
    "A `tribunal: ignore[...]` comment that the change itself adds: the gate is being "
    "silenced here, so a person should see it.",
)
Json = dict[str, Any]


def render(
    report: Report, *, color: bool = False, hard_fail: bool = False, strict: bool = False
) -> str:
    return json.dumps(sarif_log(report), indent=2, ensure_ascii=False) + "\n"


def sarif_log(report: Report) -> Json:
    """The whole log: one run of Tribunal over one change."""
    rules = _rules(report)
    index = {rule["id"]: i for i, rule in enumerate(rules)}
    results: list[Json] = []
    unplaced: list[Json] = []
    for finding in report.findings:
        if finding.verdict is Verdict.PASS:
            continue
        locations = locations_for(finding)
        if locations:
            results.append(_result(finding, index, locations))
        else:
            unplaced.append(_unplaced(finding, index))
    driver = {
        "name": "Tribunal",
        "version": __version__,
        "semanticVersion": __version__,
        "informationUri": INFORMATION_URI,
        "rules": rules,
    }
    run = {
        "tool": {"driver": driver},
        "invocations": [_invocation(report, index, unplaced)],
        "results": results,
    }
    return {"$schema": SCHEMA_URI, "version": "2.1.0", "runs": [run]}


def _rules(report: Report) -> list[Json]:
    ids = [*report.analyzers, SUPPRESSION_ID]
    ids += sorted({f.analyzer for f in report.findings} - set(ids))
    return [_rule(rule_id) for rule_id in dict.fromkeys(ids)]


def _rule(rule_id: str) -> Json:
    spec = BUILTINS.get(rule_id)
    if spec is not None:
        title, description = spec.title, spec.description
    elif rule_id == SUPPRESSION_ID:
        title, description = _SUPPRESSION_RULE
    else:  # an analyzer this version does not know (a newer engine's finding)
        title, description = rule_id, rule_id
    rule: Json = {
        "id": rule_id,
        "name": "".join(part.capitalize() for part in rule_id.split("-")),
        "shortDescription": {"text": title},
        "fullDescription": {"text": description},
        "help": {"text": description},
    }
    if spec is not None:
        rule["properties"] = {"kind": spec.kind.value}
    return rule


def _result(finding: Finding, index: dict[str, int], locations: list[Json]) -> Json:
    result: Json = {
        "ruleId": finding.analyzer,
        "ruleIndex": index[finding.analyzer],
        "level": _LEVEL[finding.verdict],
        "message": {"text": _message(finding)},
        "locations": locations[:1],
    }
    if locations[1:]:
        result["relatedLocations"] = [dict(loc, id=i) for i, loc in enumerate(locations[1:])]
    if finding.fingerprint:
        result["partialFingerprints"] = {FINGERPRINT_KEY: finding.fingerprint}
    if finding.suppressed:
        result["suppressions"] = [
            {"kind": "inSource", "justification": printable(finding.suppressed)}
        ]
    result["properties"] = _properties(finding)
    return result


def _message(finding: Finding) -> str:
    text = finding.title
    if finding.detail.strip():
        text += "\n" + finding.detail.strip("\n")
    return printable(text)


def _properties(finding: Finding) -> Json:
    props: Json = {"verdict": finding.verdict.name}
    for key in ("claim", "source", "language", "suppressed"):
        value = getattr(finding, key)
        if value is not None:
            props[key] = printable(value)
    return props


def locations_for(finding: Finding) -> list[Json]:
    """Primary location first, then related ones; empty when nothing can be placed."""
    return [_location(*place) for place in places(finding)]


def _location(path: str, start: int | None, end: int | None) -> Json:
    artifact: Json = {"uri": path_uri(path)}
    if not path.startswith("/"):
        artifact["uriBaseId"] = SRCROOT
    physical: Json = {"artifactLocation": artifact}
    if start is not None:
        region = {"startLine": start}
        if end is not None:
            region["endLine"] = end
        physical["region"] = region
    return {"physicalLocation": physical}


def path_uri(path: str) -> str:
    """A repository path as a URI reference: ``a b/é.py`` -> ``a%20b/%C3%A9.py``.

    Every byte outside the unreserved set is percent-encoded (``:`` too, so a
    first segment can never read as a scheme); undecodable bytes keep their
    original value. A path outside the repository becomes a ``file://`` URI.
    """
    encoded = quote(path, safe="/", errors="surrogateescape")
    return f"file://{encoded}" if path.startswith("/") else encoded


def _unplaced(finding: Finding, index: dict[str, int]) -> Json:
    where = f" (claim {finding.claim} from {finding.source})" if is_claim(finding) else ""
    return {
        "level": _LEVEL[finding.verdict],
        "message": {"text": printable(f"{finding.verdict.name}{where}: {_message(finding)}")},
        "associatedRule": {"id": finding.analyzer, "index": index[finding.analyzer]},
    }


def _invocation(report: Report, index: dict[str, int], unplaced: list[Json]) -> Json:
    notes = [_error_note(error, index) for error in report.errors]
    said = [{"level": "note", "message": {"text": printable(text)}} for text in report.notes]
    return {
        "executionSuccessful": not report.errors,
        "toolExecutionNotifications": [*notes, *unplaced, *said],
    }


def _error_note(error: AnalyzerError, index: dict[str, int]) -> Json:
    note: Json = {"level": "error", "message": {"text": printable(error.message)}}
    if error.analyzer in index:
        note["associatedRule"] = {"id": error.analyzer, "index": index[error.analyzer]}
    if error.file:
        note["locations"] = [_location(error.file, None, None)]
    return note
