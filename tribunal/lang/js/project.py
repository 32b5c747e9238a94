"""Code from other files that runs around a JS/TS test: setup files and imported hooks.

An empty test is certain to pass only if nothing else runs with it. Jest's
``setupFilesAfterEnv``, Vitest's ``setupFiles``, Mocha's ``require``/``file``
(root hooks), Bun's ``preload``, Jasmine's helpers and Cypress's support file
register ``beforeEach``/``afterEach`` hooks for every test, and may demand an
assertion in each (``expect.hasAssertions()``, Vitest's ``requireAssertions``);
a module the test file imports registers hooks when it is loaded. This is the
JS/TS counterpart of conftest.py: the files are found from the test file up to
the repository root, read from the head tree, and scanned for hook calls,
following their own relative imports a few levels. A setup file a config names
that cannot be found, or a setup key whose value is not a literal, counts as
running code; an import that resolves to no file is left to hallucinated-symbol.

Third-party modules are not read (as for Python plugins): a package such as
``@testing-library/jest-dom`` only adds matchers.
"""

from __future__ import annotations

import json
import posixpath
import re
from collections.abc import Callable, Iterator

from tribunal.change.model import Change
from tribunal.findings import Verdict
from tribunal.lang.js.judge import Judgement, judge_test
from tribunal.lang.js.module import ModuleIndex
from tribunal.lang.js.testcases import JsTestCase
from tribunal.lang.per_change import PerChange, head_tree_known
from tribunal.lang.treepaths import ancestor_dirs, parent_dir, resolve_path
from tribunal.util.bounds import load_json
from tribunal.util.lazyre import lazy

