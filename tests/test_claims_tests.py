"""``added-test`` and ``no-test-removed``, and the base-vs-head test differ under them."""

from __future__ import annotations

import json

import pytest

from tests.claims_support import claim_verdict
from tests.engine_helpers import Files, change_between, run_range, src
from tests.gitrepo import GitRepo
from tribunal.findings import Verdict
from tribunal.lang.test_diff import TestDiff, diff_tests

C, U, P = Verdict.CONTRADICTED, Verdict.UNVERIFIED, Verdict.PASS

PY_TESTS = src(
    """
    from app import add

    def test_add():
        assert add(1, 2) == 3

    class TestMore:
        def test_zero(self):
            assert add(0, 0) == 0
    """
)
JS_TESTS = src(
    """
    import { add } from '../src/add';
    describe('add', () => {
      it('adds', () => { expect(add(1, 2)).toBe(3); });
      it('zero', () => { expect(add(0, 0)).toBe(0); });
    });
    """
)


def verdict(repo: GitRepo, base: Files, head: Files, claim: str) -> Verdict:
    return claim_verdict(repo, base, head, claim)[0]


def diff_of(repo: GitRepo, base: Files, head: Files) -> TestDiff:
    base_sha = repo.commit(base, "base")
    head_sha = repo.commit(head, "head")
    with change_between(repo, base_sha, head_sha) as change:
        return diff_tests(change)


# --- the differ ------------------------------------------------------------------------


def test_differ_lines_up_added_removed_moved_and_kept(repo: GitRepo) -> None:
    head_py = PY_TESTS.replace("def test_add():", "def test_addition():") + src(
        """

        def test_new():
            assert add(2, 2) == 4
        """
    )
    diff = diff_of(
        repo,
        {"tests/test_add.py": PY_TESTS, "test/add.test.js": JS_TESTS},
        {"tests/test_add.py": head_py, "test/add.test.js": None, "test/sum.test.js": JS_TESTS},
    )
    assert [t.label for t in diff.added] == ["tests/test_add.py::test_new"]
    assert diff.removed == []
    moved = [(old.label, new.label) for old, new in diff.moved]
    assert moved == [("tests/test_add.py::test_add", "tests/test_add.py::test_addition")]
    kept = sorted((o.label, n.label) for o, n in diff.kept)
    assert kept == [
        ("test/add.test.js::add > adds", "test/sum.test.js::add > adds"),  # git saw a rename
        ("test/add.test.js::add > zero", "test/sum.test.js::add > zero"),
        ("tests/test_add.py::TestMore.test_zero", "tests/test_add.py::TestMore.test_zero"),
    ]
    assert sorted(t.name for t in diff.touched) == ["test_addition", "test_new"]


def test_differ_follows_renamed_test_files(repo: GitRepo) -> None:
    diff = diff_of(
        repo, {"tests/test_a.py": PY_TESTS}, {"tests/test_a.py": None, "tests/test_b.py": PY_TESTS}
    )
    assert diff.removed == [] and diff.added == []
    assert {n.path for _, n in [*diff.kept, *diff.moved]} == {"tests/test_b.py"}


def test_differ_sees_skips_and_xfails(repo: GitRepo) -> None:
    head = PY_TESTS.replace("def test_add", "@pytest.mark.xfail\ndef test_add").replace(
        "    def test_zero", "    @unittest.skip('flaky')\n    def test_zero"
    )
    diff = diff_of(repo, {"tests/test_add.py": PY_TESTS}, {"tests/test_add.py": head})
    disabled = {(new.name, new.skipped, new.xfailed) for _, new in diff.newly_disabled()}
    assert disabled == {("test_add", False, True), ("TestMore.test_zero", True, False)}


# --- added-test ------------------------------------------------------------------------


def test_added_python_test_with_assertion_passes(repo: GitRepo) -> None:
    head = {"tests/test_add.py": PY_TESTS + "\n\ndef test_neg():\n    assert add(-1, 1) == 0\n"}
    verdict_, finding = claim_verdict(repo, {"tests/test_add.py": PY_TESTS}, head, "added-test")
    assert verdict_ is P and "tests/test_add.py::test_neg" in finding.detail


