"""The commit hook's report: everything that blocks, and the rest folded to fit one screen.

A commit hook runs on every commit; its output is read in a terminal, often
beside an editor. CONTRADICTED findings come first, with a few lines of why;
then UNVERIFIED ones in brief, grouped by analyzer and file (one line each),
folded where a group or the whole list runs long, with a count and the
command that shows everything (``show_all``), named as Tribunal was
installed: the CLI for the plain git hooks, the framework's manual-stage hook
under pre-commit, whose environment does not put ``tribunal`` on the PATH.
The JSON, SARIF and markdown reports are never folded.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence

from tribunal.findings import Finding, Report, Verdict
from tribunal.hooks.output import location

#: A terminal's height and a comfortable width: the whole output fits in them (a blocking
#: finding's own line is never cut: it says what must change).
SCREEN_LINES = 24
WIDTH = 100
#: Lines of a CONTRADICTED finding's detail shown under its title.
DETAIL_LINES = 3
#: UNVERIFIED findings shown per (analyzer, file) before the rest is folded into a count.
PER_FILE = 2
MANUAL_HOOK = "tribunal-check"
#: What pre-commit prints around a verbose hook's output: its status line, ``- hook id``,
#: ``- duration`` and a blank line.
FRAMEWORK_ROWS = 4


def surrounding_rows(env: Mapping[str, str]) -> int:
    return FRAMEWORK_ROWS if env.get("PRE_COMMIT") == "1" else 0


def show_all(env: Mapping[str, str], *, committed: bool, unborn: bool = False) -> str:
    """The command that shows every finding, as Tribunal was installed.

    ``committed``: the commit goes ahead (nothing blocked), so once it is made
    the staged changes are the last commit, not the index. A hook that judged a
    range (``PRE_COMMIT_FROM_REF``/``PRE_COMMIT_TO_REF``) names that range.
    """
    start, end = env.get("PRE_COMMIT_FROM_REF"), env.get("PRE_COMMIT_TO_REF")
    refs = (start, end) if start and end else None
    if refs is None and committed and not unborn:
        refs = ("HEAD~1", "HEAD")
    if env.get("PRE_COMMIT") == "1":
        command = f"pre-commit run {MANUAL_HOOK} --hook-stage manual"
        if refs is not None:
            command += f" --from-ref {_quoted(refs[0])} --to-ref {_quoted(refs[1])}"
        return command
    if refs is not None:
        return f"tribunal check --base {_quoted(refs[0])} --head {_quoted(refs[1])}"
    return "tribunal check --staged"


def _quoted(ref: str) -> str:
    """``ref`` as a shell word: as it is when it is plain (``HEAD~1``, ``origin/main``)."""
    import re
    import shlex

    return ref if re.fullmatch(r"[\w./~^@{}:-]+", ref) else shlex.quote(ref)


def brief_lines(
    report: Report, headline: str, command: str, tail: Sequence[str] = (), reserve: int = 0
) -> list[str]:
    """``headline``, the findings folded to fit ``SCREEN_LINES`` with ``tail`` and ``command``.

    ``reserve``: rows the caller's surroundings take (pre-commit's own lines).
    """
    notes = [_clip(f"  note: {note}") for note in report.notes]
    fold = rows([_fold_line(len(report.findings), True, command)])  # the longest it can be
    fixed = reserve + rows([headline, *notes, *tail]) + fold
    contradicted = [f for f in report.findings if f.verdict is Verdict.CONTRADICTED]
    unverified = [f for f in report.findings if f.verdict is Verdict.UNVERIFIED]
    body, hidden = _contradicted(contradicted, SCREEN_LINES - fixed)
    more, hidden_unverified, folded = _unverified(unverified, SCREEN_LINES - fixed - rows(body))
    body += more
    hidden += hidden_unverified
    if hidden or folded or unverified:
        body.append(_fold_line(hidden, bool(unverified), command))
    return [headline, *body[:-1], *notes, *body[-1:], *tail] if body else [headline, *notes, *tail]


def rows(lines: Sequence[str]) -> int:
    """Terminal rows ``lines`` take at ``WIDTH`` columns (a longer line wraps)."""
    return sum(max(1, -(-len(line) // WIDTH)) for line in lines)


def _contradicted(found: list[Finding], budget: int) -> tuple[list[str], int]:
    lines: list[str] = []
    for index, finding in enumerate(found):
        left = len(found) - index
        head = _head(finding, "✗")
        if rows([*lines, head]) > budget - (1 if left > 1 else 0):
            return lines, left
        lines.append(head)
        room = budget - rows(lines) - (left - 1)  # keep a title line for each one still to come
        detail = finding.detail.splitlines()
        shown = detail[: max(0, min(DETAIL_LINES, room))]
        lines += [_clip(f"      {line}") for line in shown]
        if len(shown) < len(detail) and shown:
            lines[-1] += " …"
    return lines, 0


def _unverified(found: list[Finding], budget: int) -> tuple[list[str], int, bool]:
    """Lines for the UNVERIFIED findings, how many are not shown, and whether any group folded.

    Each analyzer gets its heading (with its count) and a fair share of the
    lines left; a share one analyzer does not use goes to the next.
    """
    groups: dict[str, dict[str, list[Finding]]] = defaultdict(lambda: defaultdict(list))
    for finding in found:
        groups[finding.analyzer][finding.file or "(change)"].append(finding)
    if not found or budget < 1 + 2 * len(groups):
        return [], len(found), False
    lines = ["  ? UNVERIFIED (not blocking), by analyzer and file:"]
    left = budget - 1 - len(groups)  # after the headings
    shown = 0
    folded = False
    for index, analyzer in enumerate(sorted(groups)):
        by_file = groups[analyzer]
        lines.append(f"    {analyzer} ({sum(len(items) for items in by_file.values())})")
        share = left // (len(groups) - index)
        used = 0
        for path, items in by_file.items():
            room = min(PER_FILE, share - used)
            if room < 1:
                break
            take = len(items) if len(items) <= room else max(1, room - 1)
            lines += [_clip(_head(f, "?", indent="      ", analyzer=False)) for f in items[:take]]
            used += take
            shown += take
            if take < len(items) and used < share:
                lines.append(f"      {path}: … {len(items) - take} more")
                used += 1
                shown += len(items) - take
                folded = True
        left -= used
    return lines, len(found) - shown, folded


def _fold_line(hidden: int, any_unverified: bool, command: str) -> str:
    if hidden:
        return f"  … {hidden} more not shown: `{command}` shows every finding in full"
    if any_unverified:
        return f"  details: `{command}` shows every finding in full"
    return f"  details: `{command}`"


def _head(finding: Finding, mark: str, indent: str = "  ", analyzer: bool = True) -> str:
    who = f"  [{finding.analyzer}] " if analyzer else "  "
    head = f"{indent}{mark} {location(finding)}{who}{finding.title}"
    if finding.suppressed:
        head += f" (suppressed: {finding.suppressed})"
    return head


def _clip(line: str) -> str:
    return line if len(line) <= WIDTH else line[: WIDTH - 1] + "…"
