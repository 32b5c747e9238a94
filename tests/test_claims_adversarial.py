"""Claims: false reds found by adversarial review, and the defects that slipped past.

Every clean case was once CONTRADICTED although the claim held; each defect
case was once PASS although the claim was false.
"""

from __future__ import annotations

import pytest

from tests.claims_support import claim_verdict
from tests.engine_helpers import Files, change_between, src
from tests.gitrepo import GitRepo
from tribunal.findings import Verdict
from tribunal.lang.python.judge import judge_test
from tribunal.lang.test_diff import diff_tests, judge

C, U, P = Verdict.CONTRADICTED, Verdict.UNVERIFIED, Verdict.PASS


def verdict(repo: GitRepo, base: Files, head: Files, claim: str) -> Verdict:
    return claim_verdict(repo, base, head, claim)[0]


# -- no-public-api-change ---------------------------------------------------------------

API = "no-public-api-change"


def test_a_main_block_is_not_surface(repo: GitRepo) -> None:
    base = {"pkg/m.py": "def a(): ...\n"}
    head = {"pkg/m.py": "def a(): ...\nif __name__ == '__main__':\n    args = 1\n    a()\n"}
    assert verdict(repo, base, head, API) is P


def test_names_added_to_a_private_module_are_not_certainly_public(repo: GitRepo) -> None:
    base = {"pkg/__init__.py": "from ._impl import run\n", "pkg/_impl.py": "def run(): ...\n"}
    head = {"pkg/_impl.py": "def run(): ...\ndef helper(): ...\n"}
    result, finding = claim_verdict(repo, base, head, API)
    assert result is U
    assert "only in private modules" in finding.detail


def test_a_public_module_gaining_a_name_is_still_a_change(repo: GitRepo) -> None:
    base = {"pkg/__init__.py": "", "pkg/api.py": "def run(): ...\n"}
    assert verdict(repo, base, {"pkg/api.py": "def run(): ...\ndef more(): ...\n"}, API) is C


def test_a_new_migration_is_not_api(repo: GitRepo) -> None:
    base = {"app/__init__.py": "", "app/models.py": "X = 1\n", "app/migrations/__init__.py": ""}
    head = {
        "app/models.py": "X = 2\n",
        "app/migrations/0002_auto.py": "class Migration: ...\n",
    }
    assert verdict(repo, base, head, API) is P


@pytest.mark.parametrize(
    ("before", "after"),
    [
        (
            "export declare const a: number;\ndeclare const b: number;\n",
            "export declare const a: number;\nexport declare const b: number;\n",
        ),
        (
            "export namespace A { export const q = 1; }\n",
            "export namespace A { export const q = 1; }\nexport namespace A.B {}\n",
        ),
    ],
    ids=["dts-implicit-export", "dotted-namespace"],
)
def test_typescript_forms_that_change_no_name(repo: GitRepo, before: str, after: str) -> None:
    assert verdict(repo, {"src/a.d.ts": before}, {"src/a.d.ts": after}, API) is P


# -- no-default-flip ----------------------------------------------------------------------

FLIP = "no-default-flip"
DATACLASS = "from dataclasses import dataclass, field\nfrom typing import ClassVar\n@dataclass\n"


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("def f(h={'a': 1, 'a': 2}): ...\n", "def f(h={'a': 2}): ...\n"),
        (
            DATACLASS + "class C:\n    X: ClassVar[int] = 1\n    y: int = 2\n",
            DATACLASS + "class C:\n    X: ClassVar[int] = 5\n    y: int = 2\n",
        ),
        (
            "from pydantic import BaseModel\nclass C(BaseModel):\n    _cache: int = 0\n",
            "from pydantic import BaseModel\nclass C(BaseModel):\n    _cache: int = 1\n",
        ),
    ],
    ids=["repeated-dict-key", "classvar", "pydantic-private"],
)
def test_values_that_are_not_changed_parameter_defaults(
    repo: GitRepo, before: str, after: str
) -> None:
    assert verdict(repo, {"m.py": before}, {"m.py": after}, FLIP) is P


def test_an_init_false_field_default_is_the_initial_value_of_every_instance(
    repo: GitRepo,
) -> None:
    before = DATACLASS + "class C:\n    n: int = field(init=False, default=1)\n"
    assert verdict(repo, {"m.py": before}, {"m.py": before.replace("=1", "=2")}, FLIP) is C


def test_a_real_dataclass_field_flip_is_still_contradicted(repo: GitRepo) -> None:
    before = DATACLASS + "class C:\n    X: ClassVar[int] = 1\n    y: int = 2\n"
    assert verdict(repo, {"m.py": before}, {"m.py": before.replace("= 2", "= 3")}, FLIP) is C


# -- no-new-dependency ----------------------------------------------------------------------

DEP = "no-new-dependency"
PYPROJECT = "[project]\nname = 'x'\n"


