"""JS/TS test discovery, shared by every analyzer that asks "which tests are here?".

Jest, Vitest, Mocha (BDD and TDD), Jasmine, AVA, tape, node:test, Playwright,
Bun and Deno all spell a test as a call: ``it('title', fn)``, ``test.each(t)(...)``,
``Deno.test({ name, fn })``. A test is found by the shape of its callee, named
by its title path (``suite > inner > title``), and marked skipped when it, or
any suite around it, is skipped, so that callers can ignore everything inside
``describe.skip``.

Whether a test can fail is ``tribunal.lang.js.judge.judge_test``.
"""

from collections.abc import Sequence
from typing import TYPE_CHECKING, NamedTuple

from tree_sitter import Node, Tree

from tribunal.lang.js import syntax as js
from tribunal.lang.js.calls import FUNCTIONS, ApiCall, api_calls, hook_scope
from tribunal.lang.js.module import ModuleIndex, index_module
from tribunal.lang.paths import is_js_family, language_of
from tribunal.lang.trees import js_derived

if TYPE_CHECKING:
    from tribunal.change.model import Source

_TEST_DIRS = frozenset({"__tests__", "__test__", "test", "tests", "spec"})
_NOT_TEST_DIRS = frozenset({"fixtures", "__fixtures__", "__mocks__", "node_modules"})
#: Runners whose test callback takes a context object, never a ``done`` callback.
_CONTEXT_RUNNERS = frozenset({"node:test", "deno", "vitest"})


def is_test_file(path: str) -> bool:
    """A JS/TS file that holds tests by naming convention.

    ``*.test.*``, ``*.spec.*``, ``*_test.*`` (Deno), ``*.cy.*`` (Cypress),
    ``*.test-d.*`` (Vitest type tests), or any
    file under a ``__tests__``, ``test``, ``tests`` or ``spec`` directory;
    declaration files and fixture/mock directories are never tests.
    """
    if not is_js_family(language_of(path)):
        return False
    parts = path.split("/")
    name = parts[-1]
    if any(part in _NOT_TEST_DIRS for part in parts[:-1]):
        return False
    pieces = name.split(".")
    if len(pieces) > 2 and pieces[-2] == "d":
        return False
    stem = pieces[0]
    if any(piece in ("test", "spec", "cy", "test-d", "spec-d") for piece in pieces[1:-1]):
        return True
    if stem.endswith("_test") or stem == "test":
        return True
    return any(part in _TEST_DIRS for part in parts[:-1])


class JsTestCase(NamedTuple):
    """One test call.

    ``callback`` is the literal function that is the test's body; when the
    body is passed by reference (``it('x', handler)``) it is None and
    ``body_ref`` holds the reference. ``context`` is the callback's first
    parameter when the runner passes a test context (``t.is``, ``t.assert``).
    """

    name: str
    title: str
    node: Node
    callback: Node | None
    body_ref: Node | None
    start_line: int
    end_line: int
    skipped: bool
    focused: bool
    has_setup: bool
    setup_line: int | None
    inverted: bool
    each: bool
    runner: str | None
    context: str | None
    params: tuple[str, ...]
    #: The test function's name when this file binds it itself (an extended ``test``).
    local_api: str | None = None
    #: Why the runner may fail the test whatever its body does (an option such as
    #: ``{ plan: 1 }`` or Deno ``permissions``, or an ``async`` describe callback).
    runner_caveat: str | None = None
    #: A skip whose condition is not a literal (Playwright ``test.skip(browserName === 'x')``).
    conditional_skip: str | None = None

    @property
    def may_fail_by_runner(self) -> bool:
        """The runner can fail this test even if its body does nothing.

        A callback parameter is a ``done`` callback (Jest, Mocha: an uncalled
        one times out) or an AVA/tape context (a test with no assertion fails),
        unless the runner is known to pass a plain context object.
        """
        if not self.params:
            return False
        if "" in self.params:
            return True  # destructured: fixtures (Playwright, Vitest) set up and may fail
        if self.runner == "vitest":
            return False
        return not (self.runner in _CONTEXT_RUNNERS and len(self.params) == 1 and not self.each)


def parse_tests(data: bytes, language: str) -> tuple[ModuleIndex, list[JsTestCase]]:
    """Parse bytes and return the file's index and tests (skipped ones included)."""
    index = index_module(js.parse(data, language), language)
    return index, discover_tests(index)


