"""``no-new-dependency``: manifests parsed, names compared base vs head."""

from __future__ import annotations

import json
import subprocess

import pytest

from tests.claims_support import claim_verdict
from tests.engine_helpers import change_for, src
from tests.gitrepo import GitRepo
from tribunal.claims.registry import judge
from tribunal.engine.sources import Selection
from tribunal.findings import Verdict
from tribunal.lang.manifests import canonical, kind_of, parse_manifest

CLAIM = "no-new-dependency"
C, U, P = Verdict.CONTRADICTED, Verdict.UNVERIFIED, Verdict.PASS


def pyproject(deps: str, extra: str = "") -> str:
    return f'[project]\nname = "demo"\ndependencies = [{deps}]\n{extra}'


def package_json(**sections: dict[str, str]) -> str:
    return json.dumps({"name": "demo", **sections}, indent=2) + "\n"


# --- the manifests themselves ----------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "normal"),
    [("Flask_Login", "flask-login"), ("zope.interface", "zope-interface"), ("A--b__C", "a-b-c")],
)
def test_pep503_names(name: str, normal: str) -> None:
    assert canonical(name) == normal


@pytest.mark.parametrize(
    ("path", "kind"),
    [
        ("pyproject.toml", "pyproject.toml"),
        ("sub/package.json", "package.json"),
        ("requirements-dev.txt", "requirements"),
        ("requirements/base.in", "requirements"),
        ("dev_requirements.txt", "requirements"),
        ("requirement.txt", "requirements"),  # the names hallucinated-symbol also read
        ("test-requirement.in", "requirements"),
        ("Requirements.txt", "requirements"),
        ("package-lock.json", None),
        ("poetry.lock", None),
        ("docs/notes.txt", None),
    ],
)
def test_which_files_are_manifests(path: str, kind: str | None) -> None:
    assert kind_of(path) == kind


def test_pyproject_sections_are_all_read() -> None:
    text = src(
        """
        [build-system]
        requires = ["setuptools>=61", "wheel"]
        [project]
        name = "demo"
        dependencies = ["Requests[socks]>=2 ; python_version > '3.8'", "attrs"]
        [project.optional-dependencies]
        fast = ["ujson"]
        [dependency-groups]
        test = ["pytest>=8", {include-group = "lint"}]
        lint = ["ruff"]
        [tool.poetry.dependencies]
        python = "^3.11"
        Django = "^5"
        [tool.poetry.group.docs.dependencies]
        sphinx = "*"
        """
    )
    declared = parse_manifest("pyproject.toml", text)
    names = {(d.name, d.section) for d in declared.deps}
    assert names == {
        ("setuptools", "build-system.requires"),
        ("wheel", "build-system.requires"),
        ("requests", "project.dependencies"),
        ("attrs", "project.dependencies"),
        ("ujson", "project.optional-dependencies.fast"),
        ("pytest", "dependency-groups.test"),
        ("ruff", "dependency-groups.lint"),
        ("django", "tool.poetry.dependencies"),
        ("sphinx", "tool.poetry.group.docs"),
    }
    assert declared.error is None and declared.uncertain == []


def test_requirements_lines_options_urls_and_continuations() -> None:
    text = src(
        """
        # pinned
        -r base.txt
        --index-url https://example.com/simple
        Django==5.0 \\
            --hash=sha256:abc
        -e git+https://github.com/org/tool.git#egg=the_tool
        pkg @ https://example.com/pkg-1.0.tar.gz
        ./vendor/local-thing
        https://example.com/anon.whl
        requests>=2  # http
        """
    )
    declared = parse_manifest("requirements.txt", text)
    assert [d.name for d in declared.deps] == ["django", "the-tool", "pkg", "requests"]
    assert declared.uncertain == ["./vendor/local-thing", "https://example.com/anon.whl"]


def test_setup_cfg_lists_and_extras() -> None:
    text = src(
        """
        [options]
        install_requires =
            click>=8
            importlib-metadata; python_version<"3.10"
        [options.extras_require]
        yaml = PyYAML
        """
    )
    names = sorted(d.name for d in parse_manifest("setup.cfg", text).deps)
    assert names == ["click", "importlib-metadata", "pyyaml"]


def test_package_json_sections_and_names_as_written() -> None:
    text = package_json(
        dependencies={"@scope/Lib": "1"},
        devDependencies={"jest": "29"},
        peerDependencies={"react": "*"},
        optionalDependencies={"fsevents": "2"},
        scripts={"test": "jest"},
    )
    declared = parse_manifest("package.json", text)
    assert {d.name for d in declared.deps} == {"@scope/Lib", "jest", "react", "fsevents"}


