"""The noise benchmark's generated history meets its targets and keeps every real finding."""

from __future__ import annotations

import statistics
from pathlib import Path

from bench.noise import AVERAGE_TARGET, EXCESS_TARGET, Counted, generated, summarize
from bench.noise_history import steps


def test_generated_history_meets_the_targets_with_recall(tmp_path: Path) -> None:
    rows = generated(tmp_path, None)
    assert len(rows) == len(steps())
    assert [r.missing for r in rows if r.missing] == []  # every planted problem is reported
    assert statistics.mean(r.unverified for r in rows) <= AVERAGE_TARGET
    assert max(r.excess for r in rows) <= EXCESS_TARGET
    planted = [r for r in rows if r.name.startswith("real:")]
    assert planted and all(r.unverified >= 1 for r in planted)
    library = [r for r in rows if r.name.startswith("library named after")]
    assert library and all(r.unverified <= 1 for r in library)  # was 69 each


def test_summarize_fails_a_missed_target() -> None:
    quiet = [Counted("c" * 40, "quiet", 0, 0)]
    assert summarize("ok", quiet, verbose=False)
    assert not summarize("average", [*quiet, Counted("d" * 40, "noisy", 2, 1)], verbose=False)
    assert not summarize("excess", [Counted("e" * 40, "burst", 9, 3)] + quiet * 30, verbose=True)
    assert not summarize("recall", [Counted("f" * 40, "lost", 0, 0, ("drift: x",))], verbose=False)
