"""Run a parser on 10 KB and 1 MB inputs made of its own delimiters, in a child process.

The issue's rule (issue 21): the 1 MB run finishes within 2 s and within 150x
the 10 KB run. Timing is the child's CPU time (``time.process_time`` plus the
CPU of the git processes it waited for), so other work on a loaded machine does
not count; the 10 KB time is the median of several runs; a child that exceeds
its wall-clock limit (a parser gone quadratic) is killed and fails the case.
"""

from __future__ import annotations

import json
import os
import resource
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
#: work (page faults and cache misses of fresh 1 MB buffers, about 0.08 s here).
FLOOR = 0.1
WALL_LIMIT = 300.0  # a hang guard only: the assertion is on CPU time

Prepare = Callable[[str], Callable[[], object]]


def repeat(delimiter: str, size: int) -> str:
    return (delimiter * (size // len(delimiter) + 1))[:size]


def cpu() -> float:
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def timed(call: Callable[[], object]) -> float:
    started = cpu()
    call()
    return cpu() - started


def measure(cases: list[tuple[str, Prepare, str]]) -> list[dict[str, object]]:
    """In the child: for each (label, parser, delimiter), the 10 KB (median of 5) and 1 MB times."""
    out: list[dict[str, object]] = []
    for label, prepare, delimiter in cases:
        print(json.dumps({"start": f"{label} {delimiter!r}"}), flush=True)
        small_call = prepare(repeat(delimiter, SMALL))
        small = statistics.median(timed(small_call) for _ in range(5))
        large = timed(prepare(repeat(delimiter, LARGE)))
        out.append({"case": f"{label} {delimiter!r}", "small": small, "large": large})
    return out


def run_child(target: str, delimiters: list[str], cwd: Path) -> list[dict[str, object]]:
    """Run ``fuzz_targets.cases(target, delimiters)`` in a child; its measurements."""
    code = (
        "import json, sys\n"
        "from tests import fuzz_targets, fuzzing\n"
        "cases = fuzz_targets.cases(sys.argv[1], json.loads(sys.argv[2]))\n"
        "result = fuzzing.measure(cases)\n"
        "print(json.dumps({'done': result}), flush=True)\n"
    )
    root = Path(__file__).resolve().parent.parent
    env = {**os.environ, "PYTHONPATH": str(root), "TRIBUNAL_FUZZ_DIR": str(cwd)}
    proc = subprocess.Popen(
        [sys.executable, "-c", code, target, json.dumps(delimiters)],
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
        started = [json.loads(line)["start"] for line in out.splitlines() if '"start"' in line]
        raise AssertionError(
            f"{target}: still running after {WALL_LIMIT:.0f} s on {started[-1:]!r}"
        ) from None
    assert proc.returncode == 0, err[-3000:]
    last = json.loads(out.splitlines()[-1])
    return list(last["done"])


def assert_bounded(target: str, delimiters: list[str], cwd: Path) -> None:
    slow = []
    for row in run_child(target, delimiters, cwd):
        small, large = float(row["small"]), float(row["large"])  # type: ignore[arg-type]
        if large > LARGE_LIMIT or large > RATIO * small + FLOOR:
            slow.append(f"{row['case']}: 10 KB {small:.4f} s, 1 MB {large:.3f} s")
    assert not slow, f"{target} is not bounded: " + "; ".join(slow)
