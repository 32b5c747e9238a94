"""``tribunal: ignore[<analyzer>] <reason>``: downgrades, never hides; added ones are reported."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from tests.fake_analyzers import check_in_process, installed
from tests.gitrepo import GitRepo
from tribunal.engine.registry import SUPPRESSION_ID
from tribunal.findings import Finding, Report, Verdict
from tribunal.gate.suppress import parse_marker


@pytest.fixture(autouse=True)
def _fakes() -> Iterator[None]:
    with installed(["fake-flag"]):
        yield


def flagged(report: Report) -> list[Finding]:
    return [f for f in report.findings if f.analyzer == "fake-flag"]


def added_marks(report: Report) -> list[Finding]:
    return [f for f in report.findings if f.analyzer == SUPPRESSION_ID]


@pytest.mark.parametrize(
    ("line", "parsed"),
    [
        ("x = 1  # tribunal: ignore[fake-flag] legacy API", ("fake-flag", "legacy API")),
        (
            "// tribunal: ignore[assertion-free-test] smoke test",
            ("assertion-free-test", "smoke test"),
        ),
        ("/* tribunal: ignore[a-b] why not */", ("a-b", "why not")),
        ("<!-- tribunal:ignore[x1] reason -->", ("x1", "reason")),
        ("# tribunal: ignore[fake-flag]", ("fake-flag", "")),
        ("#tribunal:ignore[fake-flag]   ", ("fake-flag", "")),
        ("tribunal: ignore[fake-flag] no comment marker", None),
        ("# tribunal: ignore fake-flag", None),
        ("# tribunal: ignore[Fake_Flag] case", None),
    ],
)
def test_parse_marker(line: str, parsed: tuple[str, str] | None) -> None:
    assert parse_marker(line) == parsed


def test_on_the_line_with_a_reason(repo: GitRepo) -> None:
    repo.commit({"a.py": "x = 0\n"})
    repo.write(
        {"a.py": "x = 0\ny = 1  # CONTRADICT  # tribunal: ignore[fake-flag] known false alarm\n"}
    )
    report = check_in_process(repo)
    (finding,) = flagged(report)
    assert (finding.verdict, finding.suppressed, finding.line) == (
        Verdict.UNVERIFIED,
        "known false alarm",
        2,
    )
    (mark,) = added_marks(report)
    assert (mark.verdict, mark.file, mark.line) == (Verdict.UNVERIFIED, "a.py", 2)
    assert mark.title == "this change adds a suppression of fake-flag"
    assert mark.detail == "reason: known false alarm"


def test_on_the_line_above_in_a_slash_comment(repo: GitRepo) -> None:
    repo.commit({"a.js": "let x = 0;\n"})
    repo.write(
        {"a.js": "let x = 0;\n// tribunal: ignore[fake-flag] vendored\nlet y = 'CONTRADICT';\n"}
    )
    (finding,) = flagged(check_in_process(repo))
    assert finding.verdict is Verdict.UNVERIFIED and finding.suppressed == "vendored"


def test_two_lines_above_does_not_apply(repo: GitRepo) -> None:
    repo.write({"a.py": "# tribunal: ignore[fake-flag] too far\n\nCONTRADICT = 1\n"})
    (finding,) = flagged(check_in_process(repo))
    assert finding.verdict is Verdict.CONTRADICTED and finding.suppressed is None


def test_other_analyzers_marker_does_not_apply(repo: GitRepo) -> None:
    repo.write({"a.py": "CONTRADICT = 1  # tribunal: ignore[assertion-free-test] not mine\n"})
    (finding,) = flagged(check_in_process(repo))
    assert finding.verdict is Verdict.CONTRADICTED


def test_without_a_reason_is_ignored_and_says_so(repo: GitRepo) -> None:
    repo.write({"a.py": "# tribunal: ignore[fake-flag]\nCONTRADICT = 1\n"})
    report = check_in_process(repo)
    (finding,) = flagged(report)
    assert finding.verdict is Verdict.CONTRADICTED and finding.suppressed is None
    assert "suppression at line 1 has no reason, so it was ignored" in finding.detail
    (mark,) = added_marks(report)
    assert mark.line == 1 and mark.verdict is Verdict.UNVERIFIED
    assert "no reason given, so it suppresses nothing" in mark.detail


def test_an_existing_suppression_is_honoured_without_a_new_report(repo: GitRepo) -> None:
    repo.commit({"a.py": "# tribunal: ignore[fake-flag] reviewed in #12\nx = 0\n"})
    repo.write({"a.py": "# tribunal: ignore[fake-flag] reviewed in #12\nx = 'CONTRADICT'\n"})
    report = check_in_process(repo)
    (finding,) = flagged(report)
    assert finding.suppressed == "reviewed in #12" and finding.verdict is Verdict.UNVERIFIED
    assert added_marks(report) == []


def test_suppressed_findings_still_count_and_never_block(repo: GitRepo) -> None:
    repo.write(
        {
            "a.py": "A = 'CONTRADICT'  # tribunal: ignore[fake-flag] ok\n\nB = 'CONTRADICT'\n",
        }
    )
    report = check_in_process(repo)
    verdicts = sorted(f.verdict for f in flagged(report))
    assert verdicts == [Verdict.UNVERIFIED, Verdict.CONTRADICTED]
    assert report.count(Verdict.CONTRADICTED) == 1


def test_unverified_findings_are_marked_suppressed_too(repo: GitRepo) -> None:
    repo.write({"a.ts": "const a = 'UNVERIFY'; /* tribunal: ignore[fake-flag] flaky */\n"})
    (finding,) = flagged(check_in_process(repo))
    assert finding.verdict is Verdict.UNVERIFIED and finding.suppressed == "flaky"


def test_a_trailing_marker_does_not_cover_the_next_line(repo: GitRepo) -> None:
    repo.write({"a.py": "A = 1  # tribunal: ignore[fake-flag] only A\nB = 'CONTRADICT'\n"})
    (finding,) = flagged(check_in_process(repo))
    assert finding.line == 2 and finding.verdict is Verdict.CONTRADICTED


def test_a_comment_above_decorators_covers_the_decorated_test(repo: GitRepo) -> None:
    """Findings on a test point at its ``def`` line; the comment sits above the decorators."""
    repo.commit({"tests/test_a.py": "import pytest\n"})
    repo.write(
        {
            "tests/test_a.py": (
                "import pytest\n\n"
                "# tribunal: ignore[assertion-free-test] placeholder kept for the API docs\n"
                "@pytest.mark.slow\n"
                "@pytest.mark.timeout(5)\n"
                "def test_placeholder():\n"
                "    pass\n\n"
                "@pytest.mark.slow\n"
                "def test_unsuppressed():\n"
                "    pass\n"
            )
        }
    )
    result = repo.tribunal("check", "--format", "json")
    assert result.code == 0, result.stderr
    verdicts = {
        f["line"]: (f["verdict"], f.get("suppressed"))
        for f in json.loads(result.stdout)["findings"]
        if f["analyzer"] == "assertion-free-test"
    }
    assert verdicts == {
        6: ("UNVERIFIED", "placeholder kept for the API docs"),
        10: ("CONTRADICTED", None),
    }


def _aft_verdicts(repo: GitRepo) -> dict[int, tuple[str, str | None]]:
    result = repo.tribunal("check", "--format", "json")
    assert result.code in (0, 1), result.stderr
    return {
        f["line"]: (f["verdict"], f.get("suppressed"))
        for f in json.loads(result.stdout)["findings"]
        if f["analyzer"] == "assertion-free-test"
    }


def test_a_comment_above_a_multi_line_decorator_covers_the_decorated_test(repo: GitRepo) -> None:
    """The parametrize table's continuation lines do not start with ``@``; ``ast`` knows them."""
    repo.commit({"tests/test_a.py": "import pytest\n"})
    repo.write(
        {
            "tests/test_a.py": (
                "import pytest\n\n"
                "# tribunal: ignore[assertion-free-test] kept as API example\n"
                "@pytest.mark.parametrize(\n"
                '    "x", [1, 2],\n'
                ")\n"
                "def test_placeholder(x):\n"
                "    pass\n\n"
                "class TestShapes:\n"
                "    # tribunal: ignore[assertion-free-test] documents the fixture order\n"
                "    @pytest.mark.usefixtures(\n"
                '        "db",\n'
                "    )\n"
                "    # the fixture is in conftest.py\n"
                "    @pytest.mark.slow\n"
                "    def test_method(self):\n"
                "        pass\n"
            )
        }
    )
    assert _aft_verdicts(repo) == {
        7: ("UNVERIFIED", "kept as API example"),
        17: ("UNVERIFIED", "documents the fixture order"),
    }


