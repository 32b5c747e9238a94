"""assertion-free-test, JavaScript/TypeScript half: discovery, verdicts, touched tests, CLI.

Verdicts are checked through the real engine on real git repositories
(``judge``); discovery and file naming are pure functions tested directly.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from collections.abc import Mapping
from typing import TYPE_CHECKING

import pytest

from tests.engine_helpers import run_range
from tests.gitrepo import GitRepo
from tribunal.change.model import Source
from tribunal.engine.registry import BUILTINS
from tribunal.findings import Finding, Verdict
from tribunal.lang.js import syntax as js
from tribunal.lang.js import testcases as js_tests
from tribunal.lang.js.judge import judge_test
from tribunal.lang.js.safety import first_unsafe
from tribunal.lang.js.testcases import is_test_file, parse_tests

if TYPE_CHECKING:
    from tree_sitter import Node

ID = "assertion-free-test"
P, U, C = Verdict.PASS, Verdict.UNVERIFIED, Verdict.CONTRADICTED


def judge(
    repo: GitRepo, head: Mapping[str, str | None], base: Mapping[str, str] | None = None
) -> dict[str, Finding]:
    """Commit ``base`` then ``head``; run the analyzer on the range; findings by title name."""
    return {_name(f): f for f in run_range(repo, dict(base or {}), dict(head), ID)}


def _name(finding: Finding) -> str:
    """``test 'a > b' asserts`` -> ``a > b``; file-level findings keep their title."""
    start, end = finding.title.find("'"), finding.title.rfind("'")
    return finding.title[start + 1 : end] if 0 <= start < end else finding.title


def verdicts(found: Mapping[str, Finding]) -> dict[str, Verdict]:
    return {name: f.verdict for name, f in found.items()}


def src(code: str) -> str:
    return textwrap.dedent(code).lstrip()


# --- file naming -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "path",
    [
        "src/a.test.ts",
        "a.spec.js",
        "pkg/x.test.tsx",
        "b.spec.mjs",
        "src/__tests__/widget.jsx",
        "test/helpers.cjs",
        "tests/unit/a.mts",
        "mod_test.ts",
        "e2e/login.cy.ts",
    ],
)
def test_test_files_are_recognized(path: str) -> None:
    assert is_test_file(path)


@pytest.mark.parametrize(
    "path",
    [
        "src/a.ts",
        "src/testing.ts",
        "src/contest.js",
        "a.test.py",
        "types/a.test.d.ts",
        "test/fixtures/empty.test.js",
        "src/__mocks__/api.test.ts",
        "README.test.md",
    ],
)
def test_other_files_are_not_test_files(path: str) -> None:
    assert not is_test_file(path)


# --- discovery (pure) ------------------------------------------------------------------------


def test_discovery_names_flags_and_setup() -> None:
    code = src(
        """
        describe('outer', () => {
          beforeEach(() => {});
          it('a', () => {});
          describe.skip('off', () => { it('b', () => {}); });
          context('ctx', () => { it.only('c', () => {}); });
        });
        test.each([1])('d %i', (n) => {});
        it('pending');
        xit('e', () => {});
        """
    )
    _, tests = parse_tests(code.encode(), "javascript")
    by_name = {t.name: t for t in tests}
    assert list(by_name) == [
        "outer > a",
        "outer > off > b",
        "outer > ctx > c",
        "d %i",
        "pending",
        "e",
    ]
    assert by_name["outer > a"].has_setup and by_name["outer > a"].setup_line == 2
    assert by_name["outer > off > b"].skipped
    assert by_name["outer > ctx > c"].focused and by_name["outer > ctx > c"].has_setup
    assert by_name["d %i"].each and not by_name["d %i"].has_setup
    assert by_name["pending"].skipped and by_name["e"].skipped
    assert (by_name["outer > a"].start_line, by_name["outer > a"].end_line) == (3, 3)


def test_discovery_ignores_lookalikes_and_local_functions() -> None:
    code = src(
        """
        const it = iterate();
        it.next();
        /re/.test('x');
        function describe(x) { return x; }
        describe('not a suite', () => { test('inside', () => {}); });
        test.step('a step', () => {});
        """
    )
    _, tests = parse_tests(code.encode(), "javascript")
    assert [t.name for t in tests] == ["inside"]


def test_conditional_skips_and_referenced_bodies() -> None:
    code = src(
        """
        it.skipIf(true)('never runs', () => {});
        it.runIf(false)('never runs either', () => {});
        it.skipIf(process.env.CI)('sometimes runs', () => {});
        Deno.test({ name: 'by reference', fn: shared });
        test.concurrent.skip.each([1])('skipped table %i', () => {});
        """
    )
    _, tests = parse_tests(code.encode(), "typescript")
    assert [(t.name, t.skipped) for t in tests] == [
        ("never runs", True),
        ("never runs either", True),
        ("sometimes runs", False),
        ("by reference", False),
        ("skipped table %i", True),
    ]
    assert tests[3].callback is None and tests[3].body_ref is not None


def test_tests_of_shares_one_parse_per_content() -> None:
    code = b"it('a', () => { expect(1).toBe(1); });\n"
    first = js_tests.tests_of(Source("a.test.js", code), "javascript")
    again = js_tests.tests_of(Source("a.test.js", code), "javascript")
    assert first is again
    assert [t.name for t in first[1]] == ["a"]


def test_hook_scope_is_its_suite_or_the_whole_file() -> None:
    code = src(
        """
        describe('a', () => { beforeEach(() => {}); it('in a', () => {}); });
        describe('b', () => { it('in b', () => {}); });
        function useDb() { afterEach(() => {}); }
        describe('c', () => { useDb(); it('in c', () => {}); });
        """
    )
    _, tests = parse_tests(code.encode(), "javascript")
    setup = {t.name: t.has_setup for t in tests}
    assert setup == {"a > in a": True, "b > in b": True, "c > in c": True}
    code_without_helper = code.replace("function useDb() { afterEach(() => {}); }", "")
    _, tests = parse_tests(code_without_helper.encode(), "javascript")
    assert {t.name: t.has_setup for t in tests} == {
        "a > in a": True,
        "b > in b": False,
        "c > in c": False,
    }


def test_judgement_lists_assertion_lines() -> None:
    code = src(
        """
        it('x', () => {
          const v = compute();
          expect(v).toBe(1);
          if (v > 2) throw new Error('bad');
        });
        """
    )
    index, tests = parse_tests(code.encode(), "typescript")
    judgement = judge_test(tests[0], index)
    assert judgement.verdict is P
    assert judgement.assertion_lines == (3, 4)


# --- the cannot-fail grammar (pure) ----------------------------------------------------------


@pytest.mark.parametrize(
    "body",
    [
        "",
        "const x = 1 + 1; const y = x * 2;",
        "let n; n = 3; n++; n += 2; n ??= 1;",
        "const s = `a${1}b`; const t = typeof s; const u = !s;",
        "if (1 < 2) { const a = 'x'; } else { const b = null; }",
        "const o = { a: 1, 'b': [1, 2], c: { d: true } }; const z = o == null;",
        "function later() {} const f = () => {};",
        "'use strict';",
    ],
)
def test_bodies_that_cannot_fail(body: str) -> None:
    assert _first_unsafe(body) is None


@pytest.mark.parametrize(
    ("body", "culprit"),
    [
        ("const x = obj.a;", "obj.a"),
        ("const x = 1; x = 2;", "x = 2"),
        ("const x = 1n + 1n;", "1n"),
        ("const x = 6 / 3;", "6 / 3"),
        ("const x = 'a' in {};", "'a' in {}"),
        ("const { a } = { a: 1 };", "{ a }"),
        ("if (true) { const a = 1; } const b = a;", "a"),
        ("for (let i = 0; i < 1; i++) {}", "for (let i = 0; i < 1; i++) {}"),
        ("const o = { valueOf: 1 };", "valueOf"),
        ("const f = () => 1; const g = f + 1;", "f"),
        ("const a = [...[1]];", "...[1]"),
        ("label: {}", "label: {}"),
        ("class K {}", "class K {}"),
    ],
)
def test_bodies_that_may_throw_name_the_culprit(body: str, culprit: str) -> None:
    node = _first_unsafe(body)
    assert node is not None and node.text is not None
    assert node.text.decode() == culprit


def _first_unsafe(body: str) -> Node | None:
    tree = js.parse(f"function t() {{ {body} }}".encode(), "typescript")
    function = tree.root_node.named_children[0]
    block = function.child_by_field_name("body")
    assert block is not None and not tree.root_node.has_error
    return first_unsafe(block, set())


# --- verdicts through the engine -------------------------------------------------------------


def test_tests_that_can_never_fail_are_contradicted(repo: GitRepo) -> None:
    code = src(
        """
        describe('math', () => {
          it('is empty', () => {});
          it('only computes literals', () => {
            const x = 1 + 1;
            const y = x * 2;
          });
          test('only calls a helper that cannot fail', () => { noop(); });
          it('is an expression', () => undefined);
          it('is async and empty', async () => {
            // nothing yet
          });
        });
        function noop() {}
        """
    )
    found = judge(repo, {"src/math.test.ts": code})
    assert verdicts(found) == {
        "math > is empty": C,
        "math > only computes literals": C,
        "math > only calls a helper that cannot fail": C,
        "math > is an expression": C,
        "math > is async and empty": C,
    }
    empty = found["math > is empty"]
    assert (empty.file, empty.line, empty.end_line, empty.language) == (
        "src/math.test.ts",
        2,
        2,
        "typescript",
    )
    assert "empty" in empty.detail
    assert "noop()" in found["math > only calls a helper that cannot fail"].detail


def test_adversarial_clean_tests_are_never_contradicted(repo: GitRepo) -> None:
    code = src(
        """
        import { strictEqual } from 'node:assert';
        import * as api from '../src/api';

        it('helper defined after', () => { checkIt(1); });
        it('arrow helper', () => { arrowCheck(); });
        it('throw check', () => { const bad = 1 > 2; if (bad) throw new Error('bad'); });
        it('smoke: calls code', () => { api.start(); });
        it('smoke: constructs', () => { new api.Client(); });
        it('smoke: awaits', async () => { await api.ready; });
        it('member access may throw', () => { const o = { a: 1 }; const v = o.a; });
        it('division', () => { const v = 1 / 0; });
        it('a loop may not end', () => { while (true) {} });
        it('node assert named import', () => { strictEqual(1, 1); });
        it('chai should', () => { const v = 1; v.should.equal(1); });
        it('chai should property', () => { const v = true; v.should.be.true; });
        it('chai expect', () => { chai.expect(1).to.equal(1); });
        it('chai assert', () => { chai.assert.isTrue(true); });
        it('sinon', () => { sinon.assert.calledOnce(spy); });
        it('expect.assertions', () => { expect.assertions(1); });
        it('callback by reference', handler);
        it('done callback', (done) => {});
        it('recursive helper', () => { loop(); });
        it('const helper called before init', () => { late(); const late = () => {}; });
        it('helper uses its parameter', () => { usesParam(1); });

        function checkIt(v: number) { if (v !== 1) throw new Error('x'); }
        const arrowCheck = () => { expect(2).toBe(2); };
        function handler() { expect(1).toBe(1); }
        function loop() { loop(); }
        function usesParam(a: number) { const b = a + 1; }
        """
    )
    found = judge(repo, {"test/clean.test.ts": code})
    assert verdicts(found) == {
        "helper defined after": P,
        "arrow helper": P,
        "throw check": P,
        "smoke: calls code": U,
        "smoke: constructs": U,
        "smoke: awaits": U,
        "member access may throw": U,
        "division": U,
        "a loop may not end": U,
        "node assert named import": P,
        "chai should": P,
        "chai should property": P,
        "chai expect": P,
        "chai assert": P,
        "sinon": P,
        "expect.assertions": P,
        "callback by reference": P,
        "done callback": U,
        "recursive helper": U,
        "const helper called before init": U,
        "helper uses its parameter": U,
    }
    assert "api.start()" in found["smoke: calls code"].detail


def test_runner_contexts_hooks_and_each(repo: GitRepo) -> None:
    code = src(
        """
        import test from 'node:test';
        import { describe, it, beforeEach } from 'vitest';

        test('node:test context assert', (t) => { t.assert.ok(true); });
        test('node:test empty with context', (t) => {});
        describe('with setup', () => {
          beforeEach(() => { reset(); });
          it('empty under beforeEach', () => {});
        });
        it.each([[1, 2]])('table %i', (a, b) => { expect(a + 1).toBe(b); });
        it.concurrent('concurrent empty', async () => {});
        it.each`
          a    | b
          ${1} | ${2}
        `('template table $a', ({ a, b }) => {});
        """
    )
    found = judge(repo, {"runner.test.js": code})
    assert verdicts(found) == {
        "node:test context assert": P,
        "node:test empty with context": C,
        "with setup > empty under beforeEach": U,
        "table %i": P,
        "concurrent empty": C,
        "template table $a": U,
    }
    assert "hook (line 7)" in found["with setup > empty under beforeEach"].detail


def test_ava_and_deno(repo: GitRepo) -> None:
    ava = src(
        """
        import test from 'ava';
        test('is', t => { t.is(1, 1); });
        test.serial('deepEqual', t => { t.deepEqual([1], [1]); });
        test('no assertion fails under AVA', t => {});
        """
    )
    deno = src(
        """
        import { assertEquals } from "jsr:@std/assert";
        Deno.test('std assert', () => { assertEquals(1, 1); });
        Deno.test({ name: 'object form', fn() {} });
        Deno.test({ name: 'ignored', ignore: true, fn() {} });
        Deno.test('context step', async (t) => { await t.step('s', () => {}); });
        """
    )
    found = judge(repo, {"ava.test.js": ava, "mod_test.ts": deno})
    assert verdicts(found) == {
        "is": P,
        "deepEqual": P,
        "no assertion fails under AVA": U,
        "std assert": P,
        "object form": C,
        "context step": U,
    }


def test_skipped_tests_and_everything_in_skipped_suites_are_ignored(repo: GitRepo) -> None:
    code = src(
        """
        describe.skip('off', () => {
          it('a', () => {});
          describe('nested', () => { it('b', () => {}); });
        });
        xdescribe('x', () => { it('c', () => {}); });
        it.skip('d', () => {});
        it.todo('e');
        xit('f', () => {});
        test('g', { skip: true }, () => {});
        it('live', () => {});
        """
    )
    found = judge(repo, {"skip.spec.js": code})
    assert verdicts(found) == {"live": C}


def test_tsx_and_parser_gaps_degrade_to_unverified(repo: GitRepo) -> None:
    code = src(
        """
        interface Producer<out T> { get(): T }
        it('variance annotation inside', () => {
          interface Box<in out T> { value: T }
        });
        it('generic arrow in tsx', () => { const id = <T,>(x: T) => x; });
        it('jsx element', () => { const el = <div />; });
        it('really empty', () => {});
        """
    )
    found = judge(repo, {"ui.test.tsx": code})
    assert verdicts(found) == {
        "variance annotation inside": U,
        "generic arrow in tsx": C,
        "jsx element": U,
        "really empty": C,
    }
    assert "could not read line 3" in found["variance annotation inside"].detail


def test_unparsable_changed_region_is_one_unverified_finding(repo: GitRepo) -> None:
    found = judge(repo, {"broken.test.js": "it('cut short', () => {\n  foo(1)\n"})
    assert len(found) == 1
    (finding,) = found.values()
    assert finding.verdict is U
    assert finding.line == 1
    assert "could not read" in finding.detail


# --- what the diff touches --------------------------------------------------------------------

BASE = src(
    """
    describe('api', () => {
      it('first', () => {
        const v = 1;
        expect(v).toBe(1);
      });

      it('second', () => {
        expect(2).toBe(2);
      });
    });
    """
)


def test_deleting_the_only_assertion_touches_the_test(repo: GitRepo) -> None:
    head = BASE.replace("    expect(v).toBe(1);\n", "")
    found = judge(repo, {"api.test.ts": head}, base={"api.test.ts": BASE})
    assert verdicts(found) == {"api > first": C}
    assert (found["api > first"].line, found["api > first"].end_line) == (2, 4)


def test_untouched_tests_elsewhere_are_not_judged(repo: GitRepo) -> None:
    head = BASE.replace("expect(2).toBe(2);", "expect(2).toBe(2);\n    expect(3).toBe(3);")
    found = judge(
        repo,
        {"api.test.ts": head, "src/api.ts": "export const x = 1;\n"},
        base={"api.test.ts": BASE},
    )
    assert verdicts(found) == {"api > second": P}


def test_deletion_between_tests_touches_neither(repo: GitRepo) -> None:
    base = BASE.replace("  });\n\n  it('second'", "  });\n  // a note\n\n  it('second'")
    found = judge(repo, {"api.test.ts": BASE}, base={"api.test.ts": base})
    assert found == {}


def test_renamed_test_file_with_a_deleted_assertion(repo: GitRepo) -> None:
    head = BASE.replace("    expect(2).toBe(2);\n", "")
    found = judge(repo, {"api.test.ts": None, "api.spec.ts": head}, base={"api.test.ts": BASE})
    assert verdicts(found) == {"api > second": C}


def test_non_test_files_are_not_parsed_for_tests(repo: GitRepo) -> None:
    found = judge(repo, {"src/util.ts": "it('looks like a test', () => {});\n"})
    assert found == {}


# --- real CLI ---------------------------------------------------------------------------------


def only_this_analyzer() -> str:
    """A tribunal.yml that runs this analyzer alone, whatever else is registered."""
    others = sorted(set(BUILTINS) - {ID})
    return "analyzers:\n" + "".join(f"  {other}: false\n" for other in others)


def test_cli_json_reports_the_finding_and_gates_only_with_hard_fail(repo: GitRepo) -> None:
    base = repo.commit({"tribunal.yml": only_this_analyzer()})
    repo.commit({"src/sum.test.js": "it('adds', () => {\n  const x = 1 + 1;\n});\n"})
    report = repo.tribunal("check", "--base", base, "--head", "HEAD", "--format", "json")
    assert report.code == 0, report.stderr
    (finding,) = [f for f in json.loads(report.stdout)["findings"] if f["analyzer"] == ID]
    assert finding["verdict"] == "CONTRADICTED"
    assert (finding["file"], finding["line"], finding["end_line"]) == ("src/sum.test.js", 1, 3)
    assert "adds" in finding["title"]
    gated = repo.tribunal("check", "--base", base, "--head", "HEAD", "--hard-fail")
    assert gated.code == 1
    assert "adds" in gated.stdout


def test_cli_clean_smoke_test_passes_hard_fail(repo: GitRepo) -> None:
    base = repo.commit({"tribunal.yml": only_this_analyzer()})
    repo.commit(
        {"app.spec.ts": "import { start } from './app';\nit('boots', () => { start(); });\n"}
    )
    result = repo.tribunal("check", "--base", base, "--head", "HEAD", "--hard-fail")
    assert result.code == 0, result.stdout + result.stderr
    assert "boots" in result.stdout


def test_python_only_change_never_imports_tree_sitter(repo: GitRepo) -> None:
    base = repo.commit({"README.md": "x\n"})
    head = repo.commit({"test_a.py": "def test_a():\n    assert 1\n"})
    script = textwrap.dedent(
        f"""
        import sys
        from pathlib import Path
        from tribunal.config.model import Config
        from tribunal.engine.runner import analyze
        from tribunal.git.cmd import Git
        from tribunal.engine.sources import Selection, build_change
        root = Path({str(repo.path)!r})
        with Git(root) as git:
            sel = Selection(base={base!r}, head={head!r})
            change = build_change(sel, git, root, root, Config())
            analyze(change, only=["assertion-free-test"])
        print(sorted(m for m in sys.modules if m.startswith("tree_sitter")))
        """
    )
    proc = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    assert proc.stdout.strip() == "[]"
