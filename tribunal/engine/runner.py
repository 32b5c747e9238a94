"""Run the enabled analyzers over a change and assemble the report.

Each analyzer is imported only when it runs and is isolated: a crash becomes an
``AnalyzerError`` naming the analyzer and file, never a verdict, and the other
analyzers still run. A file nested too deeply to follow (``RecursionError``) is
no crash: that analyzer's verdict on that file is UNVERIFIED, and the rest of
the change is judged as usual.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterable, Sequence

from tribunal.change.model import Change
from tribunal.engine.analysis import (
    TOO_DEEP,
    collecting_crashes,
    collecting_notes,
    reporting_files,
    too_deep,
)
from tribunal.engine.limits import unavailable
from tribunal.engine.registry import BUILTINS, AnalyzerSpec
from tribunal.engine.workers import Judged
from tribunal.findings import AnalyzerError, Finding, Report
from tribunal.gate import suppress
from tribunal.util.sha import sha256_hex


def enabled_specs(change: Change, only: Sequence[str] | None = None) -> list[AnalyzerSpec]:
    """Analyzers to run: ``only`` when given, else every built-in the config enables."""
    ids = only if only is not None else list(BUILTINS)
    return [BUILTINS[i] for i in ids if change.config.enabled(i)]


#: Told (analyzer id, files judged, files to judge) as the analyzers go.
FileProgress = Callable[[str, int, int], None]


def analyze(
    change: Change,
    only: Sequence[str] | None = None,
    progress: FileProgress | None = None,
    workers: int = 1,
) -> Report:
    """Run analyzers on ``change``; never raises for an analyzer's own failure.

    On a thread with room for deep syntax trees (``deepstack``); with ``workers``
    2, shared with a forked worker process (``workers.run_all``; ``workers_for``
    says when that pays).
    """
    from tribunal.engine.deepstack import on_deep_stack

    return on_deep_stack(lambda: _analyze(change, only, progress, workers))


def _analyze(
    change: Change, only: Sequence[str] | None, progress: FileProgress | None, workers: int
) -> Report:
    started = time.perf_counter()
    specs = enabled_specs(change, only)
    findings: list[Finding] = []
    errors: list[AnalyzerError] = []
    notes: list[str] = []

    def run_one(spec: AnalyzerSpec) -> Judged:
        return _run_one(spec, change, progress)

    if workers > 1:
        from tribunal.engine.workers import run_all

        judged = run_all(specs, run_one, change)
    else:
        judged = [run_one(spec) for spec in specs]
    for found, crashed, said in judged:
        findings.extend(found)
        errors.extend(crashed)
        notes.extend(text for text in said if text not in notes)
    findings = suppress.apply(change, findings)
    findings.extend(suppress.added_suppressions(change))
    findings.sort(key=lambda f: (f.file, f.line or 0, f.analyzer, f.title))
    findings = _fingerprinted(change, findings)
    skipped = {fc.path: fc.skip_reason for fc in change.files if fc.skip_reason}
    skipped.update(change.skipped)
    return Report(
        findings=tuple(findings),
        analyzers=tuple(spec.id for spec in specs),
        files_analyzed=len(change.analyzable()),
        range=change.range,
        duration_ms=(time.perf_counter() - started) * 1000,
        errors=tuple(errors),
        skipped=tuple(sorted((p, r) for p, r in skipped.items() if r)),
        notes=(*unavailable(change, [spec.id for spec in specs]), *notes),
    )


def _run_one(spec: AnalyzerSpec, change: Change, progress: FileProgress | None = None) -> Judged:
    found: list[Finding] = []
    ticks = (
        reporting_files(lambda done, total: progress(spec.id, done, total))
        if progress is not None
        else contextlib.nullcontext()
    )
    with collecting_crashes() as crashes, collecting_notes() as notes, ticks:
        try:
            found.extend(spec.load().run(change))
        except Exception as exc:  # findings made before the crash are kept
            crashes.append((None, exc))
    errors = []
    for file, failure in crashes:
        if file is not None and isinstance(failure, TOO_DEEP):
            found.append(too_deep(spec.id, file))
        else:
            errors.append(_error(spec.id, file, failure))
    return Judged(found, errors, notes)


def _error(analyzer: str, file: str | None, exc: BaseException) -> AnalyzerError:
    import traceback

    where = f" on {file}" if file else ""
    tb = "".join(traceback.format_exception(exc))
    message = f"analyzer {analyzer} crashed{where}: {type(exc).__name__}: {exc}"
    return AnalyzerError(analyzer, file, message, tb)


def _fingerprinted(change: Change, findings: list[Finding]) -> list[Finding]:
    """Give each finding a digest of analyzer, file, claim and flagged content.

    The line number is left out so a finding that moves keeps its identity;
    findings that would share a digest (two on one line) get an ordinal. A
    grouped finding is identified by its group key instead, which does not
    change when the group gains a place.
    """
    seen: dict[str, int] = {}
    out = []
    for finding in findings:
        if finding.group:
            parts: tuple[str, ...] = (finding.analyzer, "group", finding.group)
        else:
            span = _span_text(change, finding)
            fallback = "" if span else finding.title
            parts = (finding.analyzer, finding.file, finding.claim or "", fallback, span)
        digest = _digest(parts)
        ordinal = seen.get(digest, 0)
        seen[digest] = ordinal + 1
        if ordinal:
            digest = _digest((digest, str(ordinal)))
        out.append(finding._replace(fingerprint=digest))
    return out


def _digest(parts: Iterable[str]) -> str:
    return sha256_hex("\0".join(parts).encode("utf-8", "replace"))[:32]


def _span_text(change: Change, finding: Finding) -> str:
    """The flagged lines with whitespace collapsed: stable when the span moves."""
    if finding.line is None or not finding.file:
        return ""
    source = change.read_head(finding.file)
    if source is None:
        return ""
    end = finding.end_line or finding.line
    lines: Iterable[str] = source.lines[finding.line - 1 : end]
    return " ".join(" ".join(line.split()) for line in lines if line.strip())