def test_broken_manifests_report_an_error() -> None:
    assert parse_manifest("pyproject.toml", "[project\n").error
    assert parse_manifest("package.json", "{").error
    assert parse_manifest("package.json", "[]").error


# --- the verifier, on real repositories ------------------------------------------------


def test_new_pyproject_dependency_is_contradicted(repo: GitRepo) -> None:
    verdict, finding = claim_verdict(
        repo,
        {"pyproject.toml": pyproject('"requests>=2"')},
        {"pyproject.toml": pyproject('"requests>=2", "Flask_Login"')},
        CLAIM,
    )
    assert verdict is C
    assert "'flask-login'" in finding.title and "Flask_Login" in finding.detail
    assert finding.claim == CLAIM
    # It points at the manifest line that adds the dependency; the claim's own line is related.
    assert (
        finding.file == "pyproject.toml"
        and "Flask_Login"
        in pyproject('"requests>=2", "Flask_Login"').splitlines()[(finding.line or 0) - 1]
    )
    assert [r.line for r in finding.related] == [1]


@pytest.mark.parametrize(
    ("base", "head"),
    [
        (pyproject('"requests>=2"'), pyproject('"requests>=2.31,<3"')),
        (pyproject('"requests"'), pyproject('"Requests"')),
        (pyproject('"flask-login"'), pyproject('"Flask_Login"')),
        (
            pyproject('"requests", "pytest"'),
            pyproject('"requests"', '[dependency-groups]\ntest = ["pytest>=8"]\n'),
        ),
    ],
    ids=["version-bump", "case", "pep503", "moved-to-group"],
)
def test_version_changes_spelling_and_moves_are_not_new(
    repo: GitRepo, base: str, head: str
) -> None:
    verdict, _ = claim_verdict(repo, {"pyproject.toml": base}, {"pyproject.toml": head}, CLAIM)
    assert verdict is P


def test_a_new_dependency_group_entry_is_new(repo: GitRepo) -> None:
    verdict, _ = claim_verdict(
        repo,
        {"pyproject.toml": pyproject('"requests"')},
        {"pyproject.toml": pyproject('"requests"', '[dependency-groups]\ndev = ["hypothesis"]\n')},
        CLAIM,
    )
    assert verdict is C


def test_moving_between_manifests_is_not_new(repo: GitRepo) -> None:
    verdict, _ = claim_verdict(
        repo,
        {"requirements.txt": "requests\nflask\n", "pyproject.toml": pyproject('"requests"')},
        {"requirements.txt": "requests\n", "pyproject.toml": pyproject('"requests", "flask"')},
        CLAIM,
    )
    assert verdict is P


def test_an_unchanged_manifest_elsewhere_already_declares_it(repo: GitRepo) -> None:
    verdict, _ = claim_verdict(
        repo,
        {
            "packages/a/package.json": package_json(dependencies={"react": "18"}),
            "packages/b/package.json": package_json(dependencies={"lodash": "4"}),
        },
        {"packages/a/package.json": package_json(dependencies={"react": "18", "lodash": "4"})},
        CLAIM,
    )
    assert verdict is P


def test_package_json_dev_dependency_is_new(repo: GitRepo) -> None:
    verdict, finding = claim_verdict(
        repo,
        {"package.json": package_json(dependencies={"react": "18"})},
        {
            "package.json": package_json(
                dependencies={"react": "18"}, devDependencies={"vitest": "1"}
            )
        },
        CLAIM,
    )
    assert verdict is C and "devDependencies" in finding.detail


def test_package_json_move_between_sections_is_not_new(repo: GitRepo) -> None:
    verdict, _ = claim_verdict(
        repo,
        {"package.json": package_json(dependencies={"react": "18", "jest": "29"})},
        {
            "package.json": package_json(
                dependencies={"react": "19"}, devDependencies={"jest": "29"}
            )
        },
        CLAIM,
    )
    assert verdict is P


@pytest.mark.parametrize(
    ("path", "base", "head"),
    [
        ("requirements-dev.txt", "pytest\n", "pytest\nfreezegun==1.5\n"),
        (
            "setup.cfg",
            "[options]\ninstall_requires =\n  a\n",
            "[options]\ninstall_requires =\n  a\n  b\n",
        ),
        ("Pipfile", '[packages]\nrequests = "*"\n', '[packages]\nrequests = "*"\nrich = "*"\n'),
    ],
)
def test_other_manifest_formats_see_new_names(
    repo: GitRepo, path: str, base: str, head: str
) -> None:
    verdict, _ = claim_verdict(repo, {path: base}, {path: head}, CLAIM)
    assert verdict is C


