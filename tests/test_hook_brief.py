"""The commit hook's report fits one screen and names the command that shows everything."""

from __future__ import annotations

from tests.gitrepo import GitRepo
from tribunal.findings import Finding, RangeInfo, Report, Verdict
from tribunal.hooks.brief import SCREEN_LINES, WIDTH, rows, show_all
from tribunal.hooks.precommit import report_lines

PLAIN: dict[str, str] = {}
FRAMEWORK = {"PRE_COMMIT": "1"}


def unverified(n: int, analyzer: str = "comment-code-drift", file: str = "") -> Finding:
    return Finding(
        analyzer=analyzer,
        verdict=Verdict.UNVERIFIED,
        file=file or f"src/module_{n % 7}.py",
        line=n + 1,
        title=f"finding number {n} with a title long enough to need clipping " + "x" * 60,
        detail="line one\nline two\nline three\nline four",
    )


def contradicted(n: int) -> Finding:
    return Finding(
        analyzer="hallucinated-symbol",
        verdict=Verdict.CONTRADICTED,
        file="src/app.py",
        line=n,
        title=f"'pkg.mod{n}' does not exist",
        detail="\n".join(f"why, line {i}" for i in range(6)),
    )


def report(findings: list[Finding], notes: tuple[str, ...] = ()) -> Report:
    info = RangeInfo("staged", "abc", None, "abc", "staged changes (index vs HEAD)")
    return Report(tuple(findings), ("comment-code-drift",), 12, info, 5.0, notes=notes)


def fits(lines: list[str]) -> None:
    """At most one screen: ``SCREEN_LINES`` rows of ``WIDTH`` columns, long lines wrapped."""
    assert rows(lines) <= SCREEN_LINES, "\n".join(lines)
    folded = [line for line in lines if line.startswith(("      ", "    ", "  ?", "  note"))]
    assert all(len(line) <= WIDTH for line in folded), folded


def test_forty_unverified_fit_one_screen_and_name_the_command() -> None:
    findings = [unverified(n) for n in range(30)]
    findings += [unverified(n, "risky-diff-no-test", f"src/auth_{n}.py") for n in range(10)]
    lines = report_lines(report(findings), env=PLAIN)
    fits(lines)
    assert lines[0].startswith("tribunal: ? 40 UNVERIFIED (not blocking)")
    assert "    comment-code-drift (30)" in lines and "    risky-diff-no-test (10)" in lines
    assert "more not shown" in lines[-1]
    assert "`tribunal check --base HEAD~1 --head HEAD` shows every finding" in lines[-1]


def test_contradicted_come_first_with_their_reasons_and_the_way_out() -> None:
    findings = [unverified(n) for n in range(40)] + [contradicted(1), contradicted(2)]
    lines = report_lines(report(findings), env=PLAIN)
    fits(lines)
    assert lines[0].startswith("tribunal: ✗ commit blocked: 2 CONTRADICTED, 40 UNVERIFIED")
    assert lines[1].startswith("  ✗ src/app.py:1  [hallucinated-symbol] 'pkg.mod1' does not")
    assert lines[2:5] == ["      why, line 0", "      why, line 1", "      why, line 2 …"]
    assert lines[5].startswith("  ✗ src/app.py:2")
    assert any("`tribunal check --staged` shows every finding" in line for line in lines)
    assert lines[-1].startswith("tribunal: `git commit --no-verify` bypasses")


def test_many_contradicted_still_fit_and_are_counted() -> None:
    lines = report_lines(report([contradicted(n) for n in range(60)]), env=PLAIN)
    fits(lines)
    assert any("more not shown" in line for line in lines)


def test_a_short_report_is_shown_whole() -> None:
    lines = report_lines(report([unverified(1), unverified(2, file="src/other.py")]), env=PLAIN)
    assert sum(line.startswith("      ? ") for line in lines) == 2
    assert not any("more" in line for line in lines)
    assert (
        lines[-1]
        == "  details: `tribunal check --base HEAD~1 --head HEAD` shows every finding in full"
    )


def test_notes_are_said_once() -> None:
    lines = report_lines(report([unverified(1)], notes=("node_modules is absent",)), env=PLAIN)
    assert lines.count("  note: node_modules is absent") == 1


def test_the_command_matches_how_tribunal_was_installed() -> None:
    assert show_all(PLAIN, committed=False) == "tribunal check --staged"
    assert show_all(PLAIN, committed=True) == "tribunal check --base HEAD~1 --head HEAD"
    assert show_all(PLAIN, committed=True, unborn=True) == "tribunal check --staged"
    manual = "pre-commit run tribunal-check --hook-stage manual"
    assert show_all(FRAMEWORK, committed=False) == manual
    assert show_all(FRAMEWORK, committed=True) == f"{manual} --from-ref HEAD~1 --to-ref HEAD"
    ranged = {**FRAMEWORK, "PRE_COMMIT_FROM_REF": "origin/main", "PRE_COMMIT_TO_REF": "a b"}
    assert show_all(ranged, committed=False) == f"{manual} --from-ref origin/main --to-ref 'a b'"
    plain_range = {"PRE_COMMIT_FROM_REF": "v1.0", "PRE_COMMIT_TO_REF": "HEAD"}
    assert show_all(plain_range, committed=False) == "tribunal check --base v1.0 --head HEAD"


FORTY = {f"app/m{i}.py": "".join(f"import nopkg_{i}_{k}\n" for k in range(4)) for i in range(10)}


def test_plain_hook_output_for_forty_findings_fits_and_the_command_shows_them(
    repo: GitRepo,
) -> None:
    repo.commit({"pyproject.toml": '[project]\nname = "app"\ndependencies = []\n'}, "base")
    repo.write(FORTY)
    repo.git("add", "-A")
    hook = repo.tribunal("hook", "pre-commit", env={"PRE_COMMIT": ""})
    assert hook.code == 0, hook.stderr
    lines = hook.stdout.splitlines()
    fits(lines)
    assert lines[0].startswith("tribunal: ? 40 UNVERIFIED (not blocking)")
    command = "tribunal check --base HEAD~1 --head HEAD"
    assert f"`{command}`" in lines[-1]
    repo.git("commit", "-q", "--no-verify", "-m", "forty imports")
    full = repo.tribunal(*command.split()[1:])
    assert full.stdout.count("is not a declared or installed package") == 40
    report_cmd = repo.tribunal("hook", "report", env={
        "PRE_COMMIT_FROM_REF": "HEAD~1", "PRE_COMMIT_TO_REF": "HEAD"
    })  # fmt: skip
    assert report_cmd.code == 0, report_cmd.stderr
    assert report_cmd.stdout.count("is not a declared or installed package") == 40
