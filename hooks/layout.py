"""Layout keys: the one part of a pushed ``tribunal.yml`` that may speak for the push.

``python-roots`` and ``generated-paths`` describe where the repository keeps its
code rather than how strict the gate is, and a commit that moves code changes
them legitimately. The gate still runs under the trusted config (the remote's),
but a CONTRADICTED finding that disappears when those keys are read from the
pushed commit is not a syntactic certainty about *this* tree: it is reported
UNVERIFIED, with a note that the layout keys differ. (Widening
``generated-paths`` is also reported as a weakening of the gate and logged.)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import cast

from tribunal.config.model import Config
from tribunal.findings import Finding, Verdict
from tribunal.hooks.members import MemberVerdict, Outcome

LAYOUT_KEYS = ("python-roots", "generated-paths")
NOTE = (
    "CONTRADICTED under the remote's tribunal.yml, but not under the layout keys "
    "(python-roots, generated-paths) of this change's own tribunal.yml, which differ: "
    "so not a certainty about this tree"
)


def layout_config(trusted: Config, pushed: Config) -> Config | None:
    """``trusted`` with ``pushed``'s layout keys; None when they are the same."""
    if (pushed.python_roots, pushed.generated_paths) == (
        trusted.python_roots,
        trusted.generated_paths,
    ):
        return None
    raw = {k: v for k, v in trusted.raw.items() if k not in LAYOUT_KEYS}
    raw |= {k: pushed.raw[k] for k in LAYOUT_KEYS if k in pushed.raw}
    return trusted._replace(
        python_roots=pushed.python_roots, generated_paths=pushed.generated_paths, raw=raw
    )


def relaxed(
    outcomes: Sequence[Outcome], rejudge: Callable[[tuple[str, ...]], Sequence[Finding]]
) -> list[Outcome]:
    """``outcomes`` with each CONTRADICTED finding that ``rejudge`` (the analyzers named,
    run under the pushed layout) does not repeat turned UNVERIFIED."""
    contradicted = [f for o in outcomes for f in o.findings if f.verdict is Verdict.CONTRADICTED]
    if not contradicted:
        return list(outcomes)
    analyzers = tuple(sorted({f.analyzer for f in contradicted}))
    still = {_key(f) for f in rejudge(analyzers) if f.verdict is Verdict.CONTRADICTED}
    out = []
    for outcome in outcomes:
        findings = tuple(
            _unverified(f) if f.verdict is Verdict.CONTRADICTED and _key(f) not in still else f
            for f in outcome.findings
        )
        if findings == outcome.findings or outcome.verdict == "ERROR":
            out.append(replace(outcome, findings=findings))
            continue
        worst = max((f.verdict for f in findings), default=Verdict.PASS)
        out.append(replace(outcome, findings=findings, verdict=cast(MemberVerdict, worst.name)))
    return out


def _key(finding: Finding) -> tuple[str, str, str]:
    return (finding.analyzer, finding.file, finding.fingerprint or finding.title)


def _unverified(finding: Finding) -> Finding:
    detail = f"{finding.detail}\n{NOTE}" if finding.detail else NOTE
    return finding._replace(verdict=Verdict.UNVERIFIED, detail=detail)
