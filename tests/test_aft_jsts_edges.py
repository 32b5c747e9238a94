"""assertion-free-test for JS/TS: the adversarial review's regressions.

Each case here was once judged wrongly: type-level tests and files that fail to
load were called "can never fail"; runners that fail an assertion-free test
(AVA, tape), extended ``test`` functions with fixtures, and setup files or
imported modules that register hooks around every test were not seen;
``expect(x)`` without a matcher counted as an assertion. Verdicts come from the
real engine on real git repositories.
"""

from __future__ import annotations

import pytest

from tests.engine_helpers import change_for
from tests.gitrepo import GitRepo
from tests.test_aft_jsts import C, P, U, judge, src, verdicts
from tribunal.engine.runner import analyze
from tribunal.engine.sources import Selection

TYPE_LEVEL = src(
    """
    import { describe, it } from 'vitest';
    import type { parse } from '../src/parse';
    type Equal<X, Y> = (<T>() => T extends X ? 1 : 2) extends (<T>() => T extends Y ? 1 : 2)
      ? true
      : false;
    type Expect<T extends true> = T;

    describe('types', () => {
      it('annotation', () => {
        const check: Equal<ReturnType<typeof parse>, string> = true;
      });
      it('alias', () => {
        type Result = Expect<Equal<ReturnType<typeof parse>, string>>;
      });
      it('expect error', () => {
        // @ts-expect-error parse takes a string
        const bad: string = 1;
      });
      it('satisfies', () => {
        const config = { retries: 1 } satisfies Record<string, number>;
      });
      it('cast', () => {
        const value = 'x' as unknown as Label;
      });
      it('generic return', () => {
        const id = <T,>(x: T): T => x;
      });
      it('typed helper call', () => {
        takesNumber('one');
      });
      it('arity', () => {
        takesNothing(1);
      });
      it('primitive literals', () => {
        const n: number = -2;
        const s: string = 'x';
        const b: boolean = true;
        const tuple = [1, 'a'] as const;
        const anything = 1 as any;
        type Id = string | number;
        interface Point { x: number; y?: number }
        const id = <T,>(x: T) => x;
        takesNothing();
      });
    });

    function takesNumber(n: number): void {}
    function takesNothing(): void {}
    """
)

EARLY_ERRORS = src(
    """
    function shadowsItsParameter(x) { let x = 1; }
    it('redeclared let', () => { let a = 1; let a = 2; });
    it('const without a value', () => { const a; });
    it('var over let', () => { let a = 1; { var a = 2; } });
    it('legacy octal', () => { const mode = 0755; });
    it('octal escape', () => { const s = "\\01"; });
    it('octal escape in a template', () => { const s = `\\1`; });
    it('reserved name', () => { let eval = 1; });
    it('helper redeclares its parameter', () => { shadowsItsParameter(); });
    it('blocks may shadow', () => { let a = 1; { let a = 2; } const z = 0.5 + 0x1 + 0e1; });
    it('escaped backslash', () => { const s = "\\\\1\\n\\0"; });
    """
)

MATCHERLESS = src(
    """
    import { expect as want } from 'vitest';
    import { expect as chaiExpect } from 'chai';
    import { total } from '../src/total';

    it('bare expect', () => { expect(total([1])); });
    it('uncalled matcher', () => { expect(total([1])).toBeTruthy; });
    it('uncalled negation', () => { expect(total([1])).not; });
    it('aliased bare expect', () => { want(total([1])); });
    it('bare soft expect', () => { expect.soft(total([1])); });
    it('called matcher', () => { expect(total([1])).toBe(1); });
    it('chai property assertion', () => { chaiExpect(total([1])).to.be.ok; });
    it('counted assertions', () => { expect.assertions(0); total([]); });
    it('stored expectation', () => { const e = expect(total([1])); e.toBe(1); });
    """
)


def test_type_level_checks_are_never_contradicted(repo: GitRepo) -> None:
    found = judge(repo, {"src/types.test.ts": TYPE_LEVEL})
    assert verdicts(found) == {
        "types > annotation": U,
        "types > alias": U,
        "types > expect error": U,
        "types > satisfies": U,
        "types > cast": U,
        "types > generic return": U,
        "types > typed helper call": U,
        "types > arity": U,
        "types > primitive literals": C,
    }
    detail = found["types > annotation"].detail
    assert "is a type-level check the TypeScript compiler may fail" in detail
    assert "is checked by TypeScript against `takesNumber`'s parameters" in (
        found["types > typed helper call"].detail
    )


def test_jsdoc_types_and_expect_error_count_in_javascript(repo: GitRepo) -> None:
    code = src(
        """
        it('jsdoc', () => {
          /** @type {string} */
          const name = 'x';
        });
        it('plain comment', () => {
          // nothing to see
          const name = 'x';
        });
        """
    )
    assert verdicts(judge(repo, {"test/doc.test.js": code})) == {"jsdoc": U, "plain comment": C}


