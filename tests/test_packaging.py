"""The tool as a user and a packager get it: the wheel, the sdist, a checkout without symlinks.

One build per session (``built``): ``python -m build`` makes the sdist and then the wheel
*from the sdist*, so the wheel also proves the sdist complete. Each artifact is installed
into a fresh virtual environment of its own, without pip's network or build isolation:
the environment reaches the dependencies through a ``.pth`` line naming this test run's
site-packages, whose own ``.pth`` files (this checkout's editable install) are not run,
and every test asserts that ``tribunal`` is imported from the fresh environment.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import sysconfig
import tarfile
import tomllib
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.gitrepo import GitRepo, run_git
from tests.hooktools import ASSERTION_FREE_TEST, GOOD_TEST
from tests.test_hooks_precommit import snapshot_project

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
MAPPED = PYPROJECT["tool"]["setuptools"]["package-dir"]


def _run(argv: list[str], cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        argv,
        cwd=cwd,
        env={**os.environ, "PIP_DISABLE_PIP_VERSION_CHECK": "1", **env},
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )


@dataclass(frozen=True)
class Env:
    """A fresh virtual environment with one install of the tool."""

    path: Path

    @property
    def python(self) -> Path:
        return self.path / "bin" / "python"

    @property
    def tribunal(self) -> Path:
        return self.path / "bin" / "tribunal"


def fresh_env(where: Path, install: list[str]) -> Env:
    """A venv with nothing of this checkout, then ``pip install --no-deps <install>``."""
    made = _run([sys.executable, "-m", "venv", "--without-pip", str(where)], where.parent)
    assert made.returncode == 0, made.stderr
    env = Env(where)
    site = _run(
        [str(env.python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
        where.parent,
    )
    Path(site.stdout.strip(), "dependencies.pth").write_text(sysconfig.get_path("purelib") + "\n")
    pip = [sys.executable, "-m", "pip", "--python", str(env.python), "install", "--quiet"]
    done = _run(
        [*pip, "--no-deps", "--no-index", "--no-build-isolation", "--ignore-installed", *install],
        where.parent,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return env


def assert_imports_its_own_copy(env: Env) -> None:
    code = (
        "import tribunal.hooks.precommit as h, tribunal.lenses as l; print(h.__file__, l.__file__)"
    )
    out = _run([str(env.python), "-c", code], Path("/"))
    assert out.returncode == 0, out.stderr
    for path in out.stdout.split():
        assert Path(path).is_relative_to(env.path), out.stdout


def assert_hook_and_convene_work(env: Env, tmp: Path) -> None:
    """A commit hook that blocks an assertion-free test, and a convene that passes."""
    repo = GitRepo.init(tmp / "user")
    repo.commit({"calc.py": "def add(a, b):\n    return a + b\n"}, "base")
    repo.commit({"tests/test_calc.py": GOOD_TEST}, "a real test")
    convene = _run([str(env.tribunal), "convene", "--ref", "HEAD"], repo.path)
    assert convene.returncode == 0, convene.stdout + convene.stderr
    assert "unanimous pass" in convene.stdout
    assert list((repo.path / ".git" / "tribunal" / "runs").glob("*/summary.json"))
    repo.write({"tests/test_more.py": ASSERTION_FREE_TEST})
    run_git(repo.path, ["add", "-A"], {}, check=True)
    hook = _run([str(env.tribunal), "hook", "pre-commit"], repo.path)
    assert hook.returncode == 1, hook.stdout + hook.stderr
    assert "✗ commit blocked: 1 CONTRADICTED" in hook.stdout


@pytest.fixture(scope="session")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The sdist and the wheel built from it, once per session."""
    out = tmp_path_factory.mktemp("dist")
    build = _run([sys.executable, "-m", "build", "--no-isolation", "--outdir", str(out), "."], ROOT)
    assert build.returncode == 0, build.stdout[-3000:] + build.stderr[-3000:]
    (sdist,) = out.glob("tribunal_gate-*.tar.gz")
    (wheel,) = out.glob("tribunal_gate-*-py3-none-any.whl")
    return {"sdist": sdist, "wheel": wheel}


def test_the_repository_holds_no_symlink() -> None:
    """A checkout without symlinks (Git for Windows, core.symlinks=false) is the same tree."""
    if not (ROOT / ".git").exists():
        pytest.skip("not a git checkout (an unpacked sdist)")
    staged = run_git(ROOT, ["ls-files", "-s", "-z"], {}, check=True).stdout.split("\0")
    assert [entry for entry in staged if entry.startswith("120000 ")] == []


def test_packages_lists_every_package_directory() -> None:
    """``packages`` is explicit (package-dir needs it): a new package must be added to it."""
    found = {"tribunal.schemas"}
    for init in ROOT.glob("tribunal/**/__init__.py"):
        found.add(".".join(init.parent.relative_to(ROOT).parts))
    for package, directory in MAPPED.items():
        found |= {
            ".".join((package, *init.parent.relative_to(ROOT / directory).parts))
            for init in (ROOT / directory).glob("**/__init__.py")
        }
    assert set(PYPROJECT["tool"]["setuptools"]["packages"]) == found


def test_the_wheel_installs_and_runs(built: dict[str, Path], tmp_path: Path) -> None:
    env = fresh_env(tmp_path / "venv", [str(built["wheel"])])
    assert_imports_its_own_copy(env)
    assert_hook_and_convene_work(env, tmp_path)
    names = _run(
        [str(env.python), "-c", "import tribunal, os; print(os.listdir(tribunal.__path__[0]))"],
        tmp_path,
    )
    for mapped in ("hooks", "lenses", "worktree", "py.typed"):
        assert f"'{mapped}'" in names.stdout


