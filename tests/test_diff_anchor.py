"""``check --diff`` in the checkout the diff was made from: whole trees, not a few lines.

When HEAD holds the diff's preimage, the change is HEAD against HEAD with the
diff applied (``tribunal.change.diff_anchor``): hallucinated-symbol resolves imports
and conftest.py files are read. A diff nothing anchors is judged on its own,
and the report says which analyzers could not run. Real git, the real CLI.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.gitrepo import GitRepo
from tribunal.change.diff.parse import parse_diff
from tribunal.change.diff_anchor import apply

BASE = {
    "pkg/__init__.py": "",
    "pkg/calc.py": "def add(a, b):\n    return a + b\n\n\ndef sub(a, b):\n    return a - b\n",
    "app.py": "from pkg.calc import add\n",
}


def _diff_of(repo: GitRepo, files: dict[str, str | None]) -> str:
    """The working-tree diff ``files`` make against HEAD; the checkout is then put back."""
    repo.write(files)
    repo.git("add", "-N", ".")
    diff = repo.git("diff", "HEAD") + "\n"
    repo.git("reset", "-q")
    repo.git("checkout", "-q", "--", ".")
    repo.git("clean", "-qfd")
    return diff


def _check(repo: GitRepo, diff: str, cwd: Path | None = None) -> dict[str, object]:
    result = repo.tribunal("check", "--diff", "-", "--format", "json", stdin=diff, cwd=cwd)
    assert result.code == 0, result.stderr
    report: dict[str, object] = json.loads(result.stdout)
    return report


def _symbols(report: dict[str, object]) -> list[tuple[str, str, str]]:
    findings = report["findings"]
    assert isinstance(findings, list)
    return [
        (f["verdict"], f["file"], f["title"])
        for f in findings
        if f["analyzer"] == "hallucinated-symbol"
    ]


def test_an_anchored_diff_resolves_imports_against_the_patched_tree(repo: GitRepo) -> None:
    repo.commit(BASE)
    diff = _diff_of(
        repo,
        {
            "pkg/calc.py": "def add(a, b):\n    return a + b\n",  # sub removed by the diff
            "app.py": "from pkg.calc import add, mul\n",
            "cli.py": "from pkg.calc import sub\n",
        },
    )
    report = _check(repo, diff)  # the checkout is back at HEAD: the diff is applied by us
    assert sorted(_symbols(report)) == [
        ("CONTRADICTED", "app.py", "'pkg.calc' has no name 'mul'"),
        ("CONTRADICTED", "cli.py", "'pkg.calc' has no name 'sub'"),
    ]
    assert "notes" not in report
    assert "applied to HEAD" in str(report["range"])


def test_a_name_the_diff_adds_resolves(repo: GitRepo) -> None:
    repo.commit(BASE)
    calc = BASE["pkg/calc.py"] + "\n\ndef mul(a, b):\n    return a * b\n"
    diff = _diff_of(repo, {"pkg/calc.py": calc, "app.py": "from pkg.calc import add, mul\n"})
    assert _symbols(_check(repo, diff)) == []


def test_a_module_the_diff_deletes_is_gone_for_its_importers(repo: GitRepo) -> None:
    repo.commit({**BASE, "pkg/extra.py": "X = 1\n"})
    diff = _diff_of(repo, {"pkg/extra.py": None, "app.py": "from pkg.extra import X\n"})
    assert _symbols(_check(repo, diff)) == [
        ("CONTRADICTED", "app.py", "'pkg.extra' resolves to no module")
    ]


@pytest.mark.parametrize("where", ["outside", "stale"])
def test_a_diff_nothing_anchors_says_which_analyzers_could_not_run(
    repo: GitRepo, tmp_path: Path, where: str
) -> None:
    repo.commit(BASE)
    diff = _diff_of(repo, {"app.py": "from pkg.calc import add, mul\n"})
    cwd = None
    if where == "outside":
        cwd = tmp_path / "elsewhere"
        cwd.mkdir()
    else:
        repo.commit({"app.py": "import os\n"})  # HEAD no longer holds the preimage
    report = _check(repo, diff, cwd)
    assert _symbols(report) == []
    notes = report["notes"]
    assert isinstance(notes, list)
    assert any(
        n.startswith("hallucinated-symbol did not run: only a diff was given") for n in notes
    )
    text = repo.tribunal("check", "--diff", "-", stdin=diff, cwd=cwd).stdout
    assert "note: hallucinated-symbol did not run" in text


def test_applying_hunks_rebuilds_the_post_image() -> None:
    old = "a\nb\nc\nd\ne\n"
    diff = (
        "diff --git a/f b/f\n--- a/f\n+++ b/f\n"
        "@@ -0,0 +1 @@\n+top\n"
        "@@ -2,2 +3 @@\n-b\n-c\n+bc\n"
        "@@ -5,0 +5,2 @@\n+f\n+g\n"
    )
    (fc,) = parse_diff(iter(diff.encode().splitlines(keepends=True)), max_file_bytes=1 << 20)
    assert apply(fc, old.encode()).decode() == "top\na\nbc\nd\ne\nf\ng\n"


def test_applying_a_hunk_with_context_lines() -> None:
    old = "one\ntwo\nthree\nfour\n"
    diff = "--- a/f\n+++ b/f\n@@ -1,4 +1,4 @@\n one\n-two\n+TWO\n three\n four\n"
    (fc,) = parse_diff(iter(diff.encode().splitlines(keepends=True)), max_file_bytes=1 << 20)
    assert apply(fc, old.encode()).decode() == "one\nTWO\nthree\nfour\n"
