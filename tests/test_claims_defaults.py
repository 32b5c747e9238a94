"""``no-default-flip``: parameter defaults compared as values, Python and JS/TS."""

from __future__ import annotations

import ast

import pytest

from tests.claims_support import claim_verdict
from tests.engine_helpers import Files, src
from tests.gitrepo import GitRepo
from tribunal.change.model import Source
from tribunal.claims.default_values import literal_value
from tribunal.claims.defaults_js import js_defaults
from tribunal.claims.defaults_py import python_defaults
from tribunal.findings import Verdict

CLAIM = "no-default-flip"
C, U, P = Verdict.CONTRADICTED, Verdict.UNVERIFIED, Verdict.PASS


def verdict(repo: GitRepo, base: Files, head: Files, claim: str = CLAIM) -> Verdict:
    return claim_verdict(repo, base, head, claim)[0]


def value(expr: str) -> object:
    return literal_value(ast.parse(expr, mode="eval").body)


# --- values ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("left", "right"),
    [("'x'", '"x"'), ("0x10", "16"), ("1_000", "1000"), ("(1, 'a')", '(1, "a")'),
     ("{'a': 1, 'b': 2}", "{'b': 2, 'a': 1}"), ("{1, 2}", "{2, 1}"), ("-1", "-1")],
)  # fmt: skip
def test_python_same_values(left: str, right: str) -> None:
    assert value(left) is not None and value(left) == value(right)


@pytest.mark.parametrize(
    ("left", "right"),
    [("30", "30.0"), ("True", "1"), ("()", "[]"), ("None", "0"), ("'1'", "1"), ("-1", "1")],
)
def test_python_different_values_types_included(left: str, right: str) -> None:
    assert value(left) != value(right)


@pytest.mark.parametrize("expr", ["DEFAULT", "timedelta(seconds=3)", "[x]", "1 + 1", "f'{a}'"])
def test_python_non_literals_have_no_value(expr: str) -> None:
    assert value(expr) is None


def test_python_defaults_cover_every_kind_of_parameter() -> None:
    tree = ast.parse(
        src(
            """
            def f(a, b=1, /, c=2, *args, d, e=3, **kw): ...
            class K:
                def m(self, x='y'): ...
                def outer(self):
                    def inner(z=None): ...
            @dataclass
            class D:
                n: int = 5
                m: list = field(default_factory=list)
                o: int = field(default=7)
            """
        )
    )
    found = {(d.function, d.param): d.text for d in python_defaults(tree)}
    assert found == {
        ("f", "b"): "1",
        ("f", "c"): "2",
        ("f", "e"): "3",
        ("K.m", "x"): "'y'",
        ("K.outer.<locals>.inner", "z"): "None",
        ("D.__init__", "n"): "5",
        ("D.__init__", "m"): "field(default_factory=list)",
        ("D.__init__", "o"): "7",
    }


def test_js_defaults_cover_plain_destructured_and_typed_parameters() -> None:
    text = src(
        """
        export function f(a = 1, { timeout = 30, retries: r = 3, nested: { x = 'a' } = {} } = {},
                          [p = 2] = []) {}
        const arrow = (q = 0x10) => q;
        class K { m(v: number = 30.0, o?: string) {} }
        const obj = { method(w = `t`) {} };
        [1].map((ignored = 5) => ignored);
        """
    )
    found = {
        (d.function, d.param): d.value
        for d in js_defaults(Source("m.ts", text.encode()), "typescript")
    }
    assert found == {
        ("f", "a"): ("number", 1.0),
        ("f", "{timeout,retries,nested}"): ("object", frozenset()),
        ("f", "timeout"): ("number", 30.0),
        ("f", "retries"): ("number", 3.0),
        ("f", "nested"): ("object", frozenset()),
        ("f", "nested.x"): ("string", "a"),
        ("f", "[p]"): ("array", ()),
        ("f", "p"): ("number", 2.0),
        ("arrow", "q"): ("number", 16.0),
        ("K.m", "v"): ("number", 30.0),
        ("obj.method", "w"): ("string", "t"),
    }


@pytest.mark.parametrize(
    ("left", "right"),
    [("'x'", '"x"'), ("30", "30.0"), ("1e3", "1000"), ("`a`", "'a'"), ("'\\x41'", "'A'"),
     ("0b11", "3"), ("[1, 'a']", '[1.0, "a"]'), ("{ a: 1 }", "{ 'a': 1 }")],
)  # fmt: skip
def test_js_same_values(left: str, right: str) -> None:
    def default(expr: str) -> object:
        source = Source("m.js", f"function f(v = {expr}) {{}}".encode())
        (found,) = js_defaults(source, "javascript")
        return found.value

    assert default(left) is not None and default(left) == default(right)


