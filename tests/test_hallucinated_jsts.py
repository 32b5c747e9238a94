"""hallucinated-symbol for JavaScript and TypeScript, on real git repositories.

Every scenario commits a base and a head and runs the real engine in-process;
each CONTRADICTED rule is paired with clean twins that must stay clean
(re-exports, ``export *`` chains, tsconfig aliases, non-code files, packages).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.engine_helpers import Files, run_range, src
from tests.gitrepo import GitRepo
from tribunal.analyzers.hallucinated_symbol.jsonc import loads
from tribunal.findings import Finding

ID = "hallucinated-symbol"
C, U = "CONTRADICTED", "UNVERIFIED"


def judged(repo: GitRepo, base: Files, head: Files) -> list[Finding]:
    return run_range(repo, base, head, ID)


def summary(found: list[Finding]) -> list[tuple[str, str, int | None, str]]:
    return [(f.verdict.name, f.file, f.line, f.title) for f in found]


LIB = {
    "src/lib/config.ts": src("""
        export function parseConfig() {}
        export const { alpha, beta: renamedBeta, ...restOf } = source;
        export const [first, , third] = list;
        export interface Options {}
        export type Alias = string;
        export enum Mode { A }
        export class Parser {}
        export default function main() {}
        export { parseConfig as loadConfig };
        export * as helpers from './helpers';
        export * from './more';
    """),
    "src/lib/helpers.ts": "export const h = 1;\n",
    "src/lib/more.ts": "export const fromMore = 1;\nexport * from './deeper';\n",
    "src/lib/deeper.ts": "export function deepest() {}\nexport default 1;\n",
    "src/app.ts": "export {};\n",
}


# -- CONTRADICTED ----------------------------------------------------------------------


def test_misspelled_named_import_with_suggestion(repo: GitRepo) -> None:
    found = judged(repo, LIB, {"src/app.ts": "import { parseConifg } from './lib/config';\n"})
    assert summary(found) == [
        (C, "src/app.ts", 1, "'./lib/config' has no export named 'parseConifg'")
    ]
    assert "Did you mean 'parseConfig'?" in found[0].detail
    assert found[0].language == "typescript"


def test_relative_path_to_no_file(repo: GitRepo) -> None:
    found = judged(repo, LIB, {"src/app.ts": "import { helper } from './utils/missing';\n"})
    assert summary(found) == [(C, "src/app.ts", 1, "'./utils/missing' resolves to no file")]


def test_every_export_form_is_read(repo: GitRepo) -> None:
    names = (
        "parseConfig, alpha, renamedBeta, restOf, first, third, Options, Alias, Mode, Parser, "
        "loadConfig, helpers, fromMore, deepest"
    )
    head = {
        "src/app.ts": (
            f"import {{ {names} }} from './lib/config';\n"
            "import type { Gone } from './lib/config';\n"
        )
    }
    found = judged(repo, LIB, head)
    assert summary(found) == [(C, "src/app.ts", 2, "'./lib/config' has no export named 'Gone'")]


def test_export_star_does_not_carry_default(repo: GitRepo) -> None:
    """``export *`` never forwards a default: a TS module with only stars has none (TS1192)."""
    base = {**LIB, "src/lib/only.ts": "export * from './deeper';\n"}
    found = judged(
        repo,
        base,
        {
            "src/app.ts": src("""
                import { deepest, default as d } from './lib/only';
                export { default } from './lib/only';
            """)
        },
    )
    assert summary(found) == [
        (C, "src/app.ts", 1, "'./lib/only' has no default export"),
        (C, "src/app.ts", 2, "'./lib/only' has no default export"),
    ]


def test_reexports_are_judged(repo: GitRepo) -> None:
    head = {
        "src/lib/index.ts": src("""
            export { parseConfig, nope } from './config';
            export * from './absent';
        """)
    }
    found = judged(repo, LIB, head)
    assert summary(found) == [
        (C, "src/lib/index.ts", 1, "'./config' has no export named 'nope'"),
        (C, "src/lib/index.ts", 2, "'./absent' resolves to no file"),
    ]


def test_esm_js_specifiers_name_ts_sources(repo: GitRepo) -> None:
    head = {
        "src/app.ts": src("""
            import { parseConfig } from './lib/config.js';
            import { fromMore } from './lib/more.js';
            import { gone } from './lib/gone.js';
        """)
    }
    found = judged(repo, LIB, head)
    assert summary(found) == [(C, "src/app.ts", 3, "'./lib/gone.js' resolves to no file")]


def test_index_files_and_extensions(repo: GitRepo) -> None:
    base = {
        "web/widgets/index.tsx": "export const Widget = 1;\n",
        "web/util.mjs": "export const u = 1;\n",
        "web/legacy.cjs": "module.exports = require('./impl');\n",
        "web/app.jsx": "",
    }
    head = {
        "web/app.jsx": src("""
            import { Widget } from './widgets';
            import { u } from './util';
            import { l } from './legacy';
            import { Nope } from './widgets';
        """)
    }
    found = judged(repo, base, head)
    assert [(f.verdict.name, f.line) for f in found] == [(U, 3), (C, 4)]
    assert "CommonJS" in found[0].detail


def test_tsconfig_paths_baseurl_and_extends(repo: GitRepo) -> None:
    base = {
        "tsconfig.base.json": src("""
            {
              // shared
              "compilerOptions": {
                "baseUrl": ".",
                "paths": { "@app/*": ["src/*"], },
              },
            }
        """),
        "tsconfig.json": '{"extends": "./tsconfig.base", "compilerOptions": {"strict": true}}\n',
        **LIB,
    }
    head = {
        "src/app.ts": src("""
            import { parseConfig } from '@app/lib/config';
            import { h } from 'src/lib/helpers';
            import { missing } from '@app/lib/config';
            import { x } from '@app/lib/nowhere';
        """)
    }
    found = judged(repo, base, head)
    assert [(f.verdict.name, f.line) for f in found] == [(C, 3), (C, 4)]


def test_nearest_config_wins_in_a_monorepo(repo: GitRepo) -> None:
    base = {
        "tsconfig.json": '{"compilerOptions": {"paths": {"~/*": ["./root/*"]}}}\n',
        "packages/a/tsconfig.json": '{"compilerOptions": {"paths": {"~/*": ["./src/*"]}}}\n',
        "packages/a/src/thing.ts": "export const thing = 1;\n",
        "packages/a/src/main.ts": "",
        "root/thing.ts": "export const other = 1;\n",
    }
    found = judged(
        repo,
        base,
        {
            "packages/a/src/main.ts": src("""
                import { thing } from '~/thing';
                import { other } from '~/thing';
            """)
        },
    )
    assert [(f.verdict.name, f.line) for f in found] == [(C, 2)]


def test_extends_a_package_from_the_workspace(repo: GitRepo) -> None:
    base = {
        "tooling/tsconfig/package.json": '{"name": "@acme/tsconfig"}\n',
        "tooling/tsconfig/base.json": '{"compilerOptions": {"moduleResolution": "bundler"}}\n',
        "app/tsconfig.json": json.dumps(
            {
                "extends": "@acme/tsconfig/base.json",
                "compilerOptions": {"paths": {"#/*": ["./src/*"]}},
            }
        ),
        "app/src/a.ts": "export const a = 1;\n",
        "app/src/main.ts": "",
    }
    found = judged(
        repo, base, {"app/src/main.ts": "import { a } from '#/a';\nimport { b } from '#/b';\n"}
    )
    assert [(f.verdict.name, f.line) for f in found] == [(C, 2)]


def test_workspace_package_exports_and_imports(repo: GitRepo) -> None:
    base = {
        "package.json": json.dumps({"name": "root", "imports": {"#util/*": "./shared/*.ts"}}),
        "shared/fmt.ts": "export const fmt = 1;\n",
        "packages/core/package.json": json.dumps(
            {
                "name": "@ws/core",
                "exports": {
                    ".": {"types": "./src/index.ts", "import": "./dist/index.js"},
                    "./extra": "./src/extra.ts",
                },
            }
        ),
        "packages/core/src/index.ts": "export const core = 1;\n",
        "packages/core/src/extra.ts": "export const extra = 1;\n",
        "packages/built/package.json": json.dumps({"name": "@ws/built", "main": "dist/index.js"}),
        "app.ts": "",
    }
    head = {
        "app.ts": src("""
            import { core } from '@ws/core';
            import { extra } from '@ws/core/extra';
            import { fmt } from '#util/fmt';
            import { nope } from '@ws/core';
            import { gone } from '#util/gone';
            import { built } from '@ws/built';
        """)
    }
    found = judged(repo, base, head)
    assert [(f.verdict.name, f.line) for f in found] == [(C, 4), (C, 5), (U, 6)]


# -- importers the change broke ----------------------------------------------------------


def test_removed_export_breaks_untouched_importers(repo: GitRepo) -> None:
    base = {
        "src/util.ts": "export function a() {}\nexport function b() {}\n",
        "src/use.ts": "import { a, b } from './util';\n",
        "src/barrel.ts": "export * from './util';\n",
        "src/deep.ts": "import { b } from './barrel';\n",
    }
    found = judged(repo, base, {"src/util.ts": "export function a() {}\n"})
    assert summary(found) == [
        (C, "src/deep.ts", 1, "'./barrel' has no export named 'b' (broken by this change)"),
        (C, "src/use.ts", 1, "'./util' has no export named 'b' (broken by this change)"),
    ]
    assert "src/util.ts no longer exports 'b'" in found[0].detail


def test_moved_module_breaks_untouched_importers(repo: GitRepo) -> None:
    base = {
        "src/util.ts": "export const a = 1;\n",
        "src/use.js": "import { a } from './util.js';\n",
    }
    found = judged(repo, base, {"src/util.ts": None, "src/utils.ts": "export const a = 1;\n"})
    assert summary(found) == [
        (C, "src/use.js", 1, "'./util.js' resolves to no file (broken by this change)")
    ]
    assert "src/util.ts was moved to src/utils.ts" in found[0].detail


# -- never flagged, or at most UNVERIFIED --------------------------------------------------


def test_every_form_has_its_path_resolved(repo: GitRepo) -> None:
    head = {
        "src/app.ts": src("""
            import fs from 'node:fs';
            import { readFile } from 'fs/promises';
            import { ReadableStream } from 'stream/web';
            import def from './nothere';
            import * as ns from './nowhere';
            import './side-effect';
            import { default as d2 } from './lib/config';
            import legacy = require('./gone');
        """)
    }
    assert summary(judged(repo, LIB, head)) == [
        (C, "src/app.ts", 4, "'./nothere' resolves to no file"),
        (C, "src/app.ts", 5, "'./nowhere' resolves to no file"),
        (C, "src/app.ts", 6, "'./side-effect' resolves to no file"),
        (C, "src/app.ts", 8, "'./gone' resolves to no file"),
    ]


def test_non_code_files_resolve_with_their_extension(repo: GitRepo) -> None:
    base = {**LIB, "src/logo.svg": "<svg/>", "src/data.json": "{}", "src/x.css": ""}
    head = {
        "src/app.ts": src("""
            import { ReactComponent } from './logo.svg';
            import { key } from './data.json';
            import { cls } from './x.css';
            import { y } from './missing.svg';
        """)
    }
    found = judged(repo, base, head)
    assert summary(found) == [(C, "src/app.ts", 4, "'./missing.svg' resolves to no file")]


@pytest.mark.parametrize(
    ("target", "why"),
    [
        ("module.exports = { ...base, a: 1 };\n", "CommonJS"),
        ("exports[name] = 1;\n", "CommonJS"),
        ("const a = 1;\nexport = a;\n", "export ="),
        ("var a = 1;\n", "no import or export"),
        ("export * from 'some-package';\n", "re-exports everything"),
        ("export const ok = 1;\nexport const = ;\n", "syntax error"),
    ],
)
def test_uncertain_export_sets_give_unverified(repo: GitRepo, target: str, why: str) -> None:
    found = judged(repo, {"t.ts": target, "app.ts": ""}, {"app.ts": "import { zz } from './t';\n"})
    assert [f.verdict.name for f in found] == [U]
    assert why in found[0].detail


def test_error_node_in_the_statement_caps_at_unverified(repo: GitRepo) -> None:
    found = judged(repo, LIB, {"src/app.ts": "import { nope,, } from './lib/missing'\n"})
    assert found and all(f.verdict.name == U for f in found)


def test_packages_not_installed_or_installed(repo: GitRepo) -> None:
    mod = repo.path / "node_modules" / "esm-lib"
    mod.mkdir(parents=True)
    (mod / "package.json").write_text('{"name": "esm-lib", "types": "index.d.ts"}')
    (mod / "index.d.ts").write_text("export declare function real(): void;\n")
    cjs = repo.path / "node_modules" / "cjs-lib"
    cjs.mkdir(parents=True)
    (cjs / "package.json").write_text('{"name": "cjs-lib", "main": "index.js"}')
    (cjs / "index.js").write_text("module.exports = {}\n")
    before = sorted(p.stat().st_mtime_ns for p in (repo.path / "node_modules").rglob("*"))
    base = {
        ".gitignore": "node_modules/\n",
        "package.json": '{"dependencies": {"some-sdk": "1"}}',
        "app.ts": "",
    }
    head = {
        "app.ts": src("""
            import { Client } from 'some-sdk';
            import { real, fake } from 'esm-lib';
            import { anything } from 'cjs-lib';
            import { x } from 'undeclared-pkg/sub';
        """)
    }
    found = judged(repo, base, head)
    assert summary(found) == [
        (U, "app.ts", 1, "package 'some-sdk' is not installed"),
        (U, "app.ts", 2, "'esm-lib' has no export named 'fake'"),
        (U, "app.ts", 4, "package 'undeclared-pkg' is not installed"),
    ]
    assert "(declared in package.json)" in found[0].detail and "not declared" in found[2].detail
    assert sorted(p.stat().st_mtime_ns for p in (repo.path / "node_modules").rglob("*")) == before


def test_generated_and_bundler_resolved_targets_are_unverified(repo: GitRepo) -> None:
    base = {
        ".gitignore": "src/generated/\n",
        "src/Button.vue": "<template/>",
        "src/Api.ts": "export const api = 1;\n",
        "src/view.native.ts": "export const v = 1;\n",
        "src/app.ts": "",
    }
    head = {
        "src/app.ts": src("""
            import { schema } from './generated/schema';
            import { Button } from './Button';
            import { api } from './api';
            import { v } from './view';
        """)
    }
    found = judged(repo, base, head)
    assert [f.verdict.name for f in found] == [U, U, U, U]
    assert ".gitignore" in found[0].detail
    assert "src/Button.vue" in found[1].detail
    assert "differs only in case" in found[2].detail
    assert "platform-specific" in found[3].detail


def test_bundler_queries_and_loader_prefixes(repo: GitRepo) -> None:
    base = {**LIB, "src/logo.svg": "<svg/>", "src/worker.ts": "export const w = 1;\n"}
    head = {
        "src/app.ts": src("""
            import { ReactComponent } from './logo.svg?react';
            import { anything } from './worker.ts?worker&inline';
            import { raw } from '!raw-loader!./notes.txt';
            import { gone } from './gone.ts?raw';
        """)
    }
    found = judged(repo, base, head)
    assert summary(found) == [
        (U, "src/app.ts", 3, "'!raw-loader!./notes.txt' resolves to no file"),
        (U, "src/app.ts", 4, "'./gone.ts?raw' resolves to no file"),
    ]
    assert "a bundler loader handles" in found[0].detail
    assert "a bundler query handles" in found[1].detail


def test_catch_all_paths_pattern_claims_nothing(repo: GitRepo) -> None:
    base = {"tsconfig.json": '{"compilerOptions": {"paths": {"*": ["types/*"]}}}', "a.ts": ""}
    found = judged(repo, base, {"a.ts": "import { q } from 'query-lib';\n"})
    assert summary(found) == [(U, "a.ts", 1, "package 'query-lib' is not installed")]


def test_untouched_imports_are_out_of_scope(repo: GitRepo) -> None:
    base = {**LIB, "src/app.ts": "import { gone } from './lib/config';\nexport const v = 1;\n"}
    assert (
        judged(
            repo,
            base,
            {"src/app.ts": "import { gone } from './lib/config';\nexport const v = 2;\n"},
        )
        == []
    )


def test_jsonc_reader_handles_comments_and_trailing_commas() -> None:
    text = (
        '{\n // c "quoted"\n "a": "http://x//y", /* b */ "l": [1, 2, ],\n "o": {"k": "/*s*/",},\n}'
    )
    assert loads(text) == {"a": "http://x//y", "l": [1, 2], "o": {"k": "/*s*/"}}


def test_real_cli_on_a_typescript_change(repo: GitRepo, tmp_path: Path) -> None:
    repo.commit(LIB)
    repo.write({"src/app.ts": "import { parseConifg } from './lib/config';\n"})
    result = repo.tribunal("check", "--hard-fail", "--format", "json")
    assert result.code == 1, result.stderr
    report = json.loads(result.stdout)
    mine = [f for f in report["findings"] if f["analyzer"] == ID]
    assert [(f["verdict"], f["file"], f["line"]) for f in mine] == [(C, "src/app.ts", 1)]