def test_the_sdist_installs_and_runs(built: dict[str, Path], tmp_path: Path) -> None:
    env = fresh_env(tmp_path / "venv", [str(built["sdist"])])
    assert_imports_its_own_copy(env)
    assert_hook_and_convene_work(env, tmp_path)


def test_a_checkout_without_symlinks_installs_and_runs(tmp_path: Path) -> None:
    """pre-commit clones hook repositories with git; Git for Windows makes no symlinks."""
    snapshot = tmp_path / "snapshot"
    snapshot_project(snapshot)
    clone = tmp_path / "clone"
    made = _run(
        ["git", "clone", "-q", "-c", "core.symlinks=false", str(snapshot), str(clone)], tmp_path
    )
    assert made.returncode == 0, made.stderr
    env = fresh_env(tmp_path / "venv", [str(clone)])
    assert_imports_its_own_copy(env)
    assert_hook_and_convene_work(env, tmp_path)


def test_the_sdist_carries_a_test_suite_that_collects(
    built: dict[str, Path], tmp_path: Path
) -> None:
    """Unpacked, installed editable as the README's test command does, the suite collects."""
    with tarfile.open(built["sdist"]) as archive:
        archive.extractall(tmp_path, filter="data")
    (unpacked,) = tmp_path.glob("tribunal_gate-*")
    for needed in ("tests/conftest.py", "tests/__init__.py", "tests/gitrepo.py", "bench"):
        assert (unpacked / needed).exists(), needed
    ours = sorted(p.name for p in (ROOT / "tests").glob("test_*.py"))
    assert sorted(p.name for p in (unpacked / "tests").glob("test_*.py")) == ours
    assert sorted(p.name for p in (unpacked / "tests" / "golden").iterdir()) == sorted(
        p.name for p in (ROOT / "tests" / "golden").iterdir()
    )
    env = fresh_env(tmp_path / "venv", ["--editable", str(unpacked)])
    collect = _run(
        [str(env.python), "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider"],
        unpacked,
    )
    assert collect.returncode == 0, collect.stdout[-3000:] + collect.stderr[-3000:]
    assert re.search(r"^\d{4,} tests collected", collect.stdout, re.M), collect.stdout[-500:]


def test_the_distribution_has_a_name_of_its_own_and_full_metadata() -> None:
    project = PYPROJECT["project"]
    assert project["name"] == "tribunal-gate"
    assert project["scripts"] == {"tribunal": "tribunal.entry:run"}
    classifiers = set(project["classifiers"])
    for needed in (
        "Programming Language :: Python :: 3.11",
        "Programming Language :: Python :: 3.12",
        "Programming Language :: Python :: 3.13",
        "Operating System :: POSIX :: Linux",
        "Operating System :: MacOS",
    ):
        assert needed in classifiers
    assert any(c.startswith("Development Status :: ") for c in classifiers)
    assert {"Homepage", "Source", "Issues", "Changelog"} <= set(project["urls"])
    requirements = [*project["dependencies"]]
    for extra in project["optional-dependencies"].values():
        requirements += extra
    pydantic = {r for r in requirements if re.match(r"pydantic\b", r)}
    assert pydantic == {"pydantic>=2.6"}, "one lower bound for pydantic"


def test_the_readme_installs_this_distribution_and_links_absolutely() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = "\n".join(re.findall(r"```(?:sh|yaml)\n(.*?)```", readme, re.S))
    installs = re.findall(r"(?:pip|pipx|uv tool) install\s+['\"]?([\w.-]+)", blocks)
    assert installs and all(name in ("tribunal-gate", "-e", "-q") for name in installs), installs
    assert "`tribunal` distribution is a different" in readme
    links = re.findall(r"\]\(([^)]+)\)", readme)
    assert links and all(link.startswith("https://") for link in links), links
    source = PYPROJECT["project"]["urls"]["Source"]
    for link in re.findall(r"https://github\.com/[\w.-]+/[\w.-]+", readme):
        assert link == source, f"{link}: not the project's Source URL {source}"


def test_ci_tests_every_supported_python() -> None:
    import yaml

    ci = yaml.safe_load((ROOT / ".github/workflows/ci.yml").read_text(encoding="utf-8"))
    assert ci["jobs"]["ci"]["strategy"]["matrix"]["python-version"] == ["3.11", "3.12", "3.13"]


def test_the_action_constraints_pin_every_dependency_inside_the_declared_ranges() -> None:
    from importlib import metadata

    from packaging.requirements import Requirement

    lines = (ROOT / ".github/action/constraints.txt").read_text(encoding="utf-8").splitlines()
    pins = dict(line.split("==") for line in lines if line and not line.startswith("#"))
    wanted = [Requirement(r) for r in PYPROJECT["project"]["dependencies"]]
    wanted += [Requirement(r) for r in PYPROJECT["project"]["optional-dependencies"]["github"]]
    seen: set[str] = set()
    while wanted:
        req = wanted.pop()
        name = re.sub(r"[-_.]+", "-", req.name).lower()
        if name in seen or (req.marker and not req.marker.evaluate({"extra": ""})):
            continue
        seen.add(name)
        assert name in pins, f"{name} is not pinned"
        assert req.specifier.contains(pins[name], prereleases=True), f"{name}=={pins[name]}"
        wanted += [Requirement(r) for r in metadata.requires(name) or ()]
    assert "setuptools" in pins, "the action's own build is pinned too"