# --- the verifier ----------------------------------------------------------------------


def test_python_positional_flip_is_contradicted(repo: GitRepo) -> None:
    verdict_, finding = claim_verdict(
        repo,
        {"net.py": "def fetch(url, timeout=30):\n    ...\n"},
        {"net.py": "def fetch(url, timeout=60):\n    ...\n"},
        CLAIM,
    )
    assert verdict_ is C
    assert "fetch(timeout=...): 30 -> 60" in finding.detail


def test_python_keyword_only_flip_is_contradicted(repo: GitRepo) -> None:
    base = {"m.py": "class C:\n    def run(self, *, strict=False): ...\n"}
    head = {"m.py": "class C:\n    def run(self, *, strict=True): ...\n"}
    assert verdict(repo, base, head) is C


def test_python_int_to_float_is_a_flip(repo: GitRepo) -> None:
    assert verdict(repo, {"m.py": "def f(t=30): ...\n"}, {"m.py": "def f(t=30.0): ...\n"}) is C


def test_python_dataclass_field_flip_is_contradicted(repo: GitRepo) -> None:
    base = {"m.py": "@dataclass\nclass Opts:\n    retries: int = 3\n"}
    head = {"m.py": "@dataclass\nclass Opts:\n    retries: int = 5\n"}
    assert verdict(repo, base, head) is C


@pytest.mark.parametrize(
    ("base", "head"),
    [
        ("def f(a='x'): ...\n", 'def f(a="x"): ...\n'),
        ("def f(a=0x10): ...\n", "def f(a=16): ...\n"),
        ("def f(a): ...\n", "def f(a=1): ...\n"),
        ("def f(a=1): ...\n", "def f(a): ...\n"),
        ("def f(a=1): ...\n", "def f(b=2): ...\n"),
        ("def f(a=1):\n    return a\n", "def f(a=1):\n    return a * 2\n"),
        ("[1].sort(key=lambda x=1: x)\n", "[1].sort(key=lambda x=2: x)\n"),
    ],
    ids=["quotes", "hex", "default-added", "default-removed", "renamed", "body", "lambda"],
)
def test_python_not_flips(repo: GitRepo, base: str, head: str) -> None:
    assert verdict(repo, {"m.py": base}, {"m.py": head}) is P


def test_python_non_literal_change_is_unverified(repo: GitRepo) -> None:
    base = {"m.py": "def f(t=DEFAULT_TIMEOUT): ...\n"}
    head = {"m.py": "def f(t=LONG_TIMEOUT): ...\n"}
    verdict_, finding = claim_verdict(repo, base, head, CLAIM)
    assert verdict_ is U and "not a literal" in finding.detail


def test_python_redefined_functions_are_never_certain(repo: GitRepo) -> None:
    base = {"m.py": "def f(a=1): ...\n"}
    head = {"m.py": "if X:\n    def f(a=2): ...\nelse:\n    def f(a=1): ...\n"}
    assert verdict(repo, base, head) is U


def test_scoped_claim_looks_only_at_that_parameter(repo: GitRepo) -> None:
    base = {"m.py": "def f(timeout=30, retries=3): ...\n"}
    head = {"m.py": "def f(timeout=30, retries=5): ...\n"}
    assert verdict(repo, base, head, f"{CLAIM}: timeout") is P
    repo2 = GitRepo.init(repo.path.parent / "second")
    assert verdict(repo2, base, head, f"{CLAIM}: retries") is C


def test_scoped_claim_accepts_a_qualified_name(repo: GitRepo) -> None:
    base = {"m.py": "class A:\n    def go(self, n=1): ...\n"}
    head = {"m.py": "class A:\n    def go(self, n=2): ...\n"}
    assert verdict(repo, base, head, f"{CLAIM}: A.go.n") is C


def test_scoped_claim_without_such_parameter_passes(repo: GitRepo) -> None:
    verdict_, finding = claim_verdict(
        repo, {"m.py": "def f(a=1): ...\n"}, {"m.py": "def f(a=2): ...\n"}, f"{CLAIM}: zzz"
    )
    assert verdict_ is P and "no default named 'zzz' in the change" in finding.title


def test_function_moved_to_another_file_is_still_compared(repo: GitRepo) -> None:
    base = {"a.py": "def shared(limit=10): ...\n", "b.py": "x = 1\n"}
    head = {"a.py": "y = 1\n", "b.py": "x = 1\n\ndef shared(limit=20): ...\n"}
    assert verdict(repo, base, head) is C


