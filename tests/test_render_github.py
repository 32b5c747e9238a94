"""``--format github`` (workflow-command annotations) and the PR comment, compared in full.

Annotations are parsed back the way the Actions runner parses a workflow
command, so "escaped" means "the runner reads exactly one command with exactly
the original values", not "contains a percent sign".
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.test_render import (
    AFT,
    CLAIMS,
    PIPE_PATH,
    SPACE_PATH,
    UNDECODABLE_PATH,
    finding,
    fp,
    weird_report,
)
from tribunal.findings import AnalyzerError, RangeInfo, Report, Verdict
from tribunal.render import render
from tribunal.render.github import escape_data, escape_property

GOLDEN = Path(__file__).parent / "golden" / "pr-comment.md"


def parse_command(line: str) -> tuple[str, dict[str, str], str]:
    """(command, properties, message) as the runner reads ``::cmd k=v,...::message``."""
    assert line.startswith("::"), line
    head, sep, data = line[2:].partition("::")
    assert sep, line
    name, _, props = head.partition(" ")
    parsed = {}
    for pair in filter(None, props.split(",")):
        key, eq, value = pair.partition("=")
        assert eq, pair
        parsed[key] = _unescape(value, prop=True)
    return name, parsed, _unescape(data, prop=False)


def _unescape(text: str, *, prop: bool) -> str:
    text = text.replace("%0D", "\r").replace("%0A", "\n")
    if prop:
        text = text.replace("%3A", ":").replace("%2C", ",")
    return text.replace("%25", "%")


def commands(report: Report, **kw: bool) -> list[tuple[str, dict[str, str], str]]:
    lines = render(report, "github", **kw).splitlines()
    assert lines[-1].startswith("tribunal: ")  # the one plain line: never a command
    return [parse_command(line) for line in lines[:-1]]


def test_contradicted_is_an_error_unverified_a_notice_pass_is_left_out() -> None:
    found = commands(weird_report(errors=()))
    kinds = [name for name, _, _ in found]
    assert kinds == ["error"] * 4 + ["notice"] * 7 + ["notice"]  # CONTRADICTED first
    assert not any("passing-title" in message for _, _, message in found)
    # a claim a model proposed is a notice whatever the verifier said, and comes last
    _, props, message = found[-1]
    assert props == {"title": "Tribunal advisory: a proposed claim (never blocking)"}
    assert message.startswith("proposed claim 'added-test' (claims.md) does not hold (advice")


def test_annotations_point_at_repository_lines() -> None:
    by_title = {message.split("\n")[0]: props for _, props, message in commands(weird_report())}
    assert by_title["test asserts nothing"] == {
        "file": SPACE_PATH,
        "line": "3",
        "endLine": "5",
        "title": f"Tribunal CONTRADICTED: {AFT}",
    }
    assert by_title["an analyzer that said line 0"] == {
        "file": "zero.py",
        "title": f"Tribunal UNVERIFIED: {AFT}",
    }


def test_claims_point_at_their_source_or_at_nothing() -> None:
    found = {message.split(" (claim")[0]: props for _, props, message in commands(weird_report())}
    assert found["no-default-flip: cannot tell"]["file"] == "docs/PR body.md"
    assert found["no-default-flip: cannot tell"]["line"] == "4"
    commit_claim = found["no-new-dependency: requests added"]
    assert "file" not in commit_claim and "line" not in commit_claim


def test_a_claims_file_outside_the_repository_is_not_annotated_as_a_path() -> None:
    """The action's PR body lives in $RUNNER_TEMP: annotate the code, never that path."""
    outside = "/home/runner/work/_temp/tribunal/pull-request-body.md"
    report = Report(
        (
            finding(
                Verdict.CONTRADICTED,
                outside,
                2,
                "added-test: none",
                analyzer=CLAIMS,
                claim="added-test",
                source=outside,
            ),
            finding(
                Verdict.CONTRADICTED,
                "src/api.py",
                9,
                "no-public-api-change: f removed",
                analyzer=CLAIMS,
                claim="no-public-api-change",
                source=outside,
            ),
        ),
        (CLAIMS,),
        1,
        RangeInfo("range", description="a...b"),
        1.0,
    )
    (first, second) = commands(report)
    assert "file" not in first[1] and "line" not in first[1]
    assert "claim added-test from " + outside in first[2]
    assert second[1]["file"] == "src/api.py" and second[1]["line"] == "9"


@pytest.mark.parametrize(
    "hostile",
    [
        "a,b:c.py",
        "50%0A%25.py",
        "x\n::add-mask::secret",
        "x\r\n::stop-commands::token",
        "trailing %",
        UNDECODABLE_PATH,
        PIPE_PATH,
    ],
)
def test_hostile_values_stay_one_command_with_their_exact_text(hostile: str) -> None:
    report = Report(
        (
            finding(
                Verdict.CONTRADICTED,
                hostile,
                1,
                f"title {hostile}",
                detail=f"detail {hostile}",
                analyzer=f"an,{hostile}",
            ),
        ),
        (AFT,),
        1,
        RangeInfo("range", description="a...b"),
        1.0,
    )
    text = render(report, "github")
    assert len(text.splitlines()) == 2
    ((name, props, message),) = commands(report)
    printable = hostile.replace("\udcff", "\\377")  # the byte as git writes it
    assert name == "error"
    assert props["file"] == printable
    assert props["title"] == f"Tribunal CONTRADICTED: an,{printable}"
    assert message == f"title {printable}\ndetail {printable}"


