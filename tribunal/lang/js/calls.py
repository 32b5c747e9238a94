"""Which calls in a JS/TS file are the test API: tests, suites and hooks.

A test framework's API is recognized by the shape of the callee: a base
name (``it``, ``test``, ``describe``, ``beforeEach``, ``Deno.test``, or an
imported alias) followed by modifiers (``.only``, ``.skip``, ``.each(table)``,
``.concurrent``, Playwright's ``test.describe``). An unknown modifier means the
call is something else (``test.step``, ``it.next()``), so it is not a test.
"""

from typing import TYPE_CHECKING, NamedTuple

from tree_sitter import Node

from tribunal.lang.js import syntax as js

if TYPE_CHECKING:
    from tribunal.lang.js.module import ModuleIndex

FUNCTIONS = frozenset(
    {"arrow_function", "function_expression", "function", "generator_function", "method_definition"}
)
_SKIP_MODS = frozenset({"skip", "todo", "fixme", "ignore"})
_INVERT_MODS = frozenset({"failing", "fails", "fail"})
_NEUTRAL_MODS = frozenset(
    {"concurrent", "serial", "sequential", "parallel", "shuffle", "each", "for", "only"}
    | {"skipIf", "runIf", "always"}
)
_HOOK_MODS = frozenset(
    {"beforeEach", "beforeAll", "afterEach", "afterAll", "before", "after", "afterEachAlways"}
)
_SKIPPED_NAMES = frozenset({"xit", "xtest", "xspecify", "xdescribe", "xcontext"})
_FOCUSED_NAMES = frozenset({"fit", "fdescribe"})

Modifier = tuple[str, "Node | None"]  # (name, the call's arguments when it was called)


class ApiCall(NamedTuple):
    """A call of the test API, classified."""

    node: Node
    role: str  # "test" | "suite" | "hook"
    runner: str | None
    skipped: bool
    focused: bool
    inverted: bool
    each: bool
    base: str = ""  # the name the callee starts from (``test`` in ``test.only.each``)


def api_calls(index: "ModuleIndex") -> list[ApiCall]:
    """Test, suite and hook calls in source order."""
    found = []
    for call in index.api_calls:
        callee = call.child_by_field_name("function")
        if callee is None or _is_modifier_call(call):
            continue
        api = _classify(callee, index)
        if api is not None:
            chain = _peel(callee)
            found.append(ApiCall(call, *api, base=chain[0] if chain else ""))
    return found


def _is_modifier_call(call: Node) -> bool:
    """``it.each(t)`` in ``it.each(t)('x', fn)``: part of a callee, not a call of its own."""
    parent = call.parent
    return (
        parent is not None
        and parent.type == "call_expression"
        and parent.child_by_field_name("function") == call
    )


def _classify(
    callee: Node, index: "ModuleIndex"
) -> tuple[str, str | None, bool, bool, bool, bool] | None:
    chain = _peel(callee)
    if chain is None:
        return None
    base, mods = chain
    runner: str | None
    if base == "Deno":
        if not mods or mods[0][0] != "test":
            return None
        role, runner, mods = "test", "deno", mods[1:]
    else:
        found = index.api_role(base)
        if found is None:
            return None
        role, runner = found
    skipped, focused = base in _SKIPPED_NAMES, base in _FOCUSED_NAMES
    inverted = each = False
    for mod, args in mods:
        if role == "test" and mod == "describe":
            role = "suite"
        elif role == "test" and mod in _HOOK_MODS:
            role = "hook"
        elif mod in _SKIP_MODS or _skipped_by_condition(mod, args):
            skipped = True
        elif mod in _INVERT_MODS:
            inverted = True
        elif mod not in _NEUTRAL_MODS:
            return None
        focused = focused or mod == "only"
        each = each or mod in ("each", "for")
    return role, runner, skipped, focused, inverted, each


def _skipped_by_condition(mod: str, args: Node | None) -> bool:
    """``it.skipIf(true)`` / ``it.runIf(false)``: skipped for certain (a literal condition)."""
    if mod not in ("skipIf", "runIf") or args is None or not args.named_children:
        return False
    condition = args.named_children[0].type
    return condition == ("true" if mod == "skipIf" else "false")


def _peel(callee: Node) -> tuple[str, list[Modifier]] | None:
    """``test.concurrent.each(t)`` -> (``test``, [(``concurrent``, None), (``each``, t)])."""
    mods: list[Modifier] = []
    called: Node | None = None
    node: Node | None = callee
    while node is not None and node.type != "identifier":
        if node.type == "member_expression":
            prop = node.child_by_field_name("property")
            if prop is None or prop.type != "property_identifier":
                return None
            mods.append((js.text(prop), called))
            called = None
            node = node.child_by_field_name("object")
        elif node.type == "call_expression":
            called = node.child_by_field_name("arguments")
            node = node.child_by_field_name("function")
        else:
            return None
    if node is None:
        return None
    return js.text(node), mods[::-1]


def hook_scope(hook: Node, suites: set[Node]) -> Node:
    """The suite body or program whose tests a hook call applies to.

    A hook registered inside any other function (``function useDb() {
    beforeEach(...) }``) may be registered for the whole file, so it counts
    for every test.
    """
    current = hook.parent
    while current is not None:
        if current.type == "program":
            return current
        function = current.parent
        if (
            current.type == "statement_block"
            and function is not None
            and function.type in FUNCTIONS
        ):
            args = function.parent
            call = args.parent if args is not None else None
            return current if call is not None and call in suites else _root(hook)
        current = current.parent
    return hook


def _root(node: Node) -> Node:
    while node.parent is not None:
        node = node.parent
    return node