def test_test_files_are_not_checked(repo: GitRepo) -> None:
    base = {"tests/test_m.py": "def helper(n=1): ...\n"}
    head = {"tests/test_m.py": "def helper(n=2): ...\n"}
    assert verdict(repo, base, head) is P


def test_js_destructured_flip_is_contradicted(repo: GitRepo) -> None:
    base = {"src/c.ts": "export function connect({ timeout = 30 } = {}) {}\n"}
    head = {"src/c.ts": "export function connect({ timeout = 60 } = {}) {}\n"}
    verdict_, finding = claim_verdict(repo, base, head, f"{CLAIM}: timeout")
    assert verdict_ is C and "connect(timeout=...): 30 -> 60" in finding.detail


def test_js_pair_pattern_and_method_flips(repo: GitRepo) -> None:
    base = {"src/c.js": "class A { go({ retries: r = 3 } = {}) {} }\n"}
    head = {"src/c.js": "class A { go({ retries: r = 5 } = {}) {} }\n"}
    assert verdict(repo, base, head) is C


@pytest.mark.parametrize(
    ("base", "head"),
    [
        ("export const f = (a = 'x') => a;\n", 'export const f = (a = "x") => a;\n'),
        ("export function f(a = 30) {}\n", "export function f(a = 30.0) {}\n"),
        ("export function f(a: number = 1e3) {}\n", "export function f(a: number = 1000) {}\n"),
        ("run((a = 1) => a);\n", "run((a = 2) => a);\n"),
    ],
    ids=["quotes", "int-float", "exponent", "anonymous-callback"],
)
def test_js_not_flips(repo: GitRepo, base: str, head: str) -> None:
    assert verdict(repo, {"src/m.ts": base}, {"src/m.ts": head}) is P


def test_js_typed_default_flip_is_contradicted(repo: GitRepo) -> None:
    base = {"src/m.ts": "export function f(v: number = 30) {}\n"}
    head = {"src/m.ts": "export function f(v: number = 31) {}\n"}
    assert verdict(repo, base, head) is C


def test_a_namesake_in_another_file_is_not_certain(repo: GitRepo) -> None:
    base = {"a.py": "def main(argv=None):\n    return run(argv)\n", "b.py": "X = 1\n"}
    head = {"a.py": "X = 0\n", "b.py": "def main(argv=()):\n    return serve(argv)\n"}
    assert verdict(repo, base, head) is U


# --- defaults beyond function parameters (issue 22) -------------------------------------


def test_python_defaults_cover_framework_fields_options_and_constants() -> None:
    tree = ast.parse(
        src(
            """
            import argparse, attrs, msgspec
            from django.db import models
            from django import forms
            DEFAULT_TIMEOUT = 30
            DEFAULTS = {"retries": 3}
            class User(models.Model):
                active = models.BooleanField(default=True)
                role = models.CharField(max_length=9, db_default="x")
            class OrderForm(forms.Form):
                quantity = forms.IntegerField(initial=1)
            class S(msgspec.Struct):
                a: int = 1
            def f(timeout=DEFAULT_TIMEOUT):
                p = argparse.ArgumentParser()
                p.add_argument("-n", "--dry-run", default=False)
            """
        )
    )
    found = {(d.function, d.param, d.kind): d.value for d in python_defaults(tree)}
    assert found == {
        ("<module>", "DEFAULT_TIMEOUT", "constant"): ("int", 30),
        ("<module>", "DEFAULTS.retries", "constant"): ("int", 3),
        ("User", "active", "field"): ("bool", True),
        ("User", "role", "field db_default"): ("str", "x"),
        ("OrderForm", "quantity", "field initial"): ("int", 1),
        ("S.__init__", "a", "field"): ("int", 1),
        ("f", "timeout", "parameter"): ("int", 30),  # the constant's value
        ("f", "dry_run", "option"): ("bool", False),
    }


def test_a_star_import_makes_module_constants_unknown() -> None:
    tree = ast.parse("N = 1\nfrom x import *\ndef f(a=N): ...\n")
    assert {d.param: d.value for d in python_defaults(tree)} == {"a": None}