def test_added_js_test_in_a_new_file_passes(repo: GitRepo) -> None:
    assert verdict(repo, {"src/add.ts": "x"}, {"test/add.test.ts": JS_TESTS}, "added-test") is P


def test_no_test_touched_at_all_is_contradicted(repo: GitRepo) -> None:
    verdict_, finding = claim_verdict(
        repo, {"src/add.py": "def add(a, b): return a + b\n"},
        {"src/add.py": "def add(a, b): return b + a\n", "README.md": "docs\n"}, "added-test",
    )  # fmt: skip
    assert verdict_ is C
    assert "src/add.py" in finding.detail


@pytest.mark.parametrize(
    ("base", "head"),
    [
        ({"tests/test_add.py": PY_TESTS}, {"tests/test_add.py": PY_TESTS.replace("3", "4")}),
        ({"tests/test_add.py": PY_TESTS}, {"tests/test_add.py": PY_TESTS + "\n# more\n"}),
        ({"src/a.py": "x"}, {"tests/helpers.py": "def make(): ...\ndef pytest_configure(): ...\n"}),
        ({"src/a.go": "x"}, {"src/a_test.go": "package a\n"}),
        ({"src/a.py": "x"}, {"tests/test_new.py": "def test_smoke():\n    run()\n"}),
        ({"src/a.ts": "x"}, {"src/a.test.ts": "it.todo('later');\n"}),
        (
            {"tests/test_add.py": PY_TESTS},
            {"tests/test_add.py": PY_TESTS.replace("test_add():", "test_sum():")},
        ),
    ],
    ids=["edited", "comment", "helper", "go-test", "smoke", "todo", "renamed"],
)
def test_added_test_is_unverified_when_uncertain(repo: GitRepo, base: Files, head: Files) -> None:
    assert verdict(repo, base, head, "added-test") is U


@pytest.mark.parametrize(
    "head",
    [
        {"tests/helpers.py": "def make(): ...\n"},
        {"tests/factories.py": "import factory\nclass UserFactory(factory.Factory): ...\n"},
        {"src/test-utils.jsx": "export const renderWith = (ui) => render(ui);\n"},
    ],
    ids=["py-helper", "py-factory", "test-utils"],
)
def test_a_helper_named_like_a_test_that_defines_none_is_no_test(
    repo: GitRepo, head: Files
) -> None:
    verdict_, finding = claim_verdict(repo, {"src/a.py": "x"}, head, "added-test")
    assert verdict_ is C
    assert "Test helpers that define no test" in finding.detail


@pytest.mark.parametrize(
    "head",
    [
        {"tests/conftest.py": "X = 1\n"},
        {"tests/fixtures.py": "import pytest\n@pytest.fixture(params=[1, 2])\ndef n(r): ...\n"},
        {"tests/plugin.py": "pytest_plugins = ['x']\n"},
        {"tests/suite.py": "def load_tests(loader, tests, pattern): return tests\n"},
        {"src/test-utils.js": "export const suite = () => { it('x', () => expect(1)); };\n"},
        {"src/test-utils.js": "export const broken = (;\n"},
        {"test/helpers/setup.ts": "export function seed(): number { return 1; }\n"},
    ],
    ids=[
        "conftest",
        "fixture-params",
        "plugins",
        "load-tests",
        "shared-suite",
        "parse-error",
        "collected-by-naming",
    ],
)
def test_a_helper_that_may_add_tests_keeps_the_doubt(repo: GitRepo, head: Files) -> None:
    assert verdict(repo, {"src/a.py": "x"}, head, "added-test") is U


def test_a_story_is_a_test_only_where_the_project_runs_stories(repo: GitRepo) -> None:
    story = "export default { component: Button };\nexport const Primary = {};\n"
    plain = {"package.json": '{"devDependencies": {"@storybook/react": "^8.0.0"}}'}
    assert verdict(repo, plain, {"src/Button.stories.tsx": story}, "added-test") is C