def test_lockfiles_are_ignored(repo: GitRepo) -> None:
    lock = {"name": "demo", "packages": {"node_modules/left-pad": {"version": "1"}}}
    verdict, finding = claim_verdict(
        repo,
        {"package.json": package_json(dependencies={"a": "1"}), "package-lock.json": "{}"},
        {"package-lock.json": json.dumps(lock), "poetry.lock": "[[package]]\nname = 'x'\n"},
        CLAIM,
    )
    assert verdict is P and "no dependency manifest changed" in finding.title


def test_manifests_under_generated_paths_are_ignored(repo: GitRepo) -> None:
    verdict, _ = claim_verdict(
        repo,
        {"package.json": package_json(dependencies={"a": "1"})},
        {"node_modules/left-pad/package.json": package_json(dependencies={"evil": "1"})},
        CLAIM,
    )
    assert verdict is P


def test_removing_a_dependency_is_not_new(repo: GitRepo) -> None:
    verdict, _ = claim_verdict(
        repo, {"requirements.txt": "a\nb\n"}, {"requirements.txt": "a\n"}, CLAIM
    )
    assert verdict is P


def test_an_unparseable_head_manifest_is_unverified(repo: GitRepo) -> None:
    verdict, finding = claim_verdict(
        repo, {"package.json": package_json()}, {"package.json": '{"dependencies": {'}, CLAIM
    )
    assert verdict is U and "not parseable" in finding.detail


def test_a_base_url_requirement_that_may_be_the_new_name_is_unverified(repo: GitRepo) -> None:
    verdict, finding = claim_verdict(
        repo,
        {"requirements.txt": "git+https://github.com/psf/requests.git\n"},
        {"requirements.txt": "requests==2.32\n"},
        CLAIM,
    )
    assert verdict is U and "may already be 'requests'" in finding.detail


def test_a_new_entry_without_a_readable_name_is_unverified(repo: GitRepo) -> None:
    verdict, _ = claim_verdict(
        repo, {"requirements.txt": "a\n"}, {"requirements.txt": "a\n./vendor/pkg\n"}, CLAIM
    )
    assert verdict is U


def test_a_changed_setup_py_is_unverified(repo: GitRepo) -> None:
    verdict, _ = claim_verdict(
        repo,
        {"setup.py": "setup(install_requires=['a'])\n"},
        {"setup.py": "setup(install_requires=['a', 'b'])\n"},
        CLAIM,
    )
    assert verdict is U


@pytest.mark.parametrize("anchored", [True, False])
def test_a_diff_proves_a_name_new_only_where_head_holds_its_preimage(
    repo: GitRepo, anchored: bool
) -> None:
    repo.commit({"pyproject.toml": pyproject('"requests"')}, "base")
    repo.write({"pyproject.toml": pyproject('"requests", "flask"')})
    diff = subprocess.run(
        ["git", "diff", "--full-index"], cwd=repo.path, capture_output=True, check=True
    ).stdout
    (repo.path.parent / "change.diff").write_bytes(diff)
    if not anchored:  # HEAD moved on: the diff no longer applies to it
        repo.commit({"pyproject.toml": pyproject('"requests", "idna"')}, "later")
    with change_for(repo, Selection(diff=str(repo.path.parent / "change.diff"))) as change:
        from tribunal.change.model import Claim

        judgement = judge(change, Claim(CLAIM, None, "claims.md", 1))
    if anchored:
        assert judgement.verdict is C and "'flask'" in judgement.title
    else:
        assert judgement.verdict is U


def test_an_argument_makes_it_unverified(repo: GitRepo) -> None:
    verdict, finding = claim_verdict(
        repo, {"requirements.txt": "a\n"}, {"requirements.txt": "a\nb\n"}, f"{CLAIM}: b"
    )
    assert verdict is U and "takes no argument" in finding.title


def test_the_project_naming_its_own_extras_is_not_new(repo: GitRepo) -> None:
    extra = '[project.optional-dependencies]\nall = ["demo[fast]"]\nfast = ["ujson"]\n'
    verdict, finding = claim_verdict(
        repo,
        {
            "pyproject.toml": pyproject(
                '"requests"', '[project.optional-dependencies]\nfast = ["ujson"]\n'
            )
        },
        {"pyproject.toml": pyproject('"requests"', extra)},
        CLAIM,
    )
    assert verdict is P, finding.detail


