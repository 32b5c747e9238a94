"""Every regular expression of the package, for ``fuzzing``: module-level, inline and built.

Three kinds of site hold a pattern:

- a module-level value (``_WORD = re.compile(...)``, a ``lazyre.lazy`` accessor, or a dict
  of patterns), read from the imported module;
- a literal written inline in a function (``re.sub(r"[-_.]+", "-", name)``), read from
  the module's syntax tree;
- a pattern a function builds from a value (``re.escape(stem)``), which neither way can
  read: each such function is listed in ``BUILT`` with what it builds for representative
  values, and ``unlisted_built_sites`` names any function missing there, so that a new
  one cannot escape the fuzzing.

Each is timed the way it runs: ``finditer`` over the whole text, or a single ``match``
for a pattern applied only at a known offset (``ANCHORED``, inline ``match`` and
``fullmatch``): the loop that picks the offsets is fuzzed through its parser.
"""

from __future__ import annotations

import ast
import importlib
import pkgutil
import re
import tomllib
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import NamedTuple

Pattern = re.Pattern[str] | re.Pattern[bytes]
ROOT = Path(__file__).resolve().parent.parent

#: Module-level patterns applied at one position (``match``/``fullmatch`` at a known
#: offset, or on short values such as an environment variable).
ANCHORED = {
    "tribunal.analyzers.hallucinated_symbol.js_exports._IDENTIFIER",
    "tribunal.lang.manifests._LENIENT_NAME",
    "tribunal.lang.manifests._INCLUDE",
    "tribunal.lang.manifests._NAME",
    "tribunal.lang.js.module._DOTTED",
    "tribunal.lang.js.module._LEAD",
    "tribunal.github.truncate._FENCE_OPEN",
    "tribunal.github.context._REPOSITORY",
    "tribunal.hooks.ranges._NUMBERS",
    "tribunal.llm.config._MEMBER_FLAG",
    "tribunal.claims.parse._FENCE_OPEN",
    "tribunal.claims.sources._TRAILER_LINE",
    "tribunal.lang.manifests._VIA_AFTER",
    "tribunal.lang.js.project._STRING_BODIES",
    "tribunal.analyzers.hallucinated_symbol.jsonc._PLAIN",
}

#: Functions that compile a pattern they are given rather than one they build, and why
#: that is no exposure of ours.
PASS_THROUGH = {
    # compiles its callers' module-level patterns, each fuzzed as a module value
    "tribunal.util.lazyre:lazy": "callers' patterns",
    # the ``files:``/``exclude:`` regex of .pre-commit-config.yaml, applied as pre-commit
    # applies it (``re.search`` on a changed path): the framework runs the same pattern on
    # the same paths before it starts the hook, so it cannot hang us and not pre-commit
    "tribunal.hooks.prefilter:_pattern": "pre-commit's own filter",
}


def _built_fences() -> list[tuple[Pattern, bool]]:
    from tribunal.claims.parse import closing_fence

    return [(closing_fence(f), True) for f in ("```", "~~~~", "``````````")]


def _built_aliases() -> list[tuple[Pattern, bool]]:
    from tribunal.analyzers.hallucinated_symbol.python_doubts import alias_pattern

    return [(alias_pattern("numpy"), False), (alias_pattern("a.b_c"), False)]


def _built_setters() -> list[tuple[Pattern, bool]]:
    from tribunal.analyzers.hallucinated_symbol.python_doubts import setter_pattern

    return [(setter_pattern(("numpy", "np", "a.b"), "int_"), False)]


def _built_member_names() -> list[tuple[Pattern, bool]]:
    from tribunal.llm.phases import names_pattern

    pattern = names_pattern(["claude-sonnet", "gpt-4o", "member-a", "a.b*c"])
    assert pattern is not None
    return [(pattern, False)]


def _built_words() -> list[tuple[Pattern, bool]]:
    from tribunal.git.treegrep import word_pattern

    words = ("parse_header", "$el", "a.b", "x")
    return [(word_pattern(words, True), False), (word_pattern(words, False), False)]


def _built_mentions() -> list[tuple[Pattern, bool]]:
    from tribunal.analyzers.comment_code_drift.mentions import mention_pattern

    return [(mention_pattern(n), False) for n in ("parse_header", "$el", "x")]


