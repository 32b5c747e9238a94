"""hallucinated-symbol for Python, driven through the real engine on real git repositories.

Each scenario commits a base and a head in a temporary repository and runs the
engine in-process; every CONTRADICTED rule has clean twins that look the same
and must stay clean. A few tests exercise the name-set reader directly and one
runs the real CLI on the staged tree.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from pathlib import Path

import pytest

from tests.engine_helpers import Files, change_for, run_range, src
from tests.gitrepo import GitRepo
from tribunal.analyzers.hallucinated_symbol.packages import import_names
from tribunal.analyzers.hallucinated_symbol.python_names import module_names
from tribunal.engine.runner import analyze
from tribunal.engine.sources import Selection
from tribunal.findings import Finding
from tribunal.lang.manifests import canonical

ID = "hallucinated-symbol"
C, U = "CONTRADICTED", "UNVERIFIED"


def judged(repo: GitRepo, base: Files, head: Files, config: str | None = None) -> list[Finding]:
    """Commit ``base`` then ``head``; the analyzer's findings for the range."""
    return run_range(repo, base, head, ID, config=config)


def verdicts(findings: list[Finding]) -> list[tuple[str, int | None, str]]:
    return [(f.verdict.name, f.line, f.file) for f in findings]


def worst(findings: list[Finding]) -> str:
    return max((f.verdict for f in findings), default=None).name if findings else "PASS"


PKG = {
    "pkg/__init__.py": "from .core import parse_config\n",
    "pkg/core.py": "def parse_config():\n    return {}\n\nDEFAULT = 1\n",
    "app.py": "import os\n",
}


# -- CONTRADICTED: a syntactic certainty ---------------------------------------------


def test_misspelled_name_is_contradicted_with_a_suggestion(repo: GitRepo) -> None:
    found = judged(repo, PKG, {"app.py": "from pkg.core import parse_confg\n"})
    (finding,) = found
    assert (finding.verdict.name, finding.line, finding.file) == (C, 1, "app.py")
    assert finding.title == "'pkg.core' has no name 'parse_confg'"
    assert "Did you mean 'parse_config'?" in finding.detail
    assert finding.language == "python"


def test_module_that_does_not_exist_is_contradicted(repo: GitRepo) -> None:
    found = judged(repo, PKG, {"app.py": "import os\nfrom pkg.utils import helper\n"})
    assert verdicts(found) == [(C, 2, "app.py")]
    assert found[0].title == "'pkg.utils' resolves to no module"
    assert "pkg/utils.py" in found[0].detail


def test_import_statement_of_missing_submodule(repo: GitRepo) -> None:
    found = judged(repo, PKG, {"app.py": "import pkg.cor\n"})
    assert verdicts(found) == [(C, 1, "app.py")]
    assert "Did you mean 'core'?" in found[0].detail


def test_relative_imports_at_any_level(repo: GitRepo) -> None:
    base = {**PKG, "pkg/sub/__init__.py": "", "pkg/sub/leaf.py": "X = 1\n"}
    head = {
        "pkg/sub/leaf.py": src("""
            from ..core import parse_config, missing_one
            from . import nothing_here
            from .. import core
            from ...outside import y
            from .... import z
        """)
    }
    found = judged(repo, base, head)
    leaf = "pkg/sub/leaf.py"
    assert verdicts(found) == [(C, 1, leaf), (C, 2, leaf), (C, 4, leaf), (U, 5, leaf)]
    assert found[0].title == "'..core' has no name 'missing_one'"
    assert "above the repository root" in found[3].detail


def test_a_module_is_not_a_package(repo: GitRepo) -> None:
    found = judged(repo, PKG, {"app.py": "from pkg.core.inner import x\n"})
    assert [f.title for f in found] == ["'pkg.core' is a module, not a package"]
    assert found[0].verdict.name == C


