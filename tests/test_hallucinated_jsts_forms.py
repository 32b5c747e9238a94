"""hallucinated-symbol: every JS/TS import form has its path judged; default exports narrowly.

Real git repositories, the real engine. Each form that names a missing file is
CONTRADICTED with the same resolver as a named import; loads whose failure the
code handles are at most UNVERIFIED; a missing default export is CONTRADICTED
only where no interop can synthesize one (TS1192 territory).
"""

from __future__ import annotations

import json

import pytest

from tests.engine_helpers import Files, run_range, src
from tests.gitrepo import GitRepo
from tribunal.findings import Finding

ID = "hallucinated-symbol"
C, U = "CONTRADICTED", "UNVERIFIED"
REAL = {"src/core/real.ts": "export const real = 1;\nexport default real;\n", "src/app.ts": ""}


def summary(found: list[Finding]) -> list[tuple[str, int | None, str]]:
    return [(f.verdict.name, f.line, f.title) for f in found]


def judged(repo: GitRepo, base: Files, head: Files) -> list[Finding]:
    return run_range(repo, base, head, ID)


@pytest.mark.parametrize(
    "statement",
    [
        "import AxiosError from './core/AxiosErrorHelpers.js';",
        "import * as ns from './core/nothere.js';",
        "import type * as errors from './core/nothere.js';",
        "import type Thing from './core/nothere.js';",
        "import { type X } from './core/nothere.js';",
        "import './core/nothere.js';",
        "export * from './core/nothere.js';",
        "export * as ns from './core/nothere.js';",
        "export { default } from './core/nothere.js';",
        "import x = require('./core/nothere.js');",
        "const m = require('./core/nothere.js');",
        "const load = () => import('./core/nothere.js');",
        "type T = typeof import('./core/nothere.js');",
    ],
)
def test_every_form_naming_a_missing_file_is_contradicted(repo: GitRepo, statement: str) -> None:
    found = judged(repo, REAL, {"src/app.ts": statement + "\n"})
    assert [(f.verdict.name, f.line) for f in found] == [(C, 1)], summary(found)
    assert "resolves to no file" in found[0].title


@pytest.mark.parametrize(
    "statement",
    [
        "import real from './core/real';",
        "import * as ns from './core/real.js';",
        "import './core/real';",
        "export * from './core/real';",
        "export { default } from './core/real';",
        "const m = require('./core/real');",
        "const lazy = import('./core/real');",
        "const dyn = require(name);",
        "const tpl = import(`./core/${name}`);",
        "const two = require('./core/nothere', 'x');",
    ],
)
def test_existing_and_non_literal_targets_stay_clean(repo: GitRepo, statement: str) -> None:
    assert judged(repo, REAL, {"src/app.ts": statement + "\n"}) == []


@pytest.mark.parametrize(
    ("code", "why"),
    [
        ("try {\n  require('./local.js');\n} catch {}\n", "try block"),
        ("try { await import('./local.js'); } catch (e) {}\n", "try block"),
        ("expect(() => require('./local.js')).toThrow();\n", "expect"),
        ("await expect(import('./local.js')).rejects.toThrow();\n", "expect"),
        ("if (fs.existsSync(p)) { require('./local.js'); }\n", "existence"),
    ],
)
def test_loads_whose_failure_the_code_handles_are_unverified(
    repo: GitRepo, code: str, why: str
) -> None:
    found = judged(repo, {"src/a.js": ""}, {"src/a.js": code})
    assert [f.verdict.name for f in found] == [U]
    assert why in found[0].detail


def test_a_require_outside_the_try_is_still_certain(repo: GitRepo) -> None:
    code = src("""
        try { setup(); } catch (e) {}
        const x = require('./local.js');
    """)
    found = judged(repo, {"src/a.js": ""}, {"src/a.js": code})
    assert summary(found) == [(C, 2, "'./local.js' resolves to no file")]


def test_uninstalled_packages_through_every_form_are_the_same_note(repo: GitRepo) -> None:
    """``require`` and default imports of packages say "not installed" as named imports do."""
    head = src("""
        import { a } from 'left-pad';
        import pad from 'left-pad';
        const p = require('left-pad');
    """)
    found = judged(repo, {"src/a.js": ""}, {"src/a.js": head})
    # one finding per package (signal over noise), listing each import: three forms, one note
    (finding,) = found
    assert (finding.title, finding.verdict.name) == ("package 'left-pad' is not installed", U)
    assert [finding.line, *(r.line for r in finding.related)] == [1, 2, 3]


def test_only_touched_calls_are_judged(repo: GitRepo) -> None:
    base = {"src/a.js": "const old = require('./gone');\n"}
    found = judged(repo, base, {"src/a.js": "const old = require('./gone');\nconst b = 1;\n"})
    assert found == []


