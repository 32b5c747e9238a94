"""assertion-free-test for Python: a ``self.`` method that a subclass in another file may override.

``TestBase.test_it`` calling an empty ``self.check()`` can never fail as
written, but ``class TestReal(TestBase)`` in another file that overrides
``check`` makes it a template, not a defect. Other files are searched (through
git, in the head tree) only when the verdict would be CONTRADICTED; with no
head tree to search, the verdict is UNVERIFIED. The defect twin, a class no
other file names, stays CONTRADICTED. Real git repositories throughout.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager

import pytest

from tests.engine_helpers import change_between, change_for
from tests.gitrepo import GitRepo
from tests.test_aft_python import ID, C, U, by_test, judged, src
from tribunal.change.model import Change
from tribunal.config.model import Config
from tribunal.engine.runner import analyze
from tribunal.engine.sources import Selection, build_change
from tribunal.findings import Verdict
from tribunal.git.cmd import Git
from tribunal.lang.python.pytest_project import overridden_elsewhere
from tribunal.lang.python.testcases import ModuleIndex, discover_tests, parse_module
from tribunal.lang.test_diff import diff_tests, judge

BASE_CLASS = src(
    """
    class TestBase:
        def check(self):
            pass

        def test_it(self):
            self.check()
    """
)

SUBCLASS = src(
    """
    from tests.base import TestBase


    class TestReal(TestBase):
        def check(self):
            assert compute() == 3
    """
)

COLLECT_EVERY_PY = "[pytest]\npython_files = *.py\n"


@contextmanager
def change_of(repo: GitRepo, base: Mapping[str, str], head: Mapping[str, str]) -> Iterator[Change]:
    base_sha = repo.commit(base, "base")
    head_sha = repo.commit(head, "head")
    with change_between(repo, base_sha, head_sha) as change:
        yield change


@pytest.mark.parametrize(
    ("base", "path"),
    [
        pytest.param({"pytest.ini": COLLECT_EVERY_PY}, "tests/base.py", id="configured-pattern"),
        pytest.param({"README": "x"}, "tests/test_base.py", id="default-pattern"),
    ],
)
def test_a_subclass_in_another_file_makes_it_unverified(
    repo: GitRepo, base: dict[str, str], path: str
) -> None:
    subclass = SUBCLASS.replace("tests.base", path.removesuffix(".py").replace("/", "."))
    found = judged(repo, base, {path: BASE_CLASS, "tests/test_real.py": subclass})
    (finding,) = [f for f in found if f.file == path]
    assert by_test([finding]) == {"TestBase.test_it": U}
    assert "`TestBase` is also named in `tests/test_real.py`" in finding.detail
    assert "where a subclass may override `check`" in finding.detail


def test_a_subclass_already_in_base_counts_too(repo: GitRepo) -> None:
    base = {"tests/test_real.py": SUBCLASS.replace("tests.base", "tests.test_base")}
    found = judged(repo, base, {"tests/test_base.py": BASE_CLASS})
    assert by_test(found) == {"TestBase.test_it": U}


@pytest.mark.parametrize(
    "elsewhere",
    [
        pytest.param({"README": "x"}, id="no-other-file"),
        pytest.param({"tests/test_other.py": "class TestBaseline:\n    pass\n"}, id="longer-word"),
        pytest.param({"docs/notes.md": "TestBase is a template\n"}, id="not-python"),
    ],
)
def test_no_other_python_file_naming_the_class_stays_contradicted(
    repo: GitRepo, elsewhere: dict[str, str]
) -> None:
    found = judged(repo, elsewhere, {"tests/test_base.py": BASE_CLASS})
    assert by_test(found) == {"TestBase.test_it": C}
    assert "only calls same-file helpers that cannot fail: `check`" in found[0].detail


def test_an_empty_test_in_a_named_class_stays_contradicted(repo: GitRepo) -> None:
    """Only a verdict resting on a ``self.`` method can change in a subclass."""
    code = "class TestBase:\n    def test_it(self):\n        pass\n"
    base = {"tests/test_real.py": SUBCLASS.replace("tests.base", "tests.test_base")}
    found = judged(repo, base, {"tests/test_base.py": code})
    assert by_test(found) == {"TestBase.test_it": C}


@pytest.mark.parametrize("staged", [True, False], ids=["index", "worktree"])
def test_the_index_and_the_work_tree_are_searched(repo: GitRepo, staged: bool) -> None:
    """``git grep --cached`` for a pre-commit run, ``--untracked`` for the work tree."""
    repo.commit({"README": "x"})
    repo.write({"tests/test_base.py": BASE_CLASS, "tests/test_real.py": SUBCLASS})
    if staged:
        repo.git("add", "-A")
    with change_for(repo, Selection(staged=staged)) as change:
        report = analyze(change, only=[ID])
    (finding,) = [f for f in report.findings if f.file == "tests/test_base.py"]
    assert finding.verdict is Verdict.UNVERIFIED
    assert "is also named in `tests/test_real.py`" in finding.detail


def test_the_test_diff_judge_gives_the_same_answer(repo: GitRepo) -> None:
    """claims (added-test) and risky-diff-no-test judge through ``test_diff.judge``."""
    head = {"tests/test_base.py": BASE_CLASS, "tests/test_real.py": SUBCLASS}
    with change_of(repo, {"README": "x"}, head) as change:
        by_label = {t.label: t for t in diff_tests(change).added}
        record = by_label["tests/test_base.py::TestBase.test_it"]
        assert judge(record, change) is Verdict.UNVERIFIED
        report = analyze(change, only=[ID])
    (finding,) = [f for f in report.findings if f.file == "tests/test_base.py"]
    assert finding.verdict is Verdict.UNVERIFIED


def test_a_bare_diff_cannot_rule_out_a_subclass(repo: GitRepo) -> None:
    base_sha = repo.commit({"README": "x"}, "base")
    repo.commit({"tests/test_base.py": BASE_CLASS}, "head")
    patch = repo.path.parent / "change.diff"
    patch.write_text(repo.git("diff", base_sha, "HEAD") + "\n", encoding="utf-8")
    tree = parse_module(BASE_CLASS)
    assert tree is not None
    (test,) = discover_tests(ModuleIndex.build(tree))
    with Git(repo.path) as git:
        change = build_change(Selection(diff=str(patch)), git, None, repo.path, Config())
        reasons = overridden_elsewhere(change, "tests/test_base.py", test, ("check",))
        report = analyze(change, only=[ID])
    assert reasons == (
        "only a diff was given, so a subclass of `TestBase` in another file "
        "that overrides `check` could not be ruled out",
    )
    assert [f.verdict for f in report.findings if f.analyzer == ID] == [Verdict.UNVERIFIED]
