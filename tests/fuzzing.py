"""Run a parser on 10 KB and 1 MB inputs made of its own delimiters, in a child process.

The issue's rule (issue 21): the 1 MB run finishes within 2 s and within 150x
the 10 KB run. Timing is the child's CPU time (its thread's clock plus the CPU
of the git processes it waited for), so other work on a loaded machine does not
count; the 10 KB time is the median of several runs, and a 1 MB run over the bounds
is measured again (the fastest of three kept: noise is not slow every time, a
quadratic parser is). The thread's clock, not the
process's: with ``RLIMIT_CPU`` set, Linux reads the process clock from a sample
taken at each scheduler tick, and a 1 ms run then often measures 0.

A pattern gone exponential would run for hours, and ``re`` cannot be interrupted
mid-match, so each case gets ``CASE_CPU`` seconds of the child's CPU through
``RLIMIT_CPU``: the kernel stops the child (SIGXCPU) and the case that was running
fails, with no wait on the wall clock. ``WALL_LIMIT`` only guards against a child
that hangs without using CPU.
"""

from __future__ import annotations

import json
import math
import os
import resource
import signal
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

SMALL = 10_000
LARGE = 1_000_000
LARGE_LIMIT = 2.0
RATIO = 150
#: Costs that do not grow with the input (a git start) or grow with memory rather than
#: work: page faults and cache misses of fresh 1 MB buffers, about 0.1 s here, more when
#: other processes share the cores. A 10 KB run that fits in the caches takes 0.3 ms
#: where the 1 MB run takes 0.1 s for a linear parser; a quadratic one takes seconds.
FLOOR = 0.25
#: CPU seconds one case may use in all (three 10 KB runs and the 1 MB run).
CASE_CPU = 3 * LARGE_LIMIT
#: A 1 MB run over the bounds is measured again this many times and the fastest kept: a
#: parser that is really quadratic is slow every time; one that met a burst of cache
#: misses or a frequency drop on a shared machine is not.
RETRIES = 2
WALL_LIMIT = 300.0  # a hang guard only: the assertion is on CPU time

Prepare = Callable[[str], Callable[[], object]]


def repeat(delimiter: str, size: int) -> str:
    return (delimiter * (size // len(delimiter) + 1))[:size]


def cpu() -> float:
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.thread_time() + children.ru_utime + children.ru_stime


def timed(call: Callable[[], object]) -> float:
    started = cpu()
    call()
    return cpu() - started


def measure(cases: list[tuple[str, Prepare, str]]) -> None:
    """In the child: for each (label, parser, delimiter), print the 10 KB (median of 3) and
    1 MB times as one JSON line, announcing each case first (a hang then names it)."""
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))  # SIGXCPU dumps core by default
    for label, prepare, delimiter in cases:
        case = f"{label} {delimiter!r}"
        print(json.dumps({"start": case}), flush=True)
        _cap_cpu(CASE_CPU)
        small_call = prepare(repeat(delimiter, SMALL))
        small = statistics.median(timed(small_call) for _ in range(3))
        large_call = prepare(repeat(delimiter, LARGE))
        large = timed(large_call)
        for _ in range(RETRIES):
            if not too_slow(small, large):
                break
            _cap_cpu(LARGE_LIMIT + 1)
            large = min(large, timed(large_call))
        print(json.dumps({"case": case, "small": small, "large": large}), flush=True)


def too_slow(small: float, large: float) -> bool:
    """Over the issue's bounds: 2 s for 1 MB, or 150x the 10 KB run (plus ``FLOOR``)."""
    return large > LARGE_LIMIT or large > RATIO * small + FLOOR


def _cap_cpu(seconds: float) -> None:
    """Let this process use ``seconds`` more CPU (whole seconds, rounded up) before SIGXCPU."""
    _, hard = resource.getrlimit(resource.RLIMIT_CPU)
    soft = math.ceil(time.process_time() + seconds)
    if hard != resource.RLIM_INFINITY:
        soft = min(soft, hard)
    resource.setrlimit(resource.RLIMIT_CPU, (soft, hard))


def run_child(target: str, arguments: list[str], cwd: Path) -> list[dict[str, object]]:
    """Run ``fuzz_targets.cases(target, arguments)`` in a child; its measurements."""
    code = (
        "import json, sys\n"
        "from tests import fuzz_targets, fuzzing\n"
        "fuzzing.measure(fuzz_targets.cases(sys.argv[1], json.loads(sys.argv[2])))\n"
    )
    root = Path(__file__).resolve().parent.parent
    env = {**os.environ, "PYTHONPATH": str(root), "TRIBUNAL_FUZZ_DIR": str(cwd)}
    proc = subprocess.Popen(
        [sys.executable, "-c", code, target, json.dumps(arguments)],
        cwd=cwd,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        out, err = proc.communicate(timeout=WALL_LIMIT)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate()
        raise AssertionError(
            f"{target} {arguments}: still running after {WALL_LIMIT:.0f} s: {_last(out)}"
        ) from None
    if proc.returncode == -signal.SIGXCPU:
        raise AssertionError(f"{target} {arguments}: over {CASE_CPU:.0f} s of CPU: {_last(out)}")
    assert proc.returncode == 0, err[-3000:]
    return [row for row in map(json.loads, out.splitlines()) if "case" in row]


def _last(out: str) -> str:
    started = [row["start"] for row in map(json.loads, out.splitlines()) if "start" in row]
    return f"{started[-1] if started else '(none)'} ({len(started) - 1} cases done before)"


def assert_bounded(target: str, arguments: list[str], cwd: Path) -> None:
    slow = []
    rows = run_child(target, arguments, cwd)
    assert rows, f"{target} {arguments}: nothing measured"
    for row in rows:
        small, large = float(row["small"]), float(row["large"])  # type: ignore[arg-type]
        if too_slow(small, large):
            slow.append(f"{row['case']}: 10 KB {small:.4f} s, 1 MB {large:.3f} s")
    assert not slow, f"{target} is not bounded: " + "; ".join(slow)