def tests_of(source: "Source", language: str) -> tuple[ModuleIndex, tuple[JsTestCase, ...]]:
    """``parse_tests`` for a run's ``Source``, kept with its tree and shared by analyzers."""
    return js_derived(source, language, "js_tests", lambda tree: _indexed(tree, language))


def _indexed(tree: Tree, language: str) -> tuple[ModuleIndex, tuple[JsTestCase, ...]]:
    index = index_module(tree, language)
    return index, tuple(discover_tests(index))


def discover_tests(index: ModuleIndex) -> list[JsTestCase]:
    """Every test call in the file, in source order, including skipped ones."""
    calls = api_calls(index)
    suites = [c for c in calls if c.role == "suite"]
    suite_nodes = {c.node for c in suites}
    hooks = [(hook_scope(c.node, suite_nodes), c.node) for c in calls if c.role == "hook"]
    tests = [_test_case(call, suites, hooks, index) for call in calls if call.role == "test"]
    return [t for t in tests if t is not None]


def _test_case(
    call: ApiCall,
    suites: Sequence[ApiCall],
    hooks: Sequence[tuple[Node, Node]],
    index: ModuleIndex | None = None,
) -> JsTestCase | None:
    args_node = call.node.child_by_field_name("arguments")
    args = (
        [a for a in args_node.named_children if a.type != "comment"]
        if args_node is not None
        else []
    )
    if not args:
        return None
    options = _options(args)
    callback = next((a for a in args if a.type in FUNCTIONS), None) or options.get("fn")
    body_ref = None
    if callback is None:
        body_ref = options.get("fn-ref") or next(
            (a for a in args[1:] if a.type in ("identifier", "member_expression")), None
        )
    titles, suite_skipped = _suite_path(call.node, suites)
    setup = _setup_for(call.node, hooks)
    params = _params(callback)
    title = _title(args, options)
    skipped = call.skipped or suite_skipped or options.get("skipped") is not None
    if callback is None and body_ref is None:
        skipped = True  # a pending test: ``it('title')``
    annotated = _annotations(callback, call.base) if call.runner == "playwright" else {}
    skipped = skipped or bool(annotated.keys() & {"skip", "fixme"})
    return JsTestCase(
        name=" > ".join([*titles, title]),
        title=title,
        node=call.node,
        callback=callback,
        body_ref=body_ref,
        start_line=js.first_line(call.node),
        end_line=js.last_line(call.node),
        skipped=skipped,
        focused=call.focused,
        has_setup=setup is not None,
        setup_line=js.first_line(setup) if setup is not None else None,
        inverted=call.inverted or options.get("inverted") is not None or "fail" in annotated,
        each=call.each,
        runner=call.runner,
        context=(params[0] or None) if params else None,
        params=tuple(params),
        local_api=call.base
        if index is not None and index.binds_api_name(call.base, call.node)
        else None,
        runner_caveat=_option_caveat(options.get("checked")) or _async_suite(call.node, suites),
        conditional_skip=annotated.get("conditional"),
    )


def _annotations(callback: Node | None, base: str) -> dict[str, str]:
    """Playwright's in-body ``test.skip()``, ``test.fixme()``, ``test.fail()``: unconditional
    (no argument, or a literal ``true``) calls at the top of the body mark the whole test;
    a conditional one is kept as written under ``conditional``."""
    body = callback.child_by_field_name("body") if callback is not None else None
    found: dict[str, str] = {}
    for statement in (
        body.named_children if body is not None and body.type == "statement_block" else []
    ):
        call = statement.named_children[0] if statement.type == "expression_statement" else None
        if call is None or call.type != "call_expression":
            continue
        callee, args = call.child_by_field_name("function"), call.child_by_field_name("arguments")
        parts = js.text(callee).split(".") if callee is not None else []
        if len(parts) != 2 or parts[0] != base or parts[1] not in ("skip", "fixme", "fail"):
            continue
        given = [a for a in args.named_children if a.type != "comment"] if args else []
        if not given or given[0].type == "true":
            found[parts[1]] = js.text(call)
        elif given[0].type != "false" and parts[1] != "fail":
            found.setdefault("conditional", js.text(call)[:80])
    return found


