"""Which JS test runner runs a file, as far as the repository says so statically.

Whether ``it.only`` silences the rest of a file depends on the runner: Jest,
Vitest and Mocha honour ``.only``; Jasmine (and Jest) honour ``fit`` and
``fdescribe``; ``node:test`` ignores ``.only`` unless run with
``--test-only``; Jasmine has no ``.only`` (it throws). The runner is read, in
order, from the test API's import (``import { it } from 'vitest'``), from any
other runner import in the file, and for globals from the repository: the
dependencies and scripts of every ``package.json`` from the file's directory
up to the root, and runner config files next to them. Only runners that
define ``it``/``describe`` as globals count for a global call.
"""

import posixpath
from typing import NamedTuple

from tribunal.change.model import Change
from tribunal.lang.per_change import PerChange
from tribunal.lang.treepaths import ancestor_dirs
from tribunal.util.bounds import load_json
from tribunal.util.lazyre import lazy

#: Base names whose focus each runner honours.
FOCUS_NAMES = {
    "jest": frozenset({"it", "test", "describe", "fit", "fdescribe"}),
    "vitest": frozenset({"it", "test", "describe", "suite"}),
    "mocha": frozenset({"it", "describe", "context", "specify"}),
    "jasmine": frozenset({"fit", "fdescribe"}),
    # Playwright's ``test`` must be imported; ``test.only`` and ``test.describe.only`` focus.
    "playwright": frozenset({"test"}),
    # Cypress runs Mocha in the browser: ``it.only`` / ``describe.only`` focus the spec.
    "cypress": frozenset({"it", "describe", "context", "specify"}),
}
#: Runners that define the test API as globals (the others must be imported).
GLOBAL_RUNNERS = frozenset({"jest", "vitest", "mocha", "jasmine", "bun", "karma", "cypress"})

_DEPENDENCIES = {
    "jest": "jest",
    "ts-jest": "jest",
    "babel-jest": "jest",
    "jest-cli": "jest",
    "@jest/core": "jest",
    "react-scripts": "jest",
    "vitest": "vitest",
    "mocha": "mocha",
    "karma-mocha": "mocha",
    "jasmine": "jasmine",
    "jasmine-core": "jasmine",
    "karma-jasmine": "jasmine",
    "bun-types": "bun",
    "@types/bun": "bun",
    "ava": "ava",
    "tap": "tap",
    "tape": "tape",
    "uvu": "uvu",
    "@playwright/test": "playwright",
    "cypress": "cypress",
    # Storybook runs stories as tests: every story renders (a smoke test), a play function
    # is a test body. The Vitest addon (and its experimental name) or the test runner.
    "@storybook/test-runner": "storybook",
    "@storybook/addon-vitest": "storybook",
    "@storybook/experimental-addon-test": "storybook",
}
_COMMANDS = {
    "jest": "jest",
    "vitest": "vitest",
    "mocha": "mocha",
    "jasmine": "jasmine",
    "karma": "karma",
    "ava": "ava",
    "tap": "tap",
    "tape": "tape",
    "uvu": "uvu",
    "playwright": "playwright",
    "cypress": "cypress",
    "test-storybook": "storybook",
}
_CONFIG_FILES = {
    "jest": tuple(f"jest.config.{e}" for e in ("js", "ts", "mjs", "cjs", "json", "mts", "cts")),
    "vitest": (
        *(f"vitest.config.{e}" for e in ("ts", "js", "mts", "mjs", "cts", "cjs")),
        *(f"vitest.workspace.{e}" for e in ("ts", "js", "json")),
    ),
    "mocha": tuple(f".mocharc.{e}" for e in ("js", "cjs", "json", "jsonc", "yml", "yaml")),
    "jasmine": ("jasmine.json", "spec/support/jasmine.json"),
    "karma": ("karma.conf.js", "karma.conf.ts"),
    "bun": ("bunfig.toml",),
    "cypress": (*(f"cypress.config.{e}" for e in ("ts", "js", "mjs", "cjs")), "cypress.json"),
}
_SEPARATORS = lazy(r"&&|\|\||;|\|")
_WRAPPERS = frozenset({"npx", "pnpm", "yarn", "bunx", "exec", "dlx", "cross-env", "dotenv"})


class RepoRunners(NamedTuple):
    runners: frozenset[str]
    evidence: tuple[str, ...]


_MEMO: PerChange[str, RepoRunners] = PerChange()


def repo_runners(change: Change, path: str) -> RepoRunners:
    """Runners the repository configures for ``path`` (memoized per directory)."""
    directory = posixpath.dirname(path)
    return _MEMO.get(change, directory, lambda: _collect(change, directory))


def _collect(change: Change, directory: str) -> RepoRunners:
    found: dict[str, str] = {}
    for folder in ancestor_dirs(directory):
        package = posixpath.join(folder, "package.json") if folder else "package.json"
        source = change.read_head(package)
        if source is not None:
            for runner, why in _from_package(source.text):
                found.setdefault(runner, f"{package} {why}")
        for runner, names in _CONFIG_FILES.items():
            for name in names:
                config = posixpath.join(folder, name) if folder else name
                if runner not in found and change.read_head(config) is not None:
                    found[runner] = config
    return RepoRunners(frozenset(found), tuple(f"{k} ({v})" for k, v in sorted(found.items())))


def _from_package(text: str) -> list[tuple[str, str]]:
    try:
        data = load_json(text)
    except ValueError:
        return []
    if not isinstance(data, dict):
        return []
    out: list[tuple[str, str]] = []
    for key in ("devDependencies", "dependencies", "peerDependencies"):
        deps = data.get(key)
        if isinstance(deps, dict):
            out += [(_DEPENDENCIES[d], f"{key}: {d}") for d in deps if d in _DEPENDENCIES]
            out += [("vitest", f"{key}: {d}") for d in deps if d.startswith("@vitest/")]
    if isinstance(data.get("jest"), dict):
        out.append(("jest", 'has a "jest" key'))
    scripts = data.get("scripts")
    if isinstance(scripts, dict):
        for name, command in scripts.items():
            if isinstance(command, str):
                out += [(r, f'script "{name}"') for r in commands_in(command)]
    return out


def commands_in(script: str) -> list[str]:
    """Runners a package.json script starts: ``cross-env CI=1 jest --ci`` -> ``jest``."""
    out = []
    for part in _SEPARATORS().split(script):
        words = [w for w in part.split() if "=" not in w or w.startswith("-")]
        while words and (words[0] in _WRAPPERS or words[0] == "run"):
            words = words[1:]
        if not words:
            continue
        command = posixpath.basename(words[0])
        if command == "node" and any(w == "--test" or w.startswith("--test=") for w in words):
            out.append("node:test")
        elif command == "bun" and words[1:2] == ["test"]:
            out.append("bun")
        elif command == "react-scripts" and "test" in words:
            out.append("jest")
        elif command == "ng" and "test" in words:
            out.append("karma")
        elif command in _COMMANDS:
            out.append(_COMMANDS[command])
    return out
