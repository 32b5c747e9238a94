"""One discovery per side of a Python test file, shared by every analyzer of a run.

assertion-free-test and the test diff (test-tampering, the test claims) used
to parse, index and discover each side separately; ``python_tests.tests_of``
now does it once per ``Source`` and naming. These tests pin the sharing and
that the reasons given for a file that does not parse are unchanged.
"""

from __future__ import annotations

from tests.engine_helpers import change_between, src
from tests.gitrepo import GitRepo
from tribunal.change.model import Source
from tribunal.engine.runner import analyze
from tribunal.lang.python import testcases as python_tests
from tribunal.lang.python.pytest_naming import DEFAULT_NAMING, PytestNaming
from tribunal.lang.python.records import python_records
from tribunal.lang.python.testcases import parse_source, parsed
from tribunal.lang.test_diff import diff_tests

BODY = src(
    """
    def test_a():
        assert 1

    def check_b():
        pass

    def test_a():
        pass
    """
)


def test_tests_of_is_computed_once_per_source_and_naming() -> None:
    source = Source("test_x.py", BODY.encode())
    first = python_tests.tests_of(source, DEFAULT_NAMING)
    assert first is not None
    assert first is python_tests.tests_of(source, DEFAULT_NAMING)
    assert [t.qualname for t in first.tests] == ["test_a", "test_a"]
    checks = python_tests.tests_of(source, PytestNaming(functions=("check",)))
    assert checks is not None
    assert [t.qualname for t in checks.tests] == ["check_b"]


def test_records_reuse_the_shared_discovery() -> None:
    source = Source("test_x.py", BODY.encode())
    found = python_tests.tests_of(source, DEFAULT_NAMING)
    records = python_records(source, "test_x.py", "test_x.py", DEFAULT_NAMING)
    assert found is not None and records is not None
    assert [r.test for r in records] == list(found.tests)
    assert all(r.index is found.module for r in records)
    assert [r.ordinal for r in records] == [0, 1]


def test_an_unparsable_source_keeps_the_parsers_reason() -> None:
    source = Source("test_bad.py", b"def test_a(:\n    pass\n")
    assert python_tests.tests_of(source) is None
    assert parsed(source) == parse_source(source.data)
    assert parsed(source).error_line == 1
    assert parsed(source).error is not None and parsed(source).error.startswith("SyntaxError: ")


def test_the_analyzer_and_the_test_diff_judge_the_same_test_objects(repo: GitRepo) -> None:
    base = repo.commit({"test_x.py": BODY}, "base")
    head = repo.commit({"test_x.py": BODY.replace("assert 1", "assert 2")}, "head")
    with change_between(repo, base, head) as change:
        report = analyze(change, only=["assertion-free-test"])
        (fc,) = change.files
        head_source = change.head_source(fc)
        assert head_source is not None
        found = python_tests.tests_of(head_source, DEFAULT_NAMING)
        touched = diff_tests(change).touched
    # the first ``test_a`` is shadowed by the second, so it is not judged PASS
    assert [(f.line, f.title) for f in report.findings] == [
        (1, "test `test_a` has no assertion Tribunal can see")
    ]
    assert found is not None
    assert [t.test for t in touched] == [found.tests[0]]