def test_js_defaults_cover_props_initializers_and_constants() -> None:
    text = src(
        """
        const DEFAULT_SIZE = 'md';
        class Button extends React.Component {
          static defaultProps = { size: 'md' };
          count = 0;
        }
        function Link({ href = '/' }) { const { target = '_self' } = props; return null; }
        Link.defaultProps = { rel: 'noopener' };
        const p = withDefaults(defineProps<{ size?: string }>(), { size: DEFAULT_SIZE });
        export default { props: { label: { type: String, default: 'hi' } } };
        yargs.option('port', { default: 80 });
        """
    )
    found = {
        (d.function, d.param, d.kind): (d.value, bool(d.doubt))
        for d in js_defaults(Source("m.tsx", text.encode()), "tsx")
    }
    assert found == {
        ("<module>", "DEFAULT_SIZE", "constant"): (("string", "md"), False),
        ("Button", "size", "prop"): (("string", "md"), False),
        ("Button", "count", "initializer"): (("number", 0.0), False),
        ("Link", "href", "parameter"): (("string", "/"), False),
        ("Link", "target", "prop"): (("string", "_self"), False),
        ("Link", "rel", "prop"): (("string", "noopener"), True),  # a function component's
        ("<module>", "size", "prop"): (("string", "md"), False),
        ("<module>", "label", "prop"): (("string", "hi"), False),
        ("<module>", "port", "prop"): (("number", 80.0), False),
    }


@pytest.mark.parametrize(
    ("spec", "below"),
    [("^18.2.0", True), ("~17.0.2", True), ("16.x", True), (">=16 <19", True),
     ("17 || 18", True), ("^19.0.0", False), (">=18", False), ("*", False), ("latest", False),
     ("18 || 19", False), ("<=19", False)],
)  # fmt: skip
def test_react_ranges_below_19(spec: str, below: bool) -> None:
    from tribunal.claims.react_version import _all_below

    assert _all_below(spec, 19) is below


SVELTE5 = "<script>\n  let {{ size = {value} }} = $props();\n</script>\n<b>{{size}}</b>\n"
VUE_OPTIONS = (
    "<script>\nexport default {{ props: {{ size: {{ type: String, default: {value} }} }} }}"
    "\n</script>\n"
)


@pytest.mark.parametrize("template", [SVELTE5, VUE_OPTIONS], ids=["svelte-5", "vue-options"])
def test_component_defaults_in_single_file_components(repo: GitRepo, template: str) -> None:
    path = "src/Button.svelte" if "$props" in template else "src/Button.vue"
    before, after = template.format(value="'md'"), template.format(value="'lg'")
    verdict_, finding = claim_verdict(repo, {path: before}, {path: after}, f"{CLAIM}: size")
    assert verdict_ is C
    assert "(line 2)" in finding.detail  # the component's own line, not the script's


@pytest.mark.parametrize(
    ("path", "before", "after"),
    [
        ("config/app.yaml", "timeout: 30\n", "timeout: 60\n"),
        (".env.example", "REQUEST_TIMEOUT=30\n", "REQUEST_TIMEOUT=60\n"),
        ("app/c.py", "class C:\n    def __init__(self):\n        self.timeout = 3\n",
         "class C:\n    def __init__(self):\n        self.timeout = 4\n"),
        ("src/c.ts", "let t = opts.timeout ?? 3;\nconst o = { timeout: 3 };\n",
         "let t = opts.timeout ?? 3;\nconst o = { timeout: 4 };\n"),
    ],
    ids=["yaml", "env", "attribute", "object-key"],
)  # fmt: skip
def test_a_named_claim_never_passes_when_a_changed_line_sets_the_name(
    repo: GitRepo, path: str, before: str, after: str
) -> None:
    verdict_, finding = claim_verdict(repo, {path: before}, {path: after}, f"{CLAIM}: timeout")
    assert verdict_ is U
    assert "no parameter or field named 'timeout' found in the change" in finding.title
    assert f"{path}:" in finding.detail


def test_an_unnamed_claim_never_passes_when_a_changed_line_sets_a_default(repo: GitRepo) -> None:
    before = "class C:\n    def __init__(self):\n        self.default_mode = 'a'\n"
    verdict_, finding = claim_verdict(
        repo, {"m.py": before}, {"m.py": before.replace("'a'", "'b'")}, CLAIM
    )
    assert verdict_ is U and "default_mode" in finding.detail


@pytest.mark.parametrize(
    "after",
    [
        "def fetch(url, timeout=30):\n    return get(url, timeout=timeout)\n",
        "def fetch(url, timeout=30):\n    # the timeout: 30 seconds\n    return get(url)\n",
    ],
    ids=["pass-through", "comment-without-setter"],
)
def test_a_named_claim_passes_when_nothing_changed_can_hold_the_default(
    repo: GitRepo, after: str
) -> None:
    before = "def fetch(url, timeout=30):\n    return get(url)\n"
    verdict_, finding = claim_verdict(repo, {"m.py": before}, {"m.py": after}, f"{CLAIM}: timeout")
    assert verdict_ is P, finding.detail
    assert "1 defaults compared" in finding.detail