def test_reexport_in_init_is_judged(repo: GitRepo) -> None:
    found = judged(repo, PKG, {"pkg/__init__.py": "from .core import parse_config, Parser\n"})
    assert verdicts(found) == [(C, 1, "pkg/__init__.py")]
    assert "'Parser'" in found[0].title


def test_src_layout_and_configured_roots(repo: GitRepo) -> None:
    base = {"src/lib1/__init__.py": "A = 1\n", "code/lib2/__init__.py": "B = 1\n", "x.py": ""}
    head = {"x.py": "from lib1 import A, Z\nfrom lib2 import B, Y\n"}
    found = judged(repo, base, head, config="python-roots: [code]\n")
    assert verdicts(found) == [(C, 1, "x.py"), (C, 2, "x.py")]


def test_root_from_the_projects_build_configuration(repo: GitRepo) -> None:
    pyproject = '[tool.setuptools.packages.find]\nwhere = ["python"]\n'
    base = {"pyproject.toml": pyproject, "python/mylib/__init__.py": "A = 1\n", "x.py": ""}
    found = judged(repo, base, {"x.py": "from mylib import A, B\n"})
    assert verdicts(found) == [(C, 1, "x.py")]


def test_star_import_is_followed_and_its_all_respected(repo: GitRepo) -> None:
    base = {
        "m/__init__.py": "from .impl import *\nfrom .other import *\n",
        "m/impl.py": "__all__ = ['public']\npublic = 1\nhidden = 2\n",
        "m/other.py": "visible = 1\n_private = 2\n",
        "x.py": "",
    }
    head = {"x.py": "from m import public, visible, hidden, _private\n"}
    found = judged(repo, base, head)
    assert [(f.verdict.name, f.title) for f in found] == [
        (C, "'m' has no name '_private'"),
        (C, "'m' has no name 'hidden'"),
    ]


def test_namespace_package_members_are_open_but_its_modules_are_not(repo: GitRepo) -> None:
    """A namespace package may have portions elsewhere on sys.path; its module files do not."""
    base = {"nsx/tools/a.py": "A = 1\n", "x.py": ""}
    head = {"x.py": "from nsx.tools import a, b\nfrom nsx.tools.a import A, Z\n"}
    found = judged(repo, base, head)
    assert [(f.verdict.name, f.title) for f in found] == [
        (U, "'nsx.tools' has no name 'b'"),
        (C, "'nsx.tools.a' has no name 'Z'"),
    ]
    assert "namespace package" in found[0].detail


def test_deleted_line_inside_a_multiline_import_puts_it_in_scope(repo: GitRepo) -> None:
    base = {
        **PKG,
        "app.py": "from pkg.core import (\n    DEFAULT,\n    parse_confg,\n    gone,\n)\n",
    }
    found = judged(
        repo, base, {"app.py": "from pkg.core import (\n    DEFAULT,\n    parse_confg,\n)\n"}
    )
    assert verdicts(found) == [(C, 3, "app.py")]


def test_untouched_broken_import_is_out_of_scope(repo: GitRepo) -> None:
    base = {**PKG, "app.py": "from pkg.core import nonexistent\n\nX = 1\n"}
    assert judged(repo, base, {"app.py": "from pkg.core import nonexistent\n\nX = 2\n"}) == []


# -- importers the change broke without touching them ----------------------------------


def test_removing_a_name_breaks_an_untouched_importer(repo: GitRepo) -> None:
    base = {**PKG, "svc/__init__.py": "", "svc/run.py": "from pkg.core import DEFAULT\n"}
    found = judged(repo, base, {"pkg/core.py": "def parse_config():\n    return {}\n"})
    (finding,) = found
    assert (finding.verdict.name, finding.file, finding.line) == (C, "svc/run.py", 1)
    assert finding.title == "'pkg.core' has no name 'DEFAULT' (broken by this change)"
    assert "pkg/core.py no longer defines 'DEFAULT'" in finding.detail


