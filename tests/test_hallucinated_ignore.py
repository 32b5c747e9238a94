"""hallucinated-symbol and .gitignore: a commit's rules are the commit's, not the checkout's.

A module the tree lacks but the repository's ``.gitignore`` covers is generated
(UNVERIFIED, never CONTRADICTED). When the change is a commit range the rules
come from the head commit's own ``.gitignore`` files (DESIGN 7): a rule only the
checkout has excuses nothing, a rule only the commit has excuses even when the
checkout lacks it, and neither the user's global excludes nor
``.git/info/exclude`` counts. Working-tree and staged checks keep reading the
working tree, which is what they check. Real repositories, the real engine.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest

from tests.engine_helpers import change_for, findings_for, run_range
from tests.gitrepo import GitRepo
from tribunal.analyzers.hallucinated_symbol.commit_ignores import (
    MAX_RULE_CHARS,
    MAX_RULE_STARS,
    CommitIgnores,
    ancestors,
)
from tribunal.change.model import Change
from tribunal.change.snapshot import MAX_FILE_BYTES, CommitSnapshot, EmptySnapshot
from tribunal.config.model import Config
from tribunal.engine.runner import analyze
from tribunal.engine.sources import Selection, empty_tree, git_diff
from tribunal.findings import Finding, RangeInfo
from tribunal.git.cmd import Git

ID = "hallucinated-symbol"
C, U = "CONTRADICTED", "UNVERIFIED"
COVERS = ".gitignore covers pkg/helpers.py"
ADDED = "excused only by a .gitignore rule this change adds"
CANNOT = "git could not say whether .gitignore covers it"

PKG = {"pkg/__init__.py": "", "pkg/calc.py": "def add(a, b):\n    return a + b\n"}
APP = {"pkg/app.py": "from .calc import add\nfrom .helpers import fmt\n"}


def verdicts(found: list[Finding]) -> list[str]:
    return [f.verdict.name for f in found]


def in_worktree(repo: GitRepo, staged: bool = False) -> list[Finding]:
    """The analyzer's findings for the working tree (or the index) against HEAD."""
    with change_for(repo, Selection(staged=staged)) as change:
        report = analyze(change, only=[ID])
    assert report.errors == (), [e.traceback for e in report.errors]
    return [f for f in report.findings if f.analyzer == ID]


def asked(repo: GitRepo, rev: str, paths: list[str]) -> dict[str, bool | None]:
    """``CommitIgnores`` asked directly: what commit ``rev``'s rules say of each path."""
    with Git(repo.path) as git:
        rules = CommitIgnores(git, repo.path, rev)
        try:
            return rules.ask(paths)
        finally:
            rules.close()


# -- the checkout does not decide a commit's verdict ------------------------------------------


def test_a_rule_only_the_checkout_has_excuses_nothing(repo: GitRepo) -> None:
    """The review's reproduction: the working tree's .gitignore gains the missing module."""
    base = repo.commit(PKG, "base")
    head = repo.commit(APP, "app")
    repo.write({".gitignore": "pkg/helpers.py\n"})
    found = findings_for(repo, base, head, ID)
    assert verdicts(found) == [C]
    assert found[0].title == "'.helpers' resolves to no module"


def test_a_range_checked_from_another_commit_through_the_real_cli(repo: GitRepo) -> None:
    """CI checks out the pull request's merge commit, which may carry rules head lacks."""
    base = repo.commit(PKG, "base")
    head = repo.commit(APP, "app")
    repo.git("checkout", "-q", "-b", "merge", base)
    repo.commit({".gitignore": "pkg/helpers.py\n"}, "the checkout ignores it")
    result = repo.tribunal("check", "--base", base, "--head", head, "--hard-fail")
    assert result.code == 1, result.stdout + result.stderr
    assert "1 CONTRADICTED" in result.stdout
    assert repo.git("status", "--porcelain") == ""