def _built_definitions() -> list[tuple[Pattern, bool]]:
    from tribunal.claims.verifiers import public_api

    return [(public_api.binding_pattern(n), False) for n in ("parse_header", "$el", "x")]


#: ``module:function`` -> the patterns it builds for representative values, and whether
#: each is applied at one position.
BUILT: dict[str, Callable[[], list[tuple[Pattern, bool]]]] = {
    "tribunal.claims.parse:closing_fence": _built_fences,
    "tribunal.analyzers.hallucinated_symbol.python_doubts:alias_pattern": _built_aliases,
    "tribunal.analyzers.hallucinated_symbol.python_doubts:setter_pattern": _built_setters,
    "tribunal.llm.phases:names_pattern": _built_member_names,
    "tribunal.git.treegrep:word_pattern": _built_words,
    "tribunal.analyzers.comment_code_drift.mentions:mention_pattern": _built_mentions,
    "tribunal.claims.verifiers.public_api:binding_pattern": _built_definitions,
}


class Site(NamedTuple):
    """One pattern of the package and how it is applied."""

    name: str
    pattern: Pattern
    anchored: bool


def sites() -> list[Site]:
    """Every pattern site, sorted by name, each distinct (pattern, flags, use) once."""
    found: dict[tuple[object, int, bool], Site] = {}
    for module in modules():
        for site in (*_module_values(module), *_inline(module)):
            found.setdefault((site.pattern.pattern, site.pattern.flags, site.anchored), site)
    for where, build in sorted(BUILT.items()):
        for index, (pattern, anchored) in enumerate(build()):
            site = Site(f"{where}#{index}", pattern, anchored)
            found.setdefault((pattern.pattern, pattern.flags, anchored), site)
    return sorted(found.values(), key=lambda site: site.name)


def unlisted_built_sites() -> set[str]:
    """Functions that build a pattern from a value but are missing from ``BUILT`` (and back)."""
    built = {f"{m.__name__}:{function}" for m in modules() for function in _builders(m)}
    return (built - set(PASS_THROUGH)) ^ set(BUILT)


