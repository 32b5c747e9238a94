"""Valid code nested thousands deep (issue 17): no lens errors, and the file's real findings stand.

``X = 1+1+...`` with 2,000 terms is valid Python (and JavaScript) whose syntax
tree is 2,000 levels deep; it used to crash comment-code-drift (``ast.dump``)
and to hide an empty test in the same file (``compile`` of the tree). Every
analyzer's labelled cases from ``bench/corpus`` run twice through the real
engine on a real repository: as written, and with such an expression appended
to every Python, JavaScript and TypeScript file, those holding the defects
included. Findings and verdicts must be the same, with no analyzer error.
"""

from __future__ import annotations

import ast
import dataclasses
import json
import re
import sys

import pytest

from bench.harness import CORPUS, Case, load_cases, run_case
from tests.gitrepo import GitRepo
from tribunal.lang.js import syntax as js
from tribunal.lang.python.asserts import scan_assertions
from tribunal.lang.python.index import ModuleIndex
from tribunal.lang.python.judge import judge_test
from tribunal.lang.python.testcases import discover_tests
from tribunal.util.bounds import MAX_DATA_DEPTH, MAX_TREE_DEPTH, TooDeep, TreeTooDeep, load_yaml

TERMS = 2000
TOO_DEEP = "nested too deeply to analyze"
PY_DEEP = "\n_DEEP = " + "+".join(["1"] * TERMS) + "\n"
JS_DEEP = "\nconst _DEEP = " + "+".join(["1"] * TERMS) + ";\n"
_JS = (".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".mts", ".cts")

#: Per analyzer, a Python and a JavaScript/TypeScript case with a finding (a defect's
#: CONTRADICTED, or the UNVERIFIED of an analyzer that never contradicts).
CASES = [
    "aft-python/d-empty-pass-py",
    "aft-jsts/d-empty-arrow-js",
    "test-tampering/d-py-assert-deleted",
    "test-tampering/d-js-expect-deleted",
    "hallucinated-symbol/d-misspelled-name-py",
    "hallucinated-symbol/d-misspelled-named-ts",
    "hallucinated-symbol/d-broken-importer-removed-function-py",
    "hallucinated-symbol/d-broken-importer-removed-export-ts",
    "drift/c-drift-docstring-py",
    "drift/c-drift-jsdoc-renamed-ts",
    "risky/c-risky-auth-no-test-py",
    "risky/c-risky-jwt-no-test-ts",
    "claims/d-default-flip-py-kwonly",
    "claims/d-default-flip-js-destructured",
    "claims/d-api-new-export-ts",
    "claims/d-test-deleted-py",
]


def deepened(files: dict[str, str | None]) -> dict[str, str | None]:
    out: dict[str, str | None] = {}
    for name, text in files.items():
        if isinstance(text, str) and name.endswith(".py"):
            text += PY_DEEP
        elif isinstance(text, str) and name.endswith(_JS) and not name.endswith(".d.ts"):
            text += JS_DEEP
        out[name] = text
    return out


def findings(titles: tuple[str, ...]) -> list[str]:
    """Titles without what differs between two runs: temporary paths, commit ids."""
    plain = (re.sub(r"/tmp/tribunal-bench-[^/]+/", "", t) for t in titles)
    return sorted(re.sub(r"commit:[0-9a-f]+", "commit:X", t) for t in plain)


@pytest.mark.parametrize("name", CASES)
def test_a_deep_expression_beside_each_analyzers_finding_changes_nothing(name: str) -> None:
    [case] = [c for c in load_cases(CORPUS, name) if c.name == name]
    plain = run_case(case)
    deep = run_case(
        dataclasses.replace(case, base=deepened(dict(case.base)), head=deepened(dict(case.head)))
    )
    assert plain.errors == () and deep.errors == (), deep.errors
    assert plain.titles, "the case has a finding to keep"
    assert (deep.worst, findings(deep.titles)) == (plain.worst, findings(plain.titles))


def test_the_issues_reproduction_through_the_cli(repo: GitRepo) -> None:
    """Issue 17: the docs lens crashed, and the empty test was only UNVERIFIED."""
    base = repo.commit({"README.md": "x\n"}, "base")
    module = "X = " + "+".join(["1"] * TERMS) + "\n\n\ndef test_nothing():\n    pass\n"
    head = repo.commit({"tests/test_deep.py": module}, "deep")
    result = repo.tribunal("check", "--base", base, "--head", head, "--hard-fail")
    assert result.code == 1, result.stdout + result.stderr
    assert "test `test_nothing` asserts nothing and can never fail" in result.stdout
    assert "crashed" not in result.stderr and "error" not in result.stdout.lower()


def verdicts(
    repo: GitRepo, files: dict[str, str], message: str = "head"
) -> dict[tuple[str, str, str], str]:
    """(file, analyzer, title) -> verdict of ``tribunal check`` on a commit adding ``files``;
    no analyzer may have crashed."""
    base = repo.commit({"README.md": "x\n"}, "base")
    head = repo.commit(files, message)
    result = repo.tribunal("check", "--base", base, "--head", head, "--format", "json")
    assert result.code == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["errors"] == []
    return {(f["file"], f["analyzer"], f["title"]): f["verdict"] for f in report["findings"]}


def test_a_deep_expression_inside_a_test_body(repo: GitRepo) -> None:
    """The assertion after it is found; the empty test beside it is still an empty test."""
    deep = "+".join(["1"] * TERMS)
    module = (
        f"def test_sum():\n    total = {deep}\n    assert total == {TERMS}\n\n\n"
        "def test_nothing():\n    pass\n"
    )
    js = f"test('sum', () => {{\n  const total = {deep};\n  expect(total).toBe({TERMS});\n}});\n"
    found = verdicts(repo, {"tests/test_sum.py": module, "test/sum.test.js": js})
    aft = "assertion-free-test"
    assert found[("tests/test_sum.py", aft, "test `test_sum` asserts")] == "PASS"
    empty = "test `test_nothing` asserts nothing and can never fail"
    assert found[("tests/test_sum.py", aft, empty)] == "CONTRADICTED"
    assert "CONTRADICTED" not in {v for (f, _, _), v in found.items() if f == "test/sum.test.js"}


def test_a_file_deeper_than_any_walk_is_unverified_and_the_others_are_judged(
    repo: GitRepo,
) -> None:
    """Past ``MAX_TREE_DEPTH``: that file degrades to UNVERIFIED, never an ERROR, and the
    empty test in the next file is still CONTRADICTED."""
    huge = "const X = " + "f(" * 100_000 + "1" + ")" * 100_000 + ";\ntest('x', () => {});\n"
    found = verdicts(
        repo, {"test/deep.test.js": huge, "test/other.test.js": "test('y', () => {});\n"}
    )
    deep = {v for (f, _, t), v in found.items() if f == "test/deep.test.js"}
    assert deep == {"UNVERIFIED"}
    assert ("test/deep.test.js", "assertion-free-test", TOO_DEEP) in found
    assert found[("test/other.test.js", "assertion-free-test", "test 'y' asserts nothing")] == (
        "CONTRADICTED"
    )


def test_manifests_nested_thousands_deep_are_unreadable_not_a_crash(repo: GitRepo) -> None:
    """Issue 21: a package.json whose ``exports`` nest 5,000 deep crashed test-tampering."""
    exports = '{"a": ' * 5000 + '"./x.js"' + "}" * 5000
    files = {
        "package.json": f'{{"name": "x", "scripts": {{"test": "jest"}}, "exports": {exports}}}',
        "pyproject.toml": "[project]\nname = 'x'\ndependencies = " + "[" * 5000 + "]" * 5000,
        "test/empty.test.js": "test('x', () => {});\n",
    }
    found = verdicts(repo, files, "deep manifests\n\nTribunal-Claim: no-new-dependency\n")
    empty = ("test/empty.test.js", "assertion-free-test", "test 'x' asserts nothing")
    assert found[empty] == "CONTRADICTED"
    claim = [v for (f, a, _), v in found.items() if a == "claim-reconciliation"]
    assert claim == ["UNVERIFIED"]  # the manifests cannot be read: no certainty either way


def test_the_depth_bound_visits_only_what_can_be_deep() -> None:
    parsed = js.parser("javascript").parse(b"const a = f(g(h(1))); function x() { return [[1]]; }")
    depth, stack = 0, [(parsed.root_node, 1)]
    while stack:
        node, level = stack.pop()
        depth = max(depth, level)
        stack += [(child, level + 1) for child in node.children]
    assert [js.deeper_than(parsed.root_node, n) for n in (depth - 1, depth, depth + 1)] == [
        True,
        False,
        False,
    ]
    with pytest.raises(TreeTooDeep):
        js.parse(b"x = " + b"[" * (MAX_TREE_DEPTH + 1) + b"]" * (MAX_TREE_DEPTH + 1), "javascript")


# -- the assertion scan never turns "could not read it all" into "no assertion" -----------


def _nested_ifs(depth: int, innermost: ast.stmt) -> ast.stmt:
    """``if x:`` nested ``depth`` times around ``innermost``, built directly (no parser or
    compiler limit applies to a tree made this way), all on line 2."""
    where = {"lineno": 2, "col_offset": 4, "end_lineno": 2, "end_col_offset": 5}
    node = innermost
    for _ in range(depth):
        node = ast.If(ast.Name("x", ast.Load(), **where), [node], [], **where)
    return node


def test_an_assertion_scan_that_cannot_finish_says_so() -> None:
    """The scan runs out of stack before the ``assert``: "no assertion" would be a false red."""
    tree = ast.parse("def test_x():\n    assert total\n")
    function = tree.body[0]
    assert isinstance(function, ast.FunctionDef)
    function.body = [_nested_ifs(sys.getrecursionlimit() * 2, function.body[0])]
    index = ModuleIndex.build(tree)
    [test] = discover_tests(index)
    scan = scan_assertions(test.node, index)
    assert scan.complete is False and scan.assertions == ()
    assert judge_test(test, index).verdict.name == "UNVERIFIED"


def test_cases_named_here_exist() -> None:
    names = {c.name for c in load_cases(CORPUS)}
    assert set(CASES) <= names, sorted(set(CASES) - names)
    assert all(isinstance(c, Case) for c in load_cases(CORPUS, CASES[0]))


@pytest.mark.parametrize(
    ("environment", "verdict"),
    [
        ("dependencies: [python, pip]\n", "CONTRADICTED"),  # control: numpy is new
        ("dependencies: [numpy]\n", "PASS"),  # control: conda asked for it before
        ("dependencies: " + "[" * 5000 + "]" * 5000, "UNVERIFIED"),  # flow
        ("dependencies:\n  - " + "- " * 3000 + "numpy\n", "UNVERIFIED"),  # block
        ("dependencies: [" + "{a: " * 3000 + "1" + "}" * 3000 + "]\n", "UNVERIFIED"),
    ],
)
def test_a_conda_environment_nested_thousands_deep_is_unreadable_not_a_crash(
    repo: GitRepo, environment: str, verdict: str
) -> None:
    """The base's ``environment.yml`` says which dependencies are not new; PyYAML's loader
    recursed without a bound on it."""
    base = repo.commit({"environment.yml": environment, "requirements.txt": "requests\n"}, "b")
    head = repo.commit(
        {"requirements.txt": "requests\nnumpy\n"},
        "numpy\n\nTribunal-Claim: no-new-dependency\n",
    )
    result = repo.tribunal("check", "--base", base, "--head", head, "--format", "json")
    report = json.loads(result.stdout)
    assert report["errors"] == []
    claim = [f["verdict"] for f in report["findings"] if f["analyzer"] == "claim-reconciliation"]
    assert claim == [verdict]


LAUGHS = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]\n" for i in range(1, 9)
)


@pytest.mark.parametrize(
    ("text", "loaded"),
    [
        (LAUGHS + "b: 1\n", 1),  # 10^9 paths to the leaves, 9 lists: each list is seen once
        ("a: &a [*a, 1]\nb: 1\n", 1),  # a list that holds itself
        ("a: [[[1]]]\nb: 1\n", 1),
    ],
)
def test_yaml_aliases_are_measured_once_each(text: str, loaded: int) -> None:
    assert load_yaml(text)["b"] == loaded


def test_yaml_deeper_than_the_bound_is_too_deep() -> None:
    with pytest.raises(TooDeep):
        load_yaml("a: " + "[" * (MAX_DATA_DEPTH + 5) + "]" * (MAX_DATA_DEPTH + 5))
    with pytest.raises(ValueError, match="not valid YAML"):
        load_yaml("a: [")
