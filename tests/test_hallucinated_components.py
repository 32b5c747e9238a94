"""hallucinated-symbol: single-file components as sources, and module formats.

``.vue`` / ``.svelte`` script imports resolved on the component's lines, a
component's default always there, named exports only from Vue's plain
``<script>`` and Svelte's module script; a workspace package's ``exports`` map
certain only when linked; JSON imports with attributes. Real git, the real engine;
the Svelte and workspace rules were checked with svelte-check and tsc.
"""

from __future__ import annotations

import json

import pytest

from tests.engine_helpers import Files, run_range
from tests.gitrepo import GitRepo
from tribunal.findings import Finding

ID = "hallucinated-symbol"


def verdicts(found: list[Finding]) -> list[tuple[str, int | None]]:
    return [(f.verdict.name, f.line) for f in found]


VUE = '<template><p>x</p></template>\n\n<script setup lang="ts">\n{imports}\n</script>\n'


@pytest.mark.parametrize(
    ("imports", "expected"),
    [
        ("import { real } from './util';", []),
        ("import { nothing } from './util';", [("CONTRADICTED", 4)]),
        ("import x from './nothere';", [("CONTRADICTED", 4)]),
        ("import Other from './Other.vue';", []),
    ],
)
def test_script_setup_imports_are_judged_on_the_components_lines(
    repo: GitRepo, imports: str, expected: list[tuple[str, int]]
) -> None:
    base = {"src/util.ts": "export const real = 1;\n", "src/Other.vue": "<template/>\n"}
    base["src/App.vue"] = VUE.format(imports="")
    found = run_range(repo, base, {"src/App.vue": VUE.format(imports=imports)}, ID)
    assert verdicts(found) == expected


SIZES = "import { sizes } from './Button.vue';"
C1, U1 = [("CONTRADICTED", 1)], [("UNVERIFIED", 1)]


@pytest.mark.parametrize(
    ("component", "statement", "expected"),
    [
        ("<template/>", "import Button from './Button.vue';", []),
        ("<script setup>\ndefineProps(['size'])\n</script>", SIZES.replace("sizes", "size"), C1),
        ("<script>\nexport const sizes = [1];\n</script>", SIZES, []),
        ("<script src='./button.js'></script>", SIZES, U1),
        ("<script lang='coffee'>\nx = 1\n</script>", SIZES, U1),
    ],
    ids=["default", "prop", "plain-script", "src", "coffee"],
)
def test_what_a_vue_component_exports(
    repo: GitRepo, component: str, statement: str, expected: list[tuple[str, int]]
) -> None:
    base = {"src/Button.vue": component + "\n", "src/main.ts": ""}
    found = run_range(repo, base, {"src/main.ts": statement + "\n"}, ID)
    assert verdicts(found) == expected


SVELTE = (
    '<script context="module">\n  export const sizes = [1];\n</script>\n'
    "<script>\n  export let size = 1;\n  export function focus() {}\n</script>\n<b>{size}</b>\n"
)


@pytest.mark.parametrize(
    ("names", "expected"),
    [("sizes", []), ("size", [("CONTRADICTED", 1)]), ("focus", [("CONTRADICTED", 1)])],
)
def test_svelte_exports_come_from_the_module_script_only(
    repo: GitRepo, names: str, expected: list[tuple[str, int]]
) -> None:
    base = {"src/Button.svelte": SVELTE, "src/main.js": ""}
    head = {"src/main.js": f"import Button, {{ {names} }} from './Button.svelte';\n"}
    assert verdicts(run_range(repo, base, head, ID)) == expected


def test_a_removed_component_breaks_the_barrel_that_re_exports_it(repo: GitRepo) -> None:
    base = {
        "src/components/Button.vue": "<template/>\n",
        "src/components/index.ts": "export { default as Button } from './Button.vue';\n",
    }
    found = run_range(repo, base, {"src/components/Button.vue": None}, ID)
    assert verdicts(found) == [("CONTRADICTED", 1)]
    assert found[0].file == "src/components/index.ts"