def test_names_that_look_like_marker_words_are_still_names() -> None:
    names = [d.name for d in parse_manifest("requirements.txt", "python_dateutil\nextras\n").deps]
    assert names == ["python-dateutil", "extras"]
    one_line = "[options]\ninstall_requires = foo; python_version<'3.8'\n"
    assert [d.name for d in parse_manifest("setup.cfg", one_line).deps] == ["foo"]


# --- lock files written as requirements files -------------------------------------------

PIP_COMPILE = src(
    """
    #
    # This file is autogenerated by pip-compile with Python 3.12
    # by the following command:
    #
    #    pip-compile requirements.in
    #
    """
)


@pytest.mark.parametrize(
    "lock",
    [
        PIP_COMPILE + "httpx==0.27.0\n    # via -r requirements.in\n"
        "anyio==4.2.0\n    # via httpx\n",
        "# This file was autogenerated by uv via the following command:\n"
        "#    uv pip compile requirements.in\nhttpx==0.27.0\nanyio==4.2.0\n",
        "httpx==0.27.0  # via -r requirements.in\nanyio==4.2.0  # via httpx\n",
    ],
    ids=["pip-compile", "uv-header", "via-inline"],
)
def test_a_compiled_requirements_file_gaining_transitive_pins_is_no_new_dependency(
    repo: GitRepo, lock: str
) -> None:
    verdict, finding = claim_verdict(
        repo,
        {"requirements.in": "httpx\n", "requirements.txt": "httpx==0.26.0\n"},
        {"requirements.txt": lock},
        CLAIM,
    )
    assert verdict is P, finding.detail
    assert "Lock files" in finding.detail and "requirements.txt" in finding.detail


def test_a_lock_file_never_counts_as_a_base_manifest(repo: GitRepo) -> None:
    """A name pinned transitively at base was never asked for: adding it to pyproject is new."""
    verdict, finding = claim_verdict(
        repo,
        {
            "pyproject.toml": pyproject('"httpx"'),
            "requirements.txt": PIP_COMPILE + "anyio==4.2.0\n    # via httpx\n",
        },
        {"pyproject.toml": pyproject('"httpx", "anyio"')},
        CLAIM,
    )
    assert verdict is C and "'anyio'" in finding.title


@pytest.mark.parametrize(
    ("base", "head"),
    [
        ({"requirements.txt": "django==5.0.1\n"}, "django==5.0.2\nsqlparse==0.4.4\n"),
        (
            {"requirements.txt": "a==1 \\\n    --hash=sha256:00\n"},
            "a==1 \\\n    --hash=sha256:00\nb==2 \\\n    --hash=sha256:11\n",
        ),
        ({"requirements.in": "django\n", "requirements.txt": "django\n"}, "django\nsqlparse\n"),
    ],
    ids=["all-pinned", "hashes", "sibling-in"],
)
def test_a_requirements_file_that_may_be_generated_gives_at_most_unverified(
    repo: GitRepo, base: dict[str, str], head: str
) -> None:
    verdict, finding = claim_verdict(repo, base, {"requirements.txt": head}, CLAIM)
    assert verdict is U, finding.title
    assert "requirements.txt" in finding.detail


def test_a_pinned_file_does_not_hide_a_new_name_in_a_real_manifest(repo: GitRepo) -> None:
    verdict, finding = claim_verdict(
        repo,
        {"pyproject.toml": pyproject('"a"'), "requirements.txt": "a==1\n"},
        {"pyproject.toml": pyproject('"a", "b"'), "requirements.txt": "a==1\nb==2\n"},
        CLAIM,
    )
    assert verdict is C and "pyproject.toml" in finding.detail


def test_a_handwritten_file_with_one_loose_entry_is_still_a_manifest(repo: GitRepo) -> None:
    verdict, _ = claim_verdict(
        repo, {"requirements.txt": "a==1\n"}, {"requirements.txt": "a==1\nb>=2\n"}, CLAIM
    )
    assert verdict is C


def test_a_constraint_file_is_followed_apart_and_declares_nothing() -> None:
    """``-c pins.txt`` pins versions; it asks for no distribution, so it is no include."""
    declared = parse_manifest("requirements.txt", "-c pins.txt\n-r base.txt\n--constraint x.txt\n")
    assert (declared.deps, declared.includes, declared.constraints) == (
        [],
        ["base.txt"],
        ["pins.txt", "x.txt"],
    )
