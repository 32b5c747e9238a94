"""Where claims come from: claims files, PR bodies, commit trailers and blocks; and the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.engine_helpers import change_between, change_for, src
from tests.gitrepo import GitRepo
from tribunal.change.model import Claim
from tribunal.claims.sources import commit_claims, dedupe, load_claims, range_messages
from tribunal.engine.sources import Selection
from tribunal.errors import InputError
from tribunal.git.cmd import Git

PYPROJECT = '[project]\nname = "x"\ndependencies = ["requests>=2"]\n'
PYPROJECT_NEW = '[project]\nname = "x"\ndependencies = ["requests>=2", "flask"]\n'


def _claims(repo: GitRepo, base: str, head: str, **kwargs: str) -> list[Claim]:
    with change_between(repo, base, head) as change:
        return list(load_claims(change, cwd=repo.path, **kwargs))


def test_trailers_are_parsed_by_git_with_its_own_rules(repo: GitRepo) -> None:
    base = repo.commit({"a.txt": "1"}, "base")
    message = src(
        """
        Add flask

        Tribunal-Claim: not a trailer, it is not in the last paragraph

        Signed-off-by: A <a@example.com>
        tribunal-claim: no-new-dependency
        Tribunal-Claim: No_Default_Flip: timeout
        """
    )
    head = repo.commit({"a.txt": "2"}, message)
    claims = _claims(repo, base, head)
    assert [(c.key, c.arg, c.line, c.origin) for c in claims] == [
        ("no-new-dependency", None, 6, "commit"),
        ("no-default-flip", "timeout", 7, "commit"),
    ]
    assert {c.source for c in claims} == {head}


def test_a_tribunal_block_in_a_commit_message_is_a_source(repo: GitRepo) -> None:
    base = repo.commit({"a.txt": "1"}, "base")
    head = repo.commit({"a.txt": "2"}, "Refactor\n\n```tribunal\n- added-test\n```\n")
    claims = _claims(repo, base, head)
    assert [(c.key, c.line, c.source) for c in claims] == [("added-test", 4, head)]


def test_the_same_claim_from_several_commits_is_judged_once(repo: GitRepo) -> None:
    base = repo.commit({"a.txt": "1"}, "base")
    first = repo.commit({"a.txt": "2"}, "one\n\nTribunal-Claim: no-new-dependency")
    second = repo.commit({"a.txt": "3"}, "two\n\nTribunal-Claim: no-new-dependency")
    claims = _claims(repo, base, second)
    assert len(claims) == 1
    assert claims[0].source == first
    assert claims[0].also == (f"commit:{second[:12]}",)


def test_only_commits_of_the_range_count(repo: GitRepo) -> None:
    repo.commit({"a.txt": "1"}, "old\n\nTribunal-Claim: added-test")
    base = repo.commit({"a.txt": "2"}, "base")
    head = repo.commit({"a.txt": "3"}, "new\n\nTribunal-Claim: no-test-removed")
    assert [c.key for c in _claims(repo, base, head)] == ["no-test-removed"]


def test_claims_file_then_pr_body_then_commits(repo: GitRepo, tmp_path: Path) -> None:
    base = repo.commit({"a.txt": "1"}, "base")
    head = repo.commit({"a.txt": "2"}, "x\n\nTribunal-Claim: no-test-removed")
    (tmp_path / "claims.txt").write_text("added-test\n# comment\nno-test-removed\n")
    (tmp_path / "pr.md").write_text("No block keys here: added-test\n```tribunal\nbogus\n```\n")
    claims = _claims(
        repo,
        base,
        head,
        claims_file=str(tmp_path / "claims.txt"),
        pr_body=str(tmp_path / "pr.md"),
    )
    assert [(c.key, c.origin) for c in claims] == [
        ("added-test", "file"),
        ("no-test-removed", "file"),
        ("bogus", "pr-body"),
    ]
    assert claims[1].also == (f"commit:{head[:12]}",)
    # A body outside the repository (CI's temp copy) is named by what it is, not by its path.
    assert (claims[0].source, claims[2].source) == (str(tmp_path / "claims.txt"), "pr-body")


def test_a_pr_body_without_a_block_makes_no_claims(repo: GitRepo, tmp_path: Path) -> None:
    base = repo.commit({"a.txt": "1"}, "base")
    head = repo.commit({"a.txt": "2"}, "head")
    (tmp_path / "pr.md").write_text("added-test\nno-test-removed\n")
    assert _claims(repo, base, head, pr_body=str(tmp_path / "pr.md")) == []


def test_a_claims_file_inside_the_repository_is_named_relative_to_it(repo: GitRepo) -> None:
    base = repo.commit({"a.txt": "1"}, "base")
    head = repo.commit({"docs/claims.md": "added-test\n"}, "head")
    claims = _claims(repo, base, head, claims_file="docs/claims.md")
    assert [(c.source, c.line) for c in claims] == [("docs/claims.md", 1)]


def test_unreadable_claims_files_are_input_errors(repo: GitRepo, tmp_path: Path) -> None:
    base = repo.commit({"a.txt": "1"}, "base")
    head = repo.commit({"a.txt": "2"}, "head")
    with pytest.raises(InputError, match="cannot read --claims file"):
        _claims(repo, base, head, claims_file=str(tmp_path / "missing.md"))
    big = tmp_path / "big.md"
    big.write_bytes(b"added-test\n" * 200_000)
    with pytest.raises(InputError, match="larger than"):
        _claims(repo, base, head, pr_body=str(big))


def test_worktree_mode_reads_the_commits_between_base_and_head(repo: GitRepo) -> None:
    base = repo.commit({"a.txt": "1"}, "base")
    repo.commit({"a.txt": "2"}, "x\n\nTribunal-Claim: added-test")
    with change_for(repo, Selection(base=base)) as change:
        assert [c.key for c in load_claims(change)] == ["added-test"]
    with change_for(repo, Selection(staged=True)) as staged:
        assert load_claims(staged) == ()


def test_range_messages_and_commit_claims_directly(repo: GitRepo) -> None:
    base = repo.commit({"a.txt": "1"}, "base")
    head = repo.commit({"a.txt": "2"}, "s\n\n```tribunal\nadded-test\n```\n\nTribunal-Claim: x")
    with Git(repo.path) as git:
        (commit,) = range_messages(git, f"{base}..{head}")
    assert commit.sha == head and commit.trailers == ("x",)
    assert [c.key for c in commit_claims(commit)] == ["added-test", "x"]


def test_dedupe_keeps_distinct_arguments_apart() -> None:
    claims = [
        Claim("no-default-flip", "a", "f", 1),
        Claim("no-default-flip", "b", "f", 2),
        Claim("no-default-flip", "a", "g", 3),
    ]
    kept = dedupe(claims)
    assert [(c.arg, c.also) for c in kept] == [("a", ("g",)), ("b", ())]


# --- end to end, through the real CLI ------------------------------------------------


def test_cli_trailer_contradicted_points_at_the_commit(repo: GitRepo) -> None:
    base = repo.commit({"pyproject.toml": PYPROJECT}, "base")
    head = repo.commit(
        {"pyproject.toml": PYPROJECT_NEW}, "Add flask\n\nTribunal-Claim: no-new-dependency\n"
    )
    result = repo.tribunal("check", "--base", base, "--head", head, "--format", "json")
    assert result.code == 0, result.stderr
    (finding,) = [
        f for f in json.loads(result.stdout)["findings"] if f["analyzer"] == "claim-reconciliation"
    ]
    assert finding["verdict"] == "CONTRADICTED"
    assert finding["claim"] == "no-new-dependency"
    assert finding["source"] == head
    # The evidence, not the message, is where the finding points: the manifest line.
    assert finding["file"] == "pyproject.toml"
    line = PYPROJECT_NEW.splitlines()[finding["line"] - 1]
    assert "flask" in line
    assert f"Claimed at line 3 of commit:{head[:12]}." in finding["detail"]
    assert "flask" in finding["title"]
    gated = repo.tribunal("check", "--base", base, "--head", head, "--hard-fail")
    assert gated.code == 1, gated.stdout


def test_cli_block_in_a_commit_message_passes_when_true(repo: GitRepo) -> None:
    base = repo.commit({"pyproject.toml": PYPROJECT}, "base")
    head = repo.commit(
        {"pyproject.toml": PYPROJECT.replace(">=2", ">=2.31")},
        "Bump requests\n\n```tribunal\nno-new-dependency\nno-test-removed\n```\n",
    )
    result = repo.tribunal("check", "--base", base, "--head", head, "--format", "json")
    assert result.code == 0, result.stderr
    claims = [
        (f["claim"], f["verdict"], f["line"])
        for f in json.loads(result.stdout)["findings"]
        if f["analyzer"] == "claim-reconciliation"
    ]
    assert sorted(claims) == [("no-new-dependency", "PASS", 4), ("no-test-removed", "PASS", 5)]
    gated = repo.tribunal("check", "--base", base, "--head", head, "--hard-fail")
    assert gated.code == 0, gated.stdout


def test_cli_unknown_claim_is_unverified_and_lists_known_keys(
    repo: GitRepo, tmp_path: Path
) -> None:
    base = repo.commit({"a.py": "x = 1\n"}, "base")
    head = repo.commit({"a.py": "x = 2\n"}, "head")
    claims = tmp_path / "claims.md"
    claims.write_text("```tribunal\nmakes-it-faster\n```\n")
    result = repo.tribunal(
        "check", "--base", base, "--head", head, "--claims", str(claims), "--format", "json",
        "--hard-fail",
    )  # fmt: skip
    assert result.code == 0, result.stdout + result.stderr
    (finding,) = [
        f for f in json.loads(result.stdout)["findings"] if f["analyzer"] == "claim-reconciliation"
    ]
    assert finding["verdict"] == "UNVERIFIED"
    assert finding["line"] == 2 and finding["file"] == str(claims)
    assert "unrecognized claim 'makes-it-faster'" in finding["title"]
    assert "no-default-flip" in finding["detail"] and "added-test" in finding["detail"]


def test_cli_disabled_claim_reconciliation_reads_no_claims(repo: GitRepo) -> None:
    repo.write({"tribunal.yml": "analyzers:\n  claim-reconciliation: false\n"})
    base = repo.commit({"pyproject.toml": PYPROJECT}, "base")
    head = repo.commit({"pyproject.toml": PYPROJECT_NEW}, "x\n\nTribunal-Claim: no-new-dependency")
    result = repo.tribunal("check", "--base", base, "--head", head, "--hard-fail")
    assert result.code == 0, result.stdout
    assert "claim-reconciliation" not in result.stdout


def verify(change: object, claim: object) -> object:
    """A verifier that crashes: loaded by ``test_a_crashing_verifier_is_an_error_not_a_verdict``."""
    raise RuntimeError("verifier exploded")


def test_a_crashing_verifier_is_an_error_not_a_verdict(
    repo: GitRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tribunal.claims.registry import VERIFIERS, VerifierSpec
    from tribunal.engine.runner import analyze

    monkeypatch.setitem(VERIFIERS, "boom", VerifierSpec("boom", __name__, "always crashes"))
    base = repo.commit({"a.txt": "1"}, "base")
    head = repo.commit({"a.txt": "2"}, "x\n\nTribunal-Claim: boom\nTribunal-Claim: no-test-removed")
    with change_between(repo, base, head) as change:
        change.claims = load_claims(change)
        report = analyze(change, only=["claim-reconciliation"])
    (error,) = report.errors
    assert "claim boom" in error.message and "verifier exploded" in error.message
    assert [f.claim for f in report.findings] == ["no-test-removed"]


def test_a_proposed_block_is_a_models_claims_wherever_it_is_found(
    repo: GitRepo, tmp_path: Path
) -> None:
    """``tribunal propose`` writes ```tribunal-proposed: those claims advise, they never gate."""
    from tribunal.claims.sources import gather_claims

    base = repo.commit({"a.txt": "1"}, "base")
    head = repo.commit(
        {"a.txt": "2"},
        "Refactor\n\n```tribunal-proposed\nno-new-dependency\n```\n\nTribunal-Claim: added-test\n",
    )
    proposal = "```tribunal-proposed\nadded-test\nno-default-flip: timeout\n```\n"
    (tmp_path / "claims.md").write_text(proposal)
    (tmp_path / "body.md").write_text(
        "Looks done.\n\n" + proposal + "```tribunal\nno-test-removed\n```\n"
    )
    with change_between(repo, base, head) as change:
        from_file = gather_claims(change, claims_file=str(tmp_path / "claims.md"), cwd=repo.path)
        from_body = gather_claims(change, pr_body=str(tmp_path / "body.md"), cwd=repo.path)
    # a claims file whose only block is a proposal: its lines are not read as the author's
    assert [(c.key, c.origin) for c in from_file.authored] == [("added-test", "commit")]
    assert [(c.key, c.arg, c.origin) for c in from_file.proposed] == [
        ("added-test", None, "file"),
        ("no-default-flip", "timeout", "file"),
        ("no-new-dependency", None, "commit"),
    ]
    assert [c.key for c in from_body.authored] == ["no-test-removed", "added-test"]
    assert [c.key for c in from_body.proposed] == [
        "added-test",
        "no-default-flip",
        "no-new-dependency",
    ]


def test_a_verifier_that_fails_on_a_proposed_claim_leaves_it_unverified(
    repo: GitRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tribunal.claims import registry
    from tribunal.claims.advisory import judge_proposed

    broken = registry.VerifierSpec("no-new-dependency", "json", "a module with no verify()")
    monkeypatch.setitem(registry.VERIFIERS, "no-new-dependency", broken)
    base = repo.commit({"a.txt": "1"}, "base")
    head = repo.commit({"a.txt": "2"}, "two")
    proposed = [
        Claim("no-new-dependency", None, "council", None, "council"),
        Claim("added-test", None, "council", None, "council"),
        Claim("made-up", None, "council", None, "council"),
    ]
    with change_between(repo, base, head) as change:
        judged = judge_proposed(change, proposed, [Claim("added-test", None, "x", 1, "file")])
    assert [(a.claim, a.where, a.source, a.outcome, a.title) for a in judged] == [
        (
            "no-new-dependency",
            "council",
            "council",
            "unverified",
            "not verified: the verifier failed (AttributeError)",
        ),
        ("made-up", "council", "council", "unverified", "unrecognized claim 'made-up'"),
    ]


def test_cli_sarif_makes_a_commit_claim_a_result_at_its_evidence(repo: GitRepo) -> None:
    base = repo.commit({"pyproject.toml": PYPROJECT}, "base")
    head = repo.commit(
        {"pyproject.toml": PYPROJECT_NEW}, "Add flask\n\nTribunal-Claim: no-new-dependency\n"
    )
    result = repo.tribunal("check", "--base", base, "--head", head, "--format", "sarif")
    assert result.code == 0, result.stderr
    run = json.loads(result.stdout)["runs"][0]
    (alert,) = [r for r in run["results"] if r["ruleId"] == "claim-reconciliation"]
    assert alert["level"] == "error"
    location = alert["locations"][0]["physicalLocation"]
    assert location["artifactLocation"]["uri"] == "pyproject.toml"
    assert "flask" in PYPROJECT_NEW.splitlines()[location["region"]["startLine"] - 1]
    notes = run["invocations"][0]["toolExecutionNotifications"]
    assert not [n for n in notes if "flask" in n["message"]["text"]]


def test_cli_claim_without_evidence_falls_back_to_the_first_changed_line(repo: GitRepo) -> None:
    base = repo.commit({"src/app.py": "X = 1\n"}, "base")
    head = repo.commit({"src/app.py": "X = 1\nY = 2\n"}, "Tweak\n\nTribunal-Claim: added-test\n")
    result = repo.tribunal("check", "--base", base, "--head", head, "--format", "json")
    (finding,) = [
        f for f in json.loads(result.stdout)["findings"] if f["analyzer"] == "claim-reconciliation"
    ]
    assert finding["verdict"] == "CONTRADICTED"
    assert (finding["file"], finding["line"]) == ("src/app.py", 2)
    assert f"commit:{head[:12]}" in finding["detail"]
