"""``no-public-api-change``: public surfaces of Python modules and JS/TS export sets."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tests.claims_support import claim_verdict
from tests.engine_helpers import Files, src
from tests.gitrepo import GitRepo
from tribunal.change.model import Source
from tribunal.claims.surface_js import module_exports
from tribunal.claims.surface_py import module_surface
from tribunal.findings import Verdict

CLAIM = "no-public-api-change"
C, U, P = Verdict.CONTRADICTED, Verdict.UNVERIFIED, Verdict.PASS


def reader(files: dict[str, str]) -> Callable[[str], Source | None]:
    def read(path: str) -> Source | None:
        return Source(path, files[path].encode()) if path in files else None

    return read


def verdict(repo: GitRepo, base: Files, head: Files) -> Verdict:
    return claim_verdict(repo, base, head, CLAIM)[0]


# --- Python surfaces -------------------------------------------------------------------


def test_python_surface_rules() -> None:
    files = {
        "pkg/mod.py": src(
            """
            import logging
            import json as json
            from os import path
            from .helpers import shown as shown, hidden
            CONSTANT = 1
            _private = 2
            a, (b, *c) = 1, (2, 3)
            def public(): ...
            async def _internal(): ...
            class Thing: ...
            if True:
                def conditional(): ...
            try:
                from fast import speedy
            except ImportError:
                speedy = None
            """
        )
    }
    surface = module_surface("pkg/mod.py", reader(files))
    assert surface.names == {
        "json", "shown", "CONSTANT", "a", "b", "c", "public", "Thing", "conditional", "speedy",
    }  # fmt: skip
    assert surface.imported == {"logging", "path", "hidden"}
    assert surface.doubts == []


def test_init_imports_are_surface_and_all_wins() -> None:
    files = {
        "pkg/__init__.py": "from .core import run, stop\nimport os\n",
        "pkg/other/__init__.py": "from .x import a, b\n__all__ = ['a']\n__all__ += ['c']\n",
    }
    assert module_surface("pkg/__init__.py", reader(files)).names == {"run", "stop"}
    assert module_surface("pkg/other/__init__.py", reader(files)).names == {"a", "c"}


def test_star_imports_are_followed_or_doubted() -> None:
    files = {
        "src/pkg/__init__.py": "from .core import *\nfrom pkg.extra import *\n",
        "src/pkg/core.py": "__all__ = ['run']\ndef run(): ...\ndef other(): ...\n",
        "src/pkg/extra.py": "def extra(): ...\n_hidden = 1\n",
        "lib.py": "from os.path import *\n",
    }
    surface = module_surface("src/pkg/__init__.py", reader(files))
    assert surface.names == {"run", "extra"} and surface.doubts == []
    assert module_surface("lib.py", reader(files)).doubts


@pytest.mark.parametrize(
    "text",
    [
        "__all__ = [name for name in dir()]\n",
        "def __getattr__(name): ...\n",
        "globals()[name] = 1\n",
        "globals().update(table)\n",
        "globals().update(**kw)\n",
        "__all__ = ['a']\n__all__.remove('a')\n",
        "import sys\nsetattr(sys.modules[__name__], 'x', 1)\n",
        "vars()[key] = 1\n",
        "exec('x = 1')\n",
        "def __getattr__(name):\n    return load(name)\n",
    ],
)
def test_dynamic_surfaces_are_doubted(text: str) -> None:
    surface = module_surface("m.py", reader({"m.py": text}))
    assert surface.doubts or surface.dynamic


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("globals()['x'] = 1\n", {"x"}),
        ("globals().update(a=1, b=2)\n", {"a", "b"}),
        ("vars()['x'] = 1\n", {"x"}),
        ("globals().setdefault('y', 1)\n", {"y"}),
        (
            "def __getattr__(name):\n    if name == 'lazy':\n        return 1\n"
            "    raise AttributeError(name)\n",
            {"lazy"},
        ),
    ],
)
def test_names_the_code_bounds_are_surface_without_doubt(text: str, names: set[str]) -> None:
    surface = module_surface("m.py", reader({"m.py": text}))
    assert (surface.names, surface.doubts, surface.dynamic) == (names, [], [])


def test_reading_globals_is_not_a_doubt() -> None:
    text = "x = globals().get('x')\nif 'y' in globals():\n    pass\n"
    assert module_surface("m.py", reader({"m.py": text})).doubts == []


PRIVATE = "def _foo():\n    return 1\n\n\n"
DEFINED = PRIVATE + "foo = _foo\n"


@pytest.mark.parametrize(
    "head",
    [
        "import sys\n" + PRIVATE + "setattr(sys.modules[__name__], 'foo', _foo)\n",
        PRIVATE + "vars()[NAME] = _foo\n",
    ],
    ids=["setattr-sys-modules", "vars"],
)
def test_python_name_set_dynamically_is_not_certainly_removed(repo: GitRepo, head: str) -> None:
    verdict_, finding = claim_verdict(repo, {"pkg/m.py": DEFINED}, {"pkg/m.py": head}, CLAIM)
    assert verdict_ is U
    assert "may gain names at run time" in finding.detail


def test_python_name_removed_beside_a_globals_read_is_contradicted(repo: GitRepo) -> None:
    head = PRIVATE + "found = globals().get('foo')\n"
    verdict_, finding = claim_verdict(repo, {"pkg/m.py": DEFINED}, {"pkg/m.py": head}, CLAIM)
    assert verdict_ is C
    assert "- foo (was in pkg/m.py)" in finding.detail


def test_python_public_function_added_is_contradicted(repo: GitRepo) -> None:
    verdict_, finding = claim_verdict(
        repo,
        {"pkg/api.py": "def get_user(): ...\n"},
        {"pkg/api.py": "def get_user(): ...\n\n\ndef delete_user(): ...\n"},
        CLAIM,
    )
    assert verdict_ is C
    assert "+ delete_user (now in pkg/api.py)" in finding.detail


def test_python_public_function_removed_is_contradicted(repo: GitRepo) -> None:
    assert verdict(repo, {"m.py": "def a(): ...\ndef b(): ...\n"}, {"m.py": "def a(): ...\n"}) is C


@pytest.mark.parametrize(
    ("base", "head"),
    [
        ("def a():\n    return 1\n", "def a():\n    return 2\n"),
        ("def a(): ...\n", "def a(): ...\ndef _helper(): ...\n"),
        ("def a(): ...\n", "import logging\n_log = logging.getLogger()\ndef a(): ...\n"),
        ("__all__ = ['a']\ndef a(): ...\n", "__all__ = ['a']\ndef a(): ...\ndef b(): ...\n"),
    ],
    ids=["body-edit", "private-helper", "plain-import", "outside-all"],
)
def test_python_changes_that_leave_the_surface_alone(repo: GitRepo, base: str, head: str) -> None:
    assert verdict(repo, {"pkg/m.py": base}, {"pkg/m.py": head}) is P


def test_python_git_mv_is_not_a_change(repo: GitRepo) -> None:
    body = "def parse(): ...\nclass Parser: ...\n"
    assert (
        verdict(repo, {"pkg/old_name.py": body}, {"pkg/old_name.py": None, "pkg/new.py": body}) is P
    )


def test_python_move_between_modules_behind_init_is_not_a_change(repo: GitRepo) -> None:
    base = {
        "pkg/__init__.py": "from .a import one\nfrom .b import two\n",
        "pkg/a.py": "def one(): ...\n",
        "pkg/b.py": "def two(): ...\n",
    }
    head = {
        "pkg/__init__.py": "from .a import one, two\n",
        "pkg/a.py": "def one(): ...\ndef two(): ...\n",
        "pkg/b.py": None,
    }
    assert verdict(repo, base, head) is P


def test_python_removed_but_still_imported_is_unverified(repo: GitRepo) -> None:
    base = {"pkg/a.py": "def one(): ...\n", "pkg/_impl.py": "x = 1\n"}
    head = {"pkg/a.py": "from pkg._impl import one\n", "pkg/_impl.py": "x = 1\n"}
    verdict_, finding = claim_verdict(repo, base, head, CLAIM)
    assert verdict_ is U and "still bound by an import: one" in finding.detail


def test_python_explicit_reexport_added_is_contradicted(repo: GitRepo) -> None:
    base = {"pkg/a.py": "def one(): ...\n"}
    head = {"pkg/a.py": "from json import dumps as dumps\ndef one(): ...\n"}
    assert verdict(repo, base, head) is C


def test_python_computed_all_makes_any_difference_unverified(repo: GitRepo) -> None:
    base = {"m.py": "__all__ = sorted(['a'])\ndef a(): ...\n"}
    head = {"m.py": "__all__ = sorted(['a'])\ndef a(): ...\ndef b(): ...\n"}
    assert verdict(repo, base, head) is U


def test_tests_and_tooling_are_not_api(repo: GitRepo) -> None:
    base = {"tests/test_a.py": "def test_a(): assert 1\n", "scripts/release.py": "def go(): ...\n"}
    head = {
        "tests/test_a.py": "def test_a(): assert 1\ndef test_b(): assert 2\n",
        "scripts/release.py": "def go(): ...\ndef publish(): ...\n",
        "conftest.py": "def fixture_thing(): ...\n",
    }
    verdict_, finding = claim_verdict(repo, base, head, CLAIM)
    assert verdict_ is P and "no non-test source module changed" in finding.title


def test_python_unparseable_head_is_unverified(repo: GitRepo) -> None:
    assert verdict(repo, {"m.py": "def a(): ...\n"}, {"m.py": "def a(:\n"}) is U


# --- JS/TS export sets -----------------------------------------------------------------


def test_js_export_forms() -> None:
    files = {
        "src/index.ts": src(
            """
            export function f() {}
            export const a = 1, { b, c: [d] } = obj;
            export class K {}
            export default function () {}
            export { g, h as i };
            export * as ns from './ns';
            export * from './star';
            export type T = number;
            export interface I {}
            export enum E { A }
            export declare const z: number;
            function notExported() {}
            """
        ),
        "src/star.ts": "export const fromStar = 1;\nexport default 3;\n",
    }
    surface = module_exports("src/index.ts", reader(files))
    assert surface.names == {
        "f", "a", "b", "d", "K", "default", "g", "i", "ns", "fromStar", "T", "I", "E", "z",
    }  # fmt: skip
    assert surface.doubts == []


@pytest.mark.parametrize(
    "text",
    [
        "export * from 'some-package';\n",
        "export * from './missing';\n",
        "module.exports = { ...a };\n",
        "exports[key] = 1;\n",
        "Object.assign(exports, require('./a'));\n",
        "module.exports = require('./a');\n",
        "export = thing;\n",
        "function notAModule() {}\n",
    ],
)
def test_js_unenumerable_exports_are_doubted(text: str) -> None:
    assert module_exports("src/m.ts", reader({"src/m.ts": text})).doubts


def test_js_export_star_resolves_extensions_and_index() -> None:
    files = {
        "src/m.ts": "export * from './util.js';\nexport * from './dir';\n",
        "src/util.ts": "export const u = 1;\n",
        "src/dir/index.tsx": "export function D() {}\n",
    }
    surface = module_exports("src/m.ts", reader(files))
    assert surface.names == {"u", "D"} and surface.doubts == []


def test_js_new_export_is_contradicted(repo: GitRepo) -> None:
    base = {"src/api.ts": "export function get() {}\n"}
    head = {"src/api.ts": "export function get() {}\nexport function remove() {}\n"}
    assert verdict(repo, base, head) is C


def test_js_removed_type_export_is_contradicted(repo: GitRepo) -> None:
    base = {"src/types.ts": "export type A = 1;\nexport interface B {}\n"}
    head = {"src/types.ts": "export type A = 1;\ninterface B {}\n"}
    assert verdict(repo, base, head) is C


def test_js_renamed_export_alias_is_contradicted(repo: GitRepo) -> None:
    base = {"src/m.js": "const x = 1;\nexport { x as one };\n"}
    head = {"src/m.js": "const x = 1;\nexport { x as first };\n"}
    assert verdict(repo, base, head) is C


@pytest.mark.parametrize(
    ("base", "head"),
    [
        (
            {"src/m.ts": "export function f() { return 1; }\n"},
            {"src/m.ts": "export function f() { return 2; }\nfunction helper() {}\n"},
        ),
        (
            {"src/m.ts": "export default function () {}\n"},
            {"src/m.ts": "export default class Thing {}\n"},
        ),
        (
            {"src/old.ts": "export const a = 1;\n"},
            {"src/old.ts": None, "src/new.ts": "export const a = 1;\n"},
        ),
        (
            {
                "src/index.ts": "export * from './a';\nexport * from './b';\n",
                "src/a.ts": "export const one = 1;\n",
                "src/b.ts": "export const two = 2;\n",
            },
            {
                "src/index.ts": "export * from './a';\n",
                "src/a.ts": "export const one = 1;\nexport const two = 2;\n",
                "src/b.ts": None,
            },
        ),
    ],
    ids=["body-and-private", "default-kind", "git-mv", "move-behind-index"],
)
def test_js_changes_that_keep_the_export_set(repo: GitRepo, base: Files, head: Files) -> None:
    assert verdict(repo, base, head) is P


def test_js_commonjs_is_unverified_unless_fully_enumerable(repo: GitRepo) -> None:
    base = {"lib/m.js": "module.exports = { a };\n"}
    assert verdict(repo, base, {"lib/m.js": "module.exports = { a, ...b };\n"}) is U
    assert verdict(repo, base, {"lib/m.js": "module.exports = { a, b };\n"}) is C


TSC_CJS = (
    '"use strict";\n'
    'Object.defineProperty(exports, "__esModule", { value: true });\n'
    'Object.defineProperty(exports, "foo", { enumerable: true, get: function () {\n'
    "  return i.foo;\n"
    "} });\n"
    'const i = require("./impl");\n'
)


def test_js_tsc_commonjs_output_is_not_a_removal(repo: GitRepo) -> None:
    """tsc's CommonJS shape exports ``foo`` through ``Object.defineProperty``: not "- foo"
    (and ``__esModule`` is an interop marker, not API)."""
    base = {"src/m.ts": "export function foo() { return 1; }\n"}
    assert verdict(repo, base, {"src/m.ts": TSC_CJS}) is P


def test_js_define_property_on_another_object_still_removes(repo: GitRepo) -> None:
    base = {"src/m.ts": "export function foo() { return 1; }\n"}
    head = {"src/m.ts": TSC_CJS.replace("exports,", "target,") + "export const bar = 1;\n"}
    assert verdict(repo, base, head) is C


def test_js_jsdoc_typedef_is_not_a_new_export(repo: GitRepo) -> None:
    """A ``@typedef`` is a type only under ``checkJs``: documenting a parameter is no API."""
    base = {"src/m.js": "export function f(o) { return o.a; }\n"}
    head = {"src/m.js": "/** @typedef {{a: number}} Opts */\n" + base["src/m.js"]}
    assert verdict(repo, base, head) is P
    head["src/m.js"] += "export const g = 1;\n"
    assert verdict(repo, base, head) is C


def test_js_script_without_module_syntax_is_unverified(repo: GitRepo) -> None:
    """No import/export: a script, whose top-level names are globals in TS or a browser."""
    base = {"src/legacy.ts": "function helper() {}\nfunction run() { helper(); }\n"}
    head = {"src/legacy.ts": "function run() {}\n"}
    assert verdict(repo, base, head) is U


def test_js_test_files_are_not_api(repo: GitRepo) -> None:
    base = {"src/m.test.ts": "export const fixture = 1;\n"}
    head = {"src/m.test.ts": "export const fixture = 1;\nexport const more = 2;\n"}
    assert verdict(repo, base, head) is P


def test_python_and_js_are_judged_together_worst_wins(repo: GitRepo) -> None:
    base = {"a.py": "def a(): ...\n", "b.ts": "export const b = 1;\n"}
    head = {
        "a.py": "def a():\n    return 1\n",
        "b.ts": "export const b = 1;\nexport const c = 2;\n",
    }
    assert verdict(repo, base, head) is C


@pytest.mark.parametrize(
    "added",
    [
        "from __future__ import annotations\n",
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .types import Thing\n",
        "_tmp = 1\ndel _tmp\n",
    ],
    ids=["future", "type-checking-block", "del"],
)
def test_python_imports_that_are_not_surface(repo: GitRepo, added: str) -> None:
    base = {"pkg/__init__.py": "from .core import run\n"}
    head = {"pkg/__init__.py": added + "from .core import run\n"}
    if "TYPE_CHECKING" in added:
        head["pkg/__init__.py"] = (
            head["pkg/__init__.py"]
            .replace("from typing import TYPE_CHECKING\n", "import typing\n")
            .replace("if TYPE_CHECKING:", "if typing.TYPE_CHECKING:")
        )
    assert verdict(repo, base, head) is P


def test_python_module_level_del_removes_a_name() -> None:
    text = "x = 1\ny = 2\ndel x\n"
    assert module_surface("m.py", reader({"m.py": text})).names == {"y"}


LITERAL_GETATTR = (
    "def __getattr__(name):\n    if name == '__version__':\n        return '1'\n"
    "    raise AttributeError(name)\n\n\ndef get_user(): ...\n"
)
LAZY_GETATTR = "def __getattr__(name):\n    return _load(name)\n\n\ndef get_user(): ...\n"


@pytest.mark.parametrize(
    ("module", "expected", "evidence"),
    [
        # the base's __getattr__ is bounded: it never served delete_user
        (LITERAL_GETATTR, C, "+ delete_user (now in pkg/api.py)"),
        # a lazy loader may already have served the name at base
        (LAZY_GETATTR, U, "open to any name"),
    ],
    ids=["literal-getattr", "open-getattr"],
)
def test_a_new_function_beside_a_base_getattr(
    repo: GitRepo, module: str, expected: Verdict, evidence: str
) -> None:
    """Dynamic machinery makes names exist, never hides a static one."""
    verdict_, finding = claim_verdict(
        repo, {"pkg/api.py": module}, {"pkg/api.py": module + "\n\ndef delete_user(): ...\n"}, CLAIM
    )
    assert verdict_ is expected
    assert evidence in finding.detail


def test_a_new_function_when_only_head_gains_an_open_getattr_is_contradicted(
    repo: GitRepo,
) -> None:
    verdict_, _ = claim_verdict(
        repo,
        {"pkg/api.py": "def get_user(): ...\n"},
        {"pkg/api.py": LAZY_GETATTR + "\n\ndef delete_user(): ...\n"},
        CLAIM,
    )
    assert verdict_ is C


def test_a_removed_function_behind_an_open_head_getattr_is_unverified(repo: GitRepo) -> None:
    verdict_, _ = claim_verdict(
        repo,
        {"pkg/api.py": "def get_user(): ...\n\n\ndef delete_user(): ...\n"},
        {"pkg/api.py": LAZY_GETATTR},
        CLAIM,
    )
    assert verdict_ is U
