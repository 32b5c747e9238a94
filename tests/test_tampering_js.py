"""test-tampering on JS/TS tests: stripped checks, tautologies, swallowed asserts, focus.

Every rule comes with clean twins that look risky and must not be red.
"""

from __future__ import annotations

import pytest

from tests.gitrepo import GitRepo
from tests.test_tampering_support import src, tampering, verdicts, worst
from tribunal.analyzers.test_tampering.runners import commands_in
from tribunal.findings import Finding

T = "test/add.test.js"
JEST = '{"devDependencies": {"jest": "^29.0.0"}}'
BASE = src(
    """
    const { add } = require('../src/add');

    describe('add', () => {
      it('adds', () => {
        const result = add(1, 2);
        expect(result).toBe(3);
      });

      it('zero', () => {
        expect(add(0, 0)).toBe(0);
      });
    });
    """
)


def _head(body: str) -> str:
    return BASE.replace("    const result = add(1, 2);\n    expect(result).toBe(3);\n", body)


def _only(findings: list[Finding]) -> list[Finding]:
    return [f for f in findings if "'add > adds'" in f.title or "'add > adds'" in f.detail]


# --- every check removed --------------------------------------------------------------------


def test_deleting_the_expect_is_contradicted(repo: GitRepo) -> None:
    found = tampering(repo, {T: BASE}, {T: _head("    const result = add(1, 2);\n")})
    assert verdicts(found) == [
        ("CONTRADICTED", 4, "the diff removed every check test 'add > adds' made")
    ]
    assert found[0].language == "javascript"
    assert "line 6: `expect(result).toBe(3);`" in found[0].detail


def test_commented_out_expect_is_contradicted_in_typescript(repo: GitRepo) -> None:
    head = _head("    const result = add(1, 2);\n    // expect(result).toBe(3);\n")
    found = tampering(repo, {"test/add.test.ts": BASE}, {"test/add.test.ts": head})
    assert worst(found) == "CONTRADICTED"
    assert "commented out" in found[0].detail and found[0].language == "typescript"


@pytest.mark.parametrize(
    ("body", "verdict"),
    [
        # rewritten, not removed
        ("    expect(add(1, 2)).toEqual(3);\n", None),
        ("    const result = add(1, 2);\n    assert.strictEqual(result, 3);\n", None),
        # a new call might check
        ("    const result = add(1, 2);\n    console.log(result);\n", "UNVERIFIED"),
        ("    const result = add(1, 2);\n    verifySum(result);\n", "UNVERIFIED"),
        # the call to the code under test was already there: not new
        ("    add(1, 2);\n", "CONTRADICTED"),
    ],
)
def test_rewritten_expectations(repo: GitRepo, body: str, verdict: str | None) -> None:
    found = [f for f in tampering(repo, {T: BASE}, {T: _head(body)}) if "adds" in f.title]
    assert [f.verdict.name for f in found] == ([verdict] if verdict else [])


def test_assertions_moved_into_a_same_file_helper_are_clean(repo: GitRepo) -> None:
    head = (
        _head("    check(add(1, 2));\n")
        + "\nfunction check(value) {\n  expect(value).toBe(3);\n}\n"
    )
    assert tampering(repo, {T: BASE}, {T: head}) == []


def test_assertions_moved_into_an_imported_helper_are_unverified(repo: GitRepo) -> None:
    base = "const { run } = require('./helpers');\n" + BASE.replace("add(1, 2);", "run(add);")
    head = base.replace("    expect(result).toBe(3);\n", "")
    helpers = "exports.run = (fn) => fn(1, 2);\n"
    moved = (
        "exports.run = (fn) => {\n  const out = fn(1, 2);\n  expect(out).toBe(3);\n"
        "  return out;\n};\n"
    )
    files = {T: base, "test/helpers.js": helpers}
    found = tampering(repo, files, {T: head, "test/helpers.js": moved})
    assert verdicts(found) == [
        ("UNVERIFIED", 5, "test 'add > adds' no longer has a check Tribunal can see")
    ]
    assert "test/helpers.js" in found[0].detail


