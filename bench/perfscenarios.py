"""The scenarios ``python -m bench.perf`` measures: one per row of the targets table.

Each row runs one piece of work on a generated repository (``perfgen``,
``perfgen_big``), with a time and a memory target; the rows of the speed issue
can also run through the reference tool (the TypeScript Tribunal) when the
command that starts it is given in ``$TRIBUNAL_BENCH_REFERENCE``, so that the
ratio, the figure that holds from one machine to another, can be printed. The
reference is started as ``<that command> check ...`` with the same arguments as
tribunal's own row (less ``--format json``): a reference whose command line
differs is wrapped in a small script. Without it the absolute targets decide.
"""

from __future__ import annotations

import os
import shlex
from dataclasses import dataclass
from pathlib import Path

from bench import perfgen, perfgen_big

#: The reference tool's command line (shell words), for the rows it can run.
REFERENCE_ENV = "TRIBUNAL_BENCH_REFERENCE"


@dataclass(frozen=True)
class Scenario:
    name: str
    argv: tuple[str, ...]
    cwd: Path
    target_ms: float | None
    target_mib: float | None
    #: Most reference time this may take (0.3: at most 0.3x the reference).
    target_ratio: float | None = None
    #: The same work for the reference tool, when it has such a command.
    reference: tuple[str, ...] | None = None
    #: Removed before every run (a convene's cached summaries).
    fresh: Path | None = None
    #: A heavy row: measured ``--heavy-runs`` times rather than ``--runs``.
    heavy: bool = False


@dataclass(frozen=True)
class Repos:
    small: Path  # 2,000 files, one Python test file staged
    ts: Path  # 300 TS files, one new test file staged
    range300: Path
    base300: str
    range3k: Path
    base3k: str
    big: Path  # origin/main and a 20,000-file main on top


#: Every row, by a short name for ``--only``.
ROWS = ("floor", "version", "py-staged", "ts-staged", "range-300", "range-3000", "push-20000")


#: ``--quick`` divides every repository's size by this: the same work, small enough
#: for a test or CI to run every row in seconds (its numbers judge nothing).
QUICK_SCALE = 50


def generate(root: Path, env: dict[str, str], rows: tuple[str, ...], scale: int = 1) -> Repos:
    """The repositories ``rows`` need (the others are left as empty paths).

    ``scale`` divides every size (files, changed files, tests) for a quick run.
    """
    paths = {name: root / name for name in ("small", "ts", "range300", "range3k", "big")}
    bases = {"range300": "", "range3k": ""}
    if {"floor", "version", "py-staged"} & set(rows):
        perfgen.small_repo(paths["small"], env, files=max(2000 // scale, 10))
    if "ts-staged" in rows:
        perfgen.ts_repo(paths["ts"], env, files=max(300 // scale, 12))
    if "range-300" in rows:
        bases["range300"] = perfgen.range_repo(
            paths["range300"], env, changed=max(300 // scale, 3), tests=max(100 // scale, 1)
        )
    if "range-3000" in rows:
        bases["range3k"] = perfgen.range_repo(
            paths["range3k"], env, changed=max(3000 // scale, 3), tests=max(1000 // scale, 1)
        )
    if "push-20000" in rows:
        perfgen_big.big_commit_repo(paths["big"], env, scale=scale)
    return Repos(
        paths["small"],
        paths["ts"],
        paths["range300"],
        bases["range300"],
        paths["range3k"],
        bases["range3k"],
        paths["big"],
    )


def build(repos: Repos, python: str, rows: tuple[str, ...]) -> list[Scenario]:
    """The scenarios of ``rows``, run by ``python``."""
    reference = reference_command()
    tribunal = (python, "-m", "tribunal")
    check = (*tribunal, "check", "--format", "json")

    def ref(*args: str) -> tuple[str, ...] | None:
        return (*reference, *args) if reference else None

    staged = ("check", "--staged")
    range300 = ("check", "--base", repos.base300, "--head", "HEAD")
    range3k = ("check", "--base", repos.base3k, "--head", "HEAD")
    runs_dir = repos.big / ".git" / "tribunal" / "runs"
    every = {
        "floor": Scenario("python -c pass (start-up floor)", (python, "-c", "pass"),
                          repos.small, None, None),
        "version": Scenario("tribunal --version", (*tribunal, "--version"),
                            repos.small, None, None),
        "py-staged": Scenario("check --staged: 1 Python test, 2,000 files",
                              (*check, "--staged"), repos.small, 100, 80),
        "ts-staged": Scenario("check --staged: 1 new TS test, 300 files",
                              (*check, "--staged"), repos.ts, 100, 80, 0.3, ref(*staged)),
        "range-300": Scenario("range: 300 JS/TS (200 modules, 100 tests)",
                              (*check, *range300[1:]), repos.range300, 850, 80, 0.3,
                              ref(*range300)),
        "range-3000": Scenario("range: 3,000 JS/TS (2,000 modules, 1,000 tests)",
                               (*check, *range3k[1:]), repos.range3k, 5000, 150, None,
                               ref(*range3k), heavy=True),
        "push-20000": Scenario("convene at pre-push: 20,000-file Python commit",
                               (*tribunal, "convene", "--ref", "main", "--remote", "origin"),
                               repos.big, 40_000, 200, fresh=runs_dir, heavy=True),
    }  # fmt: skip
    return [every[name] for name in ROWS if name in rows]


def reference_command() -> tuple[str, ...]:
    """The reference tool's command from ``$TRIBUNAL_BENCH_REFERENCE`` (empty: not given)."""
    return tuple(shlex.split(os.environ.get(REFERENCE_ENV, "")))
