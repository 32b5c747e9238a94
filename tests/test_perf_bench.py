"""The performance benchmark's own machinery (not a timed test: numbers are for people)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from bench import perf, perfgen, perfgen_big, perfscenarios

#: Python that makes the process hold 40 MiB (every page touched).
HOLD_40_MIB = "b = bytearray(40 << 20); b[::4096] = b'x' * len(b[::4096])"


def test_measure_reports_wall_time_memory_exit_code_and_output(tmp_path: Path) -> None:
    env = perfgen.bench_env(tmp_path)
    code = f"import sys; {HOLD_40_MIB}; print('hi')"
    big = perf.measure([sys.executable, "-c", code], tmp_path, env)
    small = perf.measure([sys.executable, "-c", "raise SystemExit(3)"], tmp_path, env)
    assert (big.code, big.stdout, small.code) == (0, "hi\n", 3)
    assert big.wall_ms > 0 and small.wall_ms > 0
    # the launcher keeps the benchmark's own size out of the child's peak
    assert 3 * perf.MIB < small.peak_rss < 40 * perf.MIB < big.peak_rss


@pytest.mark.skipif(not Path("/proc/self/smaps_rollup").exists(), reason="needs Linux's /proc")
def test_memory_of_two_processes_alive_at_once_is_their_sum(tmp_path: Path) -> None:
    """check's worker and the convene's analyzer child run beside their parent."""
    env = perfgen.bench_env(tmp_path)
    code = (
        "import os, time\n"
        "def hold():\n"
        f"    {HOLD_40_MIB}; time.sleep(1.0)\n"
        "    return b\n"
        "pid = os.fork()\n"
        "held = hold()\n"
        "if pid == 0: os._exit(0)\n"
        "os.waitpid(pid, 0)\n"
    )
    both = perf.measure([sys.executable, "-c", code], tmp_path, env)
    assert both.code == 0
    assert 40 * perf.MIB < both.largest_rss < 70 * perf.MIB  # either one alone
    assert both.peak_rss > both.largest_rss + 30 * perf.MIB  # both at once: each holds 40 MiB


@pytest.mark.skipif(not Path("/proc/self/smaps_rollup").exists(), reason="needs Linux's /proc")
def test_a_child_that_shares_its_parents_memory_is_counted_once(tmp_path: Path) -> None:
    """Python starts git through ``vfork``: until ``exec`` the child runs in its parent's
    memory, and summing both would count the parent twice. Here the child is held there
    (a shell opens the FIFO for writing a second later):
    glibc's ``posix_spawn`` opens a FIFO before its ``exec``, which waits for a writer."""
    env = perfgen.bench_env(tmp_path)
    fifo = tmp_path / "fifo"
    code = (
        "import os, subprocess\n"
        f"{HOLD_40_MIB}\n"
        f"fifo = {str(fifo)!r}\n"
        "os.mkfifo(fifo)\n"
        "writer = subprocess.Popen(['sh', '-c', 'sleep 1; : > \"$0\"', fifo])\n"
        "pid = os.posix_spawn('/bin/true', ['true'], os.environ,\n"
        "    file_actions=[(os.POSIX_SPAWN_OPEN, 3, fifo, os.O_RDONLY, 0)])\n"
        "os.waitpid(pid, 0)\n"
        "writer.wait()\n"
    )
    held = perf.measure([sys.executable, "-c", code], tmp_path, env)
    assert held.code == 0
    assert 40 * perf.MIB < held.peak_rss < 70 * perf.MIB


def test_generated_repositories_have_the_promised_shape(tmp_path: Path) -> None:
    env = perfgen.bench_env(tmp_path / "home")
    small = tmp_path / "small"
    perfgen.small_repo(small, env, files=40)
    tracked = perfgen.git(small, "ls-files", env=env).splitlines()
    staged = perfgen.git(small, "diff", "--cached", "--name-only", env=env).splitlines()
    assert len(tracked) == 40 and staged == ["tests/sub1/test_mod_1.py"]
    ts = tmp_path / "ts"
    perfgen.ts_repo(ts, env, files=30)
    tracked = perfgen.git(ts, "ls-files", env=env).splitlines()
    staged = perfgen.git(ts, "diff", "--cached", "--name-status", env=env).splitlines()
    assert len(tracked) == 31 and staged == ["A\tapp/test/comp_1.test.ts"]  # 30 and a new test
    ranged = tmp_path / "range"
    base = perfgen.range_repo(ranged, env, changed=30, tests=10)
    changed = perfgen.git(ranged, "diff", "--name-only", base, "HEAD", env=env).splitlines()
    assert len(changed) == 30
    assert sum(1 for p in changed if ".test." in p or ".spec." in p) == 10


