"""``python -m bench.perf``: wall time and peak memory of tribunal on generated repositories.

One row per line of the speed targets (``bench/perfscenarios.py``), each run
``--runs`` times (the heavy rows ``--heavy-runs`` times) after one warm-up, so
the page cache and git's own caches are warm, as they are for a hook:

- ``check --staged`` for one Python test file in a 2,000-file repository, and
  for one new TS test file in a 300-file TS repository (median <= 100 ms);
- ``check --base B --head H`` for a 300-file and a 3,000-file JS/TS range
  (<= 0.85 s; <= 5 s and <= 150 MiB);
- ``convene`` at pre-push of a 20,000-file Python commit (a vendored package,
  a generated code drop and a mass rename; <= 40 s and <= 200 MiB).

Peak memory is the largest resident set of the tribunal process or any
process it waited for (``os.wait4`` reports both), or, where tribunal runs in
two processes at once, the largest sum of their proportional set sizes
sampled from ``/proc`` (Linux), whichever is larger. The table also shows the
interpreter's bare start-up, so the engine's own cost can be read off.
Byte-code caching is on and warmed before anything is measured
(``PYTHONDONTWRITEBYTECODE`` is dropped; an installed tribunal has its
``.pyc`` files). With ``$TRIBUNAL_BENCH_REFERENCE`` set to the reference
tool's command, the rows it can run are measured through it too and the ratio
is printed. ``--check`` exits 1 when a target is missed by more than half.
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

from bench import perfgen, perfinstall, perfscenarios
from bench.perfscenarios import Scenario

MIB = 1 << 20
WIDE_MARGIN = 1.5


@dataclass(frozen=True)
class Sample:
    wall_ms: float
    peak_rss: int  # bytes
    code: int
    stdout: str
    cpu_ms: float = 0.0  # user + system, the process and its reaped children
    largest_rss: int = 0  # bytes: wait4's peak of the largest single process


#: Forks and execs the measured command, then reports wall time and its peak memory:
#: ``wait4``'s peak RSS of the largest process, or, when tribunal runs in more than one
#: process at once (``check``'s worker, the convene's analyzer child), the largest sum of
#: their proportional set sizes (PSS: a page two processes share counts half in each)
#: that a thread sampling ``/proc`` every 20 ms saw (Linux), whichever is larger. A child
#: caught between ``vfork`` and ``exec`` (how Python starts git) shares its parent's memory
#: and is counted once (``kcmp``). It runs in its
#: own small interpreter because a child's peak RSS starts at its parent's size at fork
#: time (Linux records the pre-exec memory of the forking process); measured from this
#: benchmark process, even ``python -c pass`` would look as large as the benchmark itself.
_LAUNCHER = """\
import os, sys, threading, time
result, argv = sys.argv[1], sys.argv[2:]
summed = [0]
KCMP = None
if sys.platform.startswith("linux"):
    try:
        import ctypes, functools, platform
        number = {"x86_64": 312, "aarch64": 272}.get(platform.machine())
        if number is not None:
            KCMP = functools.partial(ctypes.CDLL(None, use_errno=True).syscall, number)
    except (ImportError, OSError):
        pass
def pss(pid):
    for line in open(f"/proc/{pid}/smaps_rollup"):
        if line.startswith("Pss:"):
            return int(line.split()[1]) * 1024
    return 0
def same_memory(pid, parent):
    try:  # kcmp(KCMP_VM): a child between vfork and exec runs in its parent's memory
        return KCMP(pid, parent, 1, 0, 0) == 0  # 1: KCMP_VM
    except Exception:
        return False
def tree_pss(root):
    total, todo = 0, [(root, None)]
    while todo:
        pid, parent = todo.pop()
        try:
            if parent is None or not same_memory(pid, parent):
                total += pss(pid)
            for task in os.listdir(f"/proc/{pid}/task"):
                kids = open(f"/proc/{pid}/task/{task}/children").read().split()
                todo += [(int(c), pid) for c in kids]
        except (OSError, ValueError):
            pass
    return total
def sample(pid, done):
    while not done.wait(0.02):
        summed[0] = max(summed[0], tree_pss(pid))
started = time.perf_counter()
pid = os.fork()
if pid == 0:
    os.execvp(argv[0], argv)
done = threading.Event()
if os.path.exists("/proc/self/smaps_rollup"):
    threading.Thread(target=sample, args=(pid, done), daemon=True).start()
_, status, usage = os.wait4(pid, 0)
wall = (time.perf_counter() - started) * 1000
done.set()
with open(result, "w") as out:
    cpu = (usage.ru_utime + usage.ru_stime) * 1000
    scale = 1 if sys.platform == "darwin" else 1024  # bytes on macOS, KiB on Linux
    largest = usage.ru_maxrss * scale
    code = os.waitstatus_to_exitcode(status)
    out.write(f"{wall} {max(largest, summed[0])} {code} {cpu} {largest}")
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
        wall, peak, code, cpu, largest = result.read_text().split()
        text = out_path.read_text(encoding="utf-8", errors="replace")
    return Sample(float(wall), int(peak), int(code), text, float(cpu), int(largest))


def run_scenario(
    scenario: Scenario, env: dict[str, str], runs: int, argv: Sequence[str] | None = None
) -> list[Sample]:
    """One warm-up, then ``runs`` samples of ``argv`` (default: the scenario's own)."""
    samples = []
    for _ in range(runs + 1):
        if scenario.fresh is not None:
            _remove(scenario.fresh)
        samples.append(measure(argv or scenario.argv, scenario.cwd, env))
    return samples[1:]


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


