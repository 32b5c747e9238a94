"""test-tampering through the real CLI: a range, the staged change the hook checks, suppressions."""

from __future__ import annotations

import json

from tests.gitrepo import GitRepo
from tests.test_tampering_support import src

ONLY_TAMPERING = src(
    """
    analyzers:
      assertion-free-test: false
      claim-reconciliation: false
      risky-diff-no-test: false
      comment-code-drift: false
      hallucinated-symbol: false
    """
)
PY = src(
    """
    from app import add


    def test_add():
        result = add(1, 2)
        assert result == 3
    """
)


def test_check_range_reports_stripped_assertions_as_json(repo: GitRepo) -> None:
    base = repo.commit({"tests/test_app.py": PY, "tribunal.yml": ONLY_TAMPERING}, "base")
    head = repo.commit({"tests/test_app.py": PY.replace("    assert result == 3\n", "")}, "head")
    result = repo.tribunal(
        "check", "--base", base, "--head", head, "--format", "json", "--hard-fail"
    )
    assert result.code == 1, result.stderr
    report = json.loads(result.stdout)
    assert [(f["analyzer"], f["verdict"], f["line"], f["title"]) for f in report["findings"]] == [
        ("test-tampering", "CONTRADICTED", 4, "the diff removed every check test `test_add` made")
    ]
    assert report["counts"]["CONTRADICTED"] == 1


def test_staged_focus_blocks_and_the_index_is_left_alone(repo: GitRepo) -> None:
    spec = src(
        """
        describe('add', () => {
          it('adds', () => { expect(1 + 2).toBe(3); });
          it('zero', () => { expect(0 + 0).toBe(0); });
        });
        """
    )
    repo.commit(
        {
            "test/add.test.js": spec,
            "package.json": '{"devDependencies": {"jest": "^29"}}',
            "tribunal.yml": ONLY_TAMPERING,
        },
        "base",
    )
    repo.write({"test/add.test.js": spec.replace("it('adds'", "it.only('adds'")})
    repo.git("add", "test/add.test.js")
    before = repo.git("status", "--porcelain=v1")
    result = repo.tribunal("check", "--staged", "--hard-fail")
    assert result.code == 1, result.stdout + result.stderr
    assert "a focused test was committed" in result.stdout
    assert "test/add.test.js\n  ✗ CONTRADICTED  2  [test-tampering]" in result.stdout
    assert repo.git("status", "--porcelain=v1") == before
    # the clean twin: the same file under fixtures/ is data, not a test run by jest
    repo.git("reset", "-q")
    repo.write({"test/add.test.js": spec})
    repo.write({"test/fixtures/add.test.js": spec.replace("it('adds'", "it.only('adds'")})
    repo.git("add", "-A")
    assert repo.tribunal("check", "--staged", "--hard-fail").code == 0


def test_a_suppressed_tautology_is_unverified_and_the_suppression_reported(repo: GitRepo) -> None:
    base = repo.commit({"tests/test_app.py": PY, "tribunal.yml": ONLY_TAMPERING}, "base")
    head_text = PY.replace(
        "    assert result == 3\n",
        "    assert result == 3\n    # tribunal: ignore[test-tampering] placeholder until #7\n"
        "    assert True\n",
    )
    head = repo.commit({"tests/test_app.py": head_text}, "head")
    result = repo.tribunal(
        "check", "--base", base, "--head", head, "--format", "json", "--hard-fail"
    )
    assert result.code == 0, result.stdout
    findings = json.loads(result.stdout)["findings"]
    mine = [f for f in findings if f["analyzer"] == "test-tampering"]
    assert [(f["verdict"], f["suppressed"]) for f in mine] == [
        ("UNVERIFIED", "placeholder until #7")
    ]
    assert any(f["analyzer"] == "suppression" for f in findings)