def test_escaping_matches_the_toolkit() -> None:
    """The exact encodings of ``@actions/core``'s escapeData and escapeProperty."""
    assert escape_data("100%\r\nok:,") == "100%25%0D%0Aok:,"
    assert escape_property("100%\r\nok:,") == "100%25%0D%0Aok%3A%2C"


def test_suppressed_and_claim_context_are_in_the_message() -> None:
    found = commands(weird_report())
    (suppressed,) = [m for _, _, m in found if m.startswith("suppressed one")]
    assert "(suppressed: flaky on CI <i>)" in suppressed


def test_analyzer_errors_are_warnings_and_the_summary_line_says_the_exit() -> None:
    report = weird_report()
    lines = render(report, "github", hard_fail=True).splitlines()
    warnings = [parse_command(line) for line in lines if line.startswith("::warning")]
    assert [props.get("file") for _, props, _ in warnings] == ["broken.py", None]
    assert all("results are incomplete" in props["title"] for _, props, _ in warnings)
    assert lines[-1].startswith("tribunal: 4 CONTRADICTED · 7 UNVERIFIED · 1 PASS — ")
    clean = Report((), (AFT,), 0, RangeInfo("staged", description="staged"), 1.0)
    assert render(clean, "github") == (
        "tribunal: 0 CONTRADICTED · 0 UNVERIFIED · 0 PASS — no CONTRADICTED findings\n"
    )


# --- the PR comment, in full ---------------------------------------------------------------


def comment_fixture() -> Report:
    """A report like one a real pull request gets: every verdict, a claim, a long detail."""
    c, u, p = Verdict.CONTRADICTED, Verdict.UNVERIFIED, Verdict.PASS
    return Report(
        findings=(
            finding(
                c,
                "tests/test_cart.py",
                12,
                "test_total asserts nothing",
                end_line=15,
                detail="The test calls cart.total() and never checks the result.",
                fingerprint=fp(1),
            ),
            finding(
                u,
                "tests/test_cart.py",
                30,
                "test_discount: only a mock is checked",
                detail="assert_called_once() is the test's only check.\n"
                "It passes whatever the code under test returns.",
                fingerprint=fp(2),
            ),
            finding(
                c,
                "src/cart.py",
                1,
                "imports round_half from money, which does not define it",
                analyzer="hallucinated-symbol",
                fingerprint=fp(3),
            ),
            finding(
                c,
                "pr-body",
                3,
                "added-test: no test was added or changed",
                analyzer=CLAIMS,
                claim="added-test",
                source="pr-body",
                fingerprint=fp(4),
            ),
            finding(
                u,
                "src/cart.py",
                40,
                "this change adds a suppression",
                analyzer="suppression-added",
                suppressed="flaky on CI",
                fingerprint=fp(5),
            ),
            finding(p, "tests/test_cart.py", 50, "test_empty checks its result", fingerprint=fp(6)),
            finding(
                p,
                "src/cart.py",
                2,
                "import resolves",
                analyzer="hallucinated-symbol",
                fingerprint=fp(7),
            ),
        ),
        analyzers=(AFT, "hallucinated-symbol", CLAIMS),
        files_analyzed=3,
        range=RangeInfo("range", "b" * 40, "h" * 40, "m" * 40, "1111111...2222222"),
        duration_ms=42.0,
        skipped=(("assets/logo.png", "binary file"),),
        notes=("config: tribunal.yml at 0123456789ab (1111111)",),
    )


def test_the_pr_comment_matches_the_golden_file_in_full() -> None:
    """Any change to the comment's shape shows here as a diff to review.

    After an intended change, regenerate with ``TRIBUNAL_REGEN_GOLDEN=1`` and
    read the diff of ``tests/golden/pr-comment.md`` before committing it.
    """
    rendered = render(comment_fixture(), "md", hard_fail=False)
    if os.environ.get("TRIBUNAL_REGEN_GOLDEN"):
        GOLDEN.write_text(rendered, encoding="utf-8")
    assert rendered == GOLDEN.read_text(encoding="utf-8")


def test_the_golden_comment_is_what_a_gated_run_would_not_say() -> None:
    """The exit line depends on --hard-fail; the golden file is the report-only one."""
    gated = render(comment_fixture(), "md", hard_fail=True)
    assert gated != GOLDEN.read_text(encoding="utf-8")
    assert "blocking: --hard-fail and a CONTRADICTED finding (exit 1)" in gated


def test_errors_report_is_not_silently_green() -> None:
    report = comment_fixture()._replace(
        errors=(AnalyzerError(AFT, "tests/test_cart.py", "analyzer crashed on tests/test_cart.py"),)
    )
    annotations = render(report, "github")
    assert "::warning file=tests/test_cart.py," in annotations
    assert "analyzer error(s)" in annotations.splitlines()[-1]