MAX_HOPS = 2
_EXTENSIONS = (".ts", ".tsx", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts")
_CONFIG_STEMS = ("jest.config", "vitest.config", "vite.config", "vitest.workspace", ".mocharc")
_CONFIG_NAMES = (
    *(f"{stem}{ext}" for stem in _CONFIG_STEMS for ext in _EXTENSIONS),
    "jest.config.json",
    ".mocharc.json",
    ".mocharc.jsonc",
    ".mocharc.yml",
    ".mocharc.yaml",
    "package.json",
    "bunfig.toml",
    "spec/support/jasmine.json",
)
#: Config keys that name files loaded around every test.
_SETUP_KEYS = ("setupFilesAfterEnv", "setupFiles", "require", "file", "preload", "helpers")
_SETUP_KEY = re.compile(r"\b(" + "|".join(_SETUP_KEYS) + r")\b['\"]?\s*[:=]\s*")
_QUOTES = "'\"`"
_QUOTE = lazy(r"""['"`]""")
#: The body of a string after its opening quote, by quote: it ends at that quote or a newline.
_STRING_BODIES = {q: re.compile(rf"(?:[^{q}\\\n]|\\.)*") for q in _QUOTES}
_LITERAL = lazy(r"(?:true|false|null)\b")
_WORD_RUN = lazy(r"\S+")
_REQUIRE_ASSERTIONS = re.compile(r"\brequireAssertions\s*:\s*true\b")
#: What registers a hook or demands an assertion in every test.
_HOOK = re.compile(
    r"\b(?:beforeEach|afterEach|beforeAll|afterAll)\s*\(|(?<![.\w$])(?:before|after)\s*\("
    r"|\bmochaHooks\b|\bhasAssertions\s*\(|\bexpect\s*\.\s*assertions\s*\("
)
_RELATIVE_IMPORT = re.compile(
    r"""(?:\bfrom\s*|\bimport\s*(?:\(\s*)?|\brequire\s*\(\s*)(['"])(\.{1,2}/[^'"\n]+)\1"""
)

_PATHS: PerChange[str, tuple[str, ...]] = PerChange()
_DIRS: PerChange[str, tuple[str, ...]] = PerChange()
_FILES: PerChange[str, str] = PerChange()


def judge_in_project(
    change: Change, path: str, test: JsTestCase, index: ModuleIndex, text: str
) -> Judgement:
    """``judge_test`` plus what other files run around the test (read only when it matters)."""
    judgement = judge_test(test, index)
    if judgement.verdict is not Verdict.CONTRADICTED:
        return judgement
    reasons = project_setup(change, path, text)
    if not reasons:
        return judgement
    also = "".join(f"; also: {why}" for why in reasons[1:3])
    return Judgement(Verdict.UNVERIFIED, f"nothing in the test can fail, but {reasons[0]}{also}")


def project_setup(change: Change, path: str, text: str) -> tuple[str, ...]:
    """Why code from other files may run around the tests in ``path`` (empty if none).

    ``text`` is the test file's own source, whose relative imports are read.
    Computed once per file and change, however many of its tests ask.
    """
    return _PATHS.get(change, path, lambda: _project_setup(change, path, text))


def _project_setup(change: Change, path: str, text: str) -> tuple[str, ...]:
    if not head_tree_known(change):
        return (
            "only a diff was given, so setup files and imported modules that may register "
            "hooks around it could not be read",
        )
    reasons: list[str] = []
    for directory in ancestor_dirs(posixpath.dirname(path)):
        reasons.extend(_DIRS.get(change, directory, _dir_reader(change, directory)))
    reasons.extend(_cypress_support(change, path))
    for spec in _relative_imports(text):
        why = _module_hooks(change, path, spec, MAX_HOPS, missing_ok=True)
        if why:
            reasons.append(f"it imports '{spec}': {why}")
    return tuple(dict.fromkeys(reasons))


def _dir_reader(change: Change, directory: str) -> Callable[[], tuple[str, ...]]:
    return lambda: _configs_in(change, directory)


def _configs_in(change: Change, directory: str) -> tuple[str, ...]:
    # Every config name here and in the directories above (asked next): one batch for git.
    above = ancestor_dirs(directory)
    change.prefetch_head([posixpath.join(d, name) for d in above for name in _CONFIG_NAMES])
    reasons: list[str] = []
    for name in _CONFIG_NAMES:
        config = posixpath.join(directory, name) if directory else name
        source = change.read_head(config)
        if source is not None:
            reasons.extend(_config_reasons(change, config, source.text))
    return tuple(reasons)


def _config_reasons(change: Change, config: str, text: str) -> Iterator[str]:
    if _REQUIRE_ASSERTIONS.search(text):
        yield f"`{config}` sets `requireAssertions`, so a test without an assertion fails"
    name = posixpath.basename(config)
    if name == "package.json":
        text = _package_sections(text)
    for key, values in _setup_values(text):
        if values is None:
            yield f"`{config}` sets `{key}` to a value Tribunal cannot read"
            continue
        for value in values:
            why = _setup_file(change, config, key, value)
            if why:
                yield f"`{config}` loads `{value}` ({key}): {why}"


def _package_sections(text: str) -> str:
    """The ``jest``, ``mocha`` and ``ava`` sections of a package.json, as JSON text."""
    try:
        data = load_json(text)
    except ValueError:
        return ""
    if not isinstance(data, dict):
        return ""
    return json.dumps({k: data[k] for k in ("jest", "mocha", "ava") if k in data})


def _setup_values(text: str) -> Iterator[tuple[str, list[str] | None]]:
    """Each setup key with its string values; None when the value is not literal strings.

    Positions, never slices of the rest: one pass over ``text`` whatever it holds
    (a key inside a value already read is not read again).
    """
    read_to = 0
    for match in _SETUP_KEY.finditer(text):
        at = match.end()
        if match.start() < read_to:
            continue
        values, read_to = _setup_value(text, at)
        if values is not _LOADS_NOTHING:
            yield match.group(1), values


_LOADS_NOTHING: list[str] = []


def _setup_value(text: str, at: int) -> tuple[list[str] | None, int]:
    """The value of a setup key at ``at`` and where it ends."""
    head = text[at : at + 1]
    if head == "[":
        end = text.find("]", at)
        if end < 0:
            return None, len(text)
        strings, leftover = _list_strings(text[at + 1 : end])
        return (None if _code(leftover.replace(",", "")) else strings), end + 1
    if head and head in _QUOTES:
        value, end = _string_at(text, at)
        return ([value] if value is not None else None), end
    if head in ("t", "f", "n") and (literal := _LITERAL().match(text, at)):
        return _LOADS_NOTHING, literal.end()  # ``require: false`` and the like load nothing
    if head == "-":
        return _yaml_list(text, at)
    if text.startswith(("./", "../"), at):  # an unquoted YAML scalar
        word = _WORD_RUN().match(text, at)
        return [word[0].rstrip(",")] if word else None, word.end() if word else at
    return None, at


def _string_at(text: str, at: int) -> tuple[str | None, int]:
    """The JS/YAML string literal opening at ``at`` (None if unclosed) and where it ends."""
    body = _STRING_BODIES[text[at]].match(text, at + 1)
    end = body.end() if body else at + 1
    if text.startswith(text[at], end):
        return text[at + 1 : end], end + 1
    return None, end


def _list_strings(inner: str) -> tuple[list[str], str]:
    """The string literals of a list's inside, and what is left around them."""
    strings: list[str] = []
    leftover: list[str] = []
    index = 0
    while (quote := _QUOTE().search(inner, index)) is not None:
        leftover.append(inner[index : quote.start()])
        value, index = _string_at(inner, quote.start())
        if value is None:
            leftover.append(inner[quote.start() : index])
        else:
            strings.append(value)
    leftover.append(inner[index:])
    return strings, "".join(leftover)


def _yaml_list(text: str, at: int) -> tuple[list[str] | None, int]:
    """``require:\\n  - ./a.js`` in a .mocharc.yml (``at`` is the first item)."""
    values = []
    index = at
    while index < len(text):
        end = text.find("\n", index)
        end = len(text) if end < 0 else end
        item = text[index:end].strip()
        if item and not item.startswith("- "):
            break
        if item:
            values.append(item[2:].strip().strip("'\""))
        index = end + 1
    return values or None, index


def _code(leftover: str) -> bool:
    """Anything but comments between the strings of a list (``path.join(...)``)."""
    index = 0
    while index < len(leftover):
        if leftover.startswith("//", index):
            end = leftover.find("\n", index)
            index = len(leftover) if end < 0 else end
        elif leftover.startswith("/*", index):
            end = leftover.find("*/", index + 2)
            if end < 0:
                return True  # an unclosed comment: not a list Tribunal can read
            index = end + 2
        elif leftover[index].isspace():
            index += 1
        else:
            return True
    return False


def _setup_file(change: Change, config: str, key: str, value: str) -> str:
    """Why the setup file ``value`` (as a config names it) may fail a test, if it may."""
    if key == "helpers":  # Jasmine: paths relative to ``spec_dir``, usually globs
        return "Jasmine helpers run before every spec and may register hooks"
    spec = value.replace("<rootDir>/", "./").replace("<rootDir>", ".")
    if not spec.startswith((".", "/")):
        return ""  # a package (``@testing-library/jest-dom``): not read
    if any(c in spec for c in "*?{"):
        return "a glob of files that may register hooks"
    return _module_hooks(change, config, spec, MAX_HOPS)


def _cypress_support(change: Change, path: str) -> Iterator[str]:
    """Cypress loads ``cypress/support/e2e.*`` before every spec, configured or not."""
    parts = path.split("/")
    if "cypress" not in parts and ".cy." not in parts[-1]:
        return
    for directory in ancestor_dirs(posixpath.dirname(path)):
        for kind in ("e2e", "component"):
            base = posixpath.join(directory, "cypress", "support", kind)
            why = _module_hooks(change, "", base.lstrip("/"), MAX_HOPS, missing_ok=True)
            if why:
                yield f"the Cypress support file `{base}`: {why}"


def _module_hooks(
    change: Change, importer: str, spec: str, hops: int, missing_ok: bool = False
) -> str:
    """Why the module ``spec`` (relative to ``importer``) may register hooks, if it may."""
    target = _resolve(change, importer, spec)
    if target is None:
        if missing_ok or not _is_script(spec):
            return ""
        return "Tribunal could not find that file, so it may register hooks"
    if target.endswith(".json"):
        return ""
    return _FILES.get(change, f"{target}:{hops}", lambda: _scan(change, target, hops))


def _scan(change: Change, path: str, hops: int) -> str:
    source = change.read_head(path)
    if source is None:
        return ""
    text = source.text
    hook = _HOOK.search(text)
    if hook is not None:
        line = text.count("\n", 0, hook.start()) + 1
        return f"`{path}` registers a hook or counts assertions (line {line})"
    if hops <= 0:
        return ""
    for spec in _relative_imports(text):
        why = _module_hooks(change, path, spec, hops - 1, missing_ok=True)
        if why:
            return why
    return ""


def _relative_imports(text: str) -> list[str]:
    return list(dict.fromkeys(m.group(2) for m in _RELATIVE_IMPORT.finditer(text)))


def _is_script(spec: str) -> bool:
    """A module that would be JavaScript once resolved (not ``./style.css``)."""
    ext = posixpath.splitext(spec)[1]
    return ext == "" or ext in _EXTENSIONS or ext == ".json"


def _resolve(change: Change, importer: str, spec: str) -> str | None:
    """The repository file ``spec`` names, trying the extensions bundlers try."""
    base = spec.lstrip("/") if spec.startswith("/") else resolve_path(parent_dir(importer), spec)
    if base is None:
        return None  # it leaves the repository
    stem, ext = posixpath.splitext(base)
    candidates = [base] if ext else []
    if ext in (".js", ".jsx", ".mjs", ".cjs"):  # TypeScript's ESM style: './x.js' is x.ts
        candidates += [stem + e for e in (".ts", ".tsx", ".mts", ".cts")]
    if not ext or ext not in (*_EXTENSIONS, ".json"):
        candidates += [base + e for e in (*_EXTENSIONS, ".d.ts")]
        candidates += [posixpath.join(base, "index" + e) for e in _EXTENSIONS]
    for candidate in candidates:
        candidate = posixpath.normpath(candidate)
        if candidate.startswith("..") or candidate in (".", "/"):
            continue
        if change.read_head(candidate) is not None:
            return candidate
    return None
