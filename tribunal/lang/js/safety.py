"""Can this JS/TS function body throw? A deliberately small, closed grammar.

A body is "cannot fail" only when every statement is in the closed set below:
declarations of literals, arithmetic and comparisons on literals and on locals
bound from literals (``const x = 1 + 1; const y = x * 2;``), ``if`` over such
values, declaring (not calling) functions, and calls the caller has already
proven harmless. Everything else - member access (getters, ``undefined.x``),
calls, ``new``, ``await``, loops (they may never end), ``/`` and ``%``
(BigInt division by zero throws), ``in``/``instanceof``, destructuring - might
throw, so the answer is the first such node, and the caller says UNVERIFIED.
"""

from __future__ import annotations

import re
from collections.abc import Container, Mapping
from typing import TYPE_CHECKING

from tribunal.lang.js.syntax import text as _text
from tribunal.util.lazyre import lazy

if TYPE_CHECKING:
    from tree_sitter import Node

_SAFE_BINARY = frozenset(
    {"+", "-", "*", "**", "<", ">", "<=", ">=", "==", "!=", "===", "!=="}
    | {"&&", "||", "??", "&", "|", "^", "<<", ">>", ">>>"}
)
_SAFE_AUGMENTED = frozenset(
    {f"{op}=" for op in ("+", "-", "*", "**", "&", "|", "^", "<<")}
    | {">>=", ">>>=", "&&=", "||=", "??="}
)
_SAFE_UNARY = frozenset({"-", "+", "!", "~", "typeof", "void"})
_LITERALS = frozenset({"string", "true", "false", "null", "undefined"})
_GLOBAL_CONSTANTS = frozenset({"undefined", "NaN", "Infinity"})
_TYPE_ONLY = frozenset({"type_alias_declaration", "interface_declaration", "comment"})
_FUNCTION_DECLS = frozenset({"function_declaration", "generator_function_declaration"})
_FUNCTION_VALUES = frozenset(
    {"arrow_function", "function_expression", "function", "generator_function"}
)
_WRAPPERS = frozenset({"as_expression", "satisfies_expression", "non_null_expression"})
#: Keys that change how an object converts to a primitive (so ``+`` or ``==`` may throw).
_COERCION_KEYS = frozenset({"toString", "valueOf", "__proto__", "toJSON"})
_MAX_DEPTH = 64
#: Names a strict-mode binding may not use (modules and classes are always strict).
_RESERVED = frozenset(
    {"eval", "arguments", "let", "static", "implements", "interface", "package"}
    | {"private", "protected", "public", "yield", "await", "undefined", "NaN", "Infinity"}
)
_LEGACY_OCTAL = re.compile(r"^0[\d_]")
_ESCAPE = lazy(r"\\(.)", re.DOTALL)

#: Local name -> declared with ``const`` (assigning to it throws).
Env = dict[str, bool]


_EARLY_ERROR = "is an early SyntaxError in strict code, so the whole file fails to load"


class _Unsafe(Exception):
    """Raised with the first node that might throw, and a clause saying why."""

    def __init__(self, node: Node, why: str = "may throw") -> None:
        super().__init__(node.type)
        self.node = node
        self.why = why


def first_unsafe(body: Node, harmless_calls: Container[Node]) -> Node | None:
    """The first node of ``body`` that might throw, or None (see ``first_unsafe_reason``)."""
    found = first_unsafe_reason(body, harmless_calls)
    return found[0] if found is not None else None


def first_unsafe_reason(body: Node, harmless_calls: Container[Node]) -> tuple[Node, str] | None:
    """The first node of ``body`` that might throw, or None when nothing can.

    ``body`` is a function's ``statement_block`` or an arrow's expression body.
    ``harmless_calls`` holds callee nodes already proven not to fail (calls of
    same-file helpers that cannot fail); their arguments are still checked.
    """
    checker = _Checker(harmless_calls)
    function = body.parent
    params = _parameter_names(function) if function is not None else set()
    checker.scopes.append(dict.fromkeys(params, "param"))
    try:
        if body.type == "statement_block":
            checker.block(body.named_children, {}, 0, own_scope=False)  # params share it
        else:
            checker.expr(body, {}, 0)
    except _Unsafe as unsafe:
        return unsafe.node, unsafe.why
    return None


