"""``python -m bench.perf_hooks``: what the git hooks add on top of ``tribunal check``.

Scenarios (each run ``--runs`` times after one warm-up, like ``bench.perf``):

- a 50,000-file repository (built with ``git fast-import``, so generating it
  takes seconds) whose pushed commit changes 5 files:
  ``tribunal check --base origin/main --head main`` against
  ``tribunal convene --ref main --remote origin`` with no cached summary (the
  worktree, lenses, summary.json and the gate included; target: at most 0.5 s
  more than check), and the same convene when its summary is reused;
- a 1-file staged change in a 2,000-file repository (``bench.perfgen``):
  ``tribunal check --staged``, ``tribunal hook pre-commit``, and the same hook
  run by the pre-commit framework (``pre-commit run``, a ``repo: local`` hook, so
  the number is the framework's own overhead and no environment is built).
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from bench import perfgen, perfgen_big
from bench.perf import MIB, Sample, measure

CHANGED = 5
CONVENE_BUDGET_MS = 500.0


def fast_import_repo(repo: Path, env: dict[str, str], files: int) -> None:
    """A repository whose ``origin/main`` has ``files`` files and whose ``main`` changes 5."""
    perfgen.init(repo, env)
    changed = [4, 5, 8, 9, 7]  # 2 modules, 2 tests, 1 doc
    base = {_path(n): _content(n, 0) for n in range(files)}
    head = {_path(n): _content(n, 1) for n in changed}
    perfgen_big.fast_import(
        repo,
        env,
        [
            perfgen_big.Commit("refs/remotes/origin/main", "base", base),
            perfgen_big.Commit("refs/heads/main", "change 5 files", head, parent=True),
        ],
    )
    perfgen_big.remote_tracking(repo, env)


def _path(n: int) -> str:
    kind = n % 4
    if kind == 0:
        return f"pkg/sub{n % 50}/mod_{n}.py"
    if kind == 1:
        return f"tests/sub{n % 50}/test_mod_{n}.py"
    if kind == 2:
        return f"web/src/part{n % 50}/comp_{n}.ts"
    return f"docs/sub{n % 50}/page_{n}.md"


def _content(n: int, variant: int) -> str:
    kind = n % 4
    if kind == 0:
        return perfgen.python_module(n, variant)
    if kind == 1:
        return perfgen.python_test(n, variant)
    if kind == 2:
        return perfgen.ts_module(n, variant)
    return f"# Page {n}\n\n" + "Some prose.\n" * (20 + variant)


def timed(
    argv: Sequence[str], cwd: Path, env: dict[str, str], runs: int, fresh: Path | None = None
) -> list[Sample]:
    """``runs`` samples after a warm-up; ``fresh`` (a directory) is removed before each run."""
    samples = []
    for _ in range(runs + 1):
        if fresh is not None:
            shutil.rmtree(fresh, ignore_errors=True)
        samples.append(measure(argv, cwd, env))
    return samples[1:]


def line(name: str, samples: list[Sample]) -> str:
    walls = [s.wall_ms for s in samples]
    peak = max(s.peak_rss for s in samples) / MIB
    codes = sorted({s.code for s in samples})
    return (
        f"{name:<44} {statistics.median(walls):>8.1f} {min(walls):>8.1f} {max(walls):>8.1f} "
        f"{peak:>9.1f}  exit {codes}"
    )


def precommit_config(repo: Path) -> None:
    py = sys.executable
    (repo / ".pre-commit-config.yaml").write_text(
        "repos:\n  - repo: local\n    hooks:\n      - id: tribunal\n        name: tribunal\n"
        f"        entry: {py} -m tribunal hook pre-commit\n        language: system\n"
        "        pass_filenames: false\n        always_run: true\n        require_serial: true\n"
        "        verbose: true\n        stages: [pre-commit]\n",
        encoding="utf-8",
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.perf_hooks", description=__doc__)
    parser.add_argument("--runs", type=int, default=5, help="measured runs per scenario")
    parser.add_argument("--files", type=int, default=50_000, help="files in the large repository")
    parser.add_argument(
        "--check", action="store_true", help="exit 1 if the convene budget is missed"
    )
    args = parser.parse_args(argv)
    root = Path(tempfile.mkdtemp(prefix="tribunal-perf-hooks-"))
    (root / "home").mkdir()
    env = perfgen.bench_env(root / "home")
    py = sys.executable
    try:
        big = root / "big"
        fast_import_repo(big, env, args.files)
        small = root / "small"
        perfgen.small_repo(small, env)
        precommit_config(small)
        print(f"{'scenario':<44} {'median':>8} {'min':>8} {'max':>8} {'peak MiB':>9}")
        check = timed(
            (py, "-m", "tribunal", "check", "--base", "origin/main", "--head", "main"),
            big,
            env,
            args.runs,
        )
        print(line(f"check: {CHANGED} of {args.files:,} files", check), flush=True)
        convene_argv = (py, "-m", "tribunal", "convene", "--ref", "main", "--remote", "origin")
        runs_dir = big / ".git" / "tribunal" / "runs"
        fresh = timed(convene_argv, big, env, args.runs, fresh=runs_dir)
        print(line("convene (fresh: worktree, lenses, summary, gate)", fresh), flush=True)
        reused = timed(convene_argv, big, env, args.runs)
        print(line("convene (summary reused)", reused), flush=True)
        staged = timed((py, "-m", "tribunal", "check", "--staged"), small, env, args.runs)
        print(line("check --staged: 1 of 2,000 files", staged), flush=True)
        hook = timed((py, "-m", "tribunal", "hook", "pre-commit"), small, env, args.runs)
        print(line("hook pre-commit: 1 of 2,000 files", hook), flush=True)
        framework = timed((py, "-m", "pre_commit", "run", "tribunal"), small, env, args.runs)
        print(line("pre-commit run tribunal (framework)", framework), flush=True)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    added = statistics.median(s.wall_ms for s in fresh) - statistics.median(
        s.wall_ms for s in check
    )
    print(f"convene adds {added:.0f} ms to check (target <= {CONVENE_BUDGET_MS:.0f} ms)")
    return 1 if args.check and added > CONVENE_BUDGET_MS else 0


if __name__ == "__main__":
    raise SystemExit(main())