def test_a_new_hook_or_parameter_may_hold_the_checks(repo: GitRepo) -> None:
    hooked = _head("    const result = add(1, 2);\n").replace(
        "describe('add', () => {\n", "describe('add', () => {\n  afterEach(() => verify());\n"
    )
    found = tampering(repo, {T: BASE}, {T: hooked})
    assert worst(_only(found)) == "UNVERIFIED"
    assert "hook" in _only(found)[0].detail
    done = _head("    add(1, 2);\n    done();\n").replace(
        "it('adds', () =>", "it('adds', (done) =>"
    )
    found = tampering(repo, {T: BASE}, {T: done})
    assert worst(found) == "UNVERIFIED"
    assert "parameters changed" in found[0].detail


def test_syntax_errors_in_the_file_cap_the_verdict(repo: GitRepo) -> None:
    head = _head("    const result = add(1, 2);\n") + "\nit('broken', () => { expect(1 +; });\n"
    found = tampering(repo, {T: BASE}, {T: head})
    assert found and all(f.verdict.name != "CONTRADICTED" for f in found)


# --- tautologies ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "prefix"),
    [
        ("expect(true).toBe(true);", ""),
        ("expect(1).toBe(1);", ""),
        ("expect(result).toBe(result);", ""),
        ("expect('ok').toBeTruthy();", ""),
        ("expect(0).toBeFalsy();", ""),
        ("expect(null).toBeNull();", ""),
        ("expect(`x`).toStrictEqual('x');", ""),
        ("expect(0x10).toEqual(16);", ""),
        ("assert.equal(1, 1);", "const assert = require('node:assert');\n"),
        ("assert(true);", "import assert from 'node:assert/strict';\n"),
        ("strictEqual(2, 2);", "import { strictEqual } from 'node:assert';\n"),
        ("expect(1).to.equal(1);", "const { expect } = require('chai');\n"),
    ],
)
def test_an_added_tautology_is_contradicted(repo: GitRepo, line: str, prefix: str) -> None:
    base = prefix + BASE
    head = base.replace("expect(result).toBe(3);", line)
    found = tampering(repo, {T: base}, {T: head})
    assert ("CONTRADICTED", 6 + prefix.count("\n"), "this assertion can never fail") in verdicts(
        found
    )


@pytest.mark.parametrize(
    ("line", "prefix"),
    [
        ("expect(result).toEqual(result);", ""),
        ("expect(result.value).toBe(result.value);", ""),
        ("expect(1).not.toBe(1);", ""),
        ("expect(0).toBe(-0);", ""),
        ("expect(010).toBe(10);", ""),
        ("expect(1).toBe(2);", ""),
        ("expect(1).resolves.toBe(1);", ""),
        ("assert(true);", ""),  # no import: a global `assert` throws in a module
        ("expect(1).toBe(1);", "import expect from 'expect.js';\n"),
        ("expect(1).toBe(1);", "function expect(x) { return { toBe() {} }; }\n"),
    ],
)
def test_expectations_that_only_look_tautological(repo: GitRepo, line: str, prefix: str) -> None:
    base = prefix + BASE
    head = base.replace("expect(result).toBe(3);", f"{line}\n    expect(result).toBe(3);")
    found = [f for f in tampering(repo, {T: base}, {T: head}) if "never fail" in f.title]
    assert found == []


def test_ava_context_tautology(repo: GitRepo) -> None:
    base = src(
        """
        import test from 'ava';
        import { add } from '../src/add.js';

        test('adds', (t) => {
          t.is(add(1, 2), 3);
        });
        """
    )
    head = base.replace("t.is(add(1, 2), 3);", "add(1, 2);\n  t.is(1, 1);")
    found = tampering(repo, {"test/add.test.mjs": base}, {"test/add.test.mjs": head})
    assert ("CONTRADICTED", 6, "this assertion can never fail") in verdicts(found)


def test_a_tautology_that_was_already_there(repo: GitRepo) -> None:
    base = BASE.replace(
        "expect(result).toBe(3);", "expect(result).toBe(3);\n    expect(true).toBe(true);"
    )
    head = base.replace("const result = add(1, 2);", "const result = add(1, 2); // sum")
    assert tampering(repo, {T: base}, {T: head}) == []