@pytest.mark.parametrize(
    "manifest",
    [
        {"devDependencies": {"@storybook/test-runner": "^0.19.0"}},
        {"devDependencies": {"@storybook/addon-vitest": "^9.0.0"}},
        {"devDependencies": {"@storybook/experimental-addon-test": "^8.4.0"}},
        {"scripts": {"test-storybook": "test-storybook --ci"}},
    ],
)
def test_stories_run_as_tests_keep_added_test_unverified(
    repo: GitRepo, manifest: dict[str, object]
) -> None:
    story = (
        "export default { component: Button };\nexport const Primary = { play: async () => {} };\n"
    )
    base = {"package.json": json.dumps(manifest)}
    verdict_, finding = claim_verdict(repo, base, {"src/Button.stories.tsx": story}, "added-test")
    assert verdict_ is U
    assert "every story is a test under storybook" in finding.detail


GLOBBED = src(
    """
    import pathlib
    import pytest

    @pytest.mark.parametrize("path", sorted(pathlib.Path("pkg/testdata").glob("*.txt")))
    def test_case(path):
        assert path.read_text()
    """
)


@pytest.mark.parametrize(
    "added",
    ["pkg/testdata/case2.txt", "pkg/test_data/case2.json", "pkg/fixtures/users.json"],
    ids=["testdata", "test_data", "fixtures"],
)
def test_a_new_file_of_test_data_is_not_no_test(repo: GitRepo, added: str) -> None:
    base = {"pkg/test_cases.py": GLOBBED, "pkg/testdata/case1.txt": "one\n"}
    verdict_, finding = claim_verdict(repo, base, {added: "two\n"}, "added-test")
    assert verdict_ is U
    assert added in finding.detail


def test_a_data_file_outside_test_folders_is_still_no_test(repo: GitRepo) -> None:
    base = {"pkg/test_cases.py": GLOBBED, "pkg/add.py": "def add(a, b): return a + b\n"}
    head = {"pkg/add.py": "def add(a, b): return b + a\n", "pkg/data/defaults.json": "{}\n"}
    assert verdict(repo, base, head, "added-test") is C


# --- no-test-removed -------------------------------------------------------------------

REMOVED = "no-test-removed"


def test_deleting_a_python_test_is_contradicted(repo: GitRepo) -> None:
    head = {"tests/test_add.py": PY_TESTS.split("class TestMore")[0]}
    verdict_, finding = claim_verdict(repo, {"tests/test_add.py": PY_TESTS}, head, REMOVED)
    assert verdict_ is C
    assert "tests/test_add.py::TestMore.test_zero (base line 7) was deleted" in finding.detail


def test_deleting_a_js_test_file_is_contradicted(repo: GitRepo) -> None:
    assert verdict(repo, {"test/add.test.js": JS_TESTS}, {"test/add.test.js": None}, REMOVED) is C


@pytest.mark.parametrize(
    "head",
    [
        PY_TESTS.replace("def test_add", "@pytest.mark.skip(reason='later')\ndef test_add"),
        PY_TESTS.replace("def test_add", "@pytest.mark.xfail(strict=True)\ndef test_add"),
        PY_TESTS.replace("class TestMore:", "@unittest.skip('x')\nclass TestMore:"),
    ],
    ids=["skip", "xfail", "skipped-class"],
)
def test_newly_disabled_python_tests_are_contradicted(repo: GitRepo, head: str) -> None:
    assert verdict(repo, {"tests/test_add.py": PY_TESTS}, {"tests/test_add.py": head}, REMOVED) is C


@pytest.mark.parametrize(
    "head",
    [
        JS_TESTS.replace("it('adds'", "it.skip('adds'"),
        JS_TESTS.replace("it('adds'", "xit('adds'"),
        JS_TESTS.replace("describe('add'", "describe.skip('add'"),
        JS_TESTS.replace("it('adds'", "it.failing('adds'"),
    ],
    ids=["it.skip", "xit", "describe.skip", "failing"],
)
def test_newly_disabled_js_tests_are_contradicted(repo: GitRepo, head: str) -> None:
    assert verdict(repo, {"a.test.js": JS_TESTS}, {"a.test.js": head}, REMOVED) is C