def test_early_syntax_errors_are_never_contradicted(repo: GitRepo) -> None:
    found = judge(repo, {"test/early.test.js": EARLY_ERRORS})
    assert verdicts(found) == {
        "redeclared let": U,
        "const without a value": U,
        "var over let": U,
        "legacy octal": U,
        "octal escape": U,
        "octal escape in a template": U,
        "reserved name": U,
        "helper redeclares its parameter": U,
        "blocks may shadow": C,
        "escaped backslash": C,
    }
    assert "early SyntaxError" in found["redeclared let"].detail


def test_an_expectation_without_a_matcher_is_not_an_assertion(repo: GitRepo) -> None:
    found = judge(repo, {"src/total.test.ts": MATCHERLESS})
    assert verdicts(found) == {
        "bare expect": U,
        "uncalled matcher": U,
        "uncalled negation": U,
        "aliased bare expect": U,
        "bare soft expect": U,
        "called matcher": P,
        "chai property assertion": P,
        "counted assertions": P,
        "stored expectation": P,
    }
    assert "has no matcher" in found["bare expect"].detail
    assert "never calls its matcher (no parentheses)" in found["uncalled matcher"].detail


def test_runners_that_fail_assertion_free_tests(repo: GitRepo) -> None:
    files = {
        "test/ava.test.js": "import test from 'ava';\ntest('ava', () => {});\n",
        "test/tape.test.js": "const test = require('tape');\ntest('tape', () => {});\n",
        "test/plan.test.mjs": "import test from 'node:test';\n"
        "test('planned', { plan: 1 }, () => {});\ntest('node', () => {});\n",
        "test/deno_test.ts": "Deno.test({ name: 'deno', permissions: { read: true }, fn() {} });\n",
    }
    found = judge(repo, files)
    assert verdicts(found) == {"ava": U, "tape": U, "planned": U, "node": C, "deno": U}
    assert "AVA fails a test that runs no assertion" in found["ava"].detail
    assert "never calls `t.end()`" in found["tape"].detail
    assert "`plan: 1`" in found["planned"].detail


def test_a_test_function_this_file_binds_may_bring_fixtures(repo: GitRepo) -> None:
    files = {
        "e2e/custom.spec.ts": "import { test } from './fixtures';\ntest('custom', () => {});\n",
        "e2e/extended.spec.ts": src(
            """
            import { test as base } from '@playwright/test';
            const test = base.extend({ seeded: [async ({}, use) => use(1), { auto: true }] });
            test('extended', () => {});
            """
        ),
        "e2e/plain.spec.ts": "import { test } from '@playwright/test';\ntest('plain', () => {});\n",
        "e2e/deno_test.ts": "import { it } from 'https://deno.land/std@0.224.0/testing/bdd.ts';\n"
        "it('deno bdd', () => {});\n",
    }
    files["test/lambda.test.js"] = "const ids = rows.map(it => it.id);\nit('lambda', () => {});\n"
    found = judge(repo, files)
    assert verdicts(found) == {
        "custom": U,
        "extended": U,
        "plain": C,
        "deno bdd": C,
        "lambda": C,
    }
    assert "runs through `test`, which this file imports or defines" in found["custom"].detail


EMPTY = "import { it } from 'vitest';\nit('empty', () => {});\n"
USES_DB = src(
    """
    import { it } from 'vitest';
    import { useDb } from './db';
    useDb();
    it('empty', () => {});
    """
)


