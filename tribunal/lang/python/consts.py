"""Evaluate what a test computes from literals alone, without running its code.

``x = 1 + 1; y = x * 2`` cannot fail; ``1 / 0`` always raises, so a test that
does it can fail. The evaluator computes real values for literals, arithmetic,
comparisons and containers of them, with size guards so that ``10 ** 10 ** 9``
costs nothing. Anything else (a call, an attribute, a subscript, a name not
bound from a literal) is ``Unknown``: it might fail, so it proves nothing.
"""

from __future__ import annotations

import ast
import operator
from collections.abc import Callable, Mapping
from typing import Any

MAX_BITS = 4096
MAX_LEN = 10_000
MAX_DEPTH = 60


class Unknown(Exception):
    """The expression is not computable from literals."""


class Raises(Exception):
    """Evaluating the expression raises: running it would fail the test."""

    def __init__(self, error: BaseException) -> None:
        super().__init__(type(error).__name__)
        self.error = type(error).__name__


_BINARY: Mapping[type[ast.operator], Callable[[Any, Any], Any]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
    ast.Pow: operator.pow,
    ast.LShift: operator.lshift,
    ast.RShift: operator.rshift,
    ast.BitOr: operator.or_,
    ast.BitAnd: operator.and_,
    ast.BitXor: operator.xor,
}
_UNARY: Mapping[type[ast.unaryop], Callable[[Any], Any]] = {
    ast.Not: operator.not_,
    ast.USub: operator.neg,
    ast.UAdd: operator.pos,
    ast.Invert: operator.invert,
}
_COMPARE: Mapping[type[ast.cmpop], Callable[[Any, Any], Any]] = {
    ast.Eq: operator.eq,
    ast.NotEq: operator.ne,
    ast.Lt: operator.lt,
    ast.LtE: operator.le,
    ast.Gt: operator.gt,
    ast.GtE: operator.ge,
    ast.In: lambda a, b: a in b,
    ast.NotIn: lambda a, b: a not in b,
}
_SINGLETONS = (type(None), bool, type(Ellipsis))
#: In-place operators: ``a += [2]`` extends the list ``a`` names (and every alias of it).
_INPLACE: Mapping[type[ast.operator], Callable[[Any, Any], Any]] = {
    ast.Add: operator.iadd,
    ast.Sub: operator.isub,
    ast.Mult: operator.imul,
    ast.Div: operator.itruediv,
    ast.FloorDiv: operator.ifloordiv,
    ast.Mod: operator.imod,
    ast.Pow: operator.ipow,
    ast.LShift: operator.ilshift,
    ast.RShift: operator.irshift,
    ast.BitOr: operator.ior,
    ast.BitAnd: operator.iand,
    ast.BitXor: operator.ixor,
}


def evaluate(node: ast.expr, env: Mapping[str, object], depth: int = 0) -> object:
    """The value of ``node``; raises ``Unknown`` or ``Raises``."""
    if depth > MAX_DEPTH:
        raise Unknown
    try:
        return _eval(node, env, depth + 1)
    except (Unknown, Raises):
        raise
    except RecursionError:
        raise Unknown from None
    except Exception as exc:
        raise Raises(exc) from None


def augmented(op: ast.operator, current: object, value: object) -> object:
    """``current op= value`` as Python runs it: a list, set or dict changes in place.

    ``a = [1]; b = a; a += [2]`` leaves ``b == [1, 2]``; computing ``a + [2]``
    instead would make ``assert b == [1]`` look true when it always fails.
    Raises ``Unknown`` or ``Raises`` like ``evaluate``.
    """
    func = _INPLACE.get(type(op))
    if func is None or not _small_enough(op, current, value):
        raise Unknown
    try:
        result = func(current, value)
    except Exception as exc:
        raise Raises(exc) from None
    if isinstance(result, int) and result.bit_length() > MAX_BITS:
        raise Unknown
    return result