def test_engine_note_reads_the_json_report() -> None:
    report = {
        "duration_ms": 12.4,
        "files_analyzed": 3,
        "counts": {"CONTRADICTED": 1, "UNVERIFIED": 2, "PASS": 0},
        "errors": [],
    }
    sample = perf.Sample(1.0, 1, 0, json.dumps(report))
    assert perf.engine_note(sample) == "engine 12 ms, 3 files, C=1 U=2 P=0"
    assert perf.engine_note(perf.Sample(1.0, 1, 2, "oops")) == "no JSON report"


def test_imported_from_names_the_package_the_measured_runs_import(tmp_path: Path) -> None:
    import tribunal

    env = perfgen.bench_env(tmp_path)
    found = perf.imported_from(sys.executable, tmp_path, env)
    assert Path(found) == Path(tribunal.__file__).parent


def test_the_suite_setup_benchmark_compares_both_ways(tmp_path: Path) -> None:
    import subprocess

    proc = subprocess.run(
        [sys.executable, "-m", "bench.perf_suite", "--files", "200", "--runs", "5"],
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0].startswith("200 files,")
    assert any(line.startswith("before: linked worktree, full checkout") for line in lines)
    assert any(line.startswith("now: the suite's own repository") for line in lines)
    assert lines[-1].startswith("now / before = ")


def test_the_big_push_has_renames_edits_and_additions_of_every_kind(tmp_path: Path) -> None:
    env = perfgen.bench_env(tmp_path / "home")
    repo = tmp_path / "big"
    changed = perfgen_big.big_commit_repo(repo, env, scale=100)
    status = perfgen.git(repo, "diff", "--name-status", "-M", "origin/main", "main", env=env)
    kinds = [line[0] for line in status.splitlines()]
    assert len(kinds) == changed
    assert kinds.count("R") == perfgen_big.RENAMED // 100
    assert kinds.count("M") == perfgen_big.UPDATED_TESTS // 100
    paths = status.split()
    assert any(p.endswith("_pb2.py") for p in paths) and any(p.endswith(".md") for p in paths)
    assert perfgen.git(repo, "rev-parse", "--abbrev-ref", "origin/HEAD", env=env) == "origin/main"


def test_a_row_with_the_reference_prints_the_ratio_and_misses_beyond_the_margin() -> None:
    scenario = perfscenarios.Scenario("row", ("x",), Path("."), 100, 80, 0.3, ("ref",))
    ours = [perf.Sample(40.0, 10 * perf.MIB, 0, "")] * 5
    fast_reference = [perf.Sample(400.0, 50 * perf.MIB, 0, "")] * 5
    slow_reference = [perf.Sample(50.0, 50 * perf.MIB, 0, "")] * 5
    line, missed = perf.row(scenario, ours, fast_reference)
    assert "0.10x the reference" in line and "<= 0.3x" in line and not missed
    line, missed = perf.row(scenario, ours, slow_reference)
    assert "0.80x the reference" in line and missed


def test_the_reference_runs_only_where_it_has_the_same_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(perfscenarios.REFERENCE_ENV, "node '/opt/tribunal ts/cli.js'")
    repos = perfscenarios.Repos(*(tmp_path,) * 3, "b300", tmp_path, "b3k", tmp_path)
    rows = {s.name: s for s in perfscenarios.build(repos, "py", perfscenarios.ROWS)}
    staged = rows["check --staged: 1 new TS test, 300 files"]
    assert staged.reference == ("node", "/opt/tribunal ts/cli.js", "check", "--staged")
    assert rows["range: 300 JS/TS (200 modules, 100 tests)"].reference == (
        "node", "/opt/tribunal ts/cli.js", "check", "--base", "b300", "--head", "HEAD"
    )  # fmt: skip
    push = rows["convene at pre-push: 20,000-file Python commit"]
    assert push.reference is None and push.fresh is not None and push.heavy
    monkeypatch.delenv(perfscenarios.REFERENCE_ENV)
    assert all(s.reference is None for s in perfscenarios.build(repos, "py", ("ts-staged",)))


def test_the_quick_benchmark_runs_every_row_with_a_memory_figure() -> None:
    import subprocess

    proc = subprocess.run(
        [sys.executable, "-m", "bench.perf", "--quick", "--check"],
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0].startswith(f"quick: sizes divided by {perfscenarios.QUICK_SCALE}")
    names = [s.name for s in perfscenarios.build(_no_repos(), sys.executable, perfscenarios.ROWS)]
    assert len(names) == len(perfscenarios.ROWS)
    for name in names:
        [line] = [line for line in lines if line.startswith(name)]
        runs, median, _, _, _, peak_mib = line[len(name) :].split()[:6]
        assert runs == "1" and float(median) > 0 and 5 < float(peak_mib) < 1000, line
        assert "exit [0]" in line or "exit [1]" in line, line  # judged, never crashed
    assert "MISSED" not in proc.stdout  # a quick run's numbers judge nothing


def _no_repos() -> perfscenarios.Repos:
    nowhere = Path("nowhere")
    return perfscenarios.Repos(nowhere, nowhere, nowhere, "b", nowhere, "b", nowhere)