def test_a_rule_the_commit_has_counts_when_the_checkout_lacks_it(repo: GitRepo) -> None:
    base = repo.commit({**PKG, ".gitignore": "pkg/helpers.py\n"}, "base")
    head = repo.commit(APP, "app")
    repo.write({".gitignore": "*.log\n"})
    found = findings_for(repo, base, head, ID)
    assert verdicts(found) == [U]
    assert COVERS in found[0].detail
    assert ADDED not in found[0].detail


def test_a_rule_the_commit_drops_no_longer_excuses(repo: GitRepo) -> None:
    base = repo.commit({**PKG, ".gitignore": "pkg/helpers.py\n"}, "base")
    head = repo.commit({**APP, ".gitignore": "*.log\n"}, "app")
    repo.write({".gitignore": "pkg/helpers.py\n"})
    assert verdicts(findings_for(repo, base, head, ID)) == [C]


def test_a_rule_the_change_adds_excuses_but_says_so(repo: GitRepo) -> None:
    """Codegen plus its .gitignore line in one change is honest: UNVERIFIED, flagged as new."""
    found = run_range(repo, PKG, {**APP, ".gitignore": "pkg/helpers.py\n"}, ID)
    assert verdicts(found) == [U]
    assert COVERS in found[0].detail
    assert ADDED in found[0].detail


def test_setuptools_scm_version_file_ignored_in_the_commit(repo: GitRepo) -> None:
    base = {".gitignore": "src/tool/_version.py\n", "src/tool/__init__.py": "", "x.py": ""}
    found = run_range(repo, base, {"x.py": "from tool._version import version\n"}, ID)
    assert verdicts(found) == [U]
    assert ".gitignore covers src/tool/_version.py" in found[0].detail
    assert ADDED not in found[0].detail


# -- git's own matching: nested files, negation, directories -----------------------------------


def test_a_nested_gitignore_covers_its_own_directory_only(repo: GitRepo) -> None:
    base = {**PKG, "pkg/.gitignore": "/helpers.py\n", "other/.gitignore": "calc2.py\n"}
    head = {**APP, "pkg/b.py": "from .calc2 import sub\n"}
    found = run_range(repo, base, head, ID)
    assert [(f.verdict.name, f.file) for f in found] == [(U, "pkg/app.py"), (C, "pkg/b.py")]
    assert COVERS in found[0].detail


def test_a_negated_rule_keeps_a_module_unignored(repo: GitRepo) -> None:
    base = {"pkg/__init__.py": "", "pkg/.gitignore": "*_gen.py\n!keep_gen.py\n", "a.py": ""}
    head = {"a.py": "from pkg.keep_gen import k\nfrom pkg.api_gen import o\n"}
    found = run_range(repo, base, head, ID)
    assert [(f.verdict.name, f.line) for f in found] == [(C, 1), (U, 2)]
    assert ".gitignore covers pkg/api_gen.py" in found[1].detail


def test_rules_inside_an_ignored_directory_are_not_read(repo: GitRepo) -> None:
    """git reads no .gitignore below an ignored directory, so its `!` cannot re-include."""
    repo.commit({".gitignore": "codegen/\n", "codegen/.gitignore": "!main.py\n", "a.py": ""})
    repo.git("add", "-f", "codegen/.gitignore")
    base = repo.commit(None, "force-add codegen/.gitignore: the commit holds it")
    head = repo.commit({"a.py": "import codegen.main\n"}, "head")
    found = findings_for(repo, base, head, ID)
    assert verdicts(found) == [U]
    assert ".gitignore covers codegen/main.py" in found[0].detail


def test_a_symlinked_gitignore_is_not_followed(repo: GitRepo, tmp_path: Path) -> None:
    """git does not read a .gitignore that is a symlink; neither does the commit's check."""
    repo.commit({**PKG, "rules.txt": "pkg/helpers.py\n"}, "rules")
    (repo.path / ".gitignore").symlink_to("rules.txt")
    base = repo.commit(None, "link")
    head = repo.commit(APP, "app")
    assert verdicts(findings_for(repo, base, head, ID)) == [C]


