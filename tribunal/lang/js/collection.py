"""JS/TS test files a project's literal jest or vitest configuration never collects.

``added-test`` must not count a test that never runs. The rule is known only
when exactly one runner is configured, literally: ``jest.testMatch`` in the
nearest ``package.json`` (or a ``jest.config.json``), or ``test.include`` in a
``vitest.config.*`` / ``vite.config.*`` read with tree-sitter; the patterns are
plain globs (``*``, ``**``, ``?``: no braces, extglobs or classes); the
``test`` script names no other runner and no file; no other runner's config
(mocha, ava, playwright, cypress, karma, jasmine) sits beside it. Anything
else leaves the file's collection open (None).
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable

from tribunal.change.model import Change, Source
from tribunal.lang.paths import glob_matches
from tribunal.lang.treepaths import ancestor_dirs
from tribunal.util.bounds import load_json

Reader = Callable[[str], Source | None]
_VITEST = tuple(
    f"{stem}.config.{ext}"
    for stem in ("vitest", "vite")
    for ext in ("ts", "mts", "cts", "js", "mjs", "cjs")
)
_JEST = ("jest.config.js", "jest.config.ts", "jest.config.mjs", "jest.config.cjs")
_OTHER_RUNNERS = (
    ".mocharc.json", ".mocharc.js", ".mocharc.yml", ".mocharc.cjs", "ava.config.js",
    "playwright.config.ts", "playwright.config.js", "cypress.config.ts", "cypress.config.js",
    "karma.conf.js", "jasmine.json", "wdio.conf.js", "wdio.conf.ts",
)  # fmt: skip
_SCRIPT_RUNNERS = re.compile(
    r"\b(?:mocha|ava|tap|tape|uvu|playwright|cypress|karma|jasmine|node\s+--test|bun\s+test"
    r"|deno\s+test)\b"
)
_PLAIN_GLOB = re.compile(r"^[\w./*?@$-]+$")


def why_uncollected(change: Change, path: str) -> str | None:
    """Why the runner configured for ``path`` never collects it; None when not certain."""
    read = change.read_head
    for directory in ancestor_dirs(posixpath.dirname(path)):
        found = _rules_in(directory, read)
        if found is None:
            return None  # a config here that cannot be read: unknown
        source, patterns = found
        if not source:
            continue
        rel = path[len(directory) + 1 :] if directory else path
        if any(glob_matches(p.removeprefix("./"), rel.removeprefix("./")) for p in patterns):
            return None
        listed = ", ".join(patterns)
        return f"{path} is not matched by {listed} (the test patterns of `{source}`)"
    return None


def _rules_in(directory: str, read: Reader) -> tuple[str, tuple[str, ...]] | None:
    """(config, patterns) of the one runner configured in ``directory``; ("", ()) when none
    is configured there; None when what is configured cannot be known."""

    def at(name: str) -> str:
        return posixpath.join(directory, name) if directory else name

    manifest_source = read(at("package.json"))
    manifest = _json(manifest_source.text) if manifest_source is not None else None
    if manifest_source is not None and not isinstance(manifest, dict):
        return None
    found: list[tuple[str, tuple[str, ...] | None]] = []
    if isinstance(manifest, dict) and "jest" in manifest:
        found.append((at("package.json"), _jest(manifest["jest"])))
    jest_json = read(at("jest.config.json"))
    if jest_json is not None:
        found.append((at("jest.config.json"), _jest(_json(jest_json.text))))
    for name in _JEST:
        if read(at(name)) is not None:
            found.append((at(name), None))  # a script config: not literal
    for name in _VITEST:
        config = read(at(name))
        if config is not None:
            found.append((at(name), _vitest(config, name)))
    others = [n for n in _OTHER_RUNNERS if read(at(n)) is not None]
    if not found and not others:
        return "", ()
    script = ""
    if isinstance(manifest, dict) and isinstance(manifest.get("scripts"), dict):
        script = str(manifest["scripts"].get("test", ""))
    if others or len(found) != 1 or _SCRIPT_RUNNERS.search(script) or _names_files(script):
        return None
    source, patterns = found[0]
    if patterns is None or not all(_PLAIN_GLOB.match(p) for p in patterns):
        return None
    return source, patterns


def _jest(config: object) -> tuple[str, ...] | None:
    if not isinstance(config, dict):
        return None
    if "testRegex" in config or "projects" in config or "preset" in config:
        return None
    match = config.get("testMatch")
    if isinstance(match, list) and match and all(isinstance(m, str) for m in match):
        return tuple(match)
    return None  # jest's default testMatch uses extglobs: left to the path rules


def _vitest(source: Source, name: str) -> tuple[str, ...] | None:
    """``test: { include: ['...'] }`` written as literals in a vite/vitest config."""
    from tribunal.lang.js import syntax as js

    language = "typescript" if name.endswith(("ts", "mts", "cts")) else "javascript"
    root = js.parse(source.data, language).root_node
    if root.has_error or b"workspace" in source.data or b"projects" in source.data:
        return None
    includes = []
    for node in js.captures(js.query(language, _INCLUDE), root).get("v", []):
        owner = node.parent.parent if node.parent is not None else None
        pair = owner.parent if owner is not None else None
        key = pair.child_by_field_name("key") if pair is not None else None
        if key is not None and js.text(key).strip("'\"") == "test":
            includes.append(node)
    if len(includes) != 1:
        return None
    values = [js.string_value(item) for item in includes[0].named_children]
    if not values or any(v is None for v in values):
        return None
    return tuple(v for v in values if v is not None)


_INCLUDE = '(pair key: (property_identifier) @k value: (array) @v (#eq? @k "include"))'


def _names_files(script: str) -> bool:
    return any(
        "/" in word or "*" in word or word.endswith((".js", ".ts"))
        for word in script.split()[1:]
        if not word.startswith("-")
    )


def _json(text: str) -> object:
    try:
        return load_json(text)
    except ValueError:  # not JSON, or nested too deeply to read
        return None
