"""``tribunal: ignore[<analyzer>] <reason>`` comments.

A suppression turns a finding into UNVERIFIED (never hides it) and needs a
reason. A suppression the change itself adds is reported on its own, because
an agent silencing the gate is exactly what the gate exists to notice.
"""

from __future__ import annotations

from collections.abc import Callable, Container, Iterable, Iterator

from tribunal.change.diff.linetable import joined
from tribunal.change.diff.model import FileChange
from tribunal.change.model import Change, Source
from tribunal.engine.registry import SUPPRESSION_ID
from tribunal.findings import Finding, Verdict
from tribunal.lang.paths import language_of
from tribunal.util.lazyre import lazy

_COMMENT_STARTS = ("#", "//", "/*", "*", "<!--")
_MARK = lazy(r"(?:#|//|/\*|\*|<!--)\s*tribunal:\s*ignore\[([a-z0-9-]+)\]\s*(.*)")


def parse_marker(line: str) -> tuple[str, str] | None:
    """(analyzer id, reason) of a suppression comment on ``line``, if any."""
    match = _MARK().search(line)
    if match is None:
        return None
    reason = match[2].strip().removesuffix("*/").removesuffix("-->").strip()
    return match[1], reason


def apply(change: Change, findings: Iterable[Finding]) -> list[Finding]:
    """Downgrade findings that a suppression comment with a reason covers."""
    out: list[Finding] = []
    for finding in findings:
        marker = None if finding.verdict is Verdict.PASS else _marker_for(change, finding)
        if marker is None:
            out.append(finding)
            continue
        line_no, reason = marker
        if not reason:
            note = f"\n(a suppression at line {line_no} has no reason, so it was ignored)"
            out.append(finding._replace(detail=finding.detail + note))
            continue
        out.append(finding._replace(verdict=Verdict.UNVERIFIED, suppressed=reason))
    return out


def _marker_for(change: Change, finding: Finding) -> tuple[int, str] | None:
    """The suppression covering the finding's place, or for a grouped finding any of its places.

    A claim is judged where its evidence is, but it is the author's own
    statement: only a marker in the claims file it came from covers it.
    """
    if finding.claim is not None and finding.file != finding.source:
        return None
    places = [(finding.file, finding.line), *finding.related]
    for path, line in places:
        found = _marker_at(change, finding.analyzer, path, line)
        if found is not None:
            return found
    return None


def _marker_at(
    change: Change, analyzer: str, path: str, line: int | None
) -> tuple[int, str] | None:
    if line is None or not path:
        return None
    source = change.read_head(path)
    if source is None or b"tribunal:" not in source.data:
        return None  # no marker anywhere in the file: nothing to look for, nothing to parse

    def decorators() -> Container[int]:
        from tribunal.lang.decorators import decorator_lines

        return decorator_lines(source).get(line, frozenset())

    for line_no in _candidate_lines(source.lines, line, decorators):
        parsed = parse_marker(source.line(line_no))
        if parsed is not None and parsed[0] == analyzer:
            in_comment = _comment_markers(source, path).get(line_no, parsed)
            if in_comment is not None and in_comment[0] == analyzer:
                return line_no, in_comment[1]
    return None


def _comment_markers(source: Source, path: str) -> dict[int, tuple[str, str] | None]:
    """Line -> the marker in that line's comment, for Python and JS/TS (a string is no comment).

    Lines of other files are not listed: their marker is taken as it stands.
    """
    from tribunal.lang.comments import comments_of

    comments = comments_of(source, language_of(path))
    if comments is None:
        return {}
    text = {c.line: c.text for c in comments if c.kind == "comment"}
    return {
        n: parse_marker(text[n]) if n in text else None for n in range(1, len(source.lines) + 1)
    }


def _candidate_lines(
    lines: list[str], line: int, decorators: Callable[[], Container[int]]
) -> Iterator[int]:
    """The flagged line, then the comment-only lines directly above it.

    Decorators are stepped over, so a comment above ``@pytest.mark...`` covers
    the decorated test whose finding points at its ``def`` line. Lines starting
    with ``@`` are stepped over as they come; the first other code line asks
    ``decorators()`` (the lines the decorators of ``line`` span, from a parse of
    Python or JS/TS) whether it ends a decorator written over several lines.
    Comments inside such a decorator do not count. A trailing comment on the
    line above belongs to that line, and a blank line ends the search.
    """
    yield line
    spans: Container[int] | None = None
    above = line - 1
    while above >= 1:
        text = lines[above - 1].lstrip() if above <= len(lines) else ""
        if spans is not None and above in spans:
            pass
        elif text.startswith(_COMMENT_STARTS):
            yield above
        elif not text.startswith("@"):
            if spans is not None or not text:
                return
            spans = decorators()  # the file is parsed only now, and once per run
            if above not in spans:
                return
        above -= 1


def added_suppressions(change: Change) -> Iterator[Finding]:
    """One UNVERIFIED finding for each suppression comment the change adds.

    In Python and JS/TS only a marker in a real comment counts: one inside a
    string literal (a test that writes a file with a suppression) suppresses
    nothing, so it is nothing to report.
    """
    for fc in change.analyzable():
        if "tribunal:" not in joined(fc.added_text):
            continue  # no marker on any added line (one search, not a regex per line)
        found = {n: parse_marker(fc.added_text[n]) for n in sorted(fc.added_text)}
        markers = {n: parsed for n, parsed in found.items() if parsed is not None}
        if markers:
            markers = _in_comments(change, fc, markers)
        for line_no, parsed in markers.items():
            analyzer, reason = parsed
            detail = f"reason: {reason}" if reason else "no reason given, so it suppresses nothing"
            yield Finding(
                analyzer=SUPPRESSION_ID,
                verdict=Verdict.UNVERIFIED,
                file=fc.path,
                line=line_no,
                end_line=line_no,
                title=f"this change adds a suppression of {analyzer}",
                detail=detail,
                language=language_of(fc.path),
            )


def _in_comments(
    change: Change, fc: FileChange, markers: dict[int, tuple[str, str]]
) -> dict[int, tuple[str, str]]:
    """The markers of ``fc`` that sit in a comment (all of them in a file we cannot parse)."""
    source = change.head_source(fc)
    if source is None:
        return markers
    in_comments = _comment_markers(source, fc.path)
    if not in_comments:
        return markers
    return {n: found for n in markers if (found := in_comments.get(n)) is not None}
