"""What one JS/TS file binds and calls, read in a single query pass.

Judging a test needs to know, for each name a test calls, whether it is a
test-framework function, an assertion (imported or global), or a function
defined in the same file that can be followed. One tree-sitter query collects
every call, throw, ``new``, ``await``, binding and import in C (predicates,
which make compiling the query slow, are avoided); the Python side only sorts
what it found, so judging a test is a binary search over
positions rather than a walk over nodes.
"""

import bisect
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import NamedTuple

from tree_sitter import Node, Tree

from tribunal.lang.js import syntax as js
from tribunal.lang.js.imports import TEST_API, Imports, read_imports
from tribunal.util.lazyre import lazy

_QUERY = """
(call_expression function: (_) @callee)
(new_expression) @new
(throw_statement) @throw
(await_expression) @await
(yield_expression) @await
(function_declaration name: (identifier) @fn)
(generator_function_declaration name: (identifier) @fn)
(variable_declarator value: [(arrow_function) (function_expression) (generator_function)] @fnvalue)
(function_expression name: (identifier) @fnself)
(generator_function name: (identifier) @fnself)
(variable_declarator name: (_) @bind)
(formal_parameters) @params
(arrow_function parameter: (identifier) @bind)
(catch_clause parameter: (_) @bind)
(for_in_statement left: (_) @bind)
(class_declaration name: (_) @bind)
(assignment_expression left: (identifier) @assign)
(augmented_assignment_expression left: (identifier) @assign)
(import_statement) @import
"""

_WORD = lazy(r"[A-Za-z_$][\w$]*")
_DOTTED = re.compile(rb"\s*([A-Za-z_$][\w$]*(?:\s*\.\s*[A-Za-z_$][\w$]*)*)")
_LEAD = re.compile(rb"\s*([A-Za-z_$][\w$]*)")
_API_NAMES = frozenset(name.encode() for name in (*TEST_API, "Deno"))

#: Callees that assert wherever they come from: ``expect(x)``, ``assert(x)``, ``should(x)``.
GLOBAL_ASSERTIONS = frozenset({"expect", "assert", "should", "fail", "expectTypeOf", "assertType"})
_ASSERT_NAME = re.compile(r"assert[A-Z_]")
_EXPECT_SETUP = frozenset({"extend", "addSnapshotSerializer", "addEqualityTesters"})
_MEMBER_ASSERTIONS = frozenset({("chai", "expect"), ("chai", "assert"), ("sinon", "assert")})


class FunctionDef(NamedTuple):
    """A same-file function a call can be followed into."""

    name: str
    node: Node  # the function itself (declaration, arrow or function expression)
    scope: Node  # the block or program its name is visible in
    hoisted: bool  # a function declaration (callable before its line)


class Positions(NamedTuple):
    """Nodes of one kind in source order, searchable by byte range."""

    nodes: Sequence[Node]
    starts: Sequence[int]

    @classmethod
    def of(cls, nodes: Iterable[Node]) -> "Positions":
        ordered = sorted(nodes, key=lambda n: n.start_byte)
        return cls(ordered, [n.start_byte for n in ordered])

    def within(self, node: Node) -> Sequence[Node]:
        lo = bisect.bisect_left(self.starts, node.start_byte)
        hi = bisect.bisect_left(self.starts, node.end_byte, lo)
        return self.nodes[lo:hi]


class ModuleIndex(NamedTuple):
    """Everything judging a test in this file needs, computed once per file."""

    tree: Tree
    language: str
    callees: Positions
    effects: Positions  # throw statements, ``new`` and ``await``/``yield``
    api_calls: tuple[Node, ...]
    imports: Imports
    definitions: dict[str, list[FunctionDef]]
    binders: dict[str, list[Node]]  # raw binding captures, counted only when needed
    cache: dict[object, object]  # what judging its tests computed once (a new dict per index)

    @property
    def root(self) -> Node:
        return self.tree.root_node

    def helper(self, name: str) -> FunctionDef | None:
        """The same-file function ``name`` refers to, if it is bound exactly once.

        A name that is also a parameter, a destructured or imported name, a
        second definition or the target of an assignment is not followed.
        """
        defs = self.definitions.get(name)
        if defs is None or len(defs) != 1 or name in self.imports.api:
            return None
        counts = self.cache.get("binding-counts")
        if not isinstance(counts, Counter):
            counts = _binding_counts(self.binders, set(self.definitions), self.imports)
            self.cache["binding-counts"] = counts
        return defs[0] if counts[name] == 1 else None

    def binds_api_name(self, name: str, at: Node | None = None) -> bool:
        """Whether this file binds the test-API name ``name`` itself (where ``at`` sees it).

        ``import { test } from './fixtures'`` or ``const test = base.extend({...})``:
        a test function that may set fixtures up around every test (Playwright
        and Vitest ``auto`` fixtures), unlike one imported from a runner. A
        binding whose scope does not hold ``at`` (``items.map(it => it.id)``)
        does not count.
        """
        if name in self.imports.api:
            return False
        if name in self.imports.bound:
            return True
        for node in self.binders["bind"]:
            if node.type != "identifier" or js.text(node) != name:
                continue
            scope = _binding_scope(node)
            if at is None or (scope.start_byte <= at.start_byte and at.end_byte <= scope.end_byte):
                return True
        return False

    def api_role(self, name: str) -> tuple[str, str | None] | None:
        """(``test`` | ``suite`` | ``hook``, runner) when ``name`` is the test API here."""
        if name in self.imports.api:
            return self.imports.api[name]
        if name in TEST_API and name not in self.definitions:
            return TEST_API[name], None
        return None

    def call_asserts(self, parts: Sequence[str]) -> bool:
        """Whether a call through ``a.b.c`` (or ``a``) is an assertion by name alone."""
        root = parts[0]
        namespaces = self.imports.namespaces
        if len(parts) == 1:
            return (
                root in GLOBAL_ASSERTIONS
                or root in self.imports.assert_names
                or root in namespaces
                or _ASSERT_NAME.match(root) is not None
            )
        member = parts[1]
        if root in namespaces:
            allowed = namespaces[root]
            return allowed is None or member in allowed
        if root == "expect":
            return member not in _EXPECT_SETUP
        if root == "assert" or root in self.imports.assert_names:
            return True
        return (root, member) in _MEMBER_ASSERTIONS