def test_typescript_codegen_ignored_in_the_commit(repo: GitRepo) -> None:
    base = {"src/app.ts": "", "src/.gitignore": "__generated__/\n"}
    head = {"src/app.ts": "import { schema } from './__generated__/schema';\n"}
    repo.commit(base, "base")
    base_sha = repo.git("rev-parse", "HEAD")
    head_sha = repo.commit(head, "head")
    repo.write({"src/.gitignore": "*.log\n"})
    found = findings_for(repo, base_sha, head_sha, ID)
    assert verdicts(found) == [U]
    assert ".gitignore covers src/__generated__/schema (generated" in found[0].detail


# -- nothing but the commit decides -------------------------------------------------------------


def test_global_and_repository_excludes_do_not_count_for_a_commit(
    repo: GitRepo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    excludes = tmp_path / "excludes"
    excludes.write_text("pkg/helpers.py\n", encoding="utf-8")
    global_config = tmp_path / "global.gitconfig"
    global_config.write_text(f"[core]\n\texcludesFile = {excludes}\n", encoding="utf-8")
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(global_config))
    # Config a caller hands down in the environment, as a hook's parent git may.
    inherited = {"COUNT": "1", "KEY_0": "core.excludesFile", "VALUE_0": str(excludes)}
    for name, value in inherited.items():
        monkeypatch.setenv(f"GIT_CONFIG_{name}", value)
    repo.git("config", "core.excludesFile", str(excludes))
    (repo.path / ".git" / "info").mkdir(exist_ok=True)
    (repo.path / ".git" / "info" / "exclude").write_text("pkg/helpers.py\n", encoding="utf-8")
    found = run_range(repo, PKG, APP, ID)
    assert verdicts(found) == [C]
    # The working tree is checked against every rule git applies to it, as before.
    repo.write({"pkg/app.py": APP["pkg/app.py"] + "from .helpers import other\n"})
    assert verdicts(in_worktree(repo)) == [U]


def test_working_tree_mode_reads_the_working_tree_rules(repo: GitRepo) -> None:
    repo.commit(PKG, "base")
    repo.write({**APP, ".gitignore": "pkg/helpers.py\n"})
    found = in_worktree(repo)
    assert verdicts(found) == [U]
    assert COVERS in found[0].detail
    repo.write({".gitignore": "*.log\n"})
    assert verdicts(in_worktree(repo)) == [C]


def test_staged_mode_reads_the_working_tree_rules(repo: GitRepo) -> None:
    repo.commit(PKG, "base")
    repo.write({**APP, ".gitignore": "pkg/helpers.py\n"})
    repo.git("add", "pkg/app.py")
    found = in_worktree(repo, staged=True)
    assert verdicts(found) == [U]
    assert COVERS in found[0].detail


# -- file names, sizes, submodules, and a scratch directory that cannot be had ------------------


def test_a_gitignore_with_bytes_that_are_not_utf8(repo: GitRepo) -> None:
    odd = "d\udcff/.gitignore"  # a directory named with the byte 0xff
    base = {**PKG, odd: b"caf\xe9.py\n", ".gitignore": b"# r\xe9gles\npkg/helpers.py\n"}
    found = run_range(repo, base, APP, ID)
    assert verdicts(found) == [U]
    assert COVERS in found[0].detail


def test_a_directory_name_that_is_not_utf8(repo: GitRepo) -> None:
    head = repo.commit({"d\udcff/.gitignore": b"gen\xe9.py\n", "d\udcff/x.py": ""}, "odd")
    paths = ["d\udcff/gen\udce9.py", "d\udcff/other.py", "gen\udce9.py"]
    assert asked(repo, head, paths) == dict(zip(paths, [True, False, False], strict=True))


