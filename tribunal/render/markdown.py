"""``--format md``: the report as a pull-request comment.

The first line is a hidden marker (``MARKER``) so that a CI step can find its
own earlier comment and update it instead of adding another. Every piece of
text that comes from the change (paths, titles, details, reasons, claims,
error messages, ref names) is untrusted: inline text is HTML-escaped and
backslash-escaped, code in backticks becomes a code span whose fence is longer
than any backtick run inside it, and long evidence goes into a fenced code
block the same way, so a crafted file name can neither add markup nor end a
block early. Only what needs it is escaped: quotes and apostrophes stay as
they are (no ``&#39;``), and backticks are never backslash-escaped, so the
comment reads as cleanly in its source as rendered.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter, defaultdict

from tribunal.findings import Finding, Report, Verdict
from tribunal.render.common import is_claim, printable, span
from tribunal.render.text import exit_reason

MARKER = "<!-- tribunal-report -->"

_ICON = {Verdict.CONTRADICTED: "🔴", Verdict.UNVERIFIED: "🟡", Verdict.PASS: "🟢"}
_WORST_FIRST = (Verdict.CONTRADICTED, Verdict.UNVERIFIED, Verdict.PASS)
#: A detail longer than this, or on several lines, is collapsed into <details>.
SHORT_DETAIL = 160
#: Only what HTML needs outside attributes: Tribunal never writes untrusted text into one.
_ENTITIES = {"&": "&amp;", "<": "&lt;", ">": "&gt;"}
#: Characters that make markup wherever they stand (``$`` is GitHub's math, and
#: ``#`` would be eaten as the closing sequence of a heading). Backticks are
#: handled apart: they make code spans (``_spans``).
_MARKDOWN = frozenset("\\*_[]|~$#")
_BACKTICKS = re.compile(r"`+")
#: What makes markup only at the start of a line: a list item, a rule, a setext
#: underline, an ordered list (``1.`` / ``1)``), an indented code block.
_LEADING = re.compile(r"^(?:([-+=])|(\d{1,9})([.)])| )")


def render(
    report: Report, *, color: bool = False, hard_fail: bool = False, strict: bool = False
) -> str:
    """The comment body; ``color`` is ignored (markdown has its own marks)."""
    lines = [MARKER, *_header(report)]
    lines += _findings(report)
    lines += _pass_summary(report)
    lines += _advisory(report)
    lines += _skipped(report)
    lines += _errors(report)
    lines += [f"_{inline(note)}_" for note in report.notes]
    lines.append(f"_{inline(_exit_line(report, hard_fail, strict))}_")
    return "\n".join(lines) + "\n"


def inline(text: str) -> str:
    """Untrusted text made safe anywhere inline, even at the start of a line.

    It renders as exactly itself: HTML is entity-escaped, markup characters are
    backslash-escaped, code in backticks is a code span (a lone backtick too:
    a code span holding it), and control or bidi characters are shown, not
    obeyed.
    """
    pieces = []
    for is_code, piece in _spans(printable(text)):
        pieces.append(code_span(piece) if is_code else "".join(_inline_char(c) for c in piece))
    return _LEADING.sub(_defuse_leading, "".join(pieces), count=1)


def _spans(text: str) -> list[tuple[bool, str]]:
    """(is code, text) pieces: a run of n backticks opens code closed by the next run of n.

    An unmatched run is code of its own (the backticks themselves), as CommonMark
    would show it literally.
    """
    out: list[tuple[bool, str]] = []
    at = 0
    search = 0
    while True:
        opening = _BACKTICKS.search(text, search)
        if opening is None:
            break
        closing = next(
            (m for m in _BACKTICKS.finditer(text, opening.end()) if len(m[0]) == len(opening[0])),
            None,
        )
        out.append((False, text[at : opening.start()]))
        if closing is None:
            out.append((True, opening[0]))
            at = search = opening.end()
        else:
            out.append((True, text[opening.end() : closing.start()]))
            at = search = closing.end()
    out.append((False, text[at:]))
    return [(code, piece) for code, piece in out if piece]


def code_span(text: str) -> str:
    """``text`` as one inline code span that nothing inside it can close."""
    body = "".join(" " if ch in "\n\t" else _block_char(ch) for ch in text)
    longest = max((len(run) for run in _BACKTICKS.findall(body)), default=0)
    fence = "`" * (longest + 1)
    edge = body.startswith("`") or body.endswith("`")
    padded = body.startswith(" ") and body.endswith(" ") and body.strip()
    pad = " " if edge or padded else ""
    return f"{fence}{pad}{body}{pad}{fence}"


def _inline_char(ch: str) -> str:
    if ch in _ENTITIES:
        return _ENTITIES[ch]
    if ch in _MARKDOWN:
        return "\\" + ch
    if ch == "\t":
        return " "
    if unicodedata.category(ch) in ("Cc", "Cf"):
        return f"\\\\u{ord(ch):04x}"
    return ch


def _defuse_leading(match: re.Match[str]) -> str:
    if match[1]:
        return "\\" + match[1]
    if match[2]:
        return f"{match[2]}\\{match[3]}"
    return "&#32;"


def code_block(text: str, indent: str = "") -> list[str]:
    """``text`` verbatim in a fence no line of it can close."""
    body = "".join(_block_char(ch) for ch in printable(text))
    longest = max((len(run) for run in re.findall(r"`+", body)), default=0)
    fence = "`" * max(3, longest + 1)
    inner = [f"{indent}{line}" if line.strip() else "" for line in body.split("\n")]
    return [f"{indent}{fence}text", *inner, f"{indent}{fence}"]


def _block_char(ch: str) -> str:
    if ch in "\n\t" or unicodedata.category(ch) not in ("Cc", "Cf"):
        return ch
    return f"\\u{ord(ch):04x}"


def _header(report: Report) -> list[str]:
    counts = " · ".join(f"{_ICON[v]} {report.count(v)} {v.name}" for v in _WORST_FIRST)
    files, analyzers = report.files_analyzed, len(report.analyzers)
    where = (
        f"{report.range.description} — {files} file{'s' * (files != 1)}, "
        f"{analyzers} analyzer{'s' * (analyzers != 1)}, {report.duration_ms:.0f} ms"
    )
    return [f"## ⚖️ Tribunal: {counts}", "", f"**Checked:** {inline(where)}", ""]


def _findings(report: Report) -> list[str]:
    by_file: dict[str, list[Finding]] = defaultdict(list)
    for finding in report.findings:
        if finding.verdict is not Verdict.PASS:
            by_file[finding.file or "(change)"].append(finding)
    if not by_file:
        return ["No CONTRADICTED or UNVERIFIED findings.", ""]
    lines: list[str] = []
    for file, findings in by_file.items():
        lines += [f"### 📄 {inline(file)}", ""]
        for finding in findings:
            lines += _item(finding)
        lines.append("")
    return lines


def _item(finding: Finding) -> list[str]:
    start, end = span(finding)
    where = "no line" if start is None else f"line {start}"
    if start is not None and end is not None and end > start:
        where = f"lines {start}–{end}"
    head = (
        f"- {_ICON[finding.verdict]} **{finding.verdict.name}** · {where} · "
        f"{inline(finding.analyzer)} — {inline(finding.title)}"
    )
    if is_claim(finding):
        head += f" · claim {inline(finding.claim or '')} from {inline(finding.source or '')}"
    if finding.suppressed:
        head += f" · suppressed: {inline(finding.suppressed)}"
    detail = finding.detail.strip("\n")
    if not detail.strip():
        return [head]
    if "\n" not in detail and len(detail) <= SHORT_DETAIL:
        return [head, f"  ↳ {inline(detail)}"]
    block = code_block(detail, "  ")
    return [head, "  <details><summary>Details</summary>", "", *block, "", "  </details>"]


def _pass_summary(report: Report) -> list[str]:
    passed = Counter(f.analyzer for f in report.findings if f.verdict is Verdict.PASS)
    if not passed:
        return []
    per = ", ".join(f"{inline(name)}: {n}" for name, n in sorted(passed.items()))
    return [f"{_ICON[Verdict.PASS]} **{sum(passed.values())} PASS** ({per})", ""]


def _advisory(report: Report) -> list[str]:
    """Claims a model proposed, verified: a section of their own, outside every count."""
    if not report.advisory:
        return []
    items = [
        line
        for a in report.advisory
        for line in (f"- {inline(a.sentence)}", f"  ↳ {inline(a.adopt)}")
    ]
    head = "**Advisory: claims a model proposed** (verified, never counted, never blocking):"
    return [head, "", *items, ""]


def _skipped(report: Report) -> list[str]:
    if not report.skipped:
        return []
    items = [f"- {inline(path)}: {inline(reason)}" for path, reason in report.skipped]
    return [f"<details><summary>{len(items)} skipped</summary>", "", *items, "", "</details>", ""]


def _errors(report: Report) -> list[str]:
    if not report.errors:
        return []
    items = [f"- {inline(error.message)}" for error in report.errors]
    return ["**⚠️ Analyzer errors** (the results are incomplete):", "", *items, ""]


def _exit_line(report: Report, hard_fail: bool, strict: bool) -> str:
    if report.errors:  # stderr is not part of a PR comment: the errors are listed above
        return f"{len(report.errors)} analyzer error(s), listed above: results are incomplete"
    return exit_reason(report, hard_fail, strict)