def test_renaming_a_module_breaks_its_importers(repo: GitRepo) -> None:
    base = {**PKG, "svc/__init__.py": "", "svc/run.py": "from pkg import core\nimport pkg.core\n"}
    head = {"pkg/core.py": None, "pkg/config.py": PKG["pkg/core.py"], "pkg/__init__.py": ""}
    found = judged(repo, base, head)
    assert {(f.verdict.name, f.file, f.line) for f in found} == {
        (C, "svc/run.py", 1),
        (C, "svc/run.py", 2),
    }
    assert all("pkg/core.py was moved to pkg/config.py" in f.detail for f in found)


def test_a_moved_file_has_all_its_relative_imports_judged(repo: GitRepo) -> None:
    base = {**PKG, "pkg/use.py": "from .core import DEFAULT\n"}
    found = judged(repo, base, {"pkg/use.py": None, "other/use.py": "from .core import DEFAULT\n"})
    assert verdicts(found) == [(C, 1, "other/use.py")]


def test_breakage_that_predates_the_change_is_not_blamed_on_it(repo: GitRepo) -> None:
    base = {**PKG, "svc/run.py": "from pkg.core import DEFAULT, NEVER\n"}
    found = judged(repo, base, {"pkg/core.py": "def parse_config():\n    return {}\n"})
    assert [(f.verdict.name, f.title) for f in found] == [
        (C, "'pkg.core' has no name 'DEFAULT' (broken by this change)")
    ]


def test_removal_through_a_star_reexport_is_found(repo: GitRepo) -> None:
    base = {
        "api/__init__.py": "from .impl import *\n",
        "api/impl.py": "def one():\n    pass\n\ndef two():\n    pass\n",
        "client.py": "from api import two\n",
    }
    found = judged(repo, base, {"api/impl.py": "def one():\n    pass\n"})
    assert verdicts(found) == [(C, 1, "client.py")]


def test_a_removed_name_still_defined_elsewhere_breaks_nothing(repo: GitRepo) -> None:
    base = {
        "pkg/__init__.py": "from .a import thing\n",
        "pkg/a.py": "thing = 1\n",
        "pkg/b.py": "thing = 2\n",
        "user.py": "from pkg import thing\nfrom pkg.b import thing as t2\n",
    }
    assert (
        judged(repo, base, {"pkg/a.py": "other = 1\n", "pkg/__init__.py": "from .b import thing\n"})
        == []
    )


# -- clean twins: risky-looking imports that work ---------------------------------------


CLEAN_TARGET = src("""
    import sys
    from typing import TYPE_CHECKING

    try:
        from fast_json import loads
    except ImportError:
        def fallback_only(): ...
    if TYPE_CHECKING:
        from collections.abc import Sequence as TypeOnly
    a, (b, *rest) = 1, (2, 3)
    for loop_var in range(1): pass
    with open(__file__) as handle: pass
    if (walrus := 1): pass
    match sys.argv:
        case [first, *others]: pass
    def setter():
        global set_later
        set_later = 1
    counter: int
    __all__ = ["listed_only"]
    __all__ += ["added_later"]
    __all__.extend(["extended"])
    __all__.append("appended")
""")


def test_every_way_a_module_defines_a_name_is_understood(repo: GitRepo) -> None:
    names = [
        "fallback_only",
        "loads",
        "TypeOnly",
        "a",
        "b",
        "rest",
        "loop_var",
        "handle",
        "walrus",
        "first",
        "others",
        "set_later",
        "counter",
        "listed_only",
        "added_later",
        "extended",
        "appended",
        "TYPE_CHECKING",
    ]
    base = {"lib/__init__.py": "", "lib/target.py": CLEAN_TARGET, "x.py": ""}
    found = judged(repo, base, {"x.py": f"from lib.target import {', '.join(names)}\n"})
    assert found == []