def test_only_comment_lines_directly_above_the_decorators_count(repo: GitRepo) -> None:
    """A trailing comment above, a blank line between, a comment inside the decorator: no."""
    repo.commit({"tests/test_a.py": "import pytest\n"})
    repo.write(
        {
            "tests/test_a.py": (
                "import pytest\n\n"
                "CASES = [1, 2]  # tribunal: ignore[assertion-free-test] about CASES\n"
                "@pytest.mark.parametrize(\n"
                '    "x", CASES,\n'
                ")\n"
                "def test_trailing_above(x):\n"
                "    pass\n\n"
                "# tribunal: ignore[assertion-free-test] too far away\n\n"
                "@pytest.mark.parametrize(\n"
                '    "x", [1, 2],\n'
                ")\n"
                "def test_blank_between(x):\n"
                "    pass\n\n"
                "@pytest.mark.parametrize(\n"
                "    # tribunal: ignore[assertion-free-test] about the table, not the test\n"
                '    "x", [1, 2],\n'
                ")\n"
                "def test_inside_the_decorator(x):\n"
                "    pass\n"
            )
        }
    )
    assert _aft_verdicts(repo) == {
        7: ("CONTRADICTED", None),
        15: ("CONTRADICTED", None),
        22: ("CONTRADICTED", None),
    }


