"""``python -m bench.perf``: wall time and peak memory of ``tribunal check`` on generated repos.

Two scenarios from the engine issue, each run ``--runs`` times after one
warm-up (the page cache and git's own caches are then warm, as they are for a
pre-commit hook):

- ``tribunal check --staged`` for a 1-file change in a 2,000-file repository
  (target: median <= 100 ms);
- ``tribunal check --base B --head H`` for a 300-file JS/TS range with 100
  test files (target: median <= 1 s).

Peak memory (target <= 80 MiB) is the largest resident set of the tribunal
process or any git child it waited for (``os.wait4`` reports both). The
table also shows the interpreter's bare start-up, so the engine's own cost can
be read off. ``--check`` exits 1 when a target is missed by more than half.
``--wheel`` measures a normal install of the working tree too (``perfinstall``):
the development venv's editable install pays for its import finder at every
start-up, which users do not.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

from bench import perfgen, perfinstall

MIB = 1 << 20
WIDE_MARGIN = 1.5


@dataclass(frozen=True)
class Sample:
    wall_ms: float
    peak_rss: int  # bytes
    code: int
    stdout: str
    cpu_ms: float = 0.0  # user + system, the process and its reaped children


@dataclass(frozen=True)
class Scenario:
    name: str
    argv: tuple[str, ...]
    cwd: Path
    target_ms: float | None
    target_mib: float | None


#: Forks and execs the measured command, then reports wall time and ``wait4``'s
#: peak RSS. It runs in its own small interpreter because a child's peak RSS
#: starts at its parent's size at fork time (Linux records the pre-exec memory
#: of the forking process); measured from this benchmark process, even
#: ``python -c pass`` would look as large as the benchmark itself.
_LAUNCHER = """\
import os, sys, time
result, argv = sys.argv[1], sys.argv[2:]
started = time.perf_counter()
pid = os.fork()
if pid == 0:
    os.execvp(argv[0], argv)
_, status, usage = os.wait4(pid, 0)
wall = (time.perf_counter() - started) * 1000
with open(result, "w") as out:
    cpu = (usage.ru_utime + usage.ru_stime) * 1000
    out.write(f"{wall} {usage.ru_maxrss} {os.waitstatus_to_exitcode(status)} {cpu}")
