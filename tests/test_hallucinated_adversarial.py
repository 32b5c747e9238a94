"""hallucinated-symbol: false reds found by adversarial review, and their defect twins.

Each clean case here was once reported CONTRADICTED although the code runs
(or type-checks) as written; each stays at most UNVERIFIED. Next to it sits a
twin that only looks the same and must stay CONTRADICTED, so a fix cannot
pass by going silent.
"""

from __future__ import annotations

import pytest

from tests.gitrepo import GitRepo
from tests.test_hallucinated_python import Files, judged, src

C, U = "CONTRADICTED", "UNVERIFIED"


def outcome(repo: GitRepo, base: Files, head: Files, config: str | None = None) -> list[str]:
    return [f.verdict.name for f in judged(repo, base, head, config)]


# -- Python: modules that grow names at run time -----------------------------------------

GROWING = {
    "sys.modules dict": "import sys\nsys.modules[__name__].__dict__.update({'x': 1})\n",
    "self by alias": "import sys\n_self = sys.modules[__name__]\nsetattr(_self, 'x', 1)\n",
    "globals alias": "g = globals()\ng['x'] = 1\n",
    "globals handed out": "from ._fill import fill\nfill(globals())\n",
    "import_module self": "import importlib\nsetattr(importlib.import_module(__name__), 'x', 1)\n",
    "frame globals": "import sys\nsys._getframe(0).f_globals[key] = 1\n",
}


@pytest.mark.parametrize("body", GROWING.values(), ids=GROWING.keys())
def test_modules_that_add_their_own_names_are_uncertain(repo: GitRepo, body: str) -> None:
    fill = "def fill(ns):\n    ns.update(load())\n"  # keys it cannot know
    base = {"pkg/__init__.py": "", "pkg/_fill.py": fill, "pkg/m.py": body}
    assert outcome(repo, {**base, "a.py": ""}, {"a.py": "from pkg.m import x\n"}) == [U]


def test_reading_globals_adds_no_doubt(repo: GitRepo) -> None:
    body = "X = globals().get('X', 1)\nY = 'Y' in globals()\nZ = globals()['X']\n"
    base = {"pkg/__init__.py": "", "pkg/m.py": body, "a.py": ""}
    assert outcome(repo, base, {"a.py": "from pkg.m import X, Y, Z, W\n"}) == [C]


def test_globals_handed_to_a_relatively_imported_literal_writer(repo: GitRepo) -> None:
    fill = (
        "def fill(ns, *, extra=None):\n    ns['A'] = 1\n    ns.update(B=2)\n    return 'A' in ns\n"
    )
    base = {
        "pkg/__init__.py": "",
        "pkg/_fill.py": fill,
        "pkg/m.py": "from ._fill import fill\nfill(globals())\n",
        "a.py": "",
    }
    assert outcome(repo, base, {"a.py": "from pkg.m import A, B\n"}) == []
    assert outcome(repo, base, {"a.py": "from pkg.m import A, Missing\n"}) == [C]


def test_getattr_reached_through_a_star_import_is_uncertain(repo: GitRepo) -> None:
    base = {
        "pkg/__init__.py": "from ._lazy import *\n",
        "pkg/_lazy.py": "__all__ = ['__getattr__']\ndef __getattr__(name):\n    return name\n",
        "a.py": "",
    }
    assert outcome(repo, base, {"a.py": "from pkg import anything\n"}) == [U]


# -- Python: modules that exist without a file ---------------------------------------------

OLD = {"pkg/__init__.py": "", "pkg/old.py": "def f(): ...\n", "app.py": "from pkg.old import f\n"}


def test_a_package_that_aliases_a_removed_module_keeps_importers_working(repo: GitRepo) -> None:
    init = "import sys\nfrom . import new\nsys.modules[__name__ + '.old'] = new\n"
    head = {"pkg/old.py": None, "pkg/new.py": "def f(): ...\n", "pkg/__init__.py": init}
    found = judged(repo, OLD, head)
    assert [(f.verdict.name, f.file) for f in found] == [(U, "app.py")]
    assert "registers modules" in found[0].detail


