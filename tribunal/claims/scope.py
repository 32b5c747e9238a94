"""Which changed files a verifier looks at: source modules, test files, and the rest.

Test files are recognized the way the test runners recognize them (through
the test discovery of ``tribunal.lang``); the path rules here only add what no
runner decides: tooling that is never imported as a library (build scripts,
examples, docs, bundler configs), whose names are nobody's public API.
"""

from __future__ import annotations

from tribunal.change.diff.model import FileChange
from tribunal.change.model import Change
from tribunal.lang.identifiers import split_words, stem_words
from tribunal.lang.paths import is_js_family, language_of
from tribunal.util.lazyre import lazy

CODE_LANGUAGES = ("python", "javascript", "typescript", "tsx")

_TOOLING_DIRS = frozenset(
    {"scripts", "script", "examples", "example", "docs", "doc", "bench", "benchmarks", "tools",
     "migrations", "alembic"}
)  # fmt: skip
_TOOLING_FILES = frozenset(
    {"setup.py", "noxfile.py", "fabfile.py", "conftest.py", "__main__.py", "manage.py"}
)
_JS_CONFIG = lazy(r"(?:^\.[\w-]+rc\.[cm]?[jt]s$)|(?:\.config\.[cm]?[jt]sx?$)")
_TEST_DIRS = frozenset(
    {"test", "tests", "__tests__", "spec", "specs", "testing", "e2e", "cypress", "playwright"}
)  # fmt: skip
#: Folders of test inputs that data-driven tests pick up by globbing (Go's ``testdata``,
#: golden files, Jest snapshots, VCR cassettes, fuzzing corpora).
_TEST_DATA_DIRS = frozenset(
    {"testdata", "testfiles", "testcases", "fixtures", "fixture", "golden", "goldens",
     "snapshots", "__snapshots__", "cassettes", "corpus"}
)  # fmt: skip
#: ``cy``: Cypress specs (``login.cy.ts``).
_TEST_WORDS = frozenset({"test", "tests", "spec", "specs", "conftest", "cy"})
#: Files that are tests in a format Tribunal does not read (Gherkin, Robot Framework, Bats).
TEST_FORMATS = frozenset({"feature", "robot", "bats"})
#: Source languages Tribunal does not parse (by extension), some of which keep tests in source.
_OTHER_EXTENSIONS = """
rs go java kt kts scala rb php cs fs swift m mm c cc cpp h hpp ex exs erl hs ml dart zig lua jl
r clj cljs groovy
"""
OTHER_CODE = frozenset(_OTHER_EXTENSIONS.split())


def looks_like_test(path: str) -> bool:
    """A test or test-support file by name or directory, in any language.

    Broader than what the runners collect on purpose (``foo_test.go``,
    ``FooTest.java``, ``tests/helpers.py``): it decides what may hold tests
    Tribunal cannot read, which must never be taken for "no test".
    """
    parts = path.split("/")
    if any(p in _TEST_DIRS for p in parts[:-1]) or path.rsplit(".", 1)[-1] in TEST_FORMATS:
        return True
    return not _TEST_WORDS.isdisjoint(stem_words(path))


def in_test_data_dir(path: str) -> bool:
    """A file under a folder of test inputs (``pkg/testdata/case2.txt``, ``test_data/``).

    Adding one may add a case to a test that globs its folder, which no test
    file's diff shows; so it is never evidence that no test was added.
    """
    for part in path.split("/")[:-1]:
        if part.lower() in _TEST_DATA_DIRS or part in _TEST_DIRS:
            return True
        if not {"test", "tests"}.isdisjoint(split_words(part)):
            return True  # test_data, unit-tests, integration_tests
    return False


def is_tooling(path: str) -> bool:
    """Files whose top-level names are not a library's API."""
    parts = path.split("/")
    name = parts[-1]
    if name in _TOOLING_FILES or _JS_CONFIG().search(name):
        return True
    return any(p in _TOOLING_DIRS for p in parts[:-1])


def is_private_module(path: str) -> bool:
    """A Python module behind an underscore (``pkg/_impl.py``, ``pkg/_internal/x.py``).

    Its names are public only where a public module re-exports them, which an
    unchanged ``__init__`` may do out of sight.
    """
    if language_of(path) != "python":
        return False
    parts = path.split("/")
    parts[-1] = parts[-1].split(".", 1)[0]
    return any(p.startswith("_") and not (p.startswith("__") and p.endswith("__")) for p in parts)


def source_modules(change: Change) -> list[FileChange]:
    """Changed Python and JS/TS modules (components included) that are neither tests nor
    tooling."""
    from tribunal.lang.sfc import is_sfc

    out = []
    components = [fc for fc in change.files if fc.skip_reason is None and is_sfc(fc.path)]
    for fc in [*change.analyzable(CODE_LANGUAGES), *components]:
        paths = {fc.path, fc.old_path or fc.path}
        if any(looks_like_test(p) or is_tooling(p) for p in paths):
            continue
        out.append(fc)
    return out


def is_other_code(path: str) -> bool:
    """Source code in a language Tribunal does not parse (``main.go``, ``lib.rs``)."""
    stem, dot, ext = path.rpartition("/")[2].rpartition(".")
    return bool(dot and stem) and ext.lower() in OTHER_CODE


def family(path: str) -> str | None:
    """``python`` or ``js`` (JavaScript, TypeScript and components share one export
    namespace)."""
    from tribunal.lang.sfc import is_sfc

    language = language_of(path)
    if language == "python":
        return "python"
    return "js" if is_js_family(language) or is_sfc(path) else None
