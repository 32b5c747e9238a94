"""Drive the real engine in-process on a real repository: the analyzer tests' one harness.

A scenario commits a base and a head in a temporary git repository, builds the
``Change`` that ``tribunal check --base B --head H`` would, and runs analyzers
on it: diff parsing, snapshots, suppressions, claims and the analyzers are
all the real ones, without a subprocess per case. Claims are loaded the way
``check`` loads them (a claims file, and the commit messages of the range).
"""

from __future__ import annotations

import contextlib
import textwrap
from collections.abc import Iterator, Mapping
from contextlib import contextmanager

from tests.gitrepo import GitRepo
from tribunal.change.model import Change
from tribunal.config.load import parse_config
from tribunal.config.model import Config
from tribunal.engine.runner import analyze
from tribunal.engine.sources import Selection, build_change
from tribunal.findings import Finding
from tribunal.git.cmd import Git

Files = Mapping[str, str | bytes | None]
CLAIMS = "claim-reconciliation"


def src(text: str) -> str:
    return textwrap.dedent(text).lstrip("\n")


@contextmanager
def change_for(repo: GitRepo, sel: Selection, config: Config | None = None) -> Iterator[Change]:
    """The Change ``tribunal check`` builds for ``sel``, open while its git reader is."""
    with Git(repo.path) as git:
        yield build_change(sel, git, repo.path, repo.path, config or Config())


def change_between(
    repo: GitRepo, base: str, head: str, config: Config | None = None
) -> contextlib.AbstractContextManager[Change]:
    """The Change from commit ``base`` to ``head`` (``--base B --head H``)."""
    return change_for(repo, Selection(base=base, head=head), config)


def run_range(
    repo: GitRepo,
    base: Files,
    head: Files,
    analyzer: str,
    *,
    claims: str | None = None,
    message: str = "head",
    config: str | None = None,
) -> list[Finding]:
    """Commit ``base`` then ``head``; the analyzer's findings for the range (no crashes allowed)."""
    base_sha = repo.commit(base, "base")
    head_sha = repo.commit(head, message)
    return findings_for(repo, base_sha, head_sha, analyzer, claims=claims, config=config)


def findings_for(
    repo: GitRepo,
    base: str,
    head: str,
    analyzer: str,
    *,
    claims: str | None = None,
    config: str | None = None,
) -> list[Finding]:
    """The analyzer's findings between two commits; ``claims``: a claims file's text.

    Claims are read only for claim-reconciliation, the one analyzer that uses them.
    """
    cfg = parse_config(config, "tribunal.yml") if config else Config()
    claims_file = None
    if claims is not None:
        claims_file = repo.path.parent / "claims.md"
        claims_file.write_text(claims, encoding="utf-8")
    with change_between(repo, base, head, cfg) as change:
        if analyzer == CLAIMS or claims_file is not None:
            from tribunal.claims.sources import load_claims

            named = str(claims_file) if claims_file else None
            change.claims = load_claims(change, claims_file=named, cwd=repo.path)
        report = analyze(change, only=[analyzer])
    assert report.errors == (), [e.traceback for e in report.errors]
    return [f for f in report.findings if f.analyzer == analyzer]


#: Modules of ``many_files_range`` (each a Python module, a Python test and a TS module).
MANY_MODULES = 40


def many_module(n: int, factor: int) -> str:
    """Module ``n`` of ``many_files_range``: two functions, a docstring and a comment."""
    return (
        f'"""Module {n}."""\n\n\ndef f_{n}(x):\n    """Return x times {factor}; see g_{n}."""\n'
        f"    return x * {factor}\n\n\ndef g_{n}(x):\n    # f_{n} does the work\n"
        f"    return f_{n}(x) + {n}\n"
    )


def _test(n: int, extra: str = "") -> str:
    return (
        f"from pkg.mod_{n} import f_{n}\n\n\ndef test_f_{n}():\n    f_{n}(1)\n\n\n"
        f"def test_g_{n}():\n    assert f_{n}(2) == {2 * n}\n{extra}"
    )


def _script(n: int, variant: int) -> str:
    return (
        f"import {{ helper }} from './helper';\n\n"
        f"export function step{n}(value: number): number {{\n"
        f"  return helper() + value * {variant} + {n};\n}}\n"
    )


def many_files_range(repo: GitRepo) -> tuple[str, str]:
    """A range over ~160 files: Python modules and tests, TS modules; both sides parse.

    Every analyzer has work in it (edited declarations under comments, new tests
    that assert nothing, imports): big enough for the engine's bounds and workers.
    """
    base = {f"pkg/mod_{n}.py": many_module(n, 1) for n in range(MANY_MODULES)}
    base |= {f"tests/test_mod_{n}.py": _test(n) for n in range(0, MANY_MODULES, 2)}
    base |= {f"web/step{n}.ts": _script(n, 1) for n in range(MANY_MODULES)}
    base["web/helper.ts"] = "export function helper(): number {\n  return 1;\n}\n"
    head = {f"pkg/mod_{n}.py": many_module(n, 2) for n in range(MANY_MODULES)}
    empty = "\n\ndef test_new():\n    pass\n"
    head |= {f"tests/test_mod_{n}.py": _test(n, empty) for n in range(MANY_MODULES)}
    head |= {f"web/step{n}.ts": _script(n, 2) for n in range(MANY_MODULES)}
    return repo.commit(base, "base"), repo.commit(head, "head")
