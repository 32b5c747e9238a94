"""``tribunal github-comment``: the report as one sticky pull-request comment.

Reporter-first: the gate's verdict is `tribunal check`'s exit code, not this
command's. A comment that cannot be posted (no token, a fork's read-only
token, GitHub down) is reported as a warning in the run and exits 0, unless
``--hard-fail`` asks for it to fail the job.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from tribunal.commands.exitcodes import epilog as exit_codes
from tribunal.commands.helpformat import HelpFormatter
from tribunal.errors import ExitCode, TribunalError

HELP = """\
Post the markdown report of `tribunal check --format md` on the pull request
as one sticky comment, updated in place on every run, and append it to the job
summary. Meant for a GitHub Actions step:

  tribunal check --base "$BASE" --head "$HEAD" --format md > report.md
  tribunal github-comment --body-file report.md

It reads GITHUB_TOKEN (needs `pull-requests: write`), GITHUB_REPOSITORY,
GITHUB_API_URL, GITHUB_EVENT_PATH and GITHUB_STEP_SUMMARY as Actions sets
them. Our comment is the one whose first line is the report's hidden marker
and whose author is --author (default github-actions[bot], the workflow
token's login; pass your own login with a personal or App token). A report
over GitHub's 65,536-character limit is cut, with a link to the job summary,
which holds the whole report (up to GitHub's 1 MiB).

On an event that is no pull request (push, schedule), or with --no-comment,
nothing is posted. If the comment cannot be posted, the reason is printed and
shown as a warning in the run. A pull request from a fork gets a read-only
token from GitHub: its 403 is a notice, never a failure. Exit codes: 0 posted,
nothing to post, or failed without --hard-fail; 2 failed with --hard-fail, or a
usage error.
"""

DEFAULT_TIMEOUT = 10.0


def add_parser(sub: Any, epilog: str) -> None:
    from tribunal.github.context import DEFAULT_AUTHOR

    p: argparse.ArgumentParser = sub.add_parser(
        "github-comment",
        help="post the markdown report as one sticky pull-request comment (for CI)",
        description=HELP,
        epilog=exit_codes("comment posted or updated, or a failure reported without --hard-fail"),
        formatter_class=HelpFormatter,
    )
    p.add_argument(
        "--body-file",
        required=True,
        metavar="FILE",
        help="the report from `tribunal check --format md` (- reads stdin)",
    )
    p.add_argument(
        "--author",
        type=_login,
        default=DEFAULT_AUTHOR,
        metavar="LOGIN",
        help=f"the login the token posts as (default: {DEFAULT_AUTHOR})",
    )
    p.add_argument(
        "--key",
        metavar="KEY",
        help="keep this report's comment apart from others on the same pull request "
        "(other workflows or ranges): letters, digits, . _ / -",
    )
    p.add_argument(
        "--hard-fail", action="store_true", help="exit 2 when the comment cannot be posted"
    )
    p.add_argument(
        "--no-step-summary", action="store_true", help="do not append to $GITHUB_STEP_SUMMARY"
    )
    p.add_argument(
        "--no-comment",
        action="store_true",
        help="only append to the job summary; no token or API call is needed",
    )
    p.add_argument(
        "--timeout",
        type=_seconds,
        default=DEFAULT_TIMEOUT,
        metavar="SECONDS",
        help=f"per request to the API (default: {DEFAULT_TIMEOUT:g})",
    )
    p.set_defaults(func=run)


def run(ns: argparse.Namespace) -> int:
    _require_httpx()
    from tribunal.github.errors import GitHubError

    failures: list[str] = []
    try:
        report = _read_report(ns.body_file)
    except GitHubError as exc:
        return _finish([str(exc)], ns.hard_fail)
    wrote_summary = _summarize(ns, os.environ, report, failures)
    if ns.no_comment:
        where = "the report is in the job summary" if wrote_summary else "nothing was posted"
        print(f"tribunal: no comment (--no-comment); {where}")
        return _finish(failures, ns.hard_fail)
    try:
        _comment(ns, os.environ, report, wrote_summary)
    except GitHubError as exc:
        if not _expected_of_a_fork(exc, os.environ):
            failures.append(str(exc))
    return _finish(failures, ns.hard_fail)


def _expected_of_a_fork(exc: Exception, env: Mapping[str, str]) -> bool:
    """A 403 on a fork's pull request is GitHub's design, not a broken setup: say so, never fail.

    The workflow token of a pull request from a fork is read-only; failing the
    job for it, even with --hard-fail, would block every outside contribution
    for a comment that cannot exist. The gate itself is `tribunal check`'s exit.
    """
    from tribunal.github import context
    from tribunal.github.errors import GitHubError

    if not (isinstance(exc, GitHubError) and exc.status == 403):
        return False
    try:
        fork = context.event(env).from_fork
    except GitHubError:
        return False
    if fork:
        message = (
            "pull request from a fork: its workflow token is read-only, so no comment was "
            "posted; the report is in the job summary and the annotations"
        )
        print(f"tribunal: {message}")
        from tribunal.render.github import command

        print(command("notice", [("title", "Tribunal")], message))
    return fork


def _summarize(
    ns: argparse.Namespace, env: Mapping[str, str], report: str, failures: list[str]
) -> bool:
    """Append to the job summary when Actions gave one; a failure does not stop the comment."""
    from tribunal.github import summary
    from tribunal.github.errors import GitHubError

    path = env.get("GITHUB_STEP_SUMMARY", "")
    if ns.no_step_summary or not path:
        return False
    try:
        summary.append(path, report)
    except GitHubError as exc:
        failures.append(str(exc))
        return False
    return True


def _comment(ns: argparse.Namespace, env: Mapping[str, str], report: str, summarized: bool) -> None:
    from tribunal.github import context, sticky
    from tribunal.github.api import Api
    from tribunal.github.truncate import COMMENT, fit, job_summary_pointer

    event = context.event(env)
    if event.pull_request is None:
        where = "the report is in the job summary" if summarized else "nothing was posted"
        print(f"tribunal: no pull request to comment on (event: {event.name}); {where}")
        return
    token, repo, api_url = context.token(env), context.repository(env), context.api_url(env)
    # With --no-step-summary the workflow writes the job summary itself.
    pointer = (
        job_summary_pointer(context.run_url(env))
        if summarized or ns.no_step_summary
        else "Run `tribunal check` on this range to see the rest."
    )
    marker = sticky.marker_for(ns.key)
    body = fit(sticky.with_marker(report, marker), COMMENT, pointer)
    with Api(api_url, token, ns.timeout) as api:
        posted = sticky.post(api, repo, event.pull_request, body, ns.author, marker)
    print(f"tribunal: {posted.action} comment {posted.url}")


def _finish(failures: list[str], hard_fail: bool) -> int:
    """Each failure on stderr and as a workflow warning, so it shows in the run's UI."""
    from tribunal.render.github import command

    for message in failures:
        print(f"tribunal: error: {message}", file=sys.stderr)
        print(command("warning", [("title", "Tribunal")], message))
    return ExitCode.USAGE if failures and hard_fail else ExitCode.OK


def _read_report(name: str) -> str:
    from tribunal.github.errors import GitHubError

    try:
        raw = sys.stdin.buffer.read() if name == "-" else Path(name).read_bytes()
    except OSError as exc:
        raise GitHubError(f"cannot read the report {name}: {exc.strerror or exc}") from None
    text = raw.decode("utf-8", "replace")
    if not text.strip():
        shown = "stdin" if name == "-" else name
        raise GitHubError(f"the report {shown} is empty: did `tribunal check --format md` run?")
    return text


def _require_httpx() -> None:
    """Stop before any work, with the install hint, when the ``github`` extra is missing."""
    import importlib

    try:
        importlib.import_module("httpx")
    except ImportError:
        raise TribunalError("github-comment needs httpx: pip install 'tribunal[github]'") from None


def _login(value: str) -> str:
    """An empty login would match no comment and post a new one on every run."""
    if not value.strip():
        raise argparse.ArgumentTypeError("the login is empty")
    return value.strip()


def _seconds(value: str) -> float:
    try:
        seconds = float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{value!r} is not a number of seconds") from None
    if not 0 < seconds <= 600:
        raise argparse.ArgumentTypeError(f"{value} is not between 0 and 600 seconds")
    return seconds
