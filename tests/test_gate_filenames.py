"""Any file name git can hold goes through every writer (issue 21, case 4).

A name that is not valid UTF-8 reaches Python as lone surrogates; written as
they are, they crashed the convene (``UnicodeEncodeError``: a push that should
pass was blocked) and made JSON that strict readers reject. Every writer now
uses git's C-quoted form (``"tests/test_\\377x.py"``): summary.json, the audit
log, and the JSON, SARIF and markdown reports, plus ``verify-pushes --format
json``. Each output is checked as strict UTF-8 holding no surrogate at all.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from tests import hookscenarios as sc
from tests import test_hooks_precommit
from tests.audittools import log_file
from tests.gitrepo import GitRepo
from tests.hooktools import ASSERTION_FREE_TEST, UserRepo

framework = test_hooks_precommit.framework

NAME = os.fsdecode(b"tests/test_\xffx.py")
QUOTED = '"tests/test_\\377x.py"'
SMOKE = "def test_smoke():  # tribunal: ignore[assertion-free-test] a smoke test\n    pass\n"


def strict_json(raw: bytes) -> Any:
    """``raw`` as strict UTF-8 JSON with no surrogate anywhere (escaped or not)."""
    text = raw.decode("utf-8")  # raises on anything that is not UTF-8
    assert "\\ud" not in text.lower(), "a \\uD8xx-\\uDFxx escape"
    data = json.loads(text)
    assert not any("\ud800" <= ch <= "\udfff" for ch in json.dumps(data, ensure_ascii=False))
    return data


def files_in(data: Any) -> list[str]:
    if isinstance(data, dict):
        return [v for k, v in data.items() if k == "file" and isinstance(v, str)] + [
            f for v in data.values() for f in files_in(v)
        ]
    if isinstance(data, list):
        return [f for v in data for f in files_in(v)]
    return []


@pytest.fixture
def user(tmp_path: Path) -> UserRepo:
    """Plain hooks: pre-commit itself stops on such a name before any hook runs (see the
    last test), so through the framework this push never reaches the gate."""
    return sc.make_user(tmp_path, sc.install_plain)


def test_a_push_with_an_undecodable_name_and_only_unverified_findings_passes(
    user: UserRepo,
) -> None:
    sha = user.commit({NAME: SMOKE}, "a smoke test")
    result = sc.push(user, "origin", "main")
    assert result.code == 0, sc.output(result)
    assert f"{QUOTED}:1" in sc.output(result)
    [path] = user.summaries(sha)
    summary = strict_json(path.read_bytes())
    assert QUOTED in files_in(summary)
    assert sc.only_summary(user, sha).gate.decision == "pass"  # it authenticates as written
    assert strict_json(log_file(user).read_bytes().splitlines()[-1])  # the suppression record


def test_a_push_past_the_gate_is_logged_with_the_quoted_name(user: UserRepo) -> None:
    sha = user.commit({NAME: ASSERTION_FREE_TEST}, "bad, oddly named")
    assert sc.push(user, "origin", "main").code != 0
    assert user.run("push", "--no-verify", "origin", "main").code == 0
    records = [strict_json(line) for line in log_file(user).read_bytes().splitlines()]
    [record] = [r for r in records if r["new"] == sha]
    assert QUOTED in files_in(record)


def test_every_report_format_writes_the_quoted_name(repo: GitRepo) -> None:
    base = repo.commit({"calc.py": "x = 1\n"}, "base")
    head = repo.commit({NAME: ASSERTION_FREE_TEST}, "bad, oddly named")
    out = repo.path.parent
    result = repo.tribunal(
        "check", "--base", base, "--head", head, "--format", "json",
        "--write", f"sarif={out / 'r.sarif'}", "--write", f"md={out / 'r.md'}",
    )  # fmt: skip
    assert result.code == 0, result.stderr
    report = strict_json(result.stdout.encode("utf-8"))
    assert QUOTED in files_in(report)
    sarif = strict_json((out / "r.sarif").read_bytes())
    uris = [loc["physicalLocation"]["artifactLocation"]["uri"]
            for run in sarif["runs"] for res in run["results"] for loc in res["locations"]]
    assert "tests/test_%FFx.py" in uris  # a URI keeps the original byte, percent-encoded
    markdown = (out / "r.md").read_bytes().decode("utf-8")
    assert "### 📄 tests/test\\_\\\\377x.py" in markdown  # markdown-escaped \ and _
    verified = repo.tribunal("verify-pushes", "--base", base, "--head", head, "--format", "json")
    assert verified.code == 1
    assert strict_json(verified.stdout.encode("utf-8"))["results"][0]["passed"] is False


def test_under_pre_commit_the_framework_itself_stops_on_such_a_name(
    tmp_path: Path, framework: dict[str, str]
) -> None:
    """pre-commit (4.x) decodes file names as UTF-8 before it runs any hook: the push is
    blocked by the framework, not judged. Documented; the plain hooks judge it."""
    user = test_hooks_precommit.framework_user(tmp_path, framework)
    user.commit({NAME: SMOKE}, "a smoke test")
    result = sc.push(user, "origin", "main")
    assert result.code != 0 and "UnicodeDecodeError" in sc.output(result)
    assert user.summaries() == []
