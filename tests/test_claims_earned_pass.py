"""A PASS must be earned: every claim verifier answers UNVERIFIED, never PASS, when the
change touches a construct it cannot read that could hold what the claim names.

Real git repositories, the real engine, one claim per range.
"""

from __future__ import annotations

import json

import pytest

from tests.claims_support import claim_verdict
from tests.engine_helpers import Files
from tests.gitrepo import GitRepo
from tribunal.findings import Verdict

C, U, P = Verdict.CONTRADICTED, Verdict.UNVERIFIED, Verdict.PASS


@pytest.mark.parametrize(
    ("base", "head"),
    [
        ({"pkg/a.go": "package a\n"}, {"pkg/a.go": "package a\n\nfunc Put() {}\n"}),
        ({"src/lib.rs": "pub fn a() {}\n"}, {"src/lib.rs": "pub fn a() {}\npub fn b() {}\n"}),
        (
            {"src/Button.vue": "<script lang='coffee'>\nx = 1\n</script>\n"},
            {"src/Button.vue": "<script lang='coffee'>\nx = 2\n</script>\n"},
        ),
        (
            {"package.json": json.dumps({"name": "l", "bin": {"l": "cli.js"}})},
            {"package.json": json.dumps({"name": "l", "bin": {"l2": "cli.js"}})},
        ),
        (
            {"pyproject.toml": "[project]\nname = 'l'\n[project.scripts]\nl = 'l:main'\n"},
            {"pyproject.toml": "[project]\nname = 'l'\n[project.scripts]\nl2 = 'l:main'\n"},
        ),
    ],
    ids=["go", "rust", "unreadable-component", "package-bin", "pyproject-scripts"],
)
def test_public_api_is_unverified_past_what_it_cannot_read(
    repo: GitRepo, base: Files, head: Files
) -> None:
    verdict, finding = claim_verdict(repo, base, head, "no-public-api-change")
    assert verdict is U, finding.title


@pytest.mark.parametrize(
    ("base", "head"),
    [
        ({"README.md": "a\n"}, {"README.md": "b\n"}),
        ({"pkg/a_test.go": "package a\n"}, {"pkg/a_test.go": "package a\n// more\n"}),
        (
            {"package.json": json.dumps({"name": "l", "version": "1.0.0"})},
            {"package.json": json.dumps({"name": "l", "version": "1.1.0"})},
        ),
    ],
    ids=["docs", "go-test-file", "package-version"],
)
def test_public_api_still_passes_when_nothing_unread_can_hold_a_name(
    repo: GitRepo, base: Files, head: Files
) -> None:
    verdict, finding = claim_verdict(repo, base, head, "no-public-api-change")
    assert verdict is P, finding.detail


@pytest.mark.parametrize(
    "manifest",
    ["go.mod", "Cargo.toml", "Gemfile", "environment.yml", "tox.ini", "app.csproj"],
)
def test_new_dependency_is_unverified_when_a_manifest_it_cannot_read_gained_lines(
    repo: GitRepo, manifest: str
) -> None:
    verdict, finding = claim_verdict(
        repo, {manifest: "# base\n"}, {manifest: "# base\nnew-thing\n"}, "no-new-dependency"
    )
    assert verdict is U
    assert manifest in finding.detail


def test_new_dependency_passes_when_only_lines_were_removed_from_an_unread_manifest(
    repo: GitRepo,
) -> None:
    verdict, _ = claim_verdict(
        repo, {"go.mod": "module a\nrequire x v1\n"}, {"go.mod": "module a\n"}, "no-new-dependency"
    )
    assert verdict is P


@pytest.mark.parametrize(
    ("base", "head"),
    [
        ({"pkg/a_test.go": "package a\nfunc TestA() {}\n"}, {"pkg/a_test.go": "package a\n"}),
        ({"features/a.feature": "Feature: a\n  Scenario: b\n"}, {"features/a.feature": "F\n"}),
        (
            {"pytest.ini": "[pytest]\naddopts = -q\n", "tests/test_a.py": "def test_a(): pass\n"},
            {"pytest.ini": "[pytest]\naddopts = -q --deselect tests/test_a.py::test_a\n"},
        ),
    ],
    ids=["go", "gherkin", "deselected"],
)
def test_no_test_removed_is_unverified_past_what_it_cannot_read(
    repo: GitRepo, base: Files, head: Files
) -> None:
    verdict, finding = claim_verdict(repo, base, head, "no-test-removed")
    assert verdict is U, finding.title


def test_no_test_removed_passes_when_a_helper_named_like_a_test_lost_lines(repo: GitRepo) -> None:
    base = {"tests/helpers.py": "def a(): ...\ndef b(): ...\n"}
    verdict, _ = claim_verdict(
        repo, base, {"tests/helpers.py": "def a(): ...\n"}, "no-test-removed"
    )
    assert verdict is P
