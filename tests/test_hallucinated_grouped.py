"""hallucinated-symbol: a package that is not installed is one finding per run, not per file."""

from __future__ import annotations

from tests.engine_helpers import change_between, src
from tests.gitrepo import GitRepo
from tribunal.analyzers.grouping import locations
from tribunal.analyzers.hallucinated_symbol.grouped import NO_NODE_MODULES, NO_PYTHON_ENV
from tribunal.engine.runner import analyze
from tribunal.findings import Report, Verdict

ID = "hallucinated-symbol"
VITEST = "import { describe, it, expect } from 'vitest';\n"


def report_of(repo: GitRepo, base: dict[str, str], head: dict[str, str]) -> Report:
    base_sha = repo.commit(base, "base")
    head_sha = repo.commit(head, "head")
    with change_between(repo, base_sha, head_sha) as change:
        report = analyze(change, only=[ID])
    assert report.errors == ()
    return report


def test_one_finding_per_missing_package_listing_every_importer(repo: GitRepo) -> None:
    base = {"package.json": '{"devDependencies": {"vitest": "1"}}', "src/a.ts": ""}
    head = {f"src/t{i}.test.ts": VITEST + f"it('t{i}', () => expect({i}).toBe({i}));\n"
            for i in range(6)}  # fmt: skip
    head["src/b.ts"] = "import left from 'left-pad-x';\nimport { z } from 'vitest';\n"
    report = report_of(repo, base, head)
    vitest = [f for f in report.findings if "'vitest'" in f.title]
    (finding,) = vitest
    assert finding.verdict is Verdict.UNVERIFIED
    assert finding.title == "package 'vitest' is not installed (imported in 7 files)"
    assert [p.file for p in locations(finding)] == sorted(
        [f"src/t{i}.test.ts" for i in range(6)] + ["src/b.ts"]
    )
    assert "src/t3.test.ts:1  `import { describe, it, expect } from 'vitest'`" in finding.detail
    assert "(declared in package.json)" in finding.detail
    assert finding.group == "not-installed:js:vitest"
    assert report.notes.count(NO_NODE_MODULES) == 1  # said once, not per file or package
    assert sum("node_modules is absent" in f.detail for f in report.findings) == 0


def test_the_fingerprint_stays_when_another_file_imports_the_package(repo: GitRepo) -> None:
    base = {"package.json": '{"devDependencies": {"vitest": "1"}}'}
    fewer = report_of(repo, base, {"a.test.ts": VITEST, "b.test.ts": VITEST})
    again = VITEST.replace("'", '"')  # touch the two imports again, and add a new first one
    more = report_of(repo, base, {"0.test.ts": VITEST, "a.test.ts": again, "b.test.ts": again})
    (one,), (other,) = fewer.findings, more.findings
    assert (one.file, other.file) == ("a.test.ts", "0.test.ts")
    assert len(other.related) == len(one.related) + 1
    assert one.fingerprint == other.fingerprint


def test_an_installed_package_is_not_reported(repo: GitRepo) -> None:
    base = {".gitignore": "node_modules/\n", "package.json": '{"dependencies": {"vitest": "1"}}'}
    module = repo.path / "node_modules" / "vitest"
    module.mkdir(parents=True)
    (module / "package.json").write_text('{"name": "vitest", "main": "index.js"}')
    (module / "index.js").write_text("module.exports = {};\n")
    report = report_of(repo, base, {"a.test.ts": VITEST, "b.ts": "import x from 'gone-pkg';\n"})
    # vitest is installed; the undeclared package is not (and node_modules exists)
    assert [f.title for f in report.findings] == ["package 'gone-pkg' is not installed"]
    assert NO_NODE_MODULES not in report.notes


def test_python_undeclared_package_is_one_finding(repo: GitRepo) -> None:
    base = {"pyproject.toml": '[project]\nname = "app"\ndependencies = []\n', "app/__init__.py": ""}
    head = {f"app/m{i}.py": src("""
        import reqeusts
        from reqeusts.adapters import HTTPAdapter
        """) for i in range(3)}  # fmt: skip
    report = report_of(repo, base, head)
    (finding,) = report.findings
    assert (
        finding.title == "'reqeusts' is not a declared or installed package (imported in 3 files)"
    )
    assert len(locations(finding)) == 6  # two statements in each file, all listed
    assert report.notes == (NO_PYTHON_ENV,)


def test_every_import_form_takes_the_same_route(repo: GitRepo) -> None:
    base = {"package.json": '{"dependencies": {"left-pad": "1"}}'}
    forms = [
        "import pad from 'left-pad';\n",
        "import * as pad from 'left-pad';\n",
        "import 'left-pad';\n",
        "const pad = require('left-pad');\n",
        "export { default } from 'left-pad';\n",
        "import { pad } from 'left-pad';\n",
    ]
    head = {f"src/f{i}.js": form for i, form in enumerate(forms)}
    report = report_of(repo, base, head)
    missing = [f for f in report.findings if "'left-pad'" in f.title]
    assert len(missing) == 1, [f.title for f in report.findings]
    (finding,) = missing
    assert len(locations(finding)) == len(forms)
    assert report.notes.count(NO_NODE_MODULES) == 1
