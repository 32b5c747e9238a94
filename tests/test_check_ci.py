"""``tribunal check`` as CI runs it: config from the base, several formats from one run.

A pull request must not choose the rules it is judged by: with
``--config-from-base`` the change's own ``tribunal.yml`` (and
``$TRIBUNAL_CONFIG``) play no part, and a change that would weaken the gate
says so. An honest config change that tightens the gate is not reported.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tests.gitrepo import GitRepo
from tests.hooktools import ASSERTION_FREE_TEST, GOOD_TEST
from tests.test_render_github import parse_command
from tribunal.render.markdown import MARKER

CALC = {"calc.py": "def add(a, b):\n    return a + b\n"}
WEAKER = "analyzers:\n  assertion-free-test: false\n"


@pytest.fixture
def pr(repo: GitRepo) -> tuple[GitRepo, str, str]:
    """A base commit and a pull request head that adds a test asserting nothing."""
    base = repo.commit(CALC, "base")
    head = repo.commit({"tests/test_calc.py": ASSERTION_FREE_TEST}, "add a test")
    return repo, base, head


def test_one_run_writes_every_format_asked_for(pr: tuple[GitRepo, str, str]) -> None:
    repo, base, head = pr
    result = repo.tribunal(
        "check", "--base", base, "--head", head, "--format", "github",
        "--write", "md=tests/report.md", "--write", "json=report.json", "--write", "sarif=t.sarif",
    )  # fmt: skip
    assert result.code == 0, result.stderr
    (name, props, message) = parse_command(result.stdout.splitlines()[0])
    assert (name, props["file"], props["line"]) == ("error", "tests/test_calc.py", "1")
    assert "asserts nothing" in message
    md = (repo.path / "tests/report.md").read_text(encoding="utf-8")
    assert md.splitlines()[0] == MARKER and "tests/test\\_calc.py" in md
    data = json.loads((repo.path / "report.json").read_text(encoding="utf-8"))
    assert data["counts"]["CONTRADICTED"] == 1
    sarif = json.loads((repo.path / "t.sarif").read_text(encoding="utf-8"))
    assert [r["level"] for r in sarif["runs"][0]["results"]] == ["error"]


def test_hard_fail_still_writes_the_reports_before_exiting_1(
    pr: tuple[GitRepo, str, str],
) -> None:
    repo, base, head = pr
    result = repo.tribunal(
        "check", "--base", base, "--head", head, "--hard-fail", "--write", "md=report.md"
    )
    assert result.code == 1
    assert "blocking: --hard-fail" in (repo.path / "report.md").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("report.md", "expected FORMAT=FILE"),
        ("html=report.html", "expected FORMAT=FILE with FORMAT one of text, md, json"),
        ("md=", "expected FORMAT=FILE"),
    ],
)
def test_a_bad_write_spec_is_a_usage_error(
    pr: tuple[GitRepo, str, str], spec: str, message: str
) -> None:
    repo, base, head = pr
    result = repo.tribunal("check", "--base", base, "--head", head, "--write", spec)
    assert result.code == 2 and message in result.stderr
    assert "Traceback" not in result.stderr


def test_an_unwritable_report_path_is_one_line(pr: tuple[GitRepo, str, str]) -> None:
    repo, base, head = pr
    result = repo.tribunal("check", "--base", base, "--head", head, "--write", "md=no/such/dir/x")
    assert result.code == 2
    assert result.stderr.strip().splitlines() == [
        f"tribunal: error: {repo.path}/no/such/dir/x: cannot write the report: "
        "No such file or directory"
    ]


def test_config_comes_from_the_base_not_from_the_change_or_the_environment(
    repo: GitRepo, tmp_path: Path
) -> None:
    base = repo.commit(CALC, "base")
    head = repo.commit(
        {"tribunal.yml": WEAKER, "tests/test_calc.py": ASSERTION_FREE_TEST}, "switch it off"
    )
    (tmp_path / "weak.yml").write_text(WEAKER)
    env = {"TRIBUNAL_CONFIG": str(tmp_path / "weak.yml")}
    # Without the flag, the change's own config switches the analyzer off: what CI must avoid.
    trusting = repo.tribunal("check", "--base", base, "--head", head, "--format", "json")
    assert json.loads(trusting.stdout)["counts"]["CONTRADICTED"] == 0
    result = repo.tribunal(
        "check", "--base", base, "--head", head, "--config-from-base", "--format", "json", env=env
    )
    assert result.code == 0, result.stderr
    data = json.loads(result.stdout)
    verdicts = {(f["analyzer"], f["verdict"]) for f in data["findings"]}
    assert ("assertion-free-test", "CONTRADICTED") in verdicts
    weakened = [f for f in data["findings"] if f["analyzer"] == "gate-weakened"]
    assert [f["title"] for f in weakened] == [
        "gate weakened by this change: disables analyzer assertion-free-test"
    ]
    assert weakened[0]["verdict"] == "UNVERIFIED" and weakened[0]["file"] == "tribunal.yml"


def test_the_base_config_is_used_and_named_in_the_report(repo: GitRepo) -> None:
    base = repo.commit({**CALC, "tribunal.yml": WEAKER}, "base switches it off")
    head = repo.commit({"tests/test_calc.py": ASSERTION_FREE_TEST}, "add a test")
    result = repo.tribunal("check", "--base", base, "--head", head, "--config-from-base")
    assert result.code == 0, result.stderr
    assert "asserts nothing" not in result.stdout
    md = repo.tribunal(
        "check", "--base", base, "--head", head, "--config-from-base", "--format", "md"
    )
    assert f"_config: tribunal.yml at {base[:12]} ({base})_" in md.stdout


def test_a_change_that_tightens_the_config_is_not_called_a_weakening(repo: GitRepo) -> None:
    base = repo.commit({**CALC, "tribunal.yml": WEAKER}, "base")
    head = repo.commit(
        {"tribunal.yml": "strict: true\n", "tests/test_calc.py": GOOD_TEST}, "tighten"
    )
    result = repo.tribunal(
        "check", "--base", base, "--head", head, "--config-from-base", "--format", "json"
    )
    assert result.code == 0, result.stderr
    assert not [
        f for f in json.loads(result.stdout)["findings"] if f["analyzer"] == "gate-weakened"
    ]


def test_no_config_at_the_base_means_the_built_in_defaults(pr: tuple[GitRepo, str, str]) -> None:
    repo, base, head = pr
    result = repo.tribunal(
        "check", "--base", base, "--head", head, "--config-from-base", "--format", "json"
    )
    data = json.loads(result.stdout)
    assert data["counts"]["CONTRADICTED"] == 1
    md = repo.tribunal(
        "check", "--base", base, "--head", head, "--config-from-base", "--format", "md"
    )
    assert "config: built-in defaults (no tribunal.yml at" in md.stdout


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ((), "--config-from-base needs --base"),
        (("--staged",), "--config-from-base needs --base"),
        (("--base", "HEAD~1", "--config", "tribunal.yml"), "name two configs"),
    ],
)
def test_config_from_base_usage_errors(
    pr: tuple[GitRepo, str, str], extra: tuple[str, ...], message: str
) -> None:
    repo, _, _ = pr
    result = repo.tribunal("check", "--config-from-base", *extra)
    assert result.code == 2 and message in result.stderr


def test_a_missing_base_in_a_shallow_clone_says_to_fetch_history(
    pr: tuple[GitRepo, str, str], tmp_path: Path
) -> None:
    repo, base, _ = pr
    clone = tmp_path / "shallow"
    subprocess.run(
        ["git", "clone", "-q", "--depth", "1", f"file://{repo.path}", str(clone)], check=True
    )
    result = GitRepo(clone).tribunal(
        "check", "--base", base, "--head", "HEAD", "--config-from-base"
    )
    assert result.code == 2
    assert "this clone is shallow: fetch full history (actions/checkout: fetch-depth: 0)" in (
        result.stderr
    )
    full = GitRepo(clone).tribunal("check", "--base", "nope", "--head", "HEAD")
    assert "--base nope: no such commit in this repository; this clone is shallow" in full.stderr


def test_config_is_the_base_tip_not_an_older_fork_point(repo: GitRepo) -> None:
    """A branch made before the team tightened tribunal.yml is judged by the tightened one."""
    old = repo.commit({**CALC, "tribunal.yml": WEAKER}, "old config")
    main = repo.commit({"tribunal.yml": None}, "assertion-free-test back on")
    repo.git("checkout", "-q", "-b", "pr", old)
    head = repo.commit({"tests/test_calc.py": ASSERTION_FREE_TEST}, "add a test")
    result = repo.tribunal(
        "check", "--base", main, "--head", head, "--config-from-base", "--hard-fail"
    )
    assert result.code == 1, result.stdout
    assert (
        f"built-in defaults (no tribunal.yml at {main[:12]})"
        in repo.tribunal(
            "check", "--base", main, "--head", head, "--config-from-base", "--format", "md"
        ).stdout
    )


SUPPRESSED = "def test_nothing():  # tribunal: ignore[assertion-free-test] smoke test\n    pass\n"


def test_strict_makes_hard_fail_block_unverified_as_the_push_gate_does(repo: GitRepo) -> None:
    """Under strict: true a suppression the change adds to its own defect blocks in CI too."""
    base = repo.commit({**CALC, "tribunal.yml": "strict: true\n"}, "base")
    head = repo.commit({"tests/test_calc.py": SUPPRESSED}, "add a test")
    args = ("check", "--base", base, "--head", head, "--config-from-base")
    gated = repo.tribunal(*args, "--hard-fail")
    assert gated.code == 1
    assert "blocking: --hard-fail, strict: true and an UNVERIFIED finding (exit 1)" in gated.stdout
    assert repo.tribunal(*args).code == 0  # report-only stays report-only
    data = json.loads(repo.tribunal(*args, "--hard-fail", "--format", "json").stdout)
    assert (data["hard_fail"], data["strict"], data["counts"]["CONTRADICTED"]) == (True, True, 0)


def test_without_strict_unverified_never_blocks(repo: GitRepo) -> None:
    base = repo.commit(CALC, "base")
    head = repo.commit({"tests/test_calc.py": SUPPRESSED}, "add a test")
    result = repo.tribunal("check", "--base", base, "--head", head, "--hard-fail")
    assert result.code == 0 and "UNVERIFIED" in result.stdout


def test_under_strict_a_teams_own_config_change_does_not_block(repo: GitRepo) -> None:
    """The weakening note informs; blocking it would stop a team changing its own config."""
    base = repo.commit({**CALC, "tribunal.yml": "strict: true\n"}, "base")
    head = repo.commit({"tribunal.yml": "strict: false\n"}, "relax strict")
    result = repo.tribunal(
        "check", "--base", base, "--head", head, "--config-from-base", "--hard-fail"
    )
    assert result.code == 0, result.stdout
    assert "gate weakened by this change: turns strict off" in result.stdout


def test_a_lens_off_in_the_base_config_is_off_in_ci_as_at_the_push_gate(repo: GitRepo) -> None:
    """CI is the push gate re-run: it must not block what the gate lets through."""
    base = repo.commit({**CALC, "tribunal.yml": "lenses:\n  tests:\n    enabled: false\n"}, "b")
    head = repo.commit({"tests/test_calc.py": ASSERTION_FREE_TEST}, "add a test")
    assert repo.tribunal("verify-pushes", "--base", base, "--head", head).code == 0
    ci = repo.tribunal(
        "check", "--base", base, "--head", head, "--config-from-base", "--hard-fail",
        "--format", "json",
    )  # fmt: skip
    assert ci.code == 0, ci.stdout
    assert "assertion-free-test" not in json.loads(ci.stdout)["analyzers"]
    # Without the flag, check is the analyzer runner it always was.
    assert repo.tribunal("check", "--base", base, "--head", head, "--hard-fail").code == 1


def test_under_strict_an_added_suppression_on_clean_code_does_not_block(repo: GitRepo) -> None:
    """As at the gate: the note that a suppression was added informs and is logged."""
    base = repo.commit({**CALC, "tribunal.yml": "strict: true\n"}, "base")
    quiet = GOOD_TEST.replace("():", "():  # tribunal: ignore[assertion-free-test] flaky")
    head = repo.commit({"tests/test_calc.py": quiet}, "a real test")
    result = repo.tribunal(
        "check", "--base", base, "--head", head, "--config-from-base", "--hard-fail",
        "--format", "json",
    )  # fmt: skip
    findings = json.loads(result.stdout)["findings"]
    assert [f["verdict"] for f in findings if f["analyzer"] == "suppression"] == ["UNVERIFIED"]
    assert result.code == 0, result.stdout
    assert repo.tribunal("verify-pushes", "--base", base, "--head", head).code == 0
