"""Fake analyzers for engine and CLI tests, and a CLI entry point that uses them.

The real analyzers are judged by their own tests; these fakes make the engine's
plumbing observable. ``fake-echo`` reports, for every analyzable file, exactly
what the engine let it read (head and base contents, added and removed lines),
so a test can prove *which* content a diff source delivered. ``fake-flag`` turns
marker words on added lines into verdicts; ``fake-boom`` crashes on chosen files;
``fake-slow`` sleeps so a test can interrupt a running analysis.

``python -m tests.fake_analyzers check ...`` runs the real ``tribunal.entry.run`` (``main``
and the command's own way in and out) with the registry replaced by these fakes (a real
subprocess, real git).
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.engine_helpers import change_for
from tests.gitrepo import GitRepo, Result
from tribunal.change.diff.model import FileChange
from tribunal.change.model import Change
from tribunal.config.model import Config
from tribunal.engine.analysis import each_file
from tribunal.engine.registry import Analyzer, AnalyzerSpec, Kind
from tribunal.engine.runner import analyze
from tribunal.engine.sources import Selection
from tribunal.findings import Finding, Report, Verdict

MODULE = "tests.fake_analyzers"


@dataclass(frozen=True)
class _Module:
    """An analyzer module: ``run(change)``."""

    run: Callable[[Change], Iterable[Finding]]


def echo(change: Change) -> Iterator[Finding]:
    for fc in change.analyzable():
        head = change.head_source(fc)
        base = change.base_source(fc)
        detail = {
            "status": fc.status.value,
            "old_path": fc.old_path,
            "head": None if head is None else head.text,
            "base": None if base is None else base.text,
            "added": {str(n): fc.added_text.get(n) for n in sorted(fc.added)},
            "removed": {str(n): fc.removed_text.get(n) for n in sorted(fc.removed)},
        }
        yield Finding("fake-echo", Verdict.PASS, fc.path, None, "seen", json.dumps(detail))


def flag(change: Change) -> Iterator[Finding]:
    return each_file(change.analyzable(), lambda fc: _flag_file(change, fc))


_MARKERS = (("CONTRADICT", Verdict.CONTRADICTED), ("UNVERIFY", Verdict.UNVERIFIED))


def _flag_file(change: Change, fc: FileChange) -> Iterator[Finding]:
    for line in sorted(fc.added_text):
        text = fc.added_text[line]
        for word, verdict in (
            ("CONTRADICT", Verdict.CONTRADICTED),
            ("UNVERIFY", Verdict.UNVERIFIED),
        ):
            if word in text:
                yield Finding("fake-flag", verdict, fc.path, line, f"{word} marker", text, line)


def boom(change: Change) -> Iterator[Finding]:
    def judge(fc: FileChange) -> list[Finding]:
        if "boom" in fc.path:
            raise RuntimeError(f"fake crash on {fc.path}")
        return []

    return each_file(change.analyzable(), judge)


def slow(change: Change) -> Iterator[Finding]:
    if any("slow" in fc.path for fc in change.files):
        _mark_ready("FAKE_SLOW_READY")
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            time.sleep(0.05)
    return iter(())


FAKES = {
    "fake-echo": echo,
    "fake-flag": flag,
    "fake-boom": boom,
    "fake-slow": slow,
}


class FakeSpec(AnalyzerSpec):
    """A registry entry whose module is a function of this file, not an import path.

    ``AnalyzerSpec`` is a NamedTuple, which takes no new fields: ``func`` is a
    plain attribute (a subclass of it has a ``__dict__``).
    """

    func: Callable[[Change], Iterable[Finding]]

    def __new__(
        cls,
        id: str,
        title: str,
        kind: Kind,
        module: str,
        description: str,
        func: Callable[[Change], Iterable[Finding]] = echo,
    ) -> FakeSpec:
        spec = super().__new__(cls, id, title, kind, module, description)
        spec.func = func
        return spec

    def load(self) -> Analyzer:
        return _Module(self.func)


def install(builtins: dict[str, AnalyzerSpec], ids: Iterable[str] = FAKES) -> None:
    """Replace the registry's contents with fakes (the dict is edited in place)."""
    builtins.clear()
    for analyzer_id in ids:
        kind = Kind.CLAIM_INDEPENDENT
        builtins[analyzer_id] = FakeSpec(
            analyzer_id, analyzer_id, kind, MODULE, "fake", FAKES[analyzer_id]
        )


def _mark_ready(variable: str) -> None:
    """Tell a waiting test (through a file it named) that we got this far."""
    path = os.environ.get(variable)
    if path:
        Path(path).write_text("ready")


if __name__ == "__main__":
    from tribunal.engine import registry
    from tribunal.entry import run

    install(registry.BUILTINS)
    _mark_ready("FAKE_MAIN_READY")
    run()


def run_cli(
    repo: GitRepo,
    *args: str,
    stdin: str | bytes | None = None,
    env: Mapping[str, str] | None = None,
    cwd: Path | None = None,
) -> Result:
    """The real CLI in a subprocess, with the fakes as its registry."""
    root = str(Path(__file__).resolve().parent.parent)
    path = os.pathsep.join(p for p in (root, os.environ.get("PYTHONPATH", "")) if p)
    proc = subprocess.run(
        [sys.executable, "-m", MODULE, *args],
        cwd=cwd or repo.path,
        input=stdin.encode() if isinstance(stdin, str) else stdin,
        env={**os.environ, "PYTHONPATH": path, **(env or {})},
        capture_output=True,
        check=False,
    )
    return Result(
        proc.returncode,
        proc.stdout.decode("utf-8", "replace"),
        proc.stderr.decode("utf-8", "replace"),
    )


def seen(result: Result) -> dict[str, dict[str, Any]]:
    """What ``fake-echo`` saw, by path, from a ``--format json`` run."""
    report = json.loads(result.stdout)
    return {
        f["file"]: json.loads(f["detail"])
        for f in report["findings"]
        if f["analyzer"] == "fake-echo"
    }


@contextlib.contextmanager
def installed(ids: Iterable[str] = FAKES) -> Iterator[None]:
    """The fakes as the in-process registry for the duration of the block."""
    from tribunal.engine import registry

    saved = dict(registry.BUILTINS)
    install(registry.BUILTINS, ids)
    try:
        yield
    finally:
        registry.BUILTINS.clear()
        registry.BUILTINS.update(saved)


def check_in_process(
    repo: GitRepo, sel: Selection | None = None, config: Config | None = None
) -> Report:
    """Build the change the CLI would and analyze it, without a subprocess."""
    with change_for(repo, sel or Selection(), config) as change:
        return analyze(change)