def test_a_path_inside_a_submodule_gets_no_answer(repo: GitRepo) -> None:
    first = repo.commit({".gitignore": "*.gen.py\n"}, "rules")
    repo.git("update-index", "--add", "--cacheinfo", f"160000,{first},vendor/lib")
    repo.git("commit", "-q", "-m", "submodule")  # not `add -A`: that would drop the gitlink
    head = repo.git("rev-parse", "HEAD")
    paths = ["vendor/lib/a.gen.py", "vendor/a.gen.py", "vendor/a.py"]
    assert asked(repo, head, paths) == dict(zip(paths, [None, True, False], strict=True))


def test_paths_no_checkout_could_hold_are_never_asked() -> None:
    assert ancestors("a/b/c.py") == ["", "a", "a/b"]
    assert ancestors("c.py") == [""]
    bad_paths = ("../x.py", "a/../x.py", "/abs.py", "a//b.py", ".git/x.py", "a/.GIT/x.py")
    for bad in (*bad_paths, ":(top)x.py"):
        assert ancestors(bad) is None, bad


def test_a_gitignore_too_large_to_read_makes_it_unknown(repo: GitRepo) -> None:
    comment = b"#" + b"x" * 1000 + b"\n"
    huge = comment * (MAX_FILE_BYTES // len(comment) + 1) + b"pkg/helpers.py\n"
    found = run_range(repo, {**PKG, "pkg/.gitignore": huge}, APP, ID)
    assert verdicts(found) == [U]
    assert CANNOT in found[0].detail


@pytest.mark.parametrize(
    "rule", ["*a" * (MAX_RULE_STARS + 1) + "*", "x" * (MAX_RULE_CHARS + 1)], ids=["stars", "chars"]
)
def test_a_gitignore_with_a_rule_too_costly_to_match_makes_it_unknown(
    repo: GitRepo, rule: str
) -> None:
    """git's matcher backtracks over each ``*``: such a file is not handed to it (issue 21)."""
    rules = f"{rule}\npkg/helpers.py\n"
    found = run_range(repo, {**PKG, "pkg/.gitignore": rules}, APP, ID)
    assert verdicts(found) == [U]
    assert CANNOT in found[0].detail


def test_a_long_comment_or_a_few_stars_keep_the_rules_read(repo: GitRepo) -> None:
    """The clean twin: comments are no rules, and ordinary globs stay well under the caps."""
    rules = "#" + "*" * (MAX_RULE_CHARS * 2) + "\n**/*.pyc\n*helpers*.py\n"
    found = run_range(repo, {**PKG, "pkg/.gitignore": rules}, APP, ID)
    assert verdicts(found) == [U]
    assert ".gitignore covers pkg/helpers.py" in found[0].detail


def test_no_scratch_directory_means_unknown_not_contradicted(
    repo: GitRepo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "no-such-dir"))
    found = run_range(repo, PKG, APP, ID)
    assert verdicts(found) == [U]
    assert CANNOT in found[0].detail


def test_the_scratch_directory_is_removed_and_the_repository_untouched(
    repo: GitRepo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    scratch_root = tmp_path / "tmp"
    scratch_root.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch_root))
    base = repo.commit({**PKG, ".gitignore": "*.log\n"}, "base")
    head = repo.commit({**APP, ".gitignore": "*.log\npkg/helpers.py\n"}, "app")
    repo.write({"notes.txt": "untracked\n"})
    before = repo.git("status", "--porcelain", "--ignored")
    found = findings_for(repo, base, head, ID)
    assert verdicts(found) == [U] and ADDED in found[0].detail
    assert list(scratch_root.iterdir()) == []
    assert repo.git("status", "--porcelain", "--ignored") == before