WS: Files = {
    "tsconfig.json": '{"compilerOptions": {"moduleResolution": "bundler"}}',
    "packages/ui/package.json": json.dumps({"name": "@ws/ui", "exports": {"./b": "./b.ts"}}),
    "packages/ui/b.ts": "export const B = 1;\n",
    "apps/web/app.ts": "",
}


@pytest.mark.parametrize(
    ("spec", "extra", "expected"),
    [
        ("workspace:*", {}, "CONTRADICTED"),
        ("workspace:^", {}, "CONTRADICTED"),
        ("^1.0.0", {}, "UNVERIFIED"),
        (None, {}, "UNVERIFIED"),
        ("workspace:*", {"apps/web/vite.config.ts": "export default {alias: {}};"}, "UNVERIFIED"),
    ],
    ids=["workspace-star", "workspace-caret", "range", "undeclared", "alias"],
)
def test_a_workspace_exports_miss_is_certain_only_when_linked(
    repo: GitRepo, spec: str | None, extra: Files, expected: str
) -> None:
    deps = {"dependencies": {"@ws/ui": spec}} if spec else {}
    base = {**WS, **extra, "apps/web/package.json": json.dumps({"name": "web", **deps})}
    found = run_range(repo, base, {"apps/web/app.ts": "import { C } from '@ws/ui/c';\n"}, ID)
    assert verdicts(found) == [(expected, 1)]
    assert "is not in its workspace package's exports" in found[0].title


def test_a_workspace_subpath_in_the_exports_map_passes(repo: GitRepo) -> None:
    base = {**WS, "apps/web/package.json": '{"dependencies": {"@ws/ui": "workspace:*"}}'}
    assert run_range(repo, base, {"apps/web/app.ts": "import { B } from '@ws/ui/b';\n"}, ID) == []


@pytest.mark.parametrize("attributes", ["with { type: 'json' }", "assert { type: 'json' }"])
def test_json_imports_with_attributes(repo: GitRepo, attributes: str) -> None:
    base = {"data.json": '{"a": 1}', "app.ts": ""}
    missing = run_range(
        repo, base, {"app.ts": f"import d from './nothere.json' {attributes};\n"}, ID
    )
    assert verdicts(missing) == [("CONTRADICTED", 1)]


def test_a_named_import_from_json_is_never_contradicted(repo: GitRepo) -> None:
    base = {"data.json": '{"a": 1}', "app.ts": ""}
    head = {"app.ts": "import { zzz } from './data.json' with { type: 'json' };\n"}
    assert run_range(repo, base, head, ID) == []


EQUALS = "export = legacy;\n"
LEGACY = "declare namespace legacy {\n  function parse(s: string): number;\n  const v: string;\n}\n"


@pytest.mark.parametrize(
    ("declaration", "importer", "expected"),
    [
        (LEGACY + "export = legacy;\n", "src/app.ts", "CONTRADICTED"),
        (LEGACY + "export = legacy;\n", "src/app.js", "UNVERIFIED"),
        ("declare function legacy(): void;\n" + LEGACY + EQUALS, "src/app.ts", "UNVERIFIED"),
        ("declare class legacy { static parse(): void }\n" + EQUALS, "src/app.ts", "UNVERIFIED"),
        (LEGACY + EQUALS + "export declare const extra: 1;\n", "src/app.ts", "UNVERIFIED"),
    ],
    ids=["ts-importer", "js-importer", "merged", "class-statics", "beside-other-exports"],
)  # fmt: skip
def test_export_equals_is_certain_only_for_an_expanded_namespace_and_a_ts_importer(
    repo: GitRepo, declaration: str, importer: str, expected: str
) -> None:
    base = {"lib/legacy.d.ts": declaration, importer: ""}
    head = {importer: "import { parse, nope } from '../lib/legacy';\n"}
    found = run_range(repo, base, head, ID)
    assert {f.verdict.name for f in found} == {expected}
    assert all("'nope'" in f.title or expected == "UNVERIFIED" for f in found)