class _Checker:
    def __init__(self, harmless_calls: Container[Node]) -> None:
        self.harmless = harmless_calls
        #: Names declared per block, innermost last (``let``/``const``/``var``/``function``/
        #: ``param``): declaring one twice is an early SyntaxError that fails the whole file.
        self.scopes: list[dict[str, str]] = []

    def block(
        self, statements: list[Node], outer: Mapping[str, bool], depth: int, own_scope: bool = True
    ) -> None:
        env: Env = dict(outer)  # let/const are block-scoped: nothing leaks out
        if own_scope:
            self.scopes.append({})
        try:
            for statement in statements:
                self.statement(statement, env, depth + 1)
        finally:
            if own_scope:
                self.scopes.pop()

    def declare(self, name: str, kind: str, where: Node) -> None:
        """Record a declaration; raise on the clashes JavaScript rejects before running."""
        if name in _RESERVED:
            raise _Unsafe(where, _EARLY_ERROR)
        current = self.scopes[-1] if self.scopes else {}
        if kind in ("let", "const"):
            if name in current:
                raise _Unsafe(where, _EARLY_ERROR)
        elif kind == "var":
            if any(scope.get(name) in ("let", "const") for scope in self.scopes):
                raise _Unsafe(where, _EARLY_ERROR)
            for scope in self.scopes:  # ``var`` belongs to the whole function
                scope.setdefault(name, "var")
            return
        elif current.get(name) in ("let", "const"):
            raise _Unsafe(where, _EARLY_ERROR)
        current[name] = kind

    def statement(self, node: Node, env: Env, depth: int) -> None:
        if depth > _MAX_DEPTH:
            raise _Unsafe(node)
        kind = node.type
        if kind in _FUNCTION_DECLS:
            name = node.child_by_field_name("name")
            if name is not None:
                self.declare(_text(name), "function", node)
            return
        if kind in _TYPE_ONLY or kind == "empty_statement":
            return
        if kind == "expression_statement":
            for child in node.named_children:
                self.expr(child, env, depth)
        elif kind in ("lexical_declaration", "variable_declaration"):
            self.declaration(node, env, depth)
        elif kind == "statement_block":
            self.block(node.named_children, env, depth)
        elif kind == "if_statement":
            self.if_statement(node, env, depth)
        elif kind == "return_statement":
            for child in node.named_children:
                self.expr(child, env, depth)
        else:
            raise _Unsafe(node)

    def if_statement(self, node: Node, env: Env, depth: int) -> None:
        condition = node.child_by_field_name("condition")
        if condition is not None:
            self.expr(condition, env, depth)
        for field in ("consequence", "alternative"):
            branch = node.child_by_field_name(field)
            if branch is None:
                continue
            if branch.type == "else_clause":
                for child in branch.named_children:
                    self.statement(child, dict(env), depth + 1)
            else:
                self.statement(branch, dict(env), depth + 1)

    def declaration(self, node: Node, env: Env, depth: int) -> None:
        keyword = node.children[0].type if node.children else ""
        if keyword not in ("const", "let", "var"):
            raise _Unsafe(node)  # ``using``/``await using`` run disposers
        for declarator in node.named_children:
            if declarator.type == "comment":
                continue
            name = declarator.child_by_field_name("name")
            if declarator.type != "variable_declarator" or name is None:
                raise _Unsafe(declarator)
            if name.type != "identifier":
                raise _Unsafe(name)  # destructuring throws on null/undefined
            value = declarator.child_by_field_name("value")
            label = _text(name)
            self.declare(label, keyword, declarator)
            if value is None and keyword == "const":
                raise _Unsafe(declarator, _EARLY_ERROR)  # ``const x;``
            if value is not None and value.type in _FUNCTION_VALUES:
                env.pop(label, None)  # a function, not a literal: using it may throw
                continue
            if value is not None:
                self.expr(value, env, depth)
            env[label] = keyword == "const"

    def expr(self, node: Node, env: Env, depth: int) -> None:
        if depth > _MAX_DEPTH:
            raise _Unsafe(node)
        kind = node.type
        if kind == "string":
            if _legacy_escape(_text(node)):
                raise _Unsafe(node, _EARLY_ERROR)  # ``"\\01"``
            return
        if kind in _LITERALS or kind == "comment":
            return
        if kind == "number":
            text = _text(node).lower()
            if text.endswith("n"):
                raise _Unsafe(node)  # BigInt: mixing with numbers throws
            if _LEGACY_OCTAL.match(text):
                raise _Unsafe(node, _EARLY_ERROR)  # ``010``
            return
        if kind == "identifier":
            name = _text(node)
            if name not in env and name not in _GLOBAL_CONSTANTS:
                raise _Unsafe(node)  # unbound (ReferenceError) or not a literal
            return
        handler = _EXPRESSIONS.get(kind)
        if handler is None:
            raise _Unsafe(node)
        handler(self, node, env, depth + 1)

    def children(self, node: Node, env: Env, depth: int) -> None:
        for child in node.named_children:
            self.expr(child, env, depth)

    def template(self, node: Node, env: Env, depth: int) -> None:
        for child in node.named_children:
            if child.type == "template_substitution":
                self.children(child, env, depth)
            elif child.type == "escape_sequence" and _legacy_escape(_text(child)):
                raise _Unsafe(child, _EARLY_ERROR)  # an octal escape in a template
            elif child.type not in ("string_fragment", "escape_sequence"):
                raise _Unsafe(child)

    def wrapped(self, node: Node, env: Env, depth: int) -> None:
        inner = node.named_children
        if not inner:
            raise _Unsafe(node)
        # ``x as T``, ``x satisfies T``, ``x!``: the expression comes first; ``<T>x``: last.
        self.expr(inner[-1] if node.type == "type_assertion" else inner[0], env, depth)

    def binary(self, node: Node, env: Env, depth: int) -> None:
        if _operator(node) not in _SAFE_BINARY:
            raise _Unsafe(node)
        self.children(node, env, depth)

    def unary(self, node: Node, env: Env, depth: int) -> None:
        if _operator(node) not in _SAFE_UNARY:
            raise _Unsafe(node)
        self.children(node, env, depth)

    def obj(self, node: Node, env: Env, depth: int) -> None:
        for prop in node.named_children:
            if prop.type == "comment":
                continue
            if prop.type == "shorthand_property_identifier":
                name = _text(prop)
                if name in env and name not in _COERCION_KEYS:
                    continue
                raise _Unsafe(prop)
            key = prop.child_by_field_name("key") if prop.type == "pair" else None
            value = prop.child_by_field_name("value") if prop.type == "pair" else None
            if key is None or value is None:
                raise _Unsafe(prop)  # methods, getters, spreads, computed keys
            if key.type not in ("property_identifier", "string", "number"):
                raise _Unsafe(key)
            if _text(key).strip("'\"") in _COERCION_KEYS:
                raise _Unsafe(key)  # ``{ valueOf: 1 } + 1`` throws a TypeError
            self.expr(value, env, depth)

    def assignment(self, node: Node, env: Env, depth: int) -> None:
        left = node.child_by_field_name("left")
        right = node.child_by_field_name("right")
        augmented = node.type == "augmented_assignment_expression"
        if augmented and _operator(node) not in _SAFE_AUGMENTED:
            raise _Unsafe(node)
        _assignable(left, env, node)
        if right is None:
            raise _Unsafe(node)
        self.expr(right, env, depth)

    def update(self, node: Node, env: Env, depth: int) -> None:
        _assignable(node.child_by_field_name("argument"), env, node)

    def call(self, node: Node, env: Env, depth: int) -> None:
        callee = node.child_by_field_name("function")
        args = node.child_by_field_name("arguments")
        if callee is None or callee not in self.harmless or args is None:
            raise _Unsafe(node)
        if args.type != "arguments":
            raise _Unsafe(args)  # a tagged template
        self.children(args, env, depth)