def test_submodules_and_namespace_packages_resolve(repo: GitRepo) -> None:
    base = {
        "pkg/__init__.py": "",
        "pkg/sub.py": "",
        "pkg/data/schema.py": "SCHEMA = 1\n",
        "nsonly/part/mod.py": "V = 1\n",
        "x.py": "",
    }
    head = {
        "x.py": src("""
            from pkg import sub, data
            from pkg.data.schema import SCHEMA
            from nsonly.part.mod import V
        """)
    }
    assert judged(repo, base, head) == []


def test_symlinked_package_directory_resolves(repo: GitRepo) -> None:
    repo.commit(
        {"real/__init__.py": "", "real/mod.py": "X = 1\n", "app/__init__.py": "", "x.py": ""}
    )
    os.symlink("../real", repo.path / "app" / "linked")
    found = judged(repo, {}, {"x.py": "from app.linked.mod import X\nfrom app.linked import mod\n"})
    assert found == []


def test_uncertain_name_sets_give_unverified(repo: GitRepo) -> None:
    base = {
        "dyn/__init__.py": "",
        "dyn/lazy.py": "def __getattr__(name):\n    return name\n",
        "dyn/glob.py": "for n in 'ab':\n    globals()[n] = 1\n",
        "dyn/star.py": "from os.path import *\n",
        "dyn/ex.py": "exec('z = 1')\n",
        "dyn/py2.py": "print 'old'\n",
        "x.py": "",
    }
    head = {
        "x.py": src("""
            from dyn.lazy import anything
            from dyn.glob import a
            from dyn.star import join
            from dyn.ex import z
            from dyn.py2 import thing
        """)
    }
    found = judged(repo, base, head)
    assert [f.verdict.name for f in found] == [U] * 5
    assert "module-level __getattr__" in found[0].detail
    assert "globals()" in found[1].detail
    assert "cannot be followed" in found[2].detail
    assert "exec()" in found[3].detail
    assert "does not parse" in found[4].detail


def test_optional_imports_are_never_contradicted(repo: GitRepo) -> None:
    head = {
        "x.py": src("""
            try:
                from pkg.core import parse_confg
                from pkg.speedups import fast
            except (ImportError, AttributeError):
                fast = None
            try:
                import ujson
            except ImportError:
                ujson = None
            from contextlib import suppress
            with suppress(ModuleNotFoundError):
                from pkg.extra import more
        """)
    }
    found = judged(repo, PKG, head)
    assert [f.verdict.name for f in found] == [U, U, U]
    assert all("its failure is handled or expected" in f.detail for f in found)


def test_a_handler_that_cannot_catch_import_error_does_not_make_it_optional(repo: GitRepo) -> None:
    head = {"x.py": "try:\n    from pkg.core import nope\nexcept KeyError:\n    pass\n"}
    assert worst(judged(repo, PKG, head)) == C


def test_generated_and_ignored_targets_are_unverified(repo: GitRepo) -> None:
    base = {
        ".gitignore": "pkg/_version.py\n/pkg/generated/\n",
        "pkg/__init__.py": "",
        "pkg/proto/__init__.py": "",
        "pkg/speed.pyx": "",
        "x.py": "",
    }
    head = {
        "x.py": src("""
            from pkg._version import version
            from pkg.proto.api_pb2 import Request
            from pkg.speed import fast
            from pkg import speed
            from pkg.generated.models import Model
        """)
    }
    found = judged(repo, base, head)
    assert [f.verdict.name for f in found] == [U] * 5
    assert ".gitignore covers pkg/_version.py" in found[0].detail
    assert "generated-path pattern" in found[1].detail
    assert "pkg/speed.pyx" in found[2].detail
    assert ".gitignore covers pkg/generated/__init__.py" in found[4].detail


def test_build_configuration_that_writes_a_module(repo: GitRepo) -> None:
    pyproject = '[tool.setuptools_scm]\nwrite_to = "src/tool/_version.py"\n'
    base = {"pyproject.toml": pyproject, "src/tool/__init__.py": "", "x.py": ""}
    found = judged(repo, base, {"x.py": "from tool._version import version\n"})
    assert [f.verdict.name for f in found] == [U]
    assert "pyproject.toml mentions _version.py" in found[0].detail


