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


def comment_mention(text: str) -> Call:
    """How strongly a comment line mentions a declaration's name (comment-code-drift)."""
    from tribunal.analyzers.comment_code_drift.mentions import strongest

    line = "# " + text + "name"
    return lambda: strongest(line, "name", frozenset({"Owner"}))


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
    from tribunal.gate.suppress import parse_marker

    return lambda: [parse_marker(line) for line in text.split("\n")]


def tsconfig(text: str) -> Call:
    from tribunal.analyzers.hallucinated_symbol import jsonc

    return _quiet(lambda: jsonc.loads(text))


def package_json(text: str) -> Call:
    from tribunal.analyzers.hallucinated_symbol.js_packages import map_targets
    from tribunal.analyzers.test_tampering.runners import _from_package
    from tribunal.lang.js.project import _setup_values
    from tribunal.lang.manifests import parse_manifest
    from tribunal.util.bounds import load_json

    def run() -> object:
        parse_manifest("package.json", text)
        _from_package(text)
        list(_setup_values(text))
        with contextlib.suppress(ValueError):
            list(map_targets(load_json(text)))
        return None

    return run


def requirements(text: str) -> Call:
    """A requirements file: its entries, and whether it looks like a lock file."""
    from tribunal.lang.manifests import parse_manifest

    return lambda: parse_manifest("requirements.txt", text)


def tribunal_yml(text: str) -> Call:
    from tribunal.config.load import parse_config
    from tribunal.errors import ConfigError

    def run() -> object:
        with contextlib.suppress(ConfigError):
            return parse_config(text, "tribunal.yml")
        return None

    return run


def js_test_call(text: str) -> Call:
    from tribunal.analyzers.assertion_free_test.jsts import has_test_call

    return lambda: has_test_call(text)


#: Globs that a backtracking matcher retries every split of a name for.
HOSTILE_GLOBS = ("*a*a*a*a*a*a*b", "**/a/**/a/**/a/**/b", "?*?*?*?*?*b", "a*" * 16 + "/")


def generated_path(text: str) -> Call:
    """The text as a path, against hostile ``generated-paths`` globs."""
    from tribunal.lang.paths import is_generated

    return lambda: is_generated(text, HOSTILE_GLOBS)


def generated_glob(text: str) -> Call:
    """The text as ``generated-paths`` globs, as many and as long as ``tribunal.yml`` admits,
    against a long hostile path."""
    from tribunal.config.load import MAX_GLOB_CHARS, MAX_GLOBS
    from tribunal.lang.paths import _combined

    size = MAX_GLOB_CHARS
    globs = tuple(text[i : i + size] for i in range(0, len(text), size))[:MAX_GLOBS]
    path = "a" * 3000 + "/" + "ab" * 600

    def run() -> object:
        _combined.cache_clear()
        return _combined(globs).matches(path)

    return run


def gitignore(text: str) -> Call:
    """git's own matcher, through the scratch repository ``CommitIgnores`` lays out."""
    from tribunal.analyzers.hallucinated_symbol.commit_ignores import CommitIgnores
    from tribunal.errors import GitError
    from tribunal.git.cmd import Git

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


def cases(target: str, arguments: list[str]) -> list[tuple[str, Callable[[str], Call], str]]:
    """What a child measures: a parser on each of its delimiters (``arguments``), or, for
    ``every_pattern``, shard ``k`` of ``n`` (``arguments``) of the package's patterns, each
    on its own delimiters."""
    if target != "every_pattern":
        prepare = globals()[target]
        return [(target, prepare, d) for d in arguments]
    from tests.fuzz_patterns import own_delimiters, sites

    shard, shards = (int(a) for a in arguments)
    out: list[tuple[str, Callable[[str], Call], str]] = []
    for site in sites()[shard::shards]:
        for delimiter in own_delimiters(site.pattern):
            out.append((site.name, _applied(site.pattern, site.anchored), delimiter))
    return out


def _applied(pattern: re.Pattern[str] | re.Pattern[bytes], anchored: bool) -> Callable[[str], Call]:
    """One ``match`` at the start for an anchored pattern; else the whole text searched, as
    ``finditer``, ``sub`` and ``search`` all may."""

    def prepare(text: str) -> Call:
        subject = text.encode() if isinstance(pattern.pattern, bytes) else text
        if anchored:
            return lambda: pattern.match(subject)  # type: ignore[arg-type]
        return lambda: sum(1 for _ in pattern.finditer(subject))  # type: ignore[arg-type]

    return prepare