def test_a_root_commit_says_the_rule_is_new(repo: GitRepo) -> None:
    """A root commit's base is the empty tree: every rule it has, it adds."""
    head = repo.commit({**PKG, **APP, ".gitignore": "pkg/helpers.py\n"}, "root")
    with Git(repo.path) as git:
        files = git_diff(git, "diff-tree", "-r", empty_tree(git), head)
        info = RangeInfo("range", None, head, None, "root commit")
        snap = CommitSnapshot(git, head)
        change = Change(tuple(files), EmptySnapshot(), snap, repo.path, Config(), info, git=git)
        found = [f for f in analyze(change, only=[ID]).findings if f.analyzer == ID]
    assert verdicts(found) == [U]
    assert ADDED in found[0].detail


# -- template patterns for build residue -------------------------------------------------

TEMPLATE = "__pycache__/\n*.py[cod]\n*$py.class\n*.so\n*.pyd\n"
RESULTS = {"src/pkg/__init__.py": "", "src/pkg/api.py": ""}
IMPORT_RESULTS = {"src/pkg/api.py": "from ._results import Result\n"}


def test_template_residue_patterns_excuse_nothing_without_a_build(repo: GitRepo) -> None:
    base = {".gitignore": TEMPLATE, "pyproject.toml": '[project]\nname = "pkg"\n', **RESULTS}
    found = run_range(repo, base, IMPORT_RESULTS, ID)
    assert verdicts(found) == [C]
    assert "'._results' resolves to no module" in found[0].title


@pytest.mark.parametrize(
    ("files", "evidence"),
    [
        ({"setup.py": "setup(ext_modules=cythonize('src/pkg/*.pyx'))\n"}, "setup.py builds"),
        (
            {"pyproject.toml": '[tool.setuptools]\next-modules = [{name = "pkg._x"}]\n'},
            "pyproject.toml builds",
        ),
        (
            {"pyproject.toml": '[build-system]\nbuild-backend = "mesonpy"\n'},
            "pyproject.toml builds",
        ),
        ({"pyproject.toml": '[build-system]\nrequires = ["maturin"]\n'}, "maturin"),
        ({"pyproject.toml": '[build-system]\nrequires = ["scikit-build-core"]\n'}, "scikit"),
        ({"setup.py": "from setuptools_rust import RustExtension\n"}, "setuptools_rust"),
        ({"src/pkg/meson.build": "py.extension_module('_results')\n"}, "builds native code"),
    ],
    ids=["ext_modules", "ext-modules", "meson-python", "maturin", "scikit-build", "rust", "meson"],
)
def test_template_residue_patterns_excuse_a_module_a_build_may_compile(
    repo: GitRepo, files: dict[str, str], evidence: str
) -> None:
    found = run_range(repo, {".gitignore": TEMPLATE, **RESULTS, **files}, IMPORT_RESULTS, ID)
    assert verdicts(found) == [U]
    assert ".gitignore covers src/pkg/_results.so" in found[0].detail
    assert evidence in found[0].detail


def test_a_cython_source_with_the_stem_excuses_it(repo: GitRepo) -> None:
    base = {".gitignore": TEMPLATE, **RESULTS, "src/pkg/_results.pyx": "cdef class Result: pass\n"}
    found = run_range(repo, base, IMPORT_RESULTS, ID)
    assert verdicts(found) == [U] and "src/pkg/_results.pyx may build" in found[0].detail


def test_an_unrelated_sibling_with_the_stem_excuses_nothing(repo: GitRepo) -> None:
    base = {**RESULTS, "src/pkg/_results.json": "{}"}
    assert verdicts(run_range(repo, base, IMPORT_RESULTS, ID)) == [C]


def test_an_ignored_source_path_is_still_generated_and_named(repo: GitRepo) -> None:
    base = {".gitignore": "src/pkg/_results.py\n", **RESULTS}
    found = run_range(repo, base, IMPORT_RESULTS, ID)
    assert verdicts(found) == [U]
    assert ".gitignore covers src/pkg/_results.py (generated" in found[0].detail