# -- the default export ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("files", "importer"),
    [
        ({"src/lib.ts": "export const a = 1;\n"}, "src/app.ts"),
        ({"src/lib.tsx": "export function A() {}\n"}, "src/app.tsx"),
        ({"src/lib.mts": "export const a = 1;\n"}, "src/app.mts"),
        ({"src/lib.mjs": "export const a = 1;\n"}, "src/app.mjs"),
        (
            {"package.json": '{"type": "module"}', "src/lib.js": "export const a = 1;\n"},
            "src/app.js",
        ),
        (
            {
                "package.json": '{"type": "module"}',
                "tsconfig.json": '{"compilerOptions": {"module": "nodenext"}}',
                "src/lib.ts": "export const a = 1;\n",
            },
            "src/app.ts",
        ),
        (
            {
                "tsconfig.json": '{"compilerOptions": {"module": "commonjs", '
                '"esModuleInterop": true}}',
                "src/lib.ts": "export const a = 1;\nexport * from './other';\n",
                "src/other.ts": "export default 1;\n",
            },
            "src/app.ts",
        ),
    ],
    ids=["ts", "tsx", "mts", "mjs", "js-type-module", "nodenext-esm", "commonjs-interop-star"],
)
def test_a_missing_default_where_no_interop_applies_is_contradicted(
    repo: GitRepo, files: dict[str, str], importer: str
) -> None:
    spec = "./lib.js" if "nodenext" in files.get("tsconfig.json", "") else "./lib"
    if importer.endswith((".mts", ".mjs")):
        spec = "./lib." + importer.rsplit(".", 1)[1]
    found = judged(repo, {**files, importer: ""}, {importer: f"import lib from '{spec}';\n"})
    assert summary(found) == [(C, 1, f"'{spec}' has no default export")]
    assert "no interop can supply one" in found[0].detail


@pytest.mark.parametrize(
    ("files", "importer", "spec"),
    [
        ({"src/lib.js": "module.exports = function () {};\n"}, "src/app.ts", "./lib"),
        ({"src/lib.js": "export const a = 1;\n"}, "src/app.ts", "./lib"),
        ({"src/lib.cts": "export const a = 1;\n"}, "src/app.ts", "./lib.cjs"),
        ({"src/lib.ts": "const a = 1;\nexport = a;\n"}, "src/app.ts", "./lib"),
        ({"src/lib.ts": "const a = 1;\nexport { a as default };\n"}, "src/app.ts", "./lib"),
        ({"src/lib.d.ts": "export const a: number;\n"}, "src/app.ts", "./lib"),
        (
            {"src/lib.js": "export const a = 1;\n", "src/lib.d.ts": "export const a: 1;\n"},
            "src/app.ts",
            "./lib",
        ),
        (
            {
                "package.json": '{"name": "x"}',
                "tsconfig.json": '{"compilerOptions": {"module": "nodenext"}}',
                "src/lib.ts": "export const a = 1;\n",
            },
            "src/app.mts",
            "./lib.js",
        ),
        (
            {
                "tsconfig.json": '{"extends": "./missing.json"}',
                "src/lib.ts": "export const a = 1;\n",
            },
            "src/app.ts",
            "./lib",
        ),
        ({"src/lib.ts": "export const a = 1;\nexport function (( {}\n"}, "src/app.ts", "./lib"),
    ],
    ids=[
        "commonjs-target", "js-without-type-module", "cts-target", "export-equals",
        "as-default", "declaration-file", "declaration-twin", "nodenext-commonjs-format",
        "unreadable-tsconfig", "target-syntax-error",
    ],
)  # fmt: skip
def test_a_default_import_where_interop_may_apply_is_not_flagged(
    repo: GitRepo, files: dict[str, str], importer: str, spec: str
) -> None:
    found = judged(repo, {**files, importer: ""}, {importer: f"import lib from '{spec}';\n"})
    assert [f for f in found if f.verdict.name == C] == [], summary(found)


def test_a_default_import_of_an_installed_package_is_not_judged(
    repo: GitRepo, tmp_path: object
) -> None:
    base = {
        "node_modules/pkg/package.json": '{"name": "pkg", "main": "index.js"}',
        "node_modules/pkg/index.js": "export const a = 1;\n",
        "src/app.ts": "",
    }
    found = judged(repo, base, {"src/app.ts": "import pkg from 'pkg';\n"})
    assert [f for f in found if f.verdict.name == C] == []


# -- parse errors and the export list --------------------------------------------------


@pytest.mark.parametrize(
    ("code", "names"),
    [
        (
            "export type CreateStore = {\n  create(): Store\n  <T>(): Store<T>\n}\n"
            "export function other() {}\n",
            {"CreateStore", "other"},
        ),
        ("export function f() {\n  let x = ;\n}\nexport const g = 1;\n", {"f", "g"}),
        ("export class A {\n  m() { return (x) => ; }\n}\n", {"A"}),
    ],
)
def test_an_error_inside_a_declaration_body_keeps_the_exports_certain(
    code: str, names: set[str]
) -> None:
    from tribunal.analyzers.hallucinated_symbol.js_exports import read_exports
    from tribunal.lang.js import syntax as js

    exports = read_exports(js.parse(code.encode(), "typescript"), "typescript")
    assert (exports.names, exports.uncertain) == (names, None)


