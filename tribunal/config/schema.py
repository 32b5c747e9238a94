"""A tiny schema language for ``tribunal.yml``, checked on YAML nodes.

Validating the composed node tree (rather than the loaded dict) means every
error can name the file, the line and the key path. PyYAML's own constructor
silently keeps the last of two duplicate keys; this checker rejects them.
It stays hand-written (no pydantic) because the pre-commit hook loads config on
every commit and must start fast; for the same reason its rules are NamedTuples,
not dataclasses (importing ``dataclasses`` costs a repository with a
``tribunal.yml`` ~10 ms a commit; see ``tribunal.findings``).
"""

from collections.abc import Callable, Mapping
from typing import NamedTuple, Protocol

import yaml

from tribunal.errors import ConfigError

_TAG = "tag:yaml.org,2002:"


class Rule(Protocol):
    @property
    def expected(self) -> str: ...

    def check(self, node: yaml.Node, where: "Where") -> None: ...


class Where(NamedTuple):
    """A file and a key path, for error messages."""

    file: str
    keys: tuple[str, ...] = ()

    def child(self, key: str) -> "Where":
        return Where(self.file, (*self.keys, key))

    def fail(self, node: yaml.Node, message: str) -> ConfigError:
        line = node.start_mark.line + 1
        path = "".join(k if k.startswith("[") else f".{k}" for k in self.keys)
        path = path.removeprefix(".") or "(top level)"
        return ConfigError(f"{self.file}:{line}: {path}: {message}")


class Scalar(NamedTuple):
    """A scalar of one YAML type (``bool``, ``str``, ``int``, ``float``...)."""

    tags: tuple[str, ...]
    expected: str
    choices: tuple[str, ...] = ()
    predicate: Callable[[str], bool] | None = None

    def check(self, node: yaml.Node, where: Where) -> None:
        if not isinstance(node, yaml.ScalarNode) or node.tag.removeprefix(_TAG) not in self.tags:
            raise where.fail(node, f"expected {self.expected}, found {_describe(node)}")
        if self.choices and node.value not in self.choices:
            raise where.fail(
                node, f"expected one of {', '.join(self.choices)}, found {node.value!r}"
            )
        if self.predicate is not None and not self.predicate(node.value):
            raise where.fail(node, f"expected {self.expected}, found {node.value!r}")


class ListOf(NamedTuple):
    item: Rule
    expected: str = "a list"
    max_items: int | None = None

    def check(self, node: yaml.Node, where: Where) -> None:
        if not isinstance(node, yaml.SequenceNode):
            raise where.fail(node, f"expected {self.expected}, found {_describe(node)}")
        if self.max_items is not None and len(node.value) > self.max_items:
            raise where.fail(
                node, f"expected at most {self.max_items} items, found {len(node.value)}"
            )
        for index, child in enumerate(node.value):
            self.item.check(child, where.child(f"[{index}]"))


class MapOf(NamedTuple):
    """A mapping whose keys come from ``known`` (when given) and share one value rule."""

    value: Rule
    known: Callable[[], Mapping[str, object]] | None = None
    what: str = "key"
    expected: str = "a mapping"

    def check(self, node: yaml.Node, where: Where) -> None:
        for key, key_node, child in _pairs(node, where, self.expected):
            if self.known is not None and key not in self.known():
                names = ", ".join(sorted(self.known()))
                raise where.fail(key_node, f"unknown {self.what} {key!r}; known: {names}")
            self.value.check(child, where.child(key))


class Struct(NamedTuple):
    """A mapping with a fixed set of keys; unknown keys are errors (typo guard)."""

    fields: Mapping[str, Rule]
    required: frozenset[str] = frozenset()
    expected: str = "a mapping"

    def check(self, node: yaml.Node, where: Where) -> None:
        seen: set[str] = set()
        for key, key_node, child in _pairs(node, where, self.expected):
            rule = self.fields.get(key)
            if rule is None:
                names = ", ".join(self.fields)
                raise where.fail(key_node, f"unknown key {key!r}; expected one of: {names}")
            rule.check(child, where.child(key))
            seen.add(key)
        missing = sorted(self.required - seen)
        if missing:
            raise where.fail(node, f"missing required key {missing[0]!r}")


def _pairs(node: yaml.Node, where: Where, expected: str) -> list[tuple[str, yaml.Node, yaml.Node]]:
    if not isinstance(node, yaml.MappingNode):
        raise where.fail(node, f"expected {expected}, found {_describe(node)}")
    out: list[tuple[str, yaml.Node, yaml.Node]] = []
    seen: set[str] = set()
    for key_node, child in node.value:
        if not isinstance(key_node, yaml.ScalarNode) or key_node.tag != _TAG + "str":
            raise where.fail(key_node, f"keys must be strings, found {_describe(key_node)}")
        if key_node.value in seen:
            raise where.fail(key_node, f"duplicate key {key_node.value!r}")
        seen.add(key_node.value)
        out.append((key_node.value, key_node, child))
    return out


def _describe(node: yaml.Node) -> str:
    if isinstance(node, yaml.MappingNode):
        return "a mapping"
    if isinstance(node, yaml.SequenceNode):
        return "a list"
    kind = node.tag.removeprefix(_TAG)
    return "nothing (null)" if kind == "null" else f"{kind} {node.value!r}"


BOOL = Scalar(("bool",), "true or false")
STR = Scalar(("str",), "a string")
NON_EMPTY_STR = Scalar(("str",), "a non-empty string", predicate=lambda v: bool(v.strip()))


def _positive(value: str) -> bool:
    """YAML 1.1 spellings too (``1_000``, ``0x10``); anything unparsable is not positive."""
    plain = value.replace("_", "")
    for parse in (float, lambda v: float(int(v, 0))):
        try:
            return parse(plain) > 0
        except ValueError:
            continue
    return False


POSITIVE = Scalar(("int", "float"), "a positive number", predicate=_positive)
STR_LIST = ListOf(NON_EMPTY_STR, "a list of strings")