def test_stub_only_module_names(repo: GitRepo) -> None:
    base = {"fast/__init__.py": "", "fast/_core.pyi": "def run() -> None: ...\n", "x.py": ""}
    found = judged(repo, base, {"x.py": "from fast._core import run, walk\n"})
    assert [(f.verdict.name, f.title) for f in found] == [(U, "'fast._core' has no name 'walk'")]


def test_stub_beside_module_adds_its_names(repo: GitRepo) -> None:
    base = {
        "m/__init__.py": "",
        "m/a.py": "def f(): ...\n",
        "m/a.pyi": "def g() -> None: ...\n",
        "x.py": "",
    }
    assert judged(repo, base, {"x.py": "from m.a import f, g\n"}) == []


def test_script_directory_imports_are_at_most_unverified(repo: GitRepo) -> None:
    base = {"tools/helper.py": "def ok(): ...\n", "tools/run.py": ""}
    found = judged(repo, base, {"tools/run.py": "from helper import ok, missing\n"})
    assert [f.verdict.name for f in found] == [U]
    assert "tools/" in found[0].detail


def test_a_local_copy_next_to_the_importer_makes_a_root_package_uncertain(repo: GitRepo) -> None:
    base = {
        "app/__init__.py": "",
        "services/api/app/__init__.py": "",
        "services/api/app/models.py": "M = 1\n",
        "services/api/main.py": "",
    }
    found = judged(repo, base, {"services/api/main.py": "from app.models import M\n"})
    assert worst(found) != C


def test_stdlib_shadowing_is_at_most_unverified(repo: GitRepo) -> None:
    base = {"email/__init__.py": "X = 1\n", "x.py": ""}
    found = judged(
        repo, base, {"x.py": "from email.utils import parseaddr\nimport os.path\nimport tomllib\n"}
    )
    assert worst(found) != C


# -- third-party packages --------------------------------------------------------------


def test_undeclared_package_is_unverified(repo: GitRepo) -> None:
    found = judged(repo, {"x.py": ""}, {"x.py": "import reqeusts\n"})
    assert [(f.verdict.name, f.title) for f in found] == [
        (U, "'reqeusts' is not a declared or installed package")
    ]


@pytest.mark.parametrize(
    ("manifest", "text", "module"),
    [
        (
            "pyproject.toml",
            '[project]\ndependencies = ["PyYAML>=6", "Typing_Extensions"]\n',
            "yaml",
        ),
        (
            "pyproject.toml",
            '[project]\ndependencies = ["Typing.Extensions"]\n',
            "typing_extensions",
        ),
        (
            "pyproject.toml",
            '[tool.poetry.dependencies]\npython = "^3.11"\nbeautifulsoup4 = "*"\n',
            "bs4",
        ),
        ("pyproject.toml", '[dependency-groups]\ndev = ["pytest>=8"]\n', "_pytest"),
        (
            "requirements.txt",
            "# pinned\n-r more.txt\nscikit-learn==1.0 ; python_version>'3'\n",
            "sklearn",
        ),
        ("more.txt", "", "yaml"),
        ("requirements/dev.txt", "python-dateutil\n", "dateutil"),
        ("setup.cfg", "[options]\ninstall_requires =\n    Pillow>=9\n", "PIL"),
        (
            "setup.py",
            "from setuptools import setup\nREQ = ['attrs']\nsetup(install_requires=REQ)\n",
            "attr",
        ),
        ("Pipfile", '[packages]\nrequests = "*"\n', "requests"),
        ("tox.ini", "[tox]\nenvlist = py311\n[testenv]\ndeps =\n    pytest-cov\n", "pytest_cov"),
        # read since the claims' reader became the one reader of manifests (issue 19)
        ("pyproject.toml", '[tool.rye]\ndev-dependencies = ["PyYAML"]\n', "yaml"),
        ("requirement.txt", "pyyaml\n", "yaml"),
        ("devrequirements.in", "pyyaml\n", "yaml"),
        ("requirements.txt", "pyyaml==6.0 \\\n    --hash=sha256:00\n", "yaml"),
    ],
)
def test_declared_dependencies_are_trusted(
    repo: GitRepo, manifest: str, text: str, module: str
) -> None:
    base = {manifest: text, "x.py": ""}
    if manifest == "more.txt":
        base = {"requirements.txt": "-r more.txt\n", "more.txt": "pyyaml\n", "x.py": ""}
    found = judged(repo, base, {"x.py": f"import {module}\nfrom {module} import something\n"})
    assert found == []