@pytest.mark.parametrize(
    ("code", "why"),
    [
        ("export const a = 1;\nexport function (( {}\nexport const b = 2;\n", "top level"),
        ("export function f() {\n  let x = 1;\n\nexport const g = 1;\n", "may hide an export"),
        ("let x = ;\nexport const g = 1;\n", "cannot read"),
        ("call(<T,>(x) => ;\nexport const g = 1;\n", "syntax error"),
    ],
    ids=["top-level", "unclosed-body-swallows-export", "in-the-declarator", "expression"],
)
def test_an_error_where_an_export_could_hide_keeps_the_doubt(code: str, why: str) -> None:
    from tribunal.analyzers.hallucinated_symbol.js_exports import read_exports
    from tribunal.lang.js import syntax as js

    exports = read_exports(js.parse(code.encode(), "typescript"), "typescript")
    assert exports.uncertain is not None and why in exports.uncertain


def test_a_missing_name_next_to_a_type_literal_the_grammar_rejects(repo: GitRepo) -> None:
    store = src("""
        export type CreateStore = {
          create(): Store
          <T>(): Store<T>
        }
        export function createStore() {}
    """)
    base = {"src/store.ts": store, "src/app.ts": ""}
    found = judged(repo, base, {"src/app.ts": "import { createStroe } from './store';\n"})
    assert summary(found) == [(C, 1, "'./store' has no export named 'createStroe'")]
    assert "Did you mean 'createStore'?" in found[0].detail


# -- published packages: found by the sweep of npm packages ------------------------------


def test_a_name_any_condition_of_an_exports_entry_has_exists(repo: GitRepo) -> None:
    """primevue 5.0.2: ``./*`` maps ``types`` to ``index.d.ts`` and ``import`` to
    ``index.mjs``; only the ``.mjs`` exports ``PrimeVueConfirmSymbol``."""
    entry = {"types": "./*/index.d.ts", "import": "./*/index.mjs"}
    base = {
        "package.json": json.dumps({"name": "kit", "exports": {"./*": entry}}),
        "use/index.d.ts": "export declare function use(): void;\n",
        "use/index.mjs": "const Sym = Symbol();\nfunction use() {}\nexport { Sym, use };\n",
        "svc/index.mjs": "",
    }
    ok = judged(repo, base, {"svc/index.mjs": "import { Sym, use } from 'kit/use';\n"})
    assert ok == []
    missing = judged(repo, base, {"svc/index.mjs": "import { Sim } from 'kit/use';\n"})
    assert summary(missing) == [(C, 1, "'kit/use' has no export named 'Sim'")]


def test_a_ts_specifier_in_a_declaration_file_names_its_declaration(repo: GitRepo) -> None:
    """date-fns ships ``add.d.ts`` with ``import type { DateArg } from './types.ts'``."""
    base = {"types.d.ts": "export type DateArg = Date;\n", "add.d.ts": ""}
    head = {"add.d.ts": "import type { DateArg } from './types.ts';\nexport {};\n"}
    assert judged(repo, base, head) == []


def test_a_star_chain_reads_a_script_with_its_declaration_twin(repo: GitRepo) -> None:
    """zod: ``index.d.ts`` has ``export * from './api.js'``; the types are in ``api.d.ts``."""
    base = {
        "core/index.d.ts": "export * from './api.js';\n",
        "core/api.js": "export function run() {}\n",
        "core/api.d.ts": "export interface Ctx {}\nexport declare function run(): void;\n",
        "classic/checks.d.ts": "",
    }
    head = {"classic/checks.d.ts": "export { type Ctx as C, run } from '../core/index.js';\n"}
    assert judged(repo, base, head) == []


def test_export_type_star_is_a_star_reexport_not_a_parse_error(repo: GitRepo) -> None:
    base = {
        "types.ts": "export type * from './more';\nexport type A = 1;\n",
        "more.ts": "export type B = 2;\n",
        "app.ts": "",
    }
    found = judged(repo, base, {"app.ts": "import type { A, B, Gone } from './types';\n"})
    assert summary(found) == [(C, 1, "'./types' has no export named 'Gone'")]


@pytest.mark.parametrize(
    "code",
    [
        # a browserify bundle: each module gets the bundle's own require
        "({1: [function (require, module, exports) {\n  require('../internals/global');\n}]});\n",
        "define(function (require) {\n  var x = require('./nothere');\n});\n",
        "const require = createRequire(import.meta.url);\nrequire('./nothere');\n",
        "function require(id) { return cache[id]; }\nrequire('./nothere');\n",
    ],
    ids=["browserify", "amd", "create-require", "declared"],
)
def test_a_require_the_code_binds_itself_is_not_the_module_loader(repo: GitRepo, code: str) -> None:
    assert judged(repo, {"vendor/b.js": ""}, {"vendor/b.js": code}) == []


def test_module_suffixes_leave_a_missing_file_unverified(repo: GitRepo) -> None:
    base = {"tsconfig.json": '{"compilerOptions": {"moduleSuffixes": [".ios", ""]}}', "a.ts": ""}
    found = judged(repo, base, {"a.ts": "import './storage';\n"})
    assert [f.verdict.name for f in found] == [U]
    assert "moduleSuffixes (.ios)" in found[0].detail
