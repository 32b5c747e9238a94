"""claim-reconciliation: check each claim the change makes against the change itself.

One finding per claim. A PASS points at where the claim was made; any other
verdict points at its evidence in the repository (the
verifier's ``where``: the manifest line that adds the dependency, the changed
default, ...), with the claims file's line as a related place when the claim
came from a file. A claim without evidence points at where it was made when
that is a file; one from a commit message, a PR body or the council points at
the change's first changed file and its first changed line (the documented
fallback: a code-scanning alert needs a file), and only a change with no file
at all leaves it without a place. Never at line 0. A verifier that crashes is
reported as an analyzer error naming the claim; it never turns into a verdict.
"""

from __future__ import annotations

from collections.abc import Iterator

from tribunal.change.model import Change, Claim
from tribunal.engine.analysis import record_crash
from tribunal.findings import Finding, Related, Verdict

ID = "claim-reconciliation"


def run(change: Change) -> Iterator[Finding]:
    if not change.claims:
        return
    from tribunal.claims.registry import judge
    from tribunal.claims.sources import location

    for claim in change.claims:
        try:
            judgement = judge(change, claim)
        except Exception as exc:
            record_crash(f"{location(claim)} (claim {claim.key})", exc)
            continue
        detail = judgement.detail + _also(claim)
        claimed_in_file = claim.origin == "file"
        where = judgement.where if judgement.verdict is not Verdict.PASS else None
        if where is None and not claimed_in_file and judgement.verdict is not Verdict.PASS:
            where = _fallback(change)
        if where is not None:
            file, line = where
            related = (Related(claim.source, claim.line),) if claimed_in_file else ()
            if not claimed_in_file:
                at = f"line {claim.line} of " if claim.line else ""
                detail += f"\nClaimed at {at}{location(claim)}."
        else:
            file, line, related = location(claim), claim.line, ()
        yield Finding(
            analyzer=ID,
            verdict=judgement.verdict,
            file=file,
            line=line,
            title=f"{label(claim)}: {judgement.title}",
            detail=detail.strip(),
            claim=claim.key,
            source=claim.source,
            related=related,
        )


def label(claim: Claim) -> str:
    return f"claim '{claim.key}: {claim.arg}'" if claim.arg else f"claim '{claim.key}'"


def _also(claim: Claim) -> str:
    if not claim.also:
        return ""
    return f"\nAlso claimed by: {', '.join(claim.also)} (judged once)."


def _fallback(change: Change) -> tuple[str, int | None] | None:
    """The first changed file at head and its first added line, for a claim with no evidence."""
    for fc in sorted(change.files, key=lambda f: f.path):
        if fc.has_head and fc.skip_reason is None:
            return fc.path, min(fc.added, default=None)
    return None