@pytest.mark.parametrize(
    ("base", "head"),
    [
        (
            {"tests/test_add.py": PY_TESTS},
            {"tests/test_add.py": PY_TESTS.replace("test_zero(self)", "test_nothing(self)")},
        ),
        ({"tests/test_a.py": PY_TESTS}, {"tests/test_a.py": None, "tests/test_b.py": PY_TESTS}),
        (
            {"a.test.js": JS_TESTS},
            {"a.test.js": JS_TESTS.replace("  // x", "").replace("'adds'", "'sums'")},
        ),
        ({"tests/test_add.py": PY_TESTS}, {"tests/test_add.py": PY_TESTS.replace("3", "3 # ok")}),
        (
            {
                "tests/test_add.py": PY_TESTS.replace(
                    "def test_add", "@pytest.mark.skip\ndef test_add"
                )
            },
            {
                "tests/test_add.py": PY_TESTS.replace(
                    "def test_add", "@pytest.mark.skip\ndef test_add"
                )
            },
        ),
    ],
    ids=["renamed", "file-moved", "js-renamed", "edited", "already-skipped"],
)
def test_not_removed(repo: GitRepo, base: Files, head: Files) -> None:
    assert verdict(repo, base, head, REMOVED) is P


def test_a_python_test_moved_into_another_file_is_not_removed(repo: GitRepo) -> None:
    first, second = PY_TESTS.split("class TestMore:")
    base = {"tests/test_a.py": PY_TESTS, "tests/test_b.py": "def test_b():\n    assert 1\n"}
    head = {
        "tests/test_a.py": first,
        "tests/test_b.py": base["tests/test_b.py"] + "\n\nclass TestMore:" + second,
    }
    assert verdict(repo, base, head, REMOVED) is P


def test_deleted_while_the_file_gained_an_unrelated_test_is_contradicted(repo: GitRepo) -> None:
    """A new test that shares neither name, body shape nor cases is no evidence of a rename."""
    head = PY_TESTS.replace("assert add(1, 2) == 3", "assert add(2, 1) == 3").replace(
        "def test_add", "def test_add_commutes"
    )
    found = verdict(repo, {"tests/test_add.py": PY_TESTS}, {"tests/test_add.py": head}, REMOVED)
    assert found is C


@pytest.mark.parametrize(
    ("new_test", "why"),
    [
        # renamed, with its local renamed: the same body up to renamed names
        (
            "def test_sum():\n    result = add(1, 2)\n    assert result == 3\n",
            "same body up to renamed names",
        ),
        # merged into a parametrized test that holds its cases
        (
            "import pytest\n\n@pytest.mark.parametrize('a, b, c', [(1, 2, 3), (2, 2, 4)])\n"
            "def test_adds(a, b, c):\n    assert add(a, b) == c\n",
            "parametrized with every literal",
        ),
        # moved to another file under its name, with an edit
        ("def test_add():\n    assert add(1, 2) == 3 and True\n", "moved with edits"),
    ],
    ids=["renamed-locals", "merged-into-table", "moved-and-edited"],
)
def test_an_added_test_that_may_be_the_deleted_one_keeps_it_unverified(
    repo: GitRepo, new_test: str, why: str
) -> None:
    base_test = (
        "from app import add\n\n\ndef test_add():\n    total = add(1, 2)\n    assert total == 3\n"
    )
    base = {"tests/test_add.py": base_test}
    target = "tests/test_other.py" if "moved" in why else "tests/test_add.py"
    head = {"tests/test_add.py": "from app import add\n"} if "moved" in why else {}
    head[target] = "from app import add\n\n\n" + new_test
    found = run_range(repo, base, head, "claim-reconciliation", claims=REMOVED)
    assert [f.verdict for f in found] == [U]
    assert why in found[0].detail