@pytest.mark.parametrize(
    ("base", "head"),
    [
        (
            {"setup.py": "from setuptools import setup\nsetup(install_requires=['requests>=2'])\n"},
            {"setup.py": None, "pyproject.toml": PYPROJECT + "dependencies = ['requests']\n"},
        ),
        (
            {"requirements.txt": "-r common.txt\n", "common.txt": "django\n"},
            {"requirements.txt": "django\n", "common.txt": None},
        ),
        (
            {"tox.ini": "[testenv]\ndeps = pytest\n", "pyproject.toml": PYPROJECT},
            {"pyproject.toml": PYPROJECT + "[dependency-groups]\ntest = ['pytest']\n"},
        ),
        (
            {
                "pyproject.toml": PYPROJECT
                + "[tool.hatch.envs.default]\ndependencies = ['pytest']\n"
            },
            {"pyproject.toml": PYPROJECT + "[dependency-groups]\ntest = ['pytest']\n"},
        ),
        (
            {"pyproject.toml": PYPROJECT + "[tool.rye]\ndev-dependencies = ['pytest']\n"},
            {"pyproject.toml": PYPROJECT + "[dependency-groups]\ndev = ['pytest']\n"},
        ),
        (
            {
                "environment.yml": "dependencies:\n  - numpy=1.26\n  - pip:\n    - requests\n",
                "pyproject.toml": PYPROJECT,
            },
            {"pyproject.toml": PYPROJECT + "dependencies = ['numpy', 'requests']\n"},
        ),
        (
            {"package.json": '{"dependencies": {"lodash": "^4"}}'},
            {"package.json": '{"dependencies": {"lodash4": "npm:lodash@^4"}}'},
        ),
    ],
    ids=["setup-py", "r-include", "tox", "hatch-env", "rye", "conda", "npm-alias"],
)
def test_dependencies_the_base_already_named(repo: GitRepo, base: Files, head: Files) -> None:
    assert verdict(repo, base, head, DEP) is P


def test_a_computed_setup_py_leaves_the_base_unknown(repo: GitRepo) -> None:
    setup = "from setuptools import setup\nsetup(install_requires=open('deps').read().split())\n"
    head = {"pyproject.toml": PYPROJECT + "dependencies = ['requests']\n"}
    assert verdict(repo, {"setup.py": setup, "pyproject.toml": PYPROJECT}, head, DEP) is U


def test_an_npm_alias_to_another_distribution_is_new(repo: GitRepo) -> None:
    base = {"package.json": '{"dependencies": {"foo": "^1"}}'}
    result, finding = claim_verdict(
        repo, base, {"package.json": '{"dependencies": {"foo": "npm:evil@1"}}'}, DEP
    )
    assert result is C
    assert "'evil'" in finding.title


def test_a_file_newly_included_with_r_is_read_at_head(repo: GitRepo) -> None:
    base = {"requirements.txt": "flask\n", "extra.txt": "leftpad\n"}
    assert verdict(repo, base, {"requirements.txt": "flask\n-r extra.txt\n"}, DEP) is C


DEPS_FILE = {"deps.txt": "requests>=2\n"}
FILE_CFG = "[options]\ninstall_requires = file: deps.txt\n"
DYNAMIC = (
    PYPROJECT + "dynamic = ['dependencies']\n[tool.setuptools.dynamic]\n"
    "dependencies = {file = ['deps.txt']}\n"
)
READ_SETUP = "from setuptools import setup\nREQS = open('deps.txt').read().split()\n"
LITERAL_SETUP = "from setuptools import setup\nREQS = ['requests']\n"
CALL = "setup(install_requires=REQS)\n"


@pytest.mark.parametrize(
    ("base", "expected"),
    [
        ({"setup.cfg": FILE_CFG, **DEPS_FILE}, P),
        ({"pyproject.toml": DYNAMIC, **DEPS_FILE}, P),
        ({"setup.py": READ_SETUP + CALL, **DEPS_FILE}, U),
        ({"setup.py": "from setuptools import setup\nsetup(**{'install_requires': ['a']})\n"}, U),
        ({"pyproject.toml": PYPROJECT + "dynamic = ['dependencies']\n"}, U),
    ],
    ids=["setup-cfg-file", "setuptools-dynamic-file", "setup-py-name", "setup-py-kwargs", "hook"],
)
def test_a_base_list_kept_outside_the_manifest_is_not_absent(
    repo: GitRepo, base: Files, expected: Verdict
) -> None:
    head: dict[str, str | None] = {path: None for path in base if path in ("setup.cfg", "setup.py")}
    head["pyproject.toml"] = PYPROJECT + "dependencies = ['requests']\n"
    assert verdict(repo, base, head, DEP) is expected


