"""What GitHub Actions tells a step about where it runs, read from the environment.

Every value is read exactly as the runner sets it (``GITHUB_*``), from a mapping
passed in rather than ``os.environ`` so that nothing here depends on the
process it runs in. Each reader raises ``GitHubError`` with what to do when a
value is missing or malformed; nothing is guessed.
"""

import json
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any, NamedTuple

from tribunal.github.errors import GitHubError

DEFAULT_API_URL = "https://api.github.com"
DEFAULT_SERVER_URL = "https://github.com"
#: The login of a workflow's own ``GITHUB_TOKEN``, the author of our comment.
DEFAULT_AUTHOR = "github-actions[bot]"
#: GitHub's own rule for owner and repository names (letters, digits, ``-_.``).
_REPOSITORY = re.compile(r"[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+")
_HTTP_URL = re.compile(r"https?://[^\s/]+(?:/\S*)?")

Env = Mapping[str, str]


class Repository(NamedTuple):
    owner: str
    name: str

    def __str__(self) -> str:
        return f"{self.owner}/{self.name}"


class Event(NamedTuple):
    """The triggering event: its name, the pull request it is about, if any, and whether
    that pull request comes from a fork (whose workflow token GitHub makes read-only)."""

    name: str
    pull_request: int | None
    from_fork: bool = False


def token(env: Env) -> str:
    value = env.get("GITHUB_TOKEN", "").strip()
    if not value:
        raise GitHubError(
            "GITHUB_TOKEN is not set: pass the action's github-token input, or set "
            "GITHUB_TOKEN to a token with `pull-requests: write`"
        )
    if not value.isprintable() or any(ch.isspace() for ch in value):
        raise GitHubError("GITHUB_TOKEN contains spaces or control characters: check the secret")
    return value


def repository(env: Env) -> Repository:
    value = env.get("GITHUB_REPOSITORY", "")
    if not _REPOSITORY.fullmatch(value) or ".." in value:
        shown = repr(value) if value else "not set"
        raise GitHubError(f"GITHUB_REPOSITORY is {shown}: expected owner/name, as Actions sets it")
    owner, name = value.split("/")
    return Repository(owner, name)


def api_url(env: Env) -> str:
    """The REST API's base URL: github.com's, or the one a GitHub Enterprise Server sets."""
    value = env.get("GITHUB_API_URL", "").strip() or DEFAULT_API_URL
    if not _HTTP_URL.fullmatch(value):
        raise GitHubError(f"GITHUB_API_URL is {value!r}: expected an http(s) URL")
    return value.rstrip("/")


def run_url(env: Env) -> str | None:
    """The run's page (where its job summary is), or None when the step cannot know it."""
    run_id = env.get("GITHUB_RUN_ID", "").strip()
    repo = env.get("GITHUB_REPOSITORY", "")
    server = (env.get("GITHUB_SERVER_URL", "").strip() or DEFAULT_SERVER_URL).rstrip("/")
    if not run_id.isdigit() or not _REPOSITORY.fullmatch(repo) or not _HTTP_URL.fullmatch(server):
        return None
    url = f"{server}/{repo}/actions/runs/{run_id}"
    attempt = env.get("GITHUB_RUN_ATTEMPT", "").strip()
    return f"{url}/attempts/{attempt}" if attempt.isdigit() else url


def event(env: Env) -> Event:
    """The event from ``GITHUB_EVENT_PATH``; no path means no event (a local run)."""
    name = env.get("GITHUB_EVENT_NAME", "").strip() or "unknown"
    path = env.get("GITHUB_EVENT_PATH", "").strip()
    if not path:
        return Event(name, None)
    payload = _load(path)
    return Event(name, pull_request_number(payload), from_fork(payload))


def from_fork(payload: Any) -> bool:
    """Whether the pull request's head lives in another repository than its base.

    A head repository that is gone (a deleted fork) counts as a fork.
    """
    pr = payload.get("pull_request") if isinstance(payload, dict) else None
    if not isinstance(pr, dict):
        return False
    head, base = pr.get("head"), pr.get("base")
    if not isinstance(head, dict) or not isinstance(base, dict):
        return False
    head_repo, base_repo = head.get("repo"), base.get("repo")
    if not isinstance(base_repo, dict):
        return False
    if not isinstance(head_repo, dict):
        return True
    return bool(head_repo.get("full_name") != base_repo.get("full_name"))


def pull_request_number(payload: Any) -> int | None:
    """The pull request an event is about: ``pull_request.number``, or for a
    comment on a pull request (``issue_comment``), ``issue.number`` when the
    issue has a ``pull_request`` key. Anything else (push, schedule) has none.
    """
    if not isinstance(payload, dict):
        raise GitHubError("the event payload (GITHUB_EVENT_PATH) is not a JSON object")
    pr, issue = payload.get("pull_request"), payload.get("issue")
    if isinstance(pr, dict):
        return _number(pr.get("number"), "pull_request.number")
    if isinstance(issue, dict) and issue.get("pull_request"):
        return _number(issue.get("number"), "issue.number")
    return None


def _number(value: Any, where: str) -> int:
    if isinstance(value, int) and not isinstance(value, bool) and value > 0:
        return value
    raise GitHubError(f"the event payload's {where} is {value!r}: expected a positive number")


def _load(path: str) -> Any:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        reason = getattr(exc, "strerror", None) or str(exc)
        raise GitHubError(
            f"cannot read the event payload {path} (GITHUB_EVENT_PATH): {reason}"
        ) from None
    try:
        return json.loads(text)
    except ValueError as exc:
        raise GitHubError(
            f"the event payload {path} (GITHUB_EVENT_PATH) is not JSON: {exc}"
        ) from None