def test_a_conditional_skip_is_unverified(repo: GitRepo) -> None:
    head = PY_TESTS.replace(
        "def test_add", "@pytest.mark.skipif(sys.platform == 'win32', reason='posix')\ndef test_add"
    )
    verdict_, finding = claim_verdict(
        repo, {"tests/test_add.py": PY_TESTS}, {"tests/test_add.py": head}, REMOVED
    )
    assert verdict_ is U and "conditional skip" in finding.detail


def test_a_deleted_test_file_tribunal_cannot_read_is_unverified(repo: GitRepo) -> None:
    verdict_, finding = claim_verdict(
        repo, {"pkg/a_test.go": "package a\n"}, {"pkg/a_test.go": None}, REMOVED
    )
    assert verdict_ is U and "pkg/a_test.go" in finding.detail


def test_an_unparseable_test_file_is_unverified(repo: GitRepo) -> None:
    head = {"tests/test_add.py": PY_TESTS + "\ndef broken(:\n"}
    assert verdict(repo, {"tests/test_add.py": PY_TESTS}, head, REMOVED) is U


def test_a_test_file_renamed_out_of_collection_is_contradicted(repo: GitRepo) -> None:
    base = {"tests/test_add.py": PY_TESTS}
    head = {"tests/test_add.py": None, "tests/add_cases.py": PY_TESTS}
    assert verdict(repo, base, head, REMOVED) is C


@pytest.mark.parametrize(
    ("base", "head"),
    [
        (
            {"m.py": "def f():\n    return 1\n"},
            {"m.py": 'def f():\n    """\n    >>> f()\n    1\n    """\n    return 1\n'},
        ),
        ({"src/lib.rs": "fn a() {}\n"}, {"src/lib.rs": "fn a() {}\n#[cfg(test)]\nmod tests {}\n"}),
    ],
    ids=["doctest", "rust-inline"],
)
def test_tests_tribunal_cannot_discover_are_never_no_test(
    repo: GitRepo, base: Files, head: Files
) -> None:
    assert verdict(repo, base, head, "added-test") is U


def test_a_js_test_lost_to_a_syntax_error_is_unverified(repo: GitRepo) -> None:
    head = JS_TESTS.replace("describe('add', () => {", "describe('add', () => { class {")
    verdict_, finding = claim_verdict(repo, {"a.test.js": JS_TESTS}, {"a.test.js": head}, REMOVED)
    assert verdict_ is U
    assert "add > adds is not found in a.test.js, which has syntax" in finding.detail


PARAMETRIZED = src(
    """
    import pytest

    @pytest.mark.parametrize("x", [1, 2, 3])
    def test_one(x):
        assert x
    """
)
IN_CLASS = src(
    """
    import pytest

    class TestOne:
        @pytest.mark.parametrize("x", [1, 2, 3])
        def test_one(self, x):
            assert x
    """
)


@pytest.mark.parametrize(
    ("base", "head"),
    [
        (PARAMETRIZED, "import pytest\npytestmark = pytest.mark.parametrize('x', [1, 2, 3])\n"
         "def test_one(x):\n    assert x\n"),
        (PARAMETRIZED, "import pytest\npytestmark = [pytest.mark.slow, pytest.mark.parametrize("
         "'x', [1, 2, 3])]\ndef test_one(x):\n    assert x\n"),
        (IN_CLASS, "import pytest\nclass TestOne:\n    pytestmark = pytest.mark.parametrize('x', "
         "[1, 2, 3])\n    def test_one(self, x):\n        assert x\n"),
        (IN_CLASS, "import pytest\nclass Base:\n    pytestmark = pytest.mark.parametrize('x', "
         "[1, 2, 3])\nclass TestOne(Base):\n    def test_one(self, x):\n        assert x\n"),
        (PARAMETRIZED, "import pytest\ncases = pytest.mark.parametrize('x', [1, 2, 3])\n"
         "@cases\ndef test_one(x):\n    assert x\n"),
        (PARAMETRIZED, "import pytest\nfrom marks import MARKS\npytestmark = MARKS\n"
         "def test_one(x):\n    assert x\n"),
    ],
    ids=["module-pytestmark", "pytestmark-list", "class-pytestmark", "base-class-pytestmark",
         "mark-in-a-variable", "imported-marks"],
)  # fmt: skip
def test_parametrize_moved_to_a_pytestmark_loses_no_case(
    repo: GitRepo, base: str, head: str
) -> None:
    assert verdict(repo, {"tests/test_a.py": base}, {"tests/test_a.py": head}, REMOVED) is P