def test_an_alias_registered_by_any_module_is_a_doubt(repo: GitRepo) -> None:
    compat = "import sys\nfrom . import new\nsys.modules['pkg.old'] = new\n"
    head = {"pkg/old.py": None, "pkg/new.py": "def f(): ...\n", "pkg/compat.py": compat}
    found = judged(repo, OLD, head)
    assert [f.verdict.name for f in found] == [U]
    assert "pkg/compat.py names 'pkg.old'" in found[0].detail


def test_the_rename_without_an_alias_is_still_contradicted(repo: GitRepo) -> None:
    head = {"pkg/old.py": None, "pkg/new.py": "def f(): ...\n"}
    assert outcome(repo, OLD, head) == [C]


def test_a_package_that_sets_a_submodule_attribute(repo: GitRepo) -> None:
    base = {"pkg/__init__.py": "from . import sub\nsub.extra = 1\n", "pkg/sub.py": "X = 1\n"}
    found = judged(repo, {**base, "a.py": ""}, {"a.py": "from pkg.sub import extra, nope\n"})
    assert [(f.verdict.name, f.title) for f in found] == [
        (U, "'pkg.sub' has no name 'extra'"),
        (C, "'pkg.sub' has no name 'nope'"),
    ]


def test_a_vendored_namespace_package_does_not_hide_installed_portions(repo: GitRepo) -> None:
    base = {
        "google/api/annotations_pb2.py": "X = 1\n",
        "requirements.txt": "grpcio-tools\n",
        "app.py": "",
    }
    head = {
        "app.py": src("""
        from google.protobuf import json_format
        from google.api import annotations_pb2
        from google.api.annotations_pb2 import X, Y
    """)
    }
    found = judged(repo, base, head)
    assert [(f.verdict.name, f.line) for f in found] == [(U, 1), (C, 3)]


@pytest.mark.parametrize(
    "patcher",
    [
        "from pkg import b as bb\nbb.extra = 3\n",
        "import pkg.b\npkg.b.extra = 3\n",
        "from pkg import b\nsetattr(b, 'extra', 3)\n",
    ],
)
def test_a_module_patched_by_another_file_may_have_the_name(repo: GitRepo, patcher: str) -> None:
    """Imported earlier (a conftest, a plugin), ``pkg/h.py`` sets ``extra`` on ``pkg.b``."""
    base = {"pkg/__init__.py": "", "pkg/b.py": "x = 1\n", "pkg/h.py": patcher, "a.py": ""}
    found = judged(repo, base, {"a.py": "from pkg.b import extra\n"})
    assert [f.verdict.name for f in found] == [U]
    assert "pkg/h.py sets 'extra' on 'b' when something imports it first" in found[0].detail


def test_setting_the_name_on_something_else_leaves_the_import_contradicted(
    repo: GitRepo,
) -> None:
    patcher = (
        "import pkg.c as bb\nclass K:\n    def f(self):\n        self.extra = 1\nbb.extra = 2\n"
    )
    base = {"pkg/__init__.py": "", "pkg/b.py": "x = 1\n", "pkg/c.py": "", "pkg/h.py": patcher}
    assert outcome(repo, {**base, "a.py": ""}, {"a.py": "from pkg.b import extra\n"}) == [C]


def test_a_regular_package_inside_the_repository_is_closed(repo: GitRepo) -> None:
    base = {"pkg/__init__.py": "", "pkg/data/schema.py": "S = 1\n", "a.py": ""}
    assert outcome(repo, base, {"a.py": "from pkg.data import missing\n"}) == [C]


# -- JS/TS ------------------------------------------------------------------------------------


def test_ambient_module_declarations_are_doubts(repo: GitRepo) -> None:
    base = {
        "tsconfig.json": '{"compilerOptions": {"baseUrl": ".", "paths": {"~/*": ["src/*"]}}}',
        "src/env.d.ts": "declare module '*.svg';\ndeclare module '~/generated' {\n"
        "  export const g: number;\n}\n",
        "src/a.ts": "",
    }
    head = {
        "src/a.ts": src("""
        import { ReactComponent } from './logo.svg';
        import { g } from '~/generated';
        import { h } from '~/missing';
    """)
    }
    found = judged(repo, base, head)
    assert [(f.verdict.name, f.line) for f in found] == [(U, 1), (U, 2), (C, 3)]
    assert "declare module '*.svg'" in found[0].detail