@pytest.mark.parametrize(
    ("manifests", "importer"),
    [
        ({"requirements.txt": "-c pins.txt\n", "pins.txt": "pyyaml==6.0\n"}, "x.py"),
        (
            {"sub/requirements.txt": "--constraint=../pins.txt\n", "pins.txt": "pyyaml\n"},
            "sub/x.py",
        ),
        (
            {
                "setup.cfg": "[options]\ninstall_requires = file: deps/base.txt\n",
                "deps/base.txt": "pyyaml\n",
            },
            "x.py",
        ),
        (
            {
                "pyproject.toml": '[project]\nname = "p"\ndynamic = ["dependencies"]\n'
                '[tool.setuptools.dynamic]\ndependencies = {file = ["reqs.txt"]}\n',
                "reqs.txt": "pyyaml\n",
            },
            "x.py",
        ),
    ],
)
def test_lists_kept_in_other_files_are_followed(
    repo: GitRepo, manifests: dict[str, str], importer: str
) -> None:
    """``-c`` pins, setup.cfg ``file:`` and setuptools dynamic lists: the names they give count."""
    found = judged(repo, {**manifests, importer: ""}, {importer: "import yaml\n"})
    assert found == []


def test_a_list_in_another_file_counts_only_where_it_is_included(repo: GitRepo) -> None:
    """The dirty twin of the test above: the same file, included by nothing, declares nothing."""
    found = judged(repo, {"pins.txt": "pyyaml\n", "x.py": ""}, {"x.py": "import yaml\n"})
    assert [(f.verdict.name, f.title) for f in found] == [
        (U, "'yaml' is not a declared or installed package")
    ]


def _fake_env(root: Path, files: Mapping[str, str]) -> Path:
    prefix = root / ".venv"
    site = prefix / "lib" / "python3.11" / "site-packages"
    (prefix / "pyvenv.cfg").parent.mkdir(parents=True, exist_ok=True)
    (prefix / "pyvenv.cfg").write_text("home = /usr/bin\n")
    for name, text in files.items():
        (site / name).parent.mkdir(parents=True, exist_ok=True)
        (site / name).write_text(text)
    return prefix


def test_project_environment_is_read_never_run(repo: GitRepo) -> None:
    marker = repo.path.parent / "executed"
    bomb = f"open({str(marker)!r}, 'w').write('x')\ndef real(): ...\n"
    _fake_env(repo.path, {"thirdp/__init__.py": bomb, "thirdp/mod.py": "X = 1\n"})
    base = {".gitignore": ".venv/\n", "x.py": ""}
    head = {
        "x.py": "from thirdp import real, fake\nfrom thirdp.mod import X, Y\nimport thirdp.gone\n"
    }
    found = judged(repo, base, head)
    assert [(f.verdict.name, f.title) for f in found] == [
        (U, "installed 'thirdp' has no name 'fake'"),
        (U, "installed 'thirdp.mod' has no name 'Y'"),
    ]
    assert not marker.exists()