def test_a_case_dropped_while_moving_to_a_pytestmark_is_contradicted(repo: GitRepo) -> None:
    head = "import pytest\npytestmark = pytest.mark.parametrize('x', [1, 2])\n"
    head += "def test_one(x):\n    assert x\n"
    base = {"tests/test_a.py": PARAMETRIZED}
    verdict_, finding = claim_verdict(repo, base, {"tests/test_a.py": head}, REMOVED)
    assert verdict_ is C
    assert "runs 2 parametrized case(s), down from 3" in finding.detail


def test_a_js_test_deleted_beside_an_unrelated_new_one_is_contradicted(repo: GitRepo) -> None:
    base = {"src/a.test.ts": "test('parses', () => {\n  expect(parse('1')).toBe(1);\n});\n"}
    head = {"src/a.test.ts": "test('renders', () => {\n  expect(render('x')).toBe('<x>');\n});\n"}
    assert verdict(repo, base, head, REMOVED) is C


def test_a_js_test_renamed_and_extended_is_unverified(repo: GitRepo) -> None:
    body = "  expect(parse('1')).toBe(1);\n"
    base = {"src/a.test.ts": f"test('parses', () => {{\n{body}}});\n"}
    head = {
        "src/a.test.ts": f"test('parses numbers', () => {{\n{body}"
        "  expect(parse('2')).toBe(2);\n});\n"
    }
    assert verdict(repo, base, head, REMOVED) is U


def test_a_js_table_holding_the_deleted_cases_is_unverified(repo: GitRepo) -> None:
    base = {"src/a.test.ts": "test('one', () => {\n  expect(double(1)).toBe(2);\n});\n"}
    head = {
        "src/a.test.ts": "test.each([[1, 2], [2, 4]])('doubles %i', (n, e) => {\n"
        "  expect(double(n)).toBe(e);\n});\n"
    }
    assert verdict(repo, base, head, REMOVED) is U


# --- added-test: tests pytest's known rules never collect --------------------------------

ADDED = "added-test"
INI = "[pytest]\npython_files = test_*.py\n"
CHECK = "from app import f\n\n\ndef test_f():\n    assert f() == 1\n"


def test_a_test_in_a_file_the_configured_rules_do_not_collect_is_contradicted(
    repo: GitRepo,
) -> None:
    verdict_, finding = claim_verdict(
        repo, {"pytest.ini": INI, "app.py": ""}, {"tests/check_f.py": CHECK}, ADDED
    )
    assert verdict_ is C and "adds no test its test runner collects" in finding.title
    assert "tests/check_f.py defines `test_f` (line 4)" in finding.detail
    assert "`pytest.ini` sets python_files = test_*.py" in finding.detail


@pytest.mark.parametrize(
    ("extra", "why"),
    [
        ({}, "no config: another runner may collect it"),
        ({"pytest.ini": "[pytest]\npython_files = test_*.py check_*.py\n"}, "collected"),
        ({"pytest.ini": INI + "addopts = --doctest-modules\n"}, "doctest-modules"),
        ({"pytest.ini": INI + "addopts = -q tests/check_f.py\n"}, "a path in addopts"),
        ({"pytest.ini": INI + "addopts = -p myplugin\n"}, "a plugin"),
        (
            {"pytest.ini": INI, "tests/conftest.py": "def pytest_collect_file(parent): ...\n"},
            "a custom collector",
        ),
        (
            {"pytest.ini": INI, "tests/test_all.py": "from tests.check_f import *\n"},
            "imported by a collected module",
        ),
    ],
)
def test_an_uncollected_looking_test_is_not_contradicted_when_rules_are_open(
    repo: GitRepo, extra: dict[str, str], why: str
) -> None:
    base = {"app.py": "", **extra}
    if "pytest.ini" not in extra and why != "no config: another runner may collect it":
        base["pytest.ini"] = INI
    verdict_, _ = claim_verdict(repo, base, {"tests/check_f.py": CHECK}, ADDED)
    assert verdict_ is not C, why