# --- swallowed assertions -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "verdict"),
    [
        ("try {\n      expect(add(1, 2)).toBe(3);\n    } catch (e) {}", "CONTRADICTED"),
        (
            "try {\n      expect(add(1, 2)).toBe(3);\n    } catch {\n      // flaky\n    }",
            "CONTRADICTED",
        ),
        (
            "try {\n      expect(add(1, 2)).toBe(3);\n    } catch (e) {\n"
            "      console.warn(e);\n    }",
            "CONTRADICTED",
        ),
        (
            "try {\n      expect(add(1, 2)).toBe(3);\n    } finally {\n      return;\n    }",
            "CONTRADICTED",
        ),
        ("try {\n      expect(add(1, 2)).toBe(3);\n    } catch (e) {\n      throw e;\n    }", None),
        (
            "try {\n      expect(add(1, 2)).toBe(3);\n    } catch (e) {\n"
            "      expect(e).toBeUndefined();\n    }",
            None,
        ),
        (
            "try {\n      expect(add(1, 2)).toBe(3);\n    } catch (e) {\n      report(e);\n    }",
            "UNVERIFIED",
        ),
        ("try {\n      [1].forEach(() => expect(add(1, 2)).toBe(3));\n    } catch (e) {}", None),
        ("try {\n      expect(Promise.resolve(3)).resolves.toBe(3);\n    } catch (e) {}", None),
    ],
)
def test_swallowed_expectations(repo: GitRepo, body: str, verdict: str | None) -> None:
    head = _head(f"    {body}\n")
    found = [f for f in tampering(repo, {T: BASE}, {T: head}) if "caught" in f.title]
    assert [f.verdict.name for f in found] == ([verdict] if verdict else [])


def test_an_awaited_rejection_in_a_try_is_swallowed(repo: GitRepo) -> None:
    body = (
        "    try {\n      await expect(Promise.reject(new Error('x'))).rejects.toThrow('x');\n"
        "    } catch {}\n"
    )
    head = _head(body).replace("it('adds', () =>", "it('adds', async () =>")
    found = [f for f in tampering(repo, {T: BASE}, {T: head}) if "caught" in f.title]
    assert [f.verdict.name for f in found] == ["CONTRADICTED"]


# --- focused tests ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("files", "code", "verdict"),
    [
        ({"package.json": JEST}, "it.only('adds', () => {", "CONTRADICTED"),
        ({"package.json": JEST}, "fit('adds', () => {", "CONTRADICTED"),
        (
            {"package.json": '{"scripts": {"test": "cross-env CI=1 vitest run"}}'},
            "it.only('adds', () => {",
            "CONTRADICTED",
        ),
        ({".mocharc.yml": "spec: test\n"}, "it.only('adds', () => {", "CONTRADICTED"),
        (
            {"package.json": '{"devDependencies": {"jasmine": "5"}}'},
            "it.only('adds', () => {",
            "UNVERIFIED",
        ),
        (
            {"package.json": '{"devDependencies": {"vitest": "1"}}'},
            "fit('adds', () => {",
            "UNVERIFIED",
        ),
        (
            {"package.json": '{"devDependencies": {"jest": "1", "bun-types": "1"}}'},
            "it.only('adds', () => {",
            "UNVERIFIED",
        ),
        (
            {"package.json": '{"scripts": {"test": "node --test"}}'},
            "it.only('adds', () => {",
            "UNVERIFIED",
        ),
        ({}, "it.only('adds', () => {", "UNVERIFIED"),
    ],
)
def test_focus_depends_on_the_runner(
    repo: GitRepo, files: dict[str, str], code: str, verdict: str
) -> None:
    head = BASE.replace("it('adds', () => {", code)
    found = [f for f in tampering(repo, {T: BASE, **files}, {T: head}) if "focused" in f.title]
    assert [(f.verdict.name, f.line) for f in found] == [(verdict, 4)]


def test_describe_only_from_an_imported_runner(repo: GitRepo) -> None:
    base = "import { describe, it, expect } from 'vitest';\n" + BASE
    head = base.replace("describe('add'", "describe.only('add'")
    found = tampering(repo, {T: base}, {T: head})
    assert verdicts(found) == [
        (
            "CONTRADICTED",
            4,
            "a focused test was committed: every other test in this file stops running",
        )
    ]
    assert "comes from 'vitest'" in found[0].detail


