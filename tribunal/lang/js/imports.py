"""What a JS/TS test file's imports say: assertion libraries and test-framework names.

``import { strictEqual } from 'node:assert'`` makes ``strictEqual`` an
assertion; ``import test from 'ava'`` makes ``test`` the AVA test function,
whose callback's ``t`` fails a test with no assertion; ``const { expect } =
require('chai')`` is read the same way as an import.
"""

import re
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, NamedTuple

from tribunal.lang.js import syntax as js

if TYPE_CHECKING:
    from tree_sitter import Node

#: Modules whose every export asserts (``import { strictEqual } from 'node:assert'``).
ASSERT_MODULES = frozenset(
    {
        "assert",
        "node:assert",
        "assert/strict",
        "node:assert/strict",
        "power-assert",
        "uvu/assert",
        "should",
        "expect",
        "expect.js",
        "unexpected",
    }
)
_DENO_STD_ASSERT = re.compile(r"(?:^|[/@:$])std(?:@[^/]+)?/(?:assert|expect|testing/asserts)")
_DENO_STD_BDD = re.compile(r"(?:^|[/@:$])std(?:@[^/]+)?/testing(?:@[^/]+)?/bdd(?:\.ts)?$")

#: Test-framework modules: the runner a test's callback parameters belong to.
RUNNER_MODULES = {
    "vitest": "vitest",
    "@jest/globals": "jest",
    "bun:test": "bun",
    "mocha": "mocha",
    "node:test": "node:test",
    "ava": "ava",
    "tape": "tape",
    "tap": "tap",
    "uvu": "uvu",
    "@playwright/test": "playwright",
    "@std/testing/bdd": "deno",
    "jsr:@std/testing/bdd": "deno",
}
#: Default exports of these modules are the ``test`` function.
_DEFAULT_IS_TEST = frozenset({"node:test", "ava", "tape", "tap"})
_RUNNER_ASSERTIONS = frozenset({"expect", "assert", "expectTypeOf", "assertType"})

#: The test API as globals: name -> role (``test``, ``suite`` or ``hook``).
TEST_API = {
    **dict.fromkeys(("it", "test", "specify", "fit", "xit", "xtest", "xspecify"), "test"),
    **dict.fromkeys(
        ("describe", "context", "suite", "fdescribe", "xdescribe", "xcontext"), "suite"
    ),
    **dict.fromkeys(
        ("beforeEach", "beforeAll", "afterEach", "afterAll", "before", "after"), "hook"
    ),
    **dict.fromkeys(("setup", "teardown", "suiteSetup", "suiteTeardown"), "hook"),
}


_NONE: Mapping[str, Any] = MappingProxyType({})


class Imports(NamedTuple):
    """Local names bound by imports, sorted by what they mean to a test."""

    assert_names: frozenset[str] = frozenset()
    namespaces: Mapping[str, frozenset[str] | None] = _NONE
    api: Mapping[str, tuple[str, str | None]] = _NONE
    bound: tuple[str, ...] = ()
    #: Local names of an imported ``expect`` (``import { expect as e } from 'vitest'``).
    expect_names: frozenset[str] = frozenset()


def read_imports(statements: "Sequence[Node]", bindings: "Sequence[Node]") -> Imports:
    """``import_statement`` nodes and declared names (for ``require``) -> ``Imports``.

    ``bindings`` are the ``name`` nodes of variable declarators (and other
    bindings, which are skipped): ``const x = require('m')`` reads like an import.
    """
    collector = _Collector()
    for statement in statements:
        source_node = statement.child_by_field_name("source")
        source = js.string_value(source_node) if source_node is not None else None
        clause = next((c for c in statement.named_children if c.type == "import_clause"), None)
        if source is None or clause is None:
            continue
        for child in clause.named_children:
            if child.type == "identifier":
                collector.add(source, "default", js.text(child))
            elif child.type == "namespace_import":
                for ident in child.named_children:
                    collector.add(source, "*", js.text(ident))
            elif child.type == "named_imports":
                for spec in child.named_children:
                    name = spec.child_by_field_name("name")
                    alias = spec.child_by_field_name("alias") or name
                    if name is not None and alias is not None:
                        collector.add(source, js.text(name), js.text(alias))
    for pattern in bindings:
        _require(collector, pattern)
    return collector.build()


def _require(collector: "_Collector", pattern: "Node") -> None:
    """``const x = require('m')`` and ``const { a, b: c } = require('m')``."""
    declarator = pattern.parent
    if declarator is None or declarator.type != "variable_declarator":
        return
    value = declarator.child_by_field_name("value")
    if value is None or value.type != "call_expression":
        return
    callee = value.child_by_field_name("function")
    if callee is None or callee.type != "identifier" or callee.text != b"require":
        return
    args = value.child_by_field_name("arguments")
    first = args.named_children[0] if args is not None and args.named_children else None
    source = js.string_value(first) if first is not None else None
    if source is None:
        return
    if pattern.type == "identifier":
        collector.add(source, "*", js.text(pattern))
        return
    for child in pattern.named_children:
        if child.type == "shorthand_property_identifier_pattern":
            collector.add(source, js.text(child), js.text(child))
        elif child.type == "pair_pattern":
            key, local = child.child_by_field_name("key"), child.child_by_field_name("value")
            if key is not None and local is not None and local.type == "identifier":
                collector.add(source, js.text(key), js.text(local))


def _std_assertion(name: str) -> bool:
    """Deno std exports that fail: ``assert*``, ``fail``, ``unreachable``, ``expect``."""
    return name.startswith("assert") or name in ("expect", "fail", "unreachable", "unimplemented")


class _Collector:
    def __init__(self) -> None:
        self.assert_names: set[str] = set()
        self.namespaces: dict[str, frozenset[str] | None] = {}
        self.api: dict[str, tuple[str, str | None]] = {}
        self.bound: list[str] = []
        self.expect_names: set[str] = set()

    def add(self, source: str, imported: str, local: str) -> None:
        self.bound.append(local)
        if imported == "expect" or (source in ("expect", "expect.js") and imported == "default"):
            self.expect_names.add(local)
        whole = imported in ("default", "*")
        if source in ASSERT_MODULES or _DENO_STD_ASSERT.search(source):
            if whole:
                self.namespaces[local] = None
            elif source in ASSERT_MODULES or _std_assertion(imported):
                self.assert_names.add(local)
        elif source == "chai":
            if whole:
                self.namespaces[local] = frozenset({"expect", "assert"})
            elif imported in ("expect", "assert"):
                self.assert_names.add(local)
        elif source == "sinon":
            if whole:
                self.namespaces[local] = frozenset({"assert"})
            elif imported == "assert":
                self.namespaces[local] = None
        runner = RUNNER_MODULES.get(source) or ("deno" if _DENO_STD_BDD.search(source) else None)
        if runner is not None:
            self._runner(source, runner, imported, local, whole)

    def _runner(self, source: str, runner: str, imported: str, local: str, whole: bool) -> None:
        if whole:
            if source in _DEFAULT_IS_TEST:
                self.api[local] = ("test", runner)
        elif imported in TEST_API:
            self.api[local] = (TEST_API[imported], runner)
        elif imported in _RUNNER_ASSERTIONS:
            self.assert_names.add(local)

    def build(self) -> Imports:
        return Imports(
            frozenset(self.assert_names),
            dict(self.namespaces),
            dict(self.api),
            tuple(self.bound),
            frozenset(self.expect_names),
        )