def test_tribunals_own_environment_is_never_consulted(
    repo: GitRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("VIRTUAL_ENV", sys.prefix)
    found = judged(repo, {"x.py": ""}, {"x.py": "import yaml\n"})
    assert [f.title for f in found] == ["'yaml' is not a declared or installed package"]


def test_optional_third_party_import_is_silent(repo: GitRepo) -> None:
    head = {"x.py": "try:\n    import orjson\nexcept ImportError:\n    orjson = None\n"}
    assert judged(repo, {"x.py": ""}, head) == []


# -- other ways to name a change -------------------------------------------------------


def test_staged_change_through_the_real_cli(repo: GitRepo) -> None:
    repo.commit(PKG)
    repo.write({"app.py": "from pkg.core import parse_confg\n"})
    repo.git("add", "app.py")
    result = repo.tribunal("check", "--staged", "--hard-fail")
    assert result.code == 1, result.stdout + result.stderr
    assert "'pkg.core' has no name 'parse_confg'" in result.stdout
    assert "Did you mean 'parse_config'?" in result.stdout


def test_working_tree_change_sees_untracked_modules(repo: GitRepo) -> None:
    repo.commit(PKG)
    repo.write(
        {"pkg/extra.py": "E = 1\n", "app.py": "from pkg.extra import E\nfrom pkg.extra import F\n"}
    )
    with change_for(repo, Selection()) as change:
        report = analyze(change, only=[ID])
    assert [(f.verdict.name, f.line, f.title) for f in report.findings] == [
        (C, 2, "'pkg.extra' has no name 'F'")
    ]


def test_staged_deletion_breaks_an_untouched_importer(repo: GitRepo) -> None:
    repo.commit({**PKG, "pkg/old.py": "OLD = 1\n", "svc/job.py": "from pkg.old import OLD\n"})
    repo.git("rm", "-q", "pkg/old.py")
    with change_for(repo, Selection(staged=True)) as change:
        report = analyze(change, only=[ID])
    assert [(f.verdict.name, f.file, f.title) for f in report.findings] == [
        (C, "svc/job.py", "'pkg.old' resolves to no module (broken by this change)")
    ]
    assert "pkg/old.py was deleted by this change" in report.findings[0].detail


def test_a_bare_diff_without_the_tree_proves_nothing(repo: GitRepo, tmp_path: Path) -> None:
    patch = tmp_path / "change.diff"
    patch.write_text("--- /dev/null\n+++ b/new.py\n@@ -0,0 +1 @@\n+from pkg.nowhere import thing\n")
    with change_for(repo, Selection(diff=str(patch))) as change:
        report = analyze(change, only=[ID])
    assert report.errors == ()
    assert [f.verdict.name for f in report.findings if f.analyzer == ID] == []


# -- the name-set reader and the package tables, directly --------------------------------


def test_module_names_reports_why_it_is_uncertain() -> None:
    assert module_names("import sys\nsetattr(sys.modules[__name__], 'x', 1)\n").uncertain
    assert module_names("def f():\n    globals().update(kw)\n").uncertain
    assert module_names("def f():\n    globals().update(a=1)\n").uncertain is None
    assert module_names("def f():\n    exec('x')\n").uncertain is None
    assert module_names("__getattr__, __dir__ = attach(__name__)\n").uncertain


def test_star_exports_follow_the_static_all() -> None:
    names = module_names("__all__ = ['a'] + ['b']\na = b = c = 1\n")
    assert names.star_exports() == frozenset({"a", "b"})
    assert module_names("__all__ = list(x)\n").star_exports() is None
    assert module_names("x = 1\n_y = 2\n").star_exports() == frozenset({"x"})


def test_distribution_names_map_to_import_names() -> None:
    assert canonical("Foo.Bar__baz") == "foo-bar-baz"
    assert "yaml" in import_names("PyYAML")
    assert "jwt" in import_names("PyJWT")
    assert "tree_sitter" in import_names("tree-sitter")
    assert "dotenv" in import_names("python-dotenv")
    assert "psycopg2" in import_names("psycopg2-binary")
    assert "zope" in import_names("zope.interface")
    assert "requests" not in import_names("requests-toolbelt")