def _legacy_escape(raw: str) -> bool:
    """An octal escape (``\\1``, ``\\01``) or ``\\8``/``\\9``: rejected in strict code."""
    for match in _ESCAPE().finditer(raw):
        char = match.group(1)
        if char in "12345789":
            return True
        if char == "0" and raw[match.end() : match.end() + 1].isdigit():
            return True
    return False


def _parameter_names(function: Node) -> set[str]:
    """Names a function's parameters bind (over-collecting is safe: it only adds clashes)."""
    names: set[str] = set()
    single = function.child_by_field_name("parameter")
    params = single or function.child_by_field_name("parameters")
    if params is None:
        return names
    stack = [params]
    while stack:
        node = stack.pop()
        if node.type in ("identifier", "shorthand_property_identifier_pattern"):
            names.add(_text(node))
        stack.extend(node.named_children)
    return names


def _assignable(target: Node | None, env: Env, where: Node) -> None:
    if target is None or target.type != "identifier":
        raise _Unsafe(where)
    name = _text(target)
    if name not in env or env[name]:
        raise _Unsafe(where)  # unknown, or a const (TypeError)


def _operator(node: Node) -> str:
    op = node.child_by_field_name("operator")
    return op.type if op is not None else ""


_EXPRESSIONS = {
    "parenthesized_expression": _Checker.children,
    "sequence_expression": _Checker.children,
    "ternary_expression": _Checker.children,
    "array": _Checker.children,
    "template_string": _Checker.template,
    "binary_expression": _Checker.binary,
    "unary_expression": _Checker.unary,
    "object": _Checker.obj,
    "assignment_expression": _Checker.assignment,
    "augmented_assignment_expression": _Checker.assignment,
    "update_expression": _Checker.update,
    "call_expression": _Checker.call,
    "type_assertion": _Checker.wrapped,
    **dict.fromkeys(_WRAPPERS, _Checker.wrapped),
}