def _eval(node: ast.expr, env: Mapping[str, object], depth: int) -> object:
    def sub(child: ast.expr) -> object:
        return evaluate(child, env, depth)

    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Name):
        if node.id not in env:
            raise Unknown
        return env[node.id]
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        if any(isinstance(e, ast.Starred) for e in node.elts):
            raise Unknown
        items = [sub(e) for e in node.elts]
        return tuple(items) if isinstance(node, ast.Tuple) else _container(node, items)
    if isinstance(node, ast.Dict):
        if any(k is None for k in node.keys):
            raise Unknown
        pairs = [(sub(k), sub(v)) for k, v in zip(node.keys, node.values, strict=True) if k]
        if _bytes_warning([k for k, _ in pairs], []):
            raise Unknown  # equal hashes of bytes and str keys compare under ``-bb``
        return dict(pairs)
    if isinstance(node, ast.UnaryOp):
        operand = sub(node.operand)
        if isinstance(node.op, ast.Invert) and isinstance(operand, bool):
            raise Unknown  # ``~True`` is deprecated: an error under ``-W error``
        return _UNARY[type(node.op)](operand)
    if isinstance(node, ast.BinOp):
        return _binary(node.op, sub(node.left), sub(node.right))
    if isinstance(node, ast.BoolOp):
        return _boolean(node, sub)
    if isinstance(node, ast.Compare):
        return _compare(node, sub)
    if isinstance(node, ast.IfExp):
        return sub(node.body) if sub(node.test) else sub(node.orelse)
    raise Unknown


def _container(node: ast.List | ast.Set, items: list[object]) -> object:
    if isinstance(node, ast.List):
        return list(items)
    if _bytes_warning(items, items):
        raise Unknown  # ``{"a", b"a"}``: equal hashes, so ``-bb`` sees a comparison
    return set(items)


def _bytes_warning(left: object, right: object) -> bool:
    """Whether comparing the two (or anything inside them) may warn under ``python -b``.

    CPython's ``-b``/``-bb`` flags make ``bytes == str`` and ``bytes == int``
    warn or raise, also inside containers and on hash collisions in sets and
    dicts; such a comparison is not a certainty.
    """
    kinds = _scalar_kinds(left) | _scalar_kinds(right)
    return bytes in kinds and bool(kinds & {str, int})


def _scalar_kinds(value: object, depth: int = 0) -> set[type]:
    if isinstance(value, bytes):
        return {bytes}
    if isinstance(value, str):
        return {str}
    if isinstance(value, int):  # bool included: ``b"" == True`` warns too
        return {int}
    if depth > MAX_DEPTH or not isinstance(value, tuple | list | set | frozenset | dict):
        return set()
    items = [*value.keys(), *value.values()] if isinstance(value, dict) else list(value)
    kinds: set[type] = set()
    for item in items:
        kinds |= _scalar_kinds(item, depth + 1)
    return kinds


def _binary(op: ast.operator, left: object, right: object) -> object:
    func = _BINARY.get(type(op))
    if func is None or not _small_enough(op, left, right):
        raise Unknown
    result = func(left, right)
    if isinstance(result, int) and result.bit_length() > MAX_BITS:
        raise Unknown
    return result


def _small_enough(op: ast.operator, left: object, right: object) -> bool:
    """Refuse operations whose result could be huge or that format strings."""
    sequences = (str, bytes, tuple, list)
    if isinstance(op, ast.Mod) and isinstance(left, str | bytes):
        return False
    if isinstance(op, ast.Mult):
        for seq, count in ((left, right), (right, left)):
            if isinstance(seq, sequences) and isinstance(count, int):
                return len(seq) * max(count, 0) <= MAX_LEN
    if isinstance(op, ast.Add) and isinstance(left, sequences) and isinstance(right, sequences):
        return len(left) + len(right) <= MAX_LEN
    if isinstance(op, ast.Pow) and isinstance(left, int) and isinstance(right, int):
        return right <= 0 or max(left.bit_length(), 1) * right <= MAX_BITS
    if isinstance(op, ast.LShift) and isinstance(right, int):
        return right <= MAX_BITS
    return True


def _boolean(node: ast.BoolOp, sub: Callable[[ast.expr], object]) -> object:
    value: object = None
    for operand in node.values:
        value = sub(operand)
        if isinstance(node.op, ast.And) and not value:
            return value
        if isinstance(node.op, ast.Or) and value:
            return value
    return value


def _compare(node: ast.Compare, sub: Callable[[ast.expr], object]) -> object:
    left = sub(node.left)
    for op, comparator in zip(node.ops, node.comparators, strict=True):
        right = sub(comparator)
        if isinstance(op, ast.Is | ast.IsNot):
            if not (isinstance(left, _SINGLETONS) and isinstance(right, _SINGLETONS)):
                raise Unknown  # identity of other literals is an implementation detail
            outcome = (left is right) == isinstance(op, ast.Is)
        elif _bytes_warning(left, right):
            raise Unknown  # ``python -bb`` turns this comparison into an error
        else:
            outcome = bool(_COMPARE[type(op)](left, right))
        if not outcome:
            return False
        left = right
    return True