def dotted(node: Node) -> list[str]:
    """``a.b.c`` of a callee: its leading run of plain identifiers and dots.

    ``expect(x).toBe`` gives ``['expect']``, ``sinon.assert.calledOnce`` gives
    all three parts, anything else (``this.x``, ``(f)``) gives what leads it.
    """
    if node.type == "identifier":
        return [js.text(node)]
    match = _DOTTED.match(node.text or b"")
    if match is None:
        return []
    return [part.strip().decode() for part in match.group(1).split(b".")]


def index_module(tree: Tree, language: str) -> ModuleIndex:
    """Read a parsed file's bindings and call sites (one query over the whole tree)."""
    found = js.find(language, _QUERY, tree.root_node)
    definitions: dict[str, list[FunctionDef]] = {}
    for definition in _function_defs(found):
        definitions.setdefault(definition.name, []).append(definition)
    imports = read_imports(found.get("import", []), found.get("bind", []))
    callees = Positions.of(found.get("callee", []))
    return ModuleIndex(
        tree=tree,
        language=language,
        callees=callees,
        effects=Positions.of(
            node for kind in ("throw", "new", "await") for node in found.get(kind, [])
        ),
        api_calls=_api_calls(callees.nodes, imports),
        imports=imports,
        definitions=definitions,
        binders={k: found.get(k, []) for k in ("fn", "fnself", "bind", "params", "assign")},
        cache={},
    )


def _api_calls(callees: Sequence[Node], imports: Imports) -> tuple[Node, ...]:
    """Calls whose callee chain starts at a test-API name (or an imported alias of one).

    Only the callee's leading identifier is read here (a byte-level match), so
    the few test-API calls are told from the many others without walking them.
    """
    names = _API_NAMES | {alias.encode() for alias in imports.api}
    found = []
    for callee in callees:
        match = _LEAD.match(callee.text or b"")
        if match is not None and match.group(1) in names and callee.parent is not None:
            found.append(callee.parent)
    return tuple(found)


def _function_defs(found: dict[str, list[Node]]) -> Iterable[FunctionDef]:
    for name_node in found.get("fn", []):
        decl = name_node.parent
        if decl is not None:
            yield FunctionDef(js.text(name_node), decl, _scope_of(decl), hoisted=True)
    for name_node in found.get("fnself", []):
        # ``function noop() {}`` as an expression binds ``noop`` only inside itself
        function = name_node.parent
        if function is not None:
            yield FunctionDef(js.text(name_node), function, function, hoisted=True)
    for value in found.get("fnvalue", []):
        declarator = value.parent
        name = declarator.child_by_field_name("name") if declarator is not None else None
        if declarator is not None and name is not None and name.type == "identifier":
            yield FunctionDef(js.text(name), value, _scope_of(declarator), hoisted=False)


def _binding_scope(name: Node) -> Node:
    """Where a bound name is visible: an arrow's or catch clause's own parameter, or a block."""
    parent = name.parent
    if parent is None:
        return name
    if parent.type in ("arrow_function", "catch_clause"):
        return parent
    return _scope_of(parent)


def _scope_of(node: Node) -> Node:
    """The block (or program) a declaration's name is visible in."""
    current = node.parent
    while current is not None and current.type not in ("statement_block", "program"):
        current = current.parent
    return current if current is not None else node


def _binding_counts(
    binders: dict[str, list[Node]], names: set[str], imports: Imports
) -> Counter[str]:
    """How often each of ``names`` is bound anywhere in the file (over-counting is safe)."""
    counts: Counter[str] = Counter(name for name in imports.bound if name in names)
    for node in (*binders["fn"], *binders["fnself"]):
        counts[js.text(node)] += 1
    for node in binders["assign"]:
        counts[js.text(node)] += 2  # a reassigned name is never a fixed helper
    for node in (*binders["bind"], *binders["params"]):
        text = js.text(node)
        if node.type == "identifier":
            counts[text] += 1
        elif any(name in text for name in names):
            counts.update(word for word in _WORD().findall(text) if word in names)
    return counts
