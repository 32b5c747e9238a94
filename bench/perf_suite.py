"""``python -m bench.perf_suite``: what the suite lens's own repository costs to set up.

The suite lens used to run in a linked worktree of the user's repository, fully
checked out; it now runs in a throwaway repository of its own
(``tribunal.worktree.suiterepo``). On a 50,000-file repository (the one
``bench.perf_hooks`` builds with ``git fast-import``) this measures, after one
warm-up, ``--runs`` times each (median of at least 5):

- before: ``git worktree add --no-checkout --detach --lock`` and a full checkout
  with ``read-tree -mu HEAD`` under a ``/*`` sparse pattern, as the old
  ``Sandbox.checkout_all`` did;
- now: ``suite_repository()`` up to the point the suite could start (resolve the
  commit, size the tree, ``git init``, alternates, tags, config, checkout);

and, for each, how long removing it takes. Both go to the same place (the
private temp parent on tmpfs when it has room). Target: now <= 1.5x before.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from bench import perfgen
from bench.perf_hooks import fast_import_repo

TARGET_RATIO = 1.5
Timing = tuple[float, float]  # (setup ms, removal ms)


def linked_worktree_checkout(repo: Path, commit: str, parent: Path) -> Timing:
    """The old way: a linked worktree, then every file checked out."""
    path = parent / f"tribunal-wt-{os.getpid()}-bench"
    started = time.perf_counter()
    perfgen.git(
        repo,
        "worktree",
        "add",
        "--no-checkout",
        "--detach",
        "--lock",
        str(path),
        commit,
        env=os.environ,
    )
    sparse = perfgen.git(
        path,
        "rev-parse",
        "--path-format=absolute",
        "--git-path",
        "info/sparse-checkout",
        env=os.environ,
    )
    Path(sparse).parent.mkdir(parents=True, exist_ok=True)
    Path(sparse).write_text("/*\n")
    perfgen.git(
        path,
        "-c",
        "core.sparseCheckout=true",
        "-c",
        "core.sparseCheckoutCone=false",
        "read-tree",
        "-mu",
        "HEAD",
        env=os.environ,
    )
    setup = time.perf_counter() - started
    started = time.perf_counter()
    perfgen.git(repo, "worktree", "remove", "--force", "--force", str(path), env=os.environ)
    shutil.rmtree(path, ignore_errors=True)
    return setup * 1000, (time.perf_counter() - started) * 1000


def suite_repository_setup(repo: Path, commit: str, parent: Path) -> Timing:
    """The new way: the suite's own repository, up to the point the suite could start."""
    from tribunal.worktree.suiterepo import suite_repository

    started = time.perf_counter()
    context = suite_repository(repo, repo / ".git", commit)
    box = context.__enter__()
    setup = time.perf_counter() - started
    assert (box.path / ".git").is_dir()
    started = time.perf_counter()
    context.__exit__(None, None, None)
    return setup * 1000, (time.perf_counter() - started) * 1000


def sample(
    way: Callable[[Path, str, Path], Timing], repo: Path, commit: str, parent: Path, runs: int
) -> list[Timing]:
    return [way(repo, commit, parent) for _ in range(runs + 1)][1:]  # the first warms up


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.perf_suite", description=__doc__)
    parser.add_argument("--runs", type=int, default=5, help="measured runs per way (>= 5)")
    parser.add_argument("--files", type=int, default=50_000, help="files in the repository")
    parser.add_argument("--check", action="store_true", help="exit 1 if the target is missed")
    args = parser.parse_args(argv)
    root = Path(tempfile.mkdtemp(prefix="tribunal-perf-suite-"))
    (root / "home").mkdir()
    env = perfgen.bench_env(root / "home")
    os.environ.clear()
    os.environ.update(env)
    try:
        repo = root / "big"
        fast_import_repo(repo, env, args.files)
        commit = perfgen.git(repo, "rev-parse", "main", env=env)
        from tribunal.git.cmd import Git
        from tribunal.worktree import tempparent
        from tribunal.worktree.suiterepo import tree_size

        size = tree_size(Git(repo), commit)
        parent = tempparent.parent_in(tempparent.choose_base(size))
        print(f"{args.files:,} files, {size / 2**20:.0f} MiB checked out, in {parent}")
        runs = max(5, args.runs)
        before = sample(linked_worktree_checkout, repo, commit, parent, runs)
        now = sample(suite_repository_setup, repo, commit, parent, runs)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    print(f"{'way':<48} {'median':>8} {'min':>8} {'max':>8} {'removal':>8}  (ms)")
    for name, timings in (
        ("before: linked worktree, full checkout", before),
        ("now: the suite's own repository", now),
    ):
        setups = [t[0] for t in timings]
        removal = statistics.median(t[1] for t in timings)
        print(
            f"{name:<48} {statistics.median(setups):>8.0f} {min(setups):>8.0f} "
            f"{max(setups):>8.0f} {removal:>8.0f}"
        )
    ratio = statistics.median(t[0] for t in now) / statistics.median(t[0] for t in before)
    print(f"now / before = {ratio:.2f} (target <= {TARGET_RATIO})")
    return 1 if args.check and ratio > TARGET_RATIO else 0


if __name__ == "__main__":
    raise SystemExit(main())