def row(
    scenario: Scenario, samples: list[Sample], reference: list[Sample] | None = None
) -> tuple[str, bool]:
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
    ratio = ""
    if reference:
        times = median / statistics.median(s.wall_ms for s in reference)
        ratio = f"  {times:.2f}x the reference"
        if scenario.target_ratio is not None:
            targets.append(f"<= {scenario.target_ratio}x")
            missed |= times > scenario.target_ratio * WIDE_MARGIN
    cpu = statistics.median(s.cpu_ms for s in samples)
    line = (
        f"{scenario.name:<48} {len(samples):>4} {median:>9.1f} {min(walls):>9.1f} "
        f"{max(walls):>9.1f} {cpu:>9.1f} {peak:>9.1f}  {', '.join(targets) or '-':<30} "
        f"exit {codes}{ratio}"
    )
    return line, missed


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.perf", description=__doc__)
    parser.add_argument("--runs", type=int, default=7, help="measured runs per row (>= 5)")
    parser.add_argument(
        "--heavy-runs", type=int, default=3, help="measured runs of the 3,000- and 20,000-file rows"
    )
    parser.add_argument(
        "--only", nargs="+", choices=perfscenarios.ROWS, help="only these rows (default: all)"
    )
    parser.add_argument("--check", action="store_true", help="exit 1 on a target missed widely")
    parser.add_argument(
        "--quick",
        action="store_true",
        help=f"every row once on repositories {perfscenarios.QUICK_SCALE} times smaller "
        "(that the benchmark runs; the numbers judge nothing)",
    )
    parser.add_argument("--keep", action="store_true", help="keep the generated repositories")
    parser.add_argument(
        "--wheel",
        action="store_true",
        help="also measure a wheel of the working tree installed in a fresh venv",
    )
    args = parser.parse_args(argv)
    runs = Runs(max(args.runs, 5), max(args.heavy_runs, 1), judged=not args.quick)
    if args.quick:
        runs = Runs(1, 1, judged=False)
        print(f"quick: sizes divided by {perfscenarios.QUICK_SCALE}, one run each, "
              "targets not judged", flush=True)  # fmt: skip
    rows = tuple(args.only or perfscenarios.ROWS)
    root = Path(tempfile.mkdtemp(prefix="tribunal-perf-"))
    env = perfgen.bench_env(root / "home")
    (root / "home").mkdir()
    try:
        scale = perfscenarios.QUICK_SCALE if args.quick else 1
        repos = perfscenarios.generate(root, env, rows, scale)
        installs = [("as installed here", sys.executable)]
        if args.wheel:
            installs.append(("wheel of the working tree", str(perfinstall.wheel_python(root))))
        missed_any = False
        for label, python in installs:
            warm_bytecode(python, root, env)
            where = imported_from(python, root, env)
            print(f"== {label}: {python} (tribunal from {where})", flush=True)
            missed_any |= measure_all(perfscenarios.build(repos, python, rows), env, runs)
    finally:
        if args.keep:
            print(f"repositories kept under {root}")
        else:
            _remove(root)
    reference = " ".join(perfscenarios.reference_command()) or "not given"
    print(f"reference (${perfscenarios.REFERENCE_ENV}): {reference}; "
          f"a miss counts for --check beyond x{WIDE_MARGIN}")  # fmt: skip
    return 1 if args.check and missed_any else 0


@dataclass(frozen=True)
class Runs:
    light: int
    heavy: int
    #: Whether the targets are judged (not on a quick run's small repositories).
    judged: bool = True


def measure_all(scenarios: list[Scenario], env: dict[str, str], runs: Runs) -> bool:
    """Print the table; whether any target was missed widely."""
    print(f"{'row':<48} {'runs':>4} {'median':>9} {'min':>9} {'max':>9} {'cpu':>9} "
          f"{'peak MiB':>9}  {'target':<30} codes")  # fmt: skip
    print(f"{'':<48} {'':>4} {'ms':>9} {'ms':>9} {'ms':>9} {'ms':>9}")
    missed_any = False
    for scenario in scenarios:
        count = runs.heavy if scenario.heavy else runs.light
        samples = run_scenario(scenario, env, count)
        reference = None
        if scenario.reference is not None:
            reference = run_scenario(scenario, env, count, scenario.reference)
        line, missed = row(scenario, samples, reference)
        missed &= runs.judged
        missed_any |= missed
        print(line + ("   << MISSED" if missed else ""), flush=True)
        if "--format" in scenario.argv:
            print(f"{'':<50}{engine_note(samples[-1])}", flush=True)
        largest = max(s.largest_rss for s in samples) / MIB
        peak = max(s.peak_rss for s in samples) / MIB
        if peak - largest >= 1:
            print(f"{'':<50}memory: {peak:.1f} MiB all processes at once (PSS), "
                  f"{largest:.1f} MiB the largest one alone", flush=True)  # fmt: skip
        if reference is not None:
            ref_peak = max(s.peak_rss for s in reference) / MIB
            ref_median = statistics.median(s.wall_ms for s in reference)
            print(f"{'':<50}reference: {ref_median:.1f} ms median, {ref_peak:.1f} MiB", flush=True)
    return missed_any


def warm_bytecode(python: str, root: Path, env: dict[str, str]) -> None:
    """Compile tribunal's modules into the private byte-code cache before any measured run."""
    where = Path(imported_from(python, root, env))
    packages = [where, *(where / name for name in ("hooks", "lenses", "worktree"))]
    subprocess.run(
        [python, "-m", "compileall", "-q", *(str(p) for p in packages if p.is_dir())],
        env=env,
        cwd=root,
        stdout=subprocess.DEVNULL,
        check=False,
    )


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
