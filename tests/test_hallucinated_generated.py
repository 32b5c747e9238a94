"""hallucinated-symbol: modules a framework's tooling generates or provides.

SvelteKit's ``./$types``, ``$lib``, ``$app/*`` and ``$env/*``, and any tsconfig
that extends a generated config (``.svelte-kit/``, ``.nuxt/``): imports that
such config may resolve are at most UNVERIFIED; everything the generated
config cannot reach keeps its certainty. Real git repositories, the real engine.
"""

from __future__ import annotations

import json

import pytest

from tests.engine_helpers import Files, run_range
from tests.gitrepo import GitRepo
from tribunal.findings import Finding

ID = "hallucinated-symbol"
KIT_PACKAGE = json.dumps({"name": "app", "devDependencies": {"@sveltejs/kit": "^2.0.0"}})
KIT: Files = {
    ".gitignore": "/.svelte-kit\n",
    "package.json": KIT_PACKAGE,
    "tsconfig.json": '{"extends": "./.svelte-kit/tsconfig.json"}',
    "src/lib/format.ts": "export const format = (n: number) => String(n);\n",
    "src/routes/+page.svelte": "<h1>hi</h1>\n",
    "src/routes/+page.ts": "",
}


def verdicts(found: list[Finding]) -> list[tuple[str, int | None]]:
    return [(f.verdict.name, f.line) for f in found]


def judged(
    repo: GitRepo, head: str, base: Files = KIT, path: str = "src/routes/+page.ts"
) -> list[Finding]:
    return run_range(repo, base, {path: head}, ID)


@pytest.mark.parametrize(
    "statement",
    [
        "import type { PageLoad } from './$types';",
        "import type { PageLoad } from './$types.js';",
        "import { format } from '$lib/format';",
        "import { browser } from '$app/environment';",
        "import { page } from '$app/state';",
        "import { PUBLIC_KEY } from '$env/static/public';",
        "import { build } from '$service-worker';",
    ],
)
def test_sveltekit_modules_of_a_route_pass(repo: GitRepo, statement: str) -> None:
    assert judged(repo, statement + "\n") == []


def test_route_types_outside_a_route_directory_are_at_most_unverified(repo: GitRepo) -> None:
    found = judged(repo, "import type { X } from './$types';\n", path="src/lib/load.ts")
    assert verdicts(found) == [("UNVERIFIED", 1)]
    assert "svelte-kit sync" in found[0].detail


@pytest.mark.parametrize(
    ("statement", "why"),
    [
        ("import { nope } from '$lib/format';", "$lib is mapped by the generated"),
        ("import { x } from '$lib/nothere';", "$lib is mapped by the generated"),
        ("import { x } from '$app/nothere';", "not among those known"),
    ],
)
def test_sveltekit_lib_and_unknown_app_modules_are_at_most_unverified(
    repo: GitRepo, statement: str, why: str
) -> None:
    found = judged(repo, statement + "\n")
    assert verdicts(found) == [("UNVERIFIED", 1)]
    assert why in found[0].detail


def test_a_missing_relative_file_in_a_sveltekit_route_stays_certain(repo: GitRepo) -> None:
    found = judged(repo, "import { helper } from './helpers';\n")
    assert verdicts(found) == [("CONTRADICTED", 1)]


def test_a_svelte_config_that_rewrites_the_generated_tsconfig_keeps_the_doubt(
    repo: GitRepo,
) -> None:
    base = {**KIT, "svelte.config.js": "export default {kit: {typescript: {config: (c) => c}}};\n"}
    found = judged(repo, "import { helper } from './helpers';\n", base)
    assert verdicts(found) == [("UNVERIFIED", 1)]
    assert ".svelte-kit/tsconfig.json" in found[0].detail


def test_without_sveltekit_route_types_and_dollar_modules_are_not_special(repo: GitRepo) -> None:
    base = {"package.json": '{"name": "app"}', "src/routes/+page.ts": ""}
    found = judged(repo, "import type { X } from './$types';\n", base)
    assert verdicts(found) == [("CONTRADICTED", 1)]


@pytest.mark.parametrize(
    "extends", ["./.nuxt/tsconfig.json", "./.nuxt/tsconfig", "./gen/tsconfig.json"]
)
def test_a_generated_or_ignored_extends_target_makes_missing_files_unverified(
    repo: GitRepo, extends: str
) -> None:
    base = {
        ".gitignore": "gen/\n",
        "tsconfig.json": json.dumps({"extends": extends}),
        "app.ts": "",
    }
    found = run_range(repo, base, {"app.ts": "import { x } from './types/cart';\n"}, ID)
    assert verdicts(found) == [("UNVERIFIED", 1)]
    assert "its rootDirs are unknown" in found[0].detail


def test_an_extends_target_that_is_merely_missing_keeps_relative_imports_certain(
    repo: GitRepo,
) -> None:
    base = {"tsconfig.json": '{"extends": "./tsconfig.base.json"}', "app.ts": ""}
    found = run_range(repo, base, {"app.ts": "import { x } from './types/cart';\n"}, ID)
    assert verdicts(found) == [("CONTRADICTED", 1)]
