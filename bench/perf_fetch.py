"""``python -m bench.perf_fetch``: what the reference-transaction hook adds to a fetch.

git runs that hook twice for every ref a fetch moves (``prepared`` and
``committed``), so it must stay out of the way: its POSIX-sh prefilter drains
stdin and starts Python only for transactions that look like a push. Budget:
at most 20 ms added to the median of a fetch that updates one ref.

Two clones of one bare remote fetch the same update, one with the hook
installed (``tribunal install --audit-only``) and one without, interleaved
run by run so that both see the same machine load. Before each pair a third
clone pushes one new commit (outside the timing). Scenarios:

- a fetch that moves one existing remote-tracking ref (the common case);
- a fetch that creates one new remote-tracking ref (a colleague's branch: the
  all-zero old value that a push also shows, told apart by the parent command).
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from bench import perfgen
from bench.perf import measure

BUDGET_MS = 20.0
MIN_RUNS = 15


def setup(root: Path, env: dict[str, str]) -> tuple[Path, Path, Path]:
    """A bare remote, a pusher, and two fetching clones (the second with the hook)."""
    remote = root / "remote.git"
    subprocess.run(["git", "init", "-q", "--bare", "-b", "main", str(remote)], check=True, env=env)
    pusher = root / "pusher"
    perfgen.init(pusher, env)
    perfgen.write(pusher, {"a.txt": "init\n"})
    perfgen.commit(pusher, "init", env)
    perfgen.git(pusher, "remote", "add", "origin", str(remote), env=env)
    perfgen.git(pusher, "push", "-q", "origin", "main", env=env)
    clones = []
    for name in ("plain", "hooked"):
        clone = root / name
        subprocess.run(["git", "clone", "-q", str(remote), str(clone)], check=True, env=env)
        clones.append(clone)
    audited = subprocess.run(
        [sys.executable, "-m", "tribunal", "install", "--audit-only"],
        cwd=clones[1],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    if audited.returncode != 0:
        raise SystemExit(f"tribunal install --audit-only failed: {audited.stderr}")
    return pusher, clones[0], clones[1]


def pair(
    pusher: Path, plain: Path, hooked: Path, env: dict[str, str], n: int, new_ref: bool
) -> tuple[float, float]:
    """Push one update, then time ``git fetch`` in both clones (order alternating)."""
    perfgen.write(pusher, {"a.txt": f"{n}\n"})
    perfgen.commit(pusher, f"change {n}", env)
    target = f"refs/heads/b{n}" if new_ref else "refs/heads/main"
    perfgen.git(pusher, "push", "-q", "origin", f"HEAD:{target}", env=env)
    order = [(plain, 0), (hooked, 1)] if n % 2 else [(hooked, 1), (plain, 0)]
    times = [0.0, 0.0]
    for clone, slot in order:
        sample = measure(("git", "fetch", "-q", "origin"), clone, env)
        if sample.code != 0:
            raise SystemExit(f"git fetch failed in {clone}: exit {sample.code}")
        times[slot] = sample.wall_ms
    return times[0], times[1]


def scenario(
    paths: tuple[Path, Path, Path], env: dict[str, str], runs: int, new_ref: bool, label: str
) -> float:
    pusher, plain, hooked = paths
    pair(pusher, plain, hooked, env, 0 if not new_ref else 10_000, new_ref)  # warm-up
    base = 1 if not new_ref else 10_001
    results = [pair(pusher, plain, hooked, env, base + i, new_ref) for i in range(runs)]
    without = statistics.median(r[0] for r in results)
    with_hook = statistics.median(r[1] for r in results)
    added = with_hook - without
    print(
        f"{label:<38} {without:>9.1f} {with_hook:>10.1f} {added:>+9.1f}"
        f"   (min {min(r[1] for r in results):.1f}, max {max(r[1] for r in results):.1f})",
        flush=True,
    )
    return added


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.perf_fetch", description=__doc__)
    parser.add_argument("--runs", type=int, default=21, help=f"measured pairs (>= {MIN_RUNS})")
    parser.add_argument("--check", action="store_true", help="exit 1 if the budget is missed")
    args = parser.parse_args(argv)
    root = Path(tempfile.mkdtemp(prefix="tribunal-perf-fetch-"))
    (root / "home").mkdir()
    env = perfgen.bench_env(root / "home")
    try:
        paths = setup(root, env)
        print(
            f"{'fetch (median ms, ' + str(args.runs) + ' runs)':<38} {'no hook':>9} "
            f"{'with hook':>10} {'added':>9}"
        )
        moved = scenario(paths, env, args.runs, False, "one existing ref moves")
        created = scenario(paths, env, args.runs, True, "one new ref arrives")
    finally:
        shutil.rmtree(root, ignore_errors=True)
    worst = max(moved, created)
    print(f"the hook adds at most {worst:.1f} ms to a one-ref fetch (budget {BUDGET_MS:.0f} ms)")
    if args.runs < MIN_RUNS:
        print(f"(fewer than {MIN_RUNS} runs: not a measurement to quote)")
    return 1 if args.check and worst > BUDGET_MS else 0


if __name__ == "__main__":
    raise SystemExit(main())