@pytest.mark.parametrize(
    ("base", "test_path", "reason"),
    [
        pytest.param(
            {
                "jest.config.js": "module.exports = {\n"
                "  setupFilesAfterEnv: ['<rootDir>/jest.setup.js'],\n};\n",
                "jest.setup.js": "import '@testing-library/jest-dom';\n"
                "beforeEach(() => { expect.hasAssertions(); });\n",
            },
            "src/a.test.js",
            "`jest.config.js` loads `<rootDir>/jest.setup.js` (setupFilesAfterEnv): "
            "`jest.setup.js` registers a hook or counts assertions (line 2)",
            id="jest-setup-file-hooks",
        ),
        pytest.param(
            {
                "package.json": '{"name": "app", "jest": {"setupFilesAfterEnv": '
                '["./test/setup.js"]}}\n',
                "test/setup.js": "afterEach(() => jest.clearAllMocks());\n",
            },
            "src/a.test.js",
            "`package.json` loads `./test/setup.js` (setupFilesAfterEnv)",
            id="package-json-jest",
        ),
        pytest.param(
            {
                "vitest.config.ts": "export default {\n"
                "  test: { expect: { requireAssertions: true } },\n};\n"
            },
            "src/a.test.ts",
            "`vitest.config.ts` sets `requireAssertions`, so a test without an assertion fails",
            id="vitest-require-assertions",
        ),
        pytest.param(
            {
                "vite.config.ts": "export default defineConfig({ test: "
                "{ setupFiles: [resolve(__dirname, 'setup.ts')] } });\n"
            },
            "src/a.test.ts",
            "`vite.config.ts` sets `setupFiles` to a value Tribunal cannot read",
            id="vite-setup-files-computed",
        ),
        pytest.param(
            {
                ".mocharc.yml": "require:\n  - ./test/hooks.js\n",
                "test/hooks.js": "exports.mochaHooks = { beforeEach() {} };\n",
            },
            "test/a.spec.js",
            "`.mocharc.yml` loads `./test/hooks.js` (require)",
            id="mocha-root-hooks",
        ),
        pytest.param(
            {
                "bunfig.toml": '[test]\npreload = ["./setup.ts"]\n',
                "setup.ts": "import { afterEach } from 'bun:test';\nafterEach(() => {});\n",
            },
            "a.test.ts",
            "`bunfig.toml` loads `./setup.ts` (preload)",
            id="bun-preload",
        ),
        pytest.param(
            {
                "cypress/support/e2e.ts": "import './commands';\n",
                "cypress/support/commands.ts": "beforeEach(() => { cy.intercept('/api'); });\n",
            },
            "cypress/e2e/login.cy.ts",
            "the Cypress support file `cypress/support/e2e`",
            id="cypress-support-file",
        ),
        pytest.param(
            {
                "test/db.ts": "import { beforeEach } from 'vitest';\n"
                "export function useDb() { beforeEach(() => reset()); }\n"
            },
            "test/a.test.ts",
            "it imports './db': `test/db.ts` registers a hook or counts assertions (line 2)",
            id="imported-helper-registers-hooks",
        ),
    ],
)
def test_hooks_from_other_files_make_an_empty_test_unverified(
    repo: GitRepo, base: dict[str, str], test_path: str, reason: str
) -> None:
    code = USES_DB if "test/db.ts" in base else EMPTY
    found = judge(repo, {test_path: code}, base=base)
    assert verdicts(found) == {"empty": U}
    assert reason in found["empty"].detail


def test_setup_files_and_imports_without_hooks_change_nothing(repo: GitRepo) -> None:
    base = {
        "jest.config.js": "module.exports = { setupFilesAfterEnv: ['<rootDir>/jest.setup.js'],"
        " setupFiles: ['whatwg-fetch'] };\n",
        "jest.setup.js": "import '@testing-library/jest-dom';\n",
        "src/math.ts": "import { round } from './round';\nexport const add = (a, b) => a + b;\n",
        "src/round.ts": "export const round = (n) => Math.round(n);\n",
    }
    code = "import { add } from './math';\nimport styles from './a.css';\nit('empty', () => {});\n"
    found = judge(repo, {"src/math.test.ts": code}, base=base)
    assert verdicts(found) == {"empty": C}


def test_a_bare_diff_cannot_rule_out_setup_files(repo: GitRepo) -> None:
    base = repo.commit({"README.md": "x\n"})
    head = repo.commit({"src/a.test.js": "it('empty', () => {});\n"})
    patch = repo.git("diff", base, head)
    (repo.path / "change.patch").write_text(patch + "\n", encoding="utf-8")
    with change_for(repo, Selection(diff=str(repo.path / "change.patch"))) as change:
        report = analyze(change, only=["assertion-free-test"])
    (finding,) = report.findings
    assert finding.verdict is U
    assert "only a diff was given" in finding.detail


def test_contradicted_details_give_the_span_and_what_to_do(repo: GitRepo) -> None:
    found = judge(repo, {"src/a.test.js": "it('empty', () => {\n});\n"})
    detail = found["empty"].detail
    assert detail.startswith("No assertion in 'empty' (lines 1-2): its body is empty")
    assert detail.endswith(
        "Add an assertion on the behaviour the test is named for, or delete the test."
    )


def test_an_async_describe_callback_may_fail_the_file(repo: GitRepo) -> None:
    code = src(
        """
        describe('async suite', async () => {
          it('inside', () => {});
        });
        describe('sync suite', () => {
          it('inside', () => {});
        });
        """
    )
    found = judge(repo, {"test/suites.test.js": code})
    assert verdicts(found) == {"async suite > inside": U, "sync suite > inside": C}
    assert "has an async callback, which Jest rejects" in found["async suite > inside"].detail


def test_vitest_type_test_files_are_test_files(repo: GitRepo) -> None:
    files = {
        "src/parse.test-d.ts": "import { it } from 'vitest';\nit('test-d', () => {});\n",
        "src/parse.spec-d.ts": "import { it } from 'vitest';\nit('spec-d', () => {});\n",
    }
    assert verdicts(judge(repo, files)) == {"test-d": C, "spec-d": C}
