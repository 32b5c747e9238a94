"""``python -m bench.perf_claims``: what checking claims costs on the 300-file JS/TS range.

The range is the engine benchmark's (``bench.perfgen.range_repo``: 300 changed
JS/TS files, 100 of them tests, in an 800-file tree). The same ``tribunal
check --base B --head H`` runs twice: once with no claims, once with a claims
file making every claim Tribunal knows (so every verifier does its full
work: export sets, defaults, manifests, the test differ). Target: the run
with claims within 1.5x of the run without (the TypeScript reference tool
doubles: 3.4 s -> 7.4 s). Each file's contents are read once per run and
its tree parsed once, shared by every analyzer and verifier, which is what
keeps the ratio low.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from bench import perfgen
from bench.perf import Sample, engine_note, measure

TARGET_RATIO = 1.5
CLAIMS = """\
```tribunal
added-test
no-public-api-change
no-default-flip
no-default-flip: value
no-new-dependency
no-test-removed
```
"""


def _median(samples: list[Sample]) -> float:
    return statistics.median(s.wall_ms for s in samples)


def _runs(argv: Sequence[str], cwd: Path, env: dict[str, str], runs: int) -> list[Sample]:
    measure(argv, cwd, env)  # warm-up: page cache, git's caches, byte-code
    return [measure(argv, cwd, env) for _ in range(runs)]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.perf_claims", description=__doc__)
    parser.add_argument("--runs", type=int, default=7, help="measured runs per variant (>= 3)")
    parser.add_argument("--check", action="store_true", help=f"exit 1 beyond x{TARGET_RATIO}")
    args = parser.parse_args(argv)
    runs = max(args.runs, 3)
    with tempfile.TemporaryDirectory(prefix="tribunal-perf-claims-") as tmp:
        root = Path(tmp)
        (root / "home").mkdir()
        env = perfgen.bench_env(root / "home")
        repo = root / "range"
        base = perfgen.range_repo(repo, env)
        claims = root / "claims.md"
        claims.write_text(CLAIMS, encoding="utf-8")
        check = (sys.executable, "-m", "tribunal", "check", "--format", "json")
        plain = (*check, "--base", base, "--head", "HEAD")
        without = _runs(plain, repo, env, runs)
        with_claims = _runs((*plain, "--claims", str(claims)), repo, env, runs)
    ratio = _median(with_claims) / _median(without)
    for name, samples in (("without claims", without), ("with claims", with_claims)):
        walls = [s.wall_ms for s in samples]
        peak = max(s.peak_rss for s in samples) / (1 << 20)
        print(
            f"{name:<16} median {_median(samples):7.1f} ms  min {min(walls):7.1f}  "
            f"max {max(walls):7.1f}  peak {peak:5.1f} MiB  exit {sorted({s.code for s in samples})}"
        )
        print(f"{'':<16} {engine_note(samples[-1])}")
    verdict = "ok" if ratio <= TARGET_RATIO else "MISSED"
    print(f"ratio with/without: x{ratio:.2f} (target <= x{TARGET_RATIO}) {verdict}")
    return 1 if args.check and ratio > TARGET_RATIO else 0


if __name__ == "__main__":
    raise SystemExit(main())
