"""How many UNVERIFIED findings a commit gets: the noise benchmark.

    python -m bench.noise [--own REPO] [--last N] [--baseline DIR] [--check]

Two histories are replayed, every commit against its parent, through the real
engine in-process (all analyzers, claims from the commit messages, as
``tribunal check --base C~1 --head C`` does):

- the generated history of ``bench/noise_history.py`` (the patterns measured
  on real projects, plus planted real problems whose findings must appear);
- this repository's own history (``--own``, the last ``--last`` commits that
  have one parent), with ``bench/corpus/`` and the test fixtures under
  ``tests/golden/`` treated as generated paths: they are test data.

Targets: at most 0.5 UNVERIFIED per commit on average, and on any commit at
most 5 beyond one per changed definition (``comment-code-drift``'s changed
declarations). ``--baseline DIR`` also runs another checkout of Tribunal (say
``/work/main``) on the same commits, as a subprocess, for a before/after
table. ``--check`` exits 1 when a target or an expected finding is missed.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

from bench.gitrun import IDENTITY, git_out
from bench.noise_history import BASE, Files, Step, steps
from tribunal.config.load import parse_config
from tribunal.config.model import Config
from tribunal.engine.runner import analyze
from tribunal.engine.sources import Selection, build_change
from tribunal.findings import Finding, Verdict
from tribunal.git.cmd import Git

AVERAGE_TARGET = 0.5
EXCESS_TARGET = 5
OWN_CONFIG = "generated-paths: [bench/corpus/, tests/golden/]\n"


class Counted(NamedTuple):
    commit: str
    name: str
    unverified: int
    definitions: int
    missing: tuple[str, ...] = ()  # expected findings that did not appear
    baseline: int | None = None

    @property
    def excess(self) -> int:
        return max(0, self.unverified - self.definitions)


def judge(root: Path, parent: str, commit: str, config: Config) -> tuple[list[Finding], int]:
    """The findings of one commit against its parent, and how many definitions it changed."""
    from tribunal.analyzers.comment_code_drift.changes import changed_decls
    from tribunal.claims.sources import load_claims

    with Git(root) as git:
        change = build_change(Selection(base=parent, head=commit), git, root, root, config)
        change.claims = load_claims(change)
        report = analyze(change)
        files = change.analyzable(("python", "javascript", "typescript", "tsx"))
        definitions = len(changed_decls(change, files).changed)
    return list(report.findings), definitions


def baseline_count(checkout: Path, root: Path, parent: str, commit: str, config: Path) -> int:
    """UNVERIFIED findings of another Tribunal checkout on the same commit (a subprocess)."""
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    args = ["--base", parent, "--head", commit, "--format", "json", "--config", str(config)]
    proc = subprocess.run(
        [sys.executable, "-P", "-m", "tribunal", "check", *args],  # -P: not the cwd's copy
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
    )
    if proc.returncode not in (0, 1):
        raise SystemExit(f"baseline failed on {commit[:12]}: {proc.stderr.strip()}")
    return int(json.loads(proc.stdout)["counts"]["UNVERIFIED"])


def _missing(found: list[Finding], step: Step) -> tuple[str, ...]:
    out = []
    for analyzer, needle in step.expect:
        if not any(
            f.analyzer == analyzer
            and f.verdict is not Verdict.PASS
            and (needle in f.title or needle in f.detail or needle in f.file)
            for f in found
        ):
            out.append(f"{analyzer}: {needle}")
    return tuple(out)


def _write(root: Path, files: Files) -> None:
    for name, content in files.items():
        target = root / name
        if content is None:
            target.unlink(missing_ok=True)
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(content, encoding="utf-8")


def _commit(root: Path, message: str) -> str:
    git_out(root, "add", "-A")
    git_out(root, "commit", "-q", "--allow-empty", "-m", message)
    return git_out(root, "rev-parse", "HEAD")


def generated(tmp: Path, baseline: Path | None) -> list[Counted]:
    root = tmp / "generated"
    root.mkdir()
    git_out(root, "init", "-q", "-b", "main")
    _write(root, BASE)
    parent = _commit(root, "base")
    config_file = tmp / "empty.yml"
    config_file.write_text("{}\n")
    out = []
    for step in steps():
        _write(root, step.files)
        commit = _commit(root, step.name)
        found, definitions = judge(root, parent, commit, Config())
        unverified = sum(1 for f in found if f.verdict is Verdict.UNVERIFIED)
        before = baseline_count(baseline, root, parent, commit, config_file) if baseline else None
        out.append(
            Counted(commit, step.name, unverified, definitions, _missing(found, step), before)
        )
        parent = commit
    return out


def own(repo: Path, last: int, tmp: Path, baseline: Path | None) -> list[Counted]:
    config = parse_config(OWN_CONFIG, "tribunal.yml")
    config_file = tmp / "own.yml"
    config_file.write_text(OWN_CONFIG)
    env = {**os.environ, **IDENTITY}
    listed = git_out(repo, "rev-list", "--no-merges", f"--max-count={last}", "HEAD", env=env)
    out = []
    for commit in listed.split():
        parents = git_out(repo, "rev-list", "--parents", "-n", "1", commit, env=env).split()[1:]
        if len(parents) != 1:
            continue
        found, definitions = judge(repo, parents[0], commit, config)
        unverified = sum(1 for f in found if f.verdict is Verdict.UNVERIFIED)
        subject = git_out(repo, "log", "-1", "--format=%s", commit, env=env)
        before = (
            baseline_count(baseline, repo, parents[0], commit, config_file) if baseline else None
        )
        out.append(Counted(commit, subject, unverified, definitions, (), before))
    return out


def summarize(title: str, rows: Sequence[Counted], verbose: bool) -> bool:
    """Print one history's table; True when its targets and expectations hold."""
    print(f"\n{title}: {len(rows)} commits")
    if verbose:
        for row in rows:
            was = f" (before: {row.baseline})" if row.baseline is not None else ""
            lost = f"  MISSING {', '.join(row.missing)}" if row.missing else ""
            print(
                f"  {row.commit[:10]} U={row.unverified:<3} defs={row.definitions:<3}"
                f"{was}  {row.name[:60]}{lost}"
            )
    if not rows:
        return True
    average = statistics.mean(r.unverified for r in rows)
    worst = max(rows, key=lambda r: r.excess)
    most = max(rows, key=lambda r: r.unverified)
    print(
        f"  UNVERIFIED per commit: mean {average:.2f} (target <= {AVERAGE_TARGET}), "
        f"max {most.unverified} ({most.commit[:10]})"
    )
    print(
        f"  beyond one per changed definition: max {worst.excess} (target <= {EXCESS_TARGET}) "
        f"({worst.commit[:10]} {worst.name[:50]})"
    )
    if all(r.baseline is not None for r in rows):
        before = [r.baseline or 0 for r in rows]
        print(f"  baseline: mean {statistics.mean(before):.2f}, max {max(before)}")
    missing = [m for r in rows for m in r.missing]
    print(f"  expected findings missing: {len(missing)}")
    return average <= AVERAGE_TARGET and worst.excess <= EXCESS_TARGET and not missing


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.noise",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    here = Path(__file__).resolve().parents[1]
    parser.add_argument("--own", type=Path, default=here, help="repository to replay")
    parser.add_argument("--last", type=int, default=80, help="commits of it to replay")
    parser.add_argument("--baseline", type=Path, help="another Tribunal checkout, for before")
    parser.add_argument("--no-own", action="store_true", help="only the generated history")
    parser.add_argument("--check", action="store_true", help="exit 1 when a target is missed")
    parser.add_argument("-v", "--verbose", action="store_true", help="one line per commit")
    ns = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="tribunal-noise-") as tmp:
        ok = summarize("generated history", generated(Path(tmp), ns.baseline), ns.verbose)
        if not ns.no_own:
            rows = own(ns.own.resolve(), ns.last, Path(tmp), ns.baseline)
            ok = summarize(f"own history ({ns.own})", rows, ns.verbose) and ok
    sys.stdout.flush()
    return 1 if ns.check and not ok else 0


if __name__ == "__main__":
    raise SystemExit(main())