def test_a_collected_new_test_beside_an_uncollected_one_passes(repo: GitRepo) -> None:
    head = {"tests/check_f.py": CHECK, "tests/test_g.py": CHECK.replace("test_f", "test_g")}
    verdict_, _ = claim_verdict(repo, {"pytest.ini": INI, "app.py": ""}, head, ADDED)
    assert verdict_ is P


JS_TEST = "import { f } from './f';\n\ntest('f', () => {\n  expect(f()).toBe(1);\n});\n"
JEST_PKG = (
    '{"name": "x", "scripts": {"test": "jest"}, '
    '"jest": {"testMatch": ["**/__tests__/**/*.test.ts"]}}'
)
VITEST = src("""
    import { defineConfig } from 'vitest/config';

    export default defineConfig({
      test: {
        include: ['src/**/*.test.ts'],
      },
    });
""")


@pytest.mark.parametrize(
    ("config", "test_path"),
    [
        ({"package.json": JEST_PKG}, "src/f.spec.ts"),
        ({"package.json": '{"name": "x"}', "vitest.config.ts": VITEST}, "test/f.test.ts"),
        (  # a glob a backtracking regex takes hours on (issue 21): matched in linear time
            {"package.json": JEST_PKG.replace("**/__tests__/**/*.test.ts", "*a" * 12 + "*b")},
            "src/" + "a" * 200 + ".spec.ts",
        ),
    ],
    ids=["jest-testMatch", "vitest-include", "jest-hostile-glob"],
)
def test_a_js_test_the_literal_runner_config_does_not_collect_is_contradicted(
    repo: GitRepo, config: dict[str, str], test_path: str
) -> None:
    base = {**config, "src/f.ts": "export const f = () => 1;\n"}
    verdict_, finding = claim_verdict(repo, base, {test_path: JS_TEST}, ADDED)
    assert verdict_ is C and "adds no test its test runner collects" in finding.title
    assert test_path in finding.detail


@pytest.mark.parametrize(
    ("config", "test_path"),
    [
        ({"package.json": JEST_PKG}, "src/__tests__/f.test.ts"),  # collected
        ({"package.json": '{"name": "x"}', "vitest.config.ts": VITEST}, "src/f.test.ts"),
        ({"package.json": '{"name": "x", "scripts": {"test": "jest"}}'}, "src/f.spec.ts"),
        ({"package.json": JEST_PKG.replace('"jest"}', '"mocha"}')}, "src/f.spec.ts"),
        ({"package.json": JEST_PKG, ".mocharc.json": "{}"}, "src/f.spec.ts"),
        ({"package.json": JEST_PKG, "jest.config.js": "module.exports = {};"}, "src/f.spec.ts"),
        (
            {
                "package.json": '{"name": "x"}',
                "vitest.config.ts": VITEST.replace("['src/**/*.test.ts']", "patterns"),
            },
            "test/f.test.ts",
        ),
        (
            {"package.json": JEST_PKG.replace("**/__tests__/**/*.test.ts", "**/*.{spec,test}.ts")},
            "src/f.spec.ts",
        ),
    ],
    ids=[
        "jest-collects", "vitest-collects", "jest-defaults", "other-runner-script",
        "other-runner-config", "script-config", "non-literal-include", "brace-glob",
    ],
)  # fmt: skip
def test_a_js_test_is_not_contradicted_when_collection_is_open(
    repo: GitRepo, config: dict[str, str], test_path: str
) -> None:
    base = {**config, "src/f.ts": "export const f = () => 1;\n"}
    verdict_, _ = claim_verdict(repo, base, {test_path: JS_TEST}, ADDED)
    assert verdict_ is P