def test_a_comment_above_a_multi_line_typescript_decorator(repo: GitRepo) -> None:
    repo.commit({"src/app.ts": "export {};\n"})
    repo.write(
        {
            "src/app.ts": (
                "export {};\n"
                "// tribunal: ignore[fake-flag] generated by the Angular CLI\n"
                "@Component({\n"
                '  selector: "app-root",\n'
                "})\n"
                "export class AppComponent {} // CONTRADICT\n"
                "@Injectable({\n"
                '  providedIn: "root",\n'
                "}) // tribunal: ignore[fake-flag] trailing, on the decorator\n"
                "export class Service {} // CONTRADICT\n"
            )
        }
    )
    found = {f.line: (f.verdict, f.suppressed) for f in flagged(check_in_process(repo))}
    assert found == {
        6: (Verdict.UNVERIFIED, "generated by the Angular CLI"),
        10: (Verdict.CONTRADICTED, None),
    }


@pytest.mark.parametrize(
    ("path", "line"),
    [
        ("a.py", 'y = "CONTRADICT  # tribunal: ignore[fake-flag] in a string"\n'),
        ("a.js", "let y = 'CONTRADICT // tribunal: ignore[fake-flag] in a string';\n"),
    ],
)
def test_a_marker_inside_a_string_neither_suppresses_nor_is_reported(
    repo: GitRepo, path: str, line: str
) -> None:
    repo.commit({path: "\n"})
    repo.write({path: "\n" + line})
    report = check_in_process(repo)
    (finding,) = flagged(report)
    assert finding.verdict is Verdict.CONTRADICTED and finding.suppressed is None
    assert added_marks(report) == []
