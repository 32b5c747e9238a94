"""Parsers of text a change, a commit message, a PR body or a config holds, for ``fuzzing``.

Each target takes the hostile text and returns the call to time (setup, such as
a commit holding a ``.gitignore``, is not timed). Errors a parser reports for
bad input are fine; only time counts.
"""

from __future__ import annotations

import contextlib
import os
import re
import subprocess
import tempfile
from collections.abc import Callable
from pathlib import Path

Call = Callable[[], object]


def _quiet(call: Callable[[], object]) -> Call:
    def run() -> object:
        with contextlib.suppress(ValueError, LookupError):
            return call()
        return None

    return run


def claims_file(text: str) -> Call:
    from tribunal.claims.parse import file_claims

    return lambda: file_claims(text)


def claim_line(text: str) -> Call:
    from tribunal.claims.parse import parse_claim

    line = "no-new-dependency: x" + text.replace("\n", " ") + "y"
    return lambda: parse_claim(line)


def pr_body(text: str) -> Call:
    from tribunal.claims.parse import block_claims, strip_html_comments

    body = "```tribunal\nadded-test\n" + text
    return lambda: (block_claims(body), [strip_html_comments(line) for line in body.split("\n")])


def trailers(text: str) -> Call:
    from tribunal.claims.sources import CommitMessage, commit_claims

    message = "subject\n\n" + text
    values = tuple(
        line.split(":", 1)[1].strip()
        for line in message.split("\n")
        if line.startswith("Tribunal-Claim:") and line.split(":", 1)[1].strip()
    )
    return lambda: commit_claims(CommitMessage("0" * 40, message, values))


def suppression(text: str) -> Call:
    from tribunal.suppress import parse_marker

    return lambda: [parse_marker(line) for line in text.split("\n")]


def tsconfig(text: str) -> Call:
    from tribunal.analyzers.hallucinated_symbol import jsonc

    return _quiet(lambda: jsonc.loads(text))


def package_json(text: str) -> Call:
    from tribunal.analyzers.hallucinated_symbol.js_packages import map_targets
    from tribunal.analyzers.test_tampering.runners import _from_package
    from tribunal.bounds import load_json
    from tribunal.claims.manifests import parse_manifest
    from tribunal.lang.js_project import _setup_values

    def run() -> object:
        parse_manifest("package.json", text)
        _from_package(text)
        list(_setup_values(text))
        with contextlib.suppress(ValueError):
            list(map_targets(load_json(text)))
        return None

    return run


def tribunal_yml(text: str) -> Call:
    from tribunal.config import parse_config
    from tribunal.errors import ConfigError

    def run() -> object:
        with contextlib.suppress(ConfigError):
            return parse_config(text, "tribunal.yml")
        return None

    return run


def js_test_call(text: str) -> Call:
    from tribunal.analyzers.assertion_free_test.jsts import has_test_call

    return lambda: has_test_call(text)


def gitignore(text: str) -> Call:
    """git's own matcher, through the scratch repository ``CommitIgnores`` lays out."""
    from tribunal.analyzers.hallucinated_symbol.commit_ignores import CommitIgnores
    from tribunal.errors import GitError
    from tribunal.gitcmd import Git

    repo = Path(tempfile.mkdtemp(dir=os.environ.get("TRIBUNAL_FUZZ_DIR")))
    env = {**os.environ, "GIT_CONFIG_NOSYSTEM": "1", "HOME": str(repo)}
    (repo / ".gitignore").write_text(text)
    for args in (
        ["init", "-q"],
        ["add", "-f", ".gitignore"],
        ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "rules"],
    ):
        subprocess.run(["git", *args], cwd=repo, env=env, check=True)
    name = "a" * 200 + "/" + "ab" * 50 + ".py"

    def run() -> object:
        with Git(repo) as git:
            ignores = CommitIgnores(git, repo, "HEAD")
            try:  # git itself may give up on such rules (it crashed on some): "cannot say"
                return ignores.ask([name, "src/x.py"])
            except (GitError, OSError):
                return None
            finally:
                ignores.close()

    return run


def cases(target: str, delimiters: list[str]) -> list[tuple[str, Callable[[str], Call], str]]:
    """What a child measures: ``target`` on each delimiter, or each pattern on its own."""
    if target != "every_pattern":
        prepare = globals()[target]
        return [(target, prepare, d) for d in delimiters]
    out: list[tuple[str, Callable[[str], Call], str]] = []
    for name, pattern in patterns().items():
        for delimiter in own_delimiters(pattern):
            out.append((name, _finditer(pattern), delimiter))
    return out


def _finditer(pattern: re.Pattern[str] | re.Pattern[bytes]) -> Callable[[str], Call]:
    """Search the whole text, as ``finditer``, ``sub`` and ``search`` all may."""

    def prepare(text: str) -> Call:
        subject = text.encode() if isinstance(pattern.pattern, bytes) else text
        return lambda: sum(1 for _ in pattern.finditer(subject))  # type: ignore[arg-type]

    return prepare


def own_delimiters(pattern: re.Pattern[str] | re.Pattern[bytes]) -> list[str]:
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


#: Patterns applied only at one position (``match``/``fullmatch`` at a known offset, or
#: on short values such as an environment variable), so ``finditer`` over a whole
#: text is not how they run: each call is one left-anchored, linear attempt.
ANCHORED = {
    "tribunal.analyzers.hallucinated_symbol.js_exports._IDENTIFIER",
    "tribunal.analyzers.hallucinated_symbol.pydeps._NAME",
    "tribunal.claims.manifests._NAME",
    "tribunal.lang.js_module._DOTTED",
    "tribunal.lang.js_module._LEAD",
    "tribunal.github.truncate._FENCE_OPEN",
    "tribunal.github.context._REPOSITORY",
    "tribunal.hooks.ranges._NUMBERS",
    "tribunal.llm.config._MEMBER_FLAG",
    "tribunal.claims.parse._FENCE_OPEN",
    "tribunal.lang.js_project._STRING_BODIES",
    # matched at the loop's offset; an unclosed string there is consumed by ``_UNCLOSED``
    "tribunal.analyzers.hallucinated_symbol.jsonc._PLAIN",
}


def patterns() -> dict[str, re.Pattern[str] | re.Pattern[bytes]]:
    """Every compiled (or ``lazy``) module-level pattern of the ``tribunal`` package."""
    import importlib
    import pkgutil

    import tribunal

    out: dict[str, re.Pattern[str] | re.Pattern[bytes]] = {}
    for info in pkgutil.walk_packages(tribunal.__path__, "tribunal."):
        if info.name.endswith("__main__"):
            continue
        module = importlib.import_module(info.name)
        for name, value in vars(module).items():
            key = f"{info.name}.{name}"
            if callable(value) and hasattr(value, "cache_info") and hasattr(value, "__wrapped__"):
                with contextlib.suppress(TypeError):
                    value = value()
            if isinstance(value, re.Pattern) and key not in ANCHORED:
                out[key] = value
    return out