@pytest.mark.parametrize(
    "base",
    [
        {"setup.cfg": FILE_CFG, **DEPS_FILE},
        {"pyproject.toml": DYNAMIC, **DEPS_FILE},
        {"setup.py": LITERAL_SETUP + CALL},
    ],
    ids=["setup-cfg-file", "setuptools-dynamic-file", "setup-py-literal-name"],
)
def test_a_name_absent_from_a_followed_base_list_is_still_new(repo: GitRepo, base: Files) -> None:
    head: dict[str, str | None] = {path: None for path in base if path in ("setup.cfg", "setup.py")}
    head["pyproject.toml"] = PYPROJECT + "dependencies = ['requests', 'flask']\n"
    result, finding = claim_verdict(repo, base, head, DEP)
    assert result is C and "'flask'" in finding.title and "requests" not in finding.title


def test_a_new_file_list_is_read_at_head(repo: GitRepo) -> None:
    base = {"setup.cfg": FILE_CFG, **DEPS_FILE}
    head = {"setup.cfg": FILE_CFG.replace("deps.txt", "deps.txt, more.txt"), "more.txt": "rich\n"}
    assert verdict(repo, base, head, DEP) is C
    missing = {"setup.cfg": FILE_CFG.replace("deps.txt", "deps.txt, gone.txt")}
    assert verdict(repo, base, missing, DEP) is U


# -- added-test --------------------------------------------------------------------------------

ADDED = "added-test"
IN_SOURCE = src("""
    export const f = () => 1;
    if (import.meta.vitest) {
      const { it, expect } = import.meta.vitest;
      it('f', () => { expect(f()).toBe(1); });
    }
""")


@pytest.mark.parametrize(
    ("base", "head"),
    [
        ({"src/a.ts": "export const f = () => 1;\n"}, {"src/a.ts": IN_SOURCE}),
        ({"features/login.feature": "Feature: a\n"}, {"features/login.feature": "Feature: b\n"}),
        ({"src/a.ts": ""}, {"cypress/integration/login.js": "describe('x', () => {});\n"}),
    ],
    ids=["vitest-in-source", "gherkin", "cypress"],
)
def test_tests_tribunal_does_not_read_are_never_no_test(
    repo: GitRepo, base: Files, head: Files
) -> None:
    assert verdict(repo, base, head, ADDED) is U


def test_a_source_only_change_is_still_contradicted(repo: GitRepo) -> None:
    base = {"src/a.ts": "export const f = () => 1;\n"}
    assert verdict(repo, base, {"src/a.ts": "export const f = () => 2;\n"}, ADDED) is C


# -- no-test-removed ---------------------------------------------------------------------------

REMOVED = "no-test-removed"
PARAM = "import pytest\n@pytest.mark.parametrize('x', {cases})\ndef test_one(x):\n    assert x\n"


def test_a_test_moved_to_a_new_file_with_edits_is_not_certainly_removed(repo: GitRepo) -> None:
    old = "def test_parse():\n    from old import f\n    assert f() == 1\n"
    new = "import json\nimport os\nimport sys\n\n\ndef test_parse():\n    from new import f\n"
    new += "    assert f() == json.loads('1')\n"
    head = {"tests/test_old.py": None, "tests/test_renamed_entirely.py": new}
    result, finding = claim_verdict(repo, {"tests/test_old.py": old}, head, REMOVED)
    assert result is U
    assert "moved with edits" in finding.detail


@pytest.mark.parametrize(
    ("before", "after", "expected"),
    [
        ("[1, 2, 3]", "[1, 2]", C),
        ("[1, 2]", "[1, 2, 3]", P),
        ("[1, 2, 3]", "[1, 2, 4]", P),
        ("[1, 2, 3]", "CASES", P),
    ],
    ids=["shrunk", "grown", "edited", "not-literal"],
)
def test_parametrize_cases_removed(
    repo: GitRepo, before: str, after: str, expected: Verdict
) -> None:
    base = {"tests/test_a.py": PARAM.format(cases=before)}
    head = {
        "tests/test_a.py": PARAM.format(cases=after).replace(
            "import pytest", "import pytest\nCASES = [1]"
        )
    }
    assert verdict(repo, base, head, REMOVED) is expected


# -- the shared test differ judges a test in its project -------------------------------------


def test_judge_with_the_change_sees_conftest_autouse_fixtures(repo: GitRepo) -> None:
    conftest = "import pytest\n@pytest.fixture(autouse=True)\ndef check():\n    yield\n"
    base_sha = repo.commit({"tests/conftest.py": conftest, "tests/test_a.py": ""}, "base")
    head_sha = repo.commit({"tests/test_a.py": "def test_two():\n    pass\n"}, "head")
    with change_between(repo, base_sha, head_sha) as change:
        (record,) = diff_tests(change).added
        assert judge_test(record.test, record.index).verdict is C
        assert judge(record, change) is U
