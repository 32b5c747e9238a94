"""``--format github``: GitHub Actions workflow commands, one annotation per finding.

In a workflow step, ``::error file=...,line=...::message`` shows inline on the
pull request's diff without code scanning or extra permissions. CONTRADICTED
is an ``error``, UNVERIFIED a ``notice`` (visible, not alarming), PASS is left
out, as in SARIF. GitHub shows at most ten annotations of each kind per step,
so CONTRADICTED findings come first.

Every value comes from the change (paths, titles, claims) and is untrusted: it
is escaped as the runner's own toolkit escapes it, so a crafted file name can
neither end the command early nor start another one (``::add-mask::``,
``::stop-commands::``) on a line of its own.
"""

from __future__ import annotations

from tribunal.findings import AdvisoryClaim, Finding, Report, Verdict
from tribunal.render.common import is_claim, places, printable
from tribunal.render.text import counts_line, exit_reason

_COMMAND = {Verdict.CONTRADICTED: "error", Verdict.UNVERIFIED: "notice"}


def render(
    report: Report, *, color: bool = False, hard_fail: bool = False, strict: bool = False
) -> str:
    """The annotations, then one plain summary line; ``color`` is ignored."""
    ordered = sorted(
        (f for f in report.findings if f.verdict is not Verdict.PASS),
        key=lambda f: -f.verdict,
    )
    lines = [annotation(f) for f in ordered]
    lines += [_error_annotation(e.message, e.file) for e in report.errors]
    lines += [_advisory_annotation(a) for a in report.advisory]
    reason = exit_reason(report, hard_fail, strict)
    lines.append(f"tribunal: {counts_line(report, False)} — {reason}")
    return "\n".join(lines) + "\n"


def annotation(finding: Finding) -> str:
    """One finding as one workflow command line."""
    props: list[tuple[str, str]] = []
    # A claims file outside the repository (the action's PR body) cannot be
    # annotated; the code the claim is about, when known, can.
    found = [place for place in places(finding) if not place.path.startswith("/")]
    if found:
        path, start, end = found[0]
        props.append(("file", path))
        if start is not None:
            props.append(("line", str(start)))
            if end is not None:
                props.append(("endLine", str(end)))
    props.append(("title", f"Tribunal {finding.verdict.name}: {finding.analyzer}"))
    return command(_COMMAND[finding.verdict], props, _message(finding))


def command(name: str, props: list[tuple[str, str]], message: str) -> str:
    """``::name k=v,...::message``, escaped so that it stays one command."""
    rendered = ",".join(f"{key}={escape_property(value)}" for key, value in props)
    return f"::{name}{' ' + rendered if rendered else ''}::{escape_data(message)}"


def escape_data(text: str) -> str:
    """A message: ``%``, CR and LF encoded, as ``@actions/core`` encodes them."""
    text = printable(text)
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """A property value: a message's escapes, and ``:`` and ``,`` that would end it."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def _message(finding: Finding) -> str:
    text = finding.title
    if is_claim(finding):
        text += f" (claim {finding.claim} from {finding.source})"
    if finding.suppressed:
        text += f" (suppressed: {finding.suppressed})"
    if finding.detail.strip():
        text += "\n" + finding.detail.strip("\n")
    return text


def _error_annotation(message: str, path: str | None) -> str:
    props = [("file", path)] if path else []
    props.append(("title", "Tribunal analyzer error: results are incomplete"))
    return command("warning", props, message)


def _advisory_annotation(item: AdvisoryClaim) -> str:
    """A claim a model proposed: a notice, never an error, whatever the verifier found."""
    props = [("title", "Tribunal advisory: a proposed claim (never blocking)")]
    return command("notice", props, f"{item.sentence}\n{item.adopt}")