def _option_caveat(value: Node | None) -> str | None:
    if value is None or value.parent is None:
        return None
    return f"its option `{' '.join(js.text(value.parent).split())[:60]}` lets the runner fail it"


def _async_suite(node: Node, suites: Sequence[ApiCall]) -> str | None:
    """A suite around the test whose callback is ``async``: Jest fails such a file."""
    for suite in suites:
        call = suite.node
        if not (call.start_byte < node.start_byte and node.end_byte <= call.end_byte):
            continue
        args = call.child_by_field_name("arguments")
        for arg in args.named_children if args is not None else []:
            if arg.type in FUNCTIONS and js.text(arg).startswith("async"):
                line = js.first_line(call)
                return f"the suite at line {line} has an async callback, which Jest rejects"
    return None


def _options(args: Sequence[Node]) -> dict[str, Node]:
    """What an options object says: ``{ skip: true }``, ``{ fn() {} }``, ``{ name: 'x' }``.

    Values are nodes; ``skipped``/``inverted`` are present only when the
    option is literally on (a variable might be false, so the test may run).
    """
    found: dict[str, Node] = {}
    for arg in args:
        if arg.type != "object":
            continue
        for prop in arg.named_children:
            if prop.type == "method_definition":
                name = prop.child_by_field_name("name")
                if name is not None and js.text(name) == "fn":
                    found["fn"] = prop
                continue
            if prop.type != "pair":
                continue
            key, value = prop.child_by_field_name("key"), prop.child_by_field_name("value")
            if key is None or value is None:
                continue
            _option(found, js.text(key).strip("'\""), value)
    return found


def _option(found: dict[str, Node], key: str, value: Node) -> None:
    on = value.type == "true" or value.type in ("string", "template_string")
    if key == "fn" and value.type in FUNCTIONS:
        found["fn"] = value
    elif key == "fn" and value.type in ("identifier", "member_expression"):
        found["fn-ref"] = value
    elif key == "name":
        found["name"] = value
    elif key in ("skip", "todo", "ignore") and on:
        found["skipped"] = value
    elif key in ("fails", "failing", "shouldFail") and value.type == "true":
        found["inverted"] = value
    elif key in ("plan", "permissions"):
        found["checked"] = value  # node:test counts assertions; Deno may refuse permissions


def _title(args: Sequence[Node], options: dict[str, Node]) -> str:
    first = args[0]
    value = js.string_value(first)
    if value is not None:
        return value
    if first.type == "template_string":
        return js.text(first)[1:-1]
    if first.type in FUNCTIONS:
        name = first.child_by_field_name("name")
        return js.text(name) if name is not None else "<anonymous>"
    if "name" in options:
        named = options["name"]
        return js.string_value(named) or js.text(named)
    return " ".join(js.text(first).split())[:80]


def _suite_path(node: Node, suites: Sequence[ApiCall]) -> tuple[list[str], bool]:
    """Titles of the suites around ``node``, outermost first, and whether one is skipped."""
    titles: list[str] = []
    skipped = False
    for suite in suites:  # in source order, so outer suites come first
        call = suite.node
        if not (call.start_byte < node.start_byte and node.end_byte <= call.end_byte):
            continue
        args = call.child_by_field_name("arguments")
        first = args.named_children[0] if args is not None and args.named_children else None
        if first is not None:
            titles.append(js.string_value(first) or " ".join(js.text(first).split())[:80])
        skipped = skipped or suite.skipped
    return titles, skipped


def _setup_for(node: Node, hooks: Sequence[tuple[Node, Node]]) -> Node | None:
    for scope, hook in hooks:
        if scope.start_byte <= node.start_byte and node.end_byte <= scope.end_byte:
            return hook
    return None


def _params(callback: Node | None) -> list[str]:
    """The callback's parameter names (``""`` for a destructured one)."""
    if callback is None:
        return []
    single = callback.child_by_field_name("parameter")
    if single is not None:
        return [js.text(single)]
    params = callback.child_by_field_name("parameters")
    if params is None:
        return []
    names = []
    for param in params.named_children:
        if param.type == "comment":
            continue
        target = param.child_by_field_name("pattern") or param
        names.append(js.text(target) if target.type == "identifier" else "")
    return names