def test_a_relative_module_augmentation_adds_names_only_to_its_own_target(
    repo: GitRepo,
) -> None:
    """``declare module './merged'`` in a module adds names to ``./merged`` (tsc accepts
    the imports below); it cannot make ``./other`` gain a name or a missing file exist."""
    base = {
        "lib/merged.ts": "export const q = 1;\n",
        "lib/other.ts": "export const o = 1;\n",
        "lib/aug.ts": "import './merged';\ndeclare module './merged' {\n"
        "  export interface Extra { z: number }\n  export const added: number;\n}\n",
        "use.ts": "",
    }
    head = {
        "use.ts": src("""
        import type { Extra } from './lib/merged';
        import { added } from './lib/merged';
        import { added as a2 } from './lib/other';
        import { m } from './lib/missing';
    """)
    }
    found = judged(repo, base, head)
    assert [(f.verdict.name, f.line) for f in found] == [(U, 1), (U, 2), (C, 3), (C, 4)]
    assert "`declare module './merged'` in lib/aug.ts may add names to it" in found[1].detail


def test_too_many_declaration_files_leave_every_contradiction_in_doubt(
    repo: GitRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tribunal.analyzers.hallucinated_symbol import js_ambient

    monkeypatch.setattr(js_ambient, "MAX_FILES", 0)
    base = {"src/env.d.ts": "declare module '*.svg';\n", "src/a.ts": ""}
    found = judged(repo, base, {"src/a.ts": "import { h } from './missing';\n"})
    assert [(f.verdict.name, f.line) for f in found] == [(U, 1)]
    assert "1 files declare ambient modules" in found[0].detail


def test_root_dirs_merge_directories(repo: GitRepo) -> None:
    base = {
        "tsconfig.json": '{"compilerOptions": {"rootDirs": ["src", "generated"]}}',
        "generated/api.ts": "export const api = 1;\n",
        "src/m.ts": "",
    }
    head = {"src/m.ts": "import { api } from './api';\nimport { x } from './nothing';\n"}
    assert outcome(repo, base, head) == [C]


def test_module_suffixes_are_tried(repo: GitRepo) -> None:
    base = {
        "tsconfig.json": '{"compilerOptions": {"moduleSuffixes": [".custom", ""]}}',
        "src/foo.custom.ts": "export const f = 1;\n",
        "src/m.ts": "",
    }
    assert outcome(repo, base, {"src/m.ts": "import { f } from './foo';\n"}) == []


def test_dotted_namespaces_export_their_first_name(repo: GitRepo) -> None:
    lib = "export namespace NS.Inner { export const y = 1; }\nexport declare module N.Q {}\n"
    base = {"src/lib.ts": lib, "src/m.ts": ""}
    assert outcome(repo, base, {"src/m.ts": "import { NS, N, Inner } from './lib';\n"}) == [C]


def test_declaration_files_export_implicitly_until_an_export_declaration(repo: GitRepo) -> None:
    implicit = "export declare const a: number;\ndeclare const b: number;\ninterface I {}\n"
    closed = implicit + "export {};\n"
    base = {"src/open.d.ts": implicit, "src/closed.d.ts": closed, "src/m.ts": ""}
    head = {"src/m.ts": "import { a, b, I } from './open';\nimport { b as c } from './closed';\n"}
    found = judged(repo, base, head)
    assert [(f.verdict.name, f.line) for f in found] == [(C, 2)]


def test_export_default_declaration_exports_no_named_binding(repo: GitRepo) -> None:
    base = {"src/lib.ts": "export default class Foo {}\n", "src/m.ts": ""}
    found = judged(repo, base, {"src/m.ts": "import Foo2, { Foo } from './lib';\n"})
    assert [(f.verdict.name, f.title) for f in found] == [(C, "'./lib' has no export named 'Foo'")]


def test_a_directory_whose_package_json_points_at_build_output(repo: GitRepo) -> None:
    base = {
        "vendor/lib/package.json": '{"main": "dist/index.js"}',
        "vendor/lib/src/index.ts": "export const x = 1;\n",
        "src/m.ts": "",
    }
    assert outcome(repo, base, {"src/m.ts": "import { x } from '../vendor/lib';\n"}) == [U]


def test_a_path_mapped_name_that_is_also_a_declared_package(repo: GitRepo) -> None:
    tsconfig = '{"compilerOptions": {"baseUrl": ".", "paths": {"@co/*": ["packages/*/src"]}}}'
    base = {
        "tsconfig.json": tsconfig,
        "package.json": '{"dependencies": {"@co/published": "1"}}',
        "packages/a/src/index.ts": "export const a = 1;\n",
        "src/m.ts": "",
    }
    head = {"src/m.ts": "import { p } from '@co/published';\nimport { q } from '@co/nothing';\n"}
    found = judged(repo, base, head)
    assert [(f.verdict.name, f.line) for f in found] == [(U, 1), (C, 2)]


def test_jsdoc_typedefs_are_exported_types_of_a_js_module(repo: GitRepo) -> None:
    lib = (
        "/**\n * @typedef {{a: string}} Opts\n */\n/** @callback Handler */\nexport const f = 1;\n"
    )
    base = {"src/y.js": lib, "src/m.ts": ""}
    head = {"src/m.ts": "import type { Opts, Handler } from './y.js';\nimport { g } from './y';\n"}
    found = judged(repo, base, head)
    assert [(f.verdict.name, f.title) for f in found] == [(C, "'./y' has no export named 'g'")]


@pytest.mark.parametrize(
    ("script", "declarations", "importer"),
    [("src/y.js", "src/y.d.ts", "src/m.ts"), ("src/y.mjs", "src/y.d.mts", "src/m.mts")],
    ids=["js", "mjs"],
)
def test_a_script_and_its_declaration_file_are_one_module(
    repo: GitRepo, script: str, declarations: str, importer: str
) -> None:
    base = {
        script: "export const f = 1;\n",
        declarations: "export declare const f: number;\nexport type Opts = {};\n",
        importer: "",
    }
    specifier = "./" + script.rpartition("/")[2]
    head = {importer: f"import {{ f, type Opts, nope }} from '{specifier}';\n"}
    found = judged(repo, base, head)
    assert [(f.verdict.name, f.title) for f in found] == [
        (C, f"'{specifier}' has no export named 'nope'")
    ]


# -- Python: run-time names the code bounds ------------------------------------------------

BOUNDED = {
    "literal getattr": src("""
        def __getattr__(name):
            if name == "__version__":
                return "1.0"
            raise AttributeError(name)
    """),
    "getattr over a literal dict": src("""
        _LAZY = {"Client": ".client", "Session": ".session"}
        def __getattr__(name):
            if name in _LAZY:
                import importlib
                return importlib.import_module(_LAZY[name], __name__)
            raise AttributeError(f"no {name}")
    """),
    "getattr try over a literal dict": src("""
        _LAZY = {"Client": 1}
        def __getattr__(name):
            try:
                value = _LAZY[name]
            except KeyError:
                raise AttributeError(name) from None
            return value
    """),
    "getattr elif chain": src("""
        def __getattr__(name):
            if name == "a" or name == "b":
                return 1
            elif name in ("c", "d"):
                return 2
            else:
                raise AttributeError(name)
    """),
    "literal globals writes": "globals()['A'] = 1\nglobals().update(B=2, C=3)\n",
    "literal frame writes": "import sys\nsys._getframe(0).f_globals['A'] = 1\n",
    "handed to a literal writer": "def _fill(ns):\n    ns['A'] = 1\n\n_fill(globals())\n",
}


@pytest.mark.parametrize("body", BOUNDED.values(), ids=BOUNDED.keys())
def test_run_time_names_the_code_bounds_leave_a_missing_name_certain(
    repo: GitRepo, body: str
) -> None:
    base = {"pkg/__init__.py": "", "pkg/m.py": body, "a.py": ""}
    assert outcome(repo, base, {"a.py": "from pkg.m import Missing\n"}) == [C]


@pytest.mark.parametrize(
    ("body", "name"),
    [
        (BOUNDED["literal getattr"], "__version__"),
        (BOUNDED["getattr over a literal dict"], "Session"),
        (BOUNDED["getattr try over a literal dict"], "Client"),
        (BOUNDED["getattr elif chain"], "d"),
        (BOUNDED["literal globals writes"], "C"),
        (BOUNDED["literal frame writes"], "A"),
        (BOUNDED["handed to a literal writer"], "A"),
    ],
)
def test_names_a_bounded_getattr_or_write_adds_are_defined(
    repo: GitRepo, body: str, name: str
) -> None:
    base = {"pkg/__init__.py": "", "pkg/m.py": body, "a.py": ""}
    assert outcome(repo, base, {"a.py": f"from pkg.m import {name}\n"}) == []


OPEN = {
    "lazy loader": "def __getattr__(name):\n    return _load(name)\n",
    "prefix test": src("""
        def __getattr__(name):
            if name.startswith("get_"):
                return 1
            raise AttributeError(name)
    """),
    "falls off the end": "def __getattr__(name):\n    if name == 'a':\n        return 1\n",
    "mutated table": src("""
        _LAZY = {"a": 1}
        _LAZY.update(extra())
        def __getattr__(name):
            if name in _LAZY:
                return _LAZY[name]
            raise AttributeError(name)
    """),
    "assigned": "import lazy_loader\n__getattr__, __dir__, _ = lazy_loader.attach(__name__)\n",
    "computed globals key": "for k in KEYS:\n    globals()[k] = 1\n",
    "handed to a computed writer": "def _fill(ns):\n    ns[KEY] = 1\n\n_fill(globals())\n",
    "handed on": "def _fill(ns):\n    other(ns)\n\n_fill(globals())\n",
    "rebound callee": "def _fill(ns):\n    ns['A'] = 1\n\n_fill = load()\n_fill(globals())\n",
    "method call": "class K:\n    def fill(self, ns): ...\n\nK().fill(globals())\n",
}


@pytest.mark.parametrize("body", OPEN.values(), ids=OPEN.keys())
def test_an_open_getattr_or_write_keeps_the_doubt(repo: GitRepo, body: str) -> None:
    base = {"pkg/__init__.py": "", "pkg/m.py": body, "a.py": ""}
    assert outcome(repo, base, {"a.py": "from pkg.m import Missing\n"}) == [U]


# -- Python: imports whose failure a test expects (found by the sympy sweep) ---------------


@pytest.mark.parametrize(
    "test",
    [
        "def test_pi():\n    with raises(ImportError):\n        from pkg.m import Pi\n",
        "def test_pi():\n    with pytest.raises(ModuleNotFoundError):\n        import pkg.gone\n",
        "class T(TestCase):\n    def test_pi(self):\n"
        "        with self.assertRaises(ImportError):\n            from pkg.m import Pi\n",
        "@XFAIL\ndef test_plotting():\n    from pkg.m import ScreenShot\n",
        "@pytest.mark.xfail(reason='x')\ndef test_plotting():\n    from pkg.m import ScreenShot\n",
        "@unittest.skip('later')\nclass T(TestCase):\n    def test_a(self):\n"
        "        from pkg.m import ScreenShot\n",
    ],
    ids=["raises", "pytest-raises", "assertRaises", "XFAIL", "xfail", "skipped-class"],
)
def test_an_import_whose_failure_the_test_expects_is_not_contradicted(
    repo: GitRepo, test: str
) -> None:
    base = {"pkg/__init__.py": "", "pkg/m.py": "pi = 3\n", "tests/test_m.py": ""}
    found = outcome(repo, base, {"tests/test_m.py": "import pytest\n\n\n" + test})
    assert "CONTRADICTED" not in found


def test_an_import_beside_a_raises_block_is_still_judged(repo: GitRepo) -> None:
    body = "def test_pi():\n    with raises(ValueError):\n        pass\n    from pkg.m import Pi\n"
    base = {"pkg/__init__.py": "", "pkg/m.py": "pi = 3\n", "tests/test_m.py": ""}
    assert outcome(repo, base, {"tests/test_m.py": body}) == [C]
