"""``tribunal audit [--verify] [--since WHEN] [--format text|json]``: the weakened-gate log."""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tribunal.commands.exitcodes import epilog as exit_codes
from tribunal.commands.helpformat import HelpFormatter
from tribunal.errors import ExitCode, UsageError

if TYPE_CHECKING:
    from tribunal.audit.log import Problem
    from tribunal.audit.record import Record
    from tribunal.hooks.repo import Repo

HELP = """\
List the weakened-gate records: pushes whose commit got past the gate
(--no-verify, SKIP=tribunal-convene, hooks disabled, a failing summary pushed
anyway, a ref pre-commit did not convene) and pushed changes that weaken it
(a weaker tribunal.yml, added suppressions). First it scans the reflogs of
remote-tracking refs for pushes not yet audited, and records what it finds.

--verify checks the log's hash chain and exits 1, saying where, when a record
inside it was edited or removed.

What this can and cannot promise: the log and its chain are local and keyless.
They show what git lets a client see: a push to a remote-tracking ref leaves
an `update by push` reflog entry even with --no-verify or every hook disabled.
A push to a URL (not a configured remote) leaves no trace and is never
recorded; neither are tags or refs outside the remote's fetch refspec. Whoever
can write .git can delete the log, truncate its tail together with the
record of its length, or rewrite the whole chain consistently; --verify cannot
tell. The enforcement a team can rely on is CI re-running the gate on what was
pushed: `tribunal verify-pushes`.

Exit codes: 0 listed (and with --verify, the chain is intact); 1 --verify
found the chain broken; 2 not in a git repository, or a bad --since.
"""

_RELATIVE = re.compile(r"^(\d{1,15}) ?([smhdw])$")
_UNITS = {"s": "seconds", "m": "minutes", "h": "hours", "d": "days", "w": "weeks"}


def add_parser(sub: Any, epilog: str) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "audit",
        help="list (and --verify) the records of pushes that got past the gate",
        description=HELP,
        epilog=exit_codes(
            "listed; with --verify, the chain is intact",
            "--verify found a record edited or removed inside the chain",
        ),
        formatter_class=HelpFormatter,
    )
    p.add_argument("--verify", action="store_true", help="check the hash chain; exit 1 if broken")
    p.add_argument("--since", metavar="WHEN", help="only records since WHEN (2026-05-01, 7d, 12h)")
    p.add_argument("--format", choices=("text", "json"), default="text", help="output format")
    p.set_defaults(func=run)


def run(ns: argparse.Namespace) -> int:
    from tribunal.audit.log import log_path, records, verify
    from tribunal.hooks.repo import open_repo

    since = parse_since(ns.since) if ns.since else None
    repo = open_repo(Path.cwd())
    _scan(repo)
    listed = [(n, r) for n, r in records(repo.common_dir) if r is None or _after(r.time, since)]
    problems = verify(repo.common_dir) if ns.verify else None
    path = log_path(repo.common_dir)
    if ns.format == "json":
        print(json.dumps(_json(path, listed, problems), indent=2, ensure_ascii=False))
    else:
        for line in _text(path, listed, problems):
            print(line)
    return ExitCode.CONTRADICTED if problems else ExitCode.OK


def parse_since(text: str) -> datetime:
    """An ISO date or time (UTC unless it says otherwise), or ``N`` s/m/h/d/w ago."""
    relative = _RELATIVE.match(text.strip())
    if relative:
        amount, unit = int(relative.group(1)), _UNITS[relative.group(2)]
        try:
            return datetime.now(UTC) - timedelta(**{unit: amount})
        except OverflowError:
            raise UsageError(f"--since {_cut(text)}: too far back (before the year 1)") from None
    try:
        moment = datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    except ValueError:
        expected = "expected a date (2026-05-01), a time, or 7d/12h"
        raise UsageError(f"--since {_cut(text)}: {expected}") from None
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def _cut(text: str, width: int = 40) -> str:
    return text if len(text) <= width else f"{text[:width]}..."


def _scan(repo: Repo) -> None:
    from tribunal.hooks.audit_hook import lazy

    try:
        with repo.git() as git:
            lazy(repo, git, "audit", sys.stderr)
    except Exception as exc:  # listing what is there is still worth doing
        print(f"tribunal: warning: the reflog scan could not run: {exc}", file=sys.stderr)


def _after(time: str, since: datetime | None) -> bool:
    if since is None:
        return True
    try:
        return datetime.fromisoformat(time.replace("Z", "+00:00")) >= since
    except ValueError:
        return True


def _text(
    path: Path, listed: list[tuple[int, Record | None]], problems: list[Problem] | None
) -> Iterator[str]:
    from tribunal.audit.record import how_text

    valid = [r for _, r in listed if r is not None]
    yield f"tribunal: {len(valid)} weakened-gate record{'s' * (len(valid) != 1)} in {path}"
    for number, record in listed:
        if record is None:
            yield f"  line {number}: not a valid record"
            continue
        where = f"{record.remote.name} {record.remote_ref or record.tracking_ref}"
        yield f"{record.time.replace('T', ' ')}  {record.new[:12]}  {where}"
        yield f"    how: {how_text(record.how)}"
        yield f"    by {record.user.name} <{record.user.email}> on {record.host} ({record.found})"
        if record.detail:
            yield f"    {record.detail}"
        for f in record.findings:
            place = f"{f.file}:{f.line}" if f.file and f.line else (f.file or "(change)")
            who = "/".join(x for x in (f.lens, f.analyzer) if x)
            yield f"    {f.verdict} {place}  [{who}] {f.title}"
    if problems is not None:
        yield from _verdict_lines(problems)


def _verdict_lines(problems: list[Problem]) -> Iterator[str]:
    if not problems:
        yield "tribunal: ✓ the hash chain is intact (a keyless local chain: see --help)"
        return
    yield "tribunal: ✗ the weakened-gate log was tampered with:"
    for problem in problems:
        yield f"  {problem}"


def _json(
    path: Path, listed: list[tuple[int, Record | None]], problems: list[Problem] | None
) -> dict[str, Any]:
    out: dict[str, Any] = {
        "schema": "tribunal.audit/1",
        "log": str(path),
        "records": [r.model_dump(mode="json", by_alias=True) for _, r in listed if r is not None],
        "invalid_lines": [n for n, r in listed if r is None],
    }
    if problems is not None:
        out["verify"] = {
            "ok": not problems,
            "problems": [{"line": p.line, "message": p.message} for p in problems],
        }
    return out