def modules() -> list[ModuleType]:
    """Every module of every package the distribution installs (``pyproject.toml``)."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    out = []
    for package_name in config["tool"]["setuptools"]["packages"]:
        package = importlib.import_module(package_name)
        out.append(package)
        for info in pkgutil.iter_modules(package.__path__, f"{package_name}."):
            if not info.ispkg and not info.name.endswith("__main__"):
                out.append(importlib.import_module(info.name))
    return out


def _module_values(module: ModuleType) -> Iterator[Site]:
    for name, value in vars(module).items():
        key = f"{module.__name__}.{name}"
        if _is_lazy_accessor(value):
            value = value()
        values = value.values() if isinstance(value, dict) else [value]
        for index, item in enumerate(values):
            if isinstance(item, re.Pattern):
                label = key if len(values) == 1 else f"{key}[{index}]"
                yield Site(label, item, key in ANCHORED)


#: Which argument of each ``re`` function holds the flags.
_FLAGS_AT = {
    "compile": 1,
    "search": 2,
    "match": 2,
    "fullmatch": 2,
    "findall": 2,
    "finditer": 2,
    "split": 3,
    "sub": 4,
    "subn": 4,
}


def _inline(module: ModuleType) -> Iterator[Site]:
    """Literal patterns passed to ``re`` inside functions (module level: ``_module_values``)."""
    for function, call in _re_calls(module):
        if not call.args or not isinstance(call.args[0], ast.Constant):
            continue
        how = _re_function(call)
        flags = _flags(call, _FLAGS_AT.get(how, 1))
        pattern = re.compile(call.args[0].value, flags)
        label = f"{module.__name__}:{function}:{call.lineno}"
        yield Site(label, pattern, how in ("match", "fullmatch"))


def _builders(module: ModuleType) -> set[str]:
    return {
        function
        for function, call in _re_calls(module)
        if call.args and not isinstance(call.args[0], ast.Constant)
    }


def _re_calls(module: ModuleType) -> Iterator[tuple[str, ast.Call]]:
    """``re.<function>(...)`` (and ``lazy(...)``) calls inside functions, by function name."""
    path = getattr(module, "__file__", None)
    if not path or not path.endswith(".py"):
        return
    tree = ast.parse(Path(path).read_text(encoding="utf-8"))
    lazy_here = getattr(module, "lazy", None) is _lazy()
    for outer in ast.walk(tree):
        if not isinstance(outer, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        for node in ast.walk(outer):
            if not isinstance(node, ast.Call):
                continue
            how = _re_function(node)
            if how in _FLAGS_AT and (lazy_here or not _is_name(node.func, "lazy")):
                yield outer.name, node


def _lazy() -> object:
    from tribunal.util.lazyre import lazy

    return lazy


def _is_lazy_accessor(value: object) -> bool:
    """What ``lazyre.lazy`` returns: a cached function wrapping its own lambda."""
    wrapped = getattr(value, "__wrapped__", None)
    return callable(value) and getattr(wrapped, "__module__", None) == "tribunal.util.lazyre"


def _re_function(call: ast.Call) -> str:
    """``search`` for ``re.search(...)``, ``compile`` for ``lazy(...)``, else ``""``."""
    func = call.func
    if isinstance(func, ast.Attribute) and _is_name(func.value, "re"):
        return func.attr
    return "compile" if _is_name(func, "lazy") else ""


def _is_name(node: ast.expr, name: str) -> bool:
    return isinstance(node, ast.Name) and node.id == name


def _flags(call: ast.Call, position: int) -> int:
    given = [k.value for k in call.keywords if k.arg == "flags"]
    if not given and len(call.args) > position:
        given = [call.args[position]]
    if not given:
        return 0
    value = eval(compile(ast.Expression(given[0]), "<flags>", "eval"), {"re": re})
    return int(value)


def own_delimiters(pattern: Pattern) -> list[str]:
    """A pattern's literal words and characters (one member of each class), alone and with a
    space or a dot after them, and a quote or a space before a backslash."""
    source = pattern.pattern if isinstance(pattern.pattern, str) else pattern.pattern.decode()
    chars: set[str] = {" "}
    words: set[str] = set()
    _literals(re._parser.parse(source, pattern.flags), chars, words)  # type: ignore[attr-defined]
    chars = {ch for ch in chars if not ch.isalnum()} | {"a", "1"}  # letters: in the words
    out = sorted(chars) + sorted(words)
    out += [f"{w} " for w in sorted(words)] + [f"{w}." for w in sorted(words)]
    return [*out, "'\\", '"\\', " \\"]


def _literals(parsed: object, chars: set[str], words: set[str]) -> None:
    """Literal characters and runs of them (words) in a parsed pattern, recursively."""
    from re import _constants as c  # type: ignore[attr-defined]

    run: list[str] = []
    for op, arg in parsed:  # type: ignore[attr-defined]
        if op is c.LITERAL:
            chars.add(chr(arg))
            run.append(chr(arg))
            continue
        if len(run) > 1:
            words.add("".join(run))
        run = []
        if op is c.IN:
            for kind, value in arg:
                if kind is c.LITERAL:
                    chars.add(chr(value))
                elif kind is c.RANGE:
                    chars.add(chr(value[0]))
                elif kind is c.CATEGORY:
                    chars.add({c.CATEGORY_SPACE: " ", c.CATEGORY_DIGIT: "1"}.get(value, "a"))
        elif op in (c.MAX_REPEAT, c.MIN_REPEAT, c.POSSESSIVE_REPEAT):
            _literals(arg[2], chars, words)
        elif op is c.SUBPATTERN:
            _literals(arg[-1], chars, words)
        elif op is c.BRANCH:
            for branch in arg[1]:
                _literals(branch, chars, words)
        elif op in (c.ASSERT, c.ASSERT_NOT):
            _literals(arg[1], chars, words)
        elif op is c.ATOMIC_GROUP:
            _literals(arg, chars, words)
        elif op is c.CATEGORY:
            chars.add({c.CATEGORY_SPACE: " ", c.CATEGORY_DIGIT: "1"}.get(arg, "a"))
        elif op is c.ANY:
            chars.add("a")
    if len(run) > 1:
        words.add("".join(run))