def test_node_test_only_does_nothing_without_the_flag(repo: GitRepo) -> None:
    base = "import { describe, it } from 'node:test';\nimport assert from 'node:assert';\n"
    base += BASE.replace("expect(result).toBe(3)", "assert.equal(result, 3)").replace(
        "expect(add(0, 0)).toBe(0)", "assert.equal(add(0, 0), 0)"
    )
    head = base.replace("it('adds'", "it.only('adds'")
    found = tampering(repo, {T: base, "package.json": JEST}, {T: head})
    assert [f.verdict.name for f in found] == ["UNVERIFIED"]
    assert "--test-only" in found[0].detail


def test_focus_twins_that_stay_clean(repo: GitRepo) -> None:
    # a fixture under fixtures/ is data for a test (a lint rule's example), not a test file
    fixture = "test/fixtures/focused.test.js"
    head = BASE.replace("it('adds'", "it.only('adds'")
    assert tampering(repo, {fixture: BASE, "package.json": JEST}, {fixture: head}) == []
    # a focus that was already there, in a file edited elsewhere
    edited = head.replace("expect(add(0, 0)).toBe(0);", "expect(add(0, 0)).toBe(0); // zero")
    assert tampering(repo, {T: head}, {T: edited}) == []
    # `fit` from a local module is not the test API
    model = "import { fit } from '../src/model';\n" + BASE
    fitted = model.replace(
        "const result = add(1, 2);", "const result = add(1, 2);\n    fit(result, 3);"
    )
    found = tampering(repo, {T: model}, {T: fitted})
    assert [f for f in found if "focused" in f.title] == []


@pytest.mark.parametrize(
    ("script", "runners"),
    [
        ("jest --ci", ["jest"]),
        ("cross-env NODE_ENV=test npx vitest run && eslint .", ["vitest"]),
        ("pnpm exec mocha 'test/**/*.js'", ["mocha"]),
        ("node --test test/", ["node:test"]),
        ("bun test", ["bun"]),
        ("react-scripts test --watchAll=false", ["jest"]),
        ("tsc -p . && node dist/index.js", []),
    ],
)
def test_commands_in_scripts(script: str, runners: list[str]) -> None:
    assert commands_in(script) == runners


@pytest.mark.parametrize(
    ("kept", "removed"),
    [
        ("screen.getByText('3');", "expect(screen.getByText('3')).toBeInTheDocument();"),
        (
            "await screen.findByRole('button');",
            "expect(await screen.findByRole('button')).toBeVisible();",
        ),
        ("cy.get('.sum');", "cy.get('.sum').should('have.text', '3');"),
    ],
)
def test_queries_that_throw_on_their_own_keep_it_unverified(
    repo: GitRepo, kept: str, removed: str
) -> None:
    base = src(
        f"""
        it('shows the sum', async () => {{
          render(3);
          {removed}
        }});
        """
    )
    head = base.replace(removed, kept)
    found = tampering(repo, {"src/sum.test.jsx": base}, {"src/sum.test.jsx": head})
    assert worst(found) == "UNVERIFIED"


# --- `|| true` under matchers any truthy value passes (issue 22) ---------------------------


@pytest.mark.parametrize(
    ("expression", "certain"),
    [
        ("expect(add(1, 2) === 3 || true).toBeTruthy()", True),
        ("expect(add(1, 2) || true).toBeDefined()", True),
        ("expect(add(1, 2) || 'x').not.toBeFalsy()", True),
        ("expect(add(1, 2) || true).not.toBeNull()", True),
        ("expect(add(1, 2) || true).toBe(true)", False),
        ("expect(add(1, 2) || true).toEqual(3)", False),
        ("expect(add(1, 2) || 0).toBeTruthy()", False),
        ("expect(add(1, 2) ?? true).toBeTruthy()", False),
    ],
)
def test_or_true_is_a_tautology_only_under_truthy_matchers(
    repo: GitRepo, expression: str, certain: bool
) -> None:
    base = {T: _head("    expect(add(1, 2)).toBe(3);\n"), "package.json": JEST}
    found = tampering(repo, base, {T: _head(f"    {expression};\n")})
    titles = [title for _, _, title in verdicts(found)]
    assert ("this assertion can never fail" in titles) is certain, verdicts(found)