"""


def measure(argv: Sequence[str], cwd: Path, env: dict[str, str]) -> Sample:
    """Run ``argv`` once through the launcher; wall time from fork to reap."""
    with tempfile.TemporaryDirectory() as scratch:
        result, out_path = Path(scratch) / "result", Path(scratch) / "stdout"
        with out_path.open("wb") as out:
            subprocess.run(
                [sys.executable, "-S", "-I", "-c", _LAUNCHER, str(result), *argv],
                cwd=cwd,
                env=env,
                stdout=out,
                stderr=subprocess.DEVNULL,
                check=True,
            )
        wall, rss, code, cpu = result.read_text().split()
        text = out_path.read_text(encoding="utf-8", errors="replace")
    scale = 1 if sys.platform == "darwin" else 1024  # bytes on macOS, KiB on Linux
    return Sample(float(wall), int(rss) * scale, int(code), text, float(cpu))


def run_scenario(scenario: Scenario, env: dict[str, str], runs: int) -> list[Sample]:
    measure(scenario.argv, scenario.cwd, env)  # warm-up
    return [measure(scenario.argv, scenario.cwd, env) for _ in range(runs)]


def engine_note(sample: Sample) -> str:
    """What the run reported about itself (JSON output), for the table."""
    try:
        report = json.loads(sample.stdout)
    except json.JSONDecodeError:
        return "no JSON report"
    counts = report.get("counts", {})
    return (
        f"engine {report.get('duration_ms', 0):.0f} ms, {report.get('files_analyzed')} files, "
        f"C={counts.get('CONTRADICTED')} U={counts.get('UNVERIFIED')} P={counts.get('PASS')}"
        + (f", {len(report['errors'])} analyzer errors" if report.get("errors") else "")
    )


def row(scenario: Scenario, samples: list[Sample]) -> tuple[str, bool]:
    walls = [s.wall_ms for s in samples]
    median = statistics.median(walls)
    peak = max(s.peak_rss for s in samples) / MIB
    codes = sorted({s.code for s in samples})
    targets = []
    missed = False
    if scenario.target_ms is not None:
        targets.append(f"<= {scenario.target_ms:.0f} ms")
        missed |= median > scenario.target_ms * WIDE_MARGIN
    if scenario.target_mib is not None:
        targets.append(f"<= {scenario.target_mib:.0f} MiB")
        missed |= peak > scenario.target_mib * WIDE_MARGIN
    cpu = statistics.median(s.cpu_ms for s in samples)
    line = (
        f"{scenario.name:<34} {len(samples):>4} {median:>8.1f} {min(walls):>8.1f} "
        f"{max(walls):>8.1f} {cpu:>8.1f} {peak:>9.1f}  {', '.join(targets) or '-':<22} "
        f"exit {codes}"
    )
    return line, missed


class Repos(NamedTuple):
    small: Path
    ranged: Path
    base: str  # the range's base commit


def generate(root: Path, env: dict[str, str]) -> Repos:
    small = root / "small"
    perfgen.small_repo(small, env)
    ranged = root / "range"
    base = perfgen.range_repo(ranged, env)
    return Repos(small, ranged, base)


def build(repos: Repos, python: str) -> list[Scenario]:
    """The scenarios, run by ``python``."""
    py, small = python, repos.small
    tribunal = (py, "-m", "tribunal", "check", "--format", "json")
    return [
        Scenario("python -c pass (start-up floor)", (py, "-c", "pass"), small, None, None),
        Scenario("tribunal --version", (py, "-m", "tribunal", "--version"), small, None, None),
        Scenario("check --staged: 1 of 2,000 files", (*tribunal, "--staged"), small, 100, 80),
        Scenario(
            "check range: 300 JS/TS, 100 tests",
            (*tribunal, "--base", repos.base, "--head", "HEAD"),
            repos.ranged,
            1000,
            80,
        ),
    ]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.perf", description=__doc__)
    parser.add_argument("--runs", type=int, default=7, help="measured runs per scenario (>= 5)")
    parser.add_argument("--check", action="store_true", help="exit 1 on a target missed widely")
    parser.add_argument("--keep", action="store_true", help="keep the generated repositories")
    parser.add_argument(
        "--wheel",
        action="store_true",
        help="also measure a wheel of the working tree installed in a fresh venv",
    )
    args = parser.parse_args(argv)
    runs = max(args.runs, 5)
    root = Path(tempfile.mkdtemp(prefix="tribunal-perf-"))
    env = perfgen.bench_env(root / "home")
    (root / "home").mkdir()
    try:
        repos = generate(root, env)
        installs = [("as installed here", sys.executable)]
        if args.wheel:
            installs.append(("wheel of the working tree", str(perfinstall.wheel_python(root))))
        missed_any = False
        for label, python in installs:
            print(f"== {label}: {python} (tribunal from {imported_from(python, repos.small, env)})")
            missed_any |= measure_all(build(repos, python), env, runs)
    finally:
        if args.keep:
            print(f"repositories kept under {root}")
        else:
            _remove(root)
    print(f"targets: staged <= 100 ms, range <= 1000 ms, peak <= 80 MiB "
          f"(a miss counts for --check beyond x{WIDE_MARGIN})")  # fmt: skip
    return 1 if args.check and missed_any else 0


def measure_all(scenarios: list[Scenario], env: dict[str, str], runs: int) -> bool:
    """Print the table; whether any target was missed widely."""
    print(f"{'scenario':<34} {'runs':>4} {'median':>8} {'min':>8} {'max':>8} {'cpu':>8} "
          f"{'peak MiB':>9}  {'target':<22} codes")  # fmt: skip
    print(f"{'':<34} {'':>4} {'ms':>8} {'ms':>8} {'ms':>8} {'ms':>8}")
    missed_any = False
    for scenario in scenarios:
        samples = run_scenario(scenario, env, runs)
        line, missed = row(scenario, samples)
        missed_any |= missed
        print(line + ("   << MISSED" if missed else ""), flush=True)
        if "--format" in scenario.argv:
            print(f"{'':<36}{engine_note(samples[-1])}", flush=True)
    return missed_any


def imported_from(python: str, cwd: Path, env: dict[str, str]) -> str:
    """The package directory ``python`` imports tribunal from, as the measured runs do."""
    probe = "import tribunal, os; print(os.path.dirname(tribunal.__file__))"
    out = subprocess.run(
        [python, "-c", probe], cwd=cwd, env=env, capture_output=True, text=True, check=True
    )
    return out.stdout.strip()


def _remove(root: Path) -> None:
    import shutil

    shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    raise SystemExit(main())
