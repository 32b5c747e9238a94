"""The sticky comment: one comment per pull request, found again and updated in place.

Ours is a comment whose first line is exactly the report's marker AND whose
author is the login the token posts as. The author check is a security
property: anyone can post a comment that starts with the marker, and a token
with write access can edit other people's comments, so without it a pull
request's author could have the real report written into their own comment
and then edit it into a fake all-green one.
"""

import re
from typing import Any, Literal, NamedTuple

from tribunal.errors import UsageError
from tribunal.github.api import Api
from tribunal.github.context import Repository
from tribunal.github.errors import GitHubError
from tribunal.render.markdown import MARKER


class Posted(NamedTuple):
    action: Literal["created", "updated"]
    comment_id: int
    url: str


#: What may name one report among several on a pull request (other workflows, other
#: ranges): nothing that could end the HTML comment the marker is.
KEY = re.compile(r"[A-Za-z0-9._/-]{1,64}")


def marker_for(key: str | None) -> str:
    """The hidden first line of our comment; a key keeps two reports on one PR apart."""
    if key is None:
        return MARKER
    if not KEY.fullmatch(key) or "--" in key:
        raise UsageError(f"--key {key!r}: use letters, digits and . _ / - (at most 64)")
    return f"<!-- tribunal-report: {key} -->"


def with_marker(body: str, marker: str = MARKER) -> str:
    """The body with ``marker`` as its first line, so the next run can find it."""
    first, sep, rest = body.partition("\n")
    if first.rstrip("\r") == MARKER:  # the report's own marker, keyed or not
        return f"{marker}{sep}{rest}"
    return f"{marker}\n{body}"


def is_ours(comment: Any, author: str, marker: str = MARKER) -> bool:
    if not isinstance(comment, dict):
        return False
    body, user = comment.get("body"), comment.get("user")
    login = user.get("login") if isinstance(user, dict) else None
    first = body.split("\n", 1)[0].rstrip("\r") if isinstance(body, str) else None
    return first == marker and login == author and isinstance(comment.get("id"), int)


def find_ours(
    api: Api, repo: Repository, number: int, author: str, marker: str = MARKER
) -> int | None:
    """The id of our oldest comment on the pull request, or None.

    GitHub lists issue comments oldest first, so the first match is the oldest
    and the listing stops there; later duplicates are left alone.
    """
    url = f"{api.base_url}/repos/{repo}/issues/{number}/comments?per_page=100"
    what = f"list the comments of pull request #{number} in {repo}"
    for page in api.pages(url, what):
        for comment in page:
            if is_ours(comment, author, marker):
                return int(comment["id"])
    return None


def post(
    api: Api, repo: Repository, number: int, body: str, author: str, marker: str = MARKER
) -> Posted:
    """Update our comment if there is one, else create it; ``body`` starts with ``marker``."""
    existing = find_ours(api, repo, number, author, marker)
    if existing is None:
        url = f"{api.base_url}/repos/{repo}/issues/{number}/comments"
        what = f"create a comment on pull request #{number} in {repo}"
        reply = api.call("POST", url, what, {"body": body})
        return Posted("created", _id(reply, what), _html_url(reply))
    url = f"{api.base_url}/repos/{repo}/issues/comments/{existing}"
    what = f"update comment {existing} on pull request #{number} in {repo}"
    reply = api.call("PATCH", url, what, {"body": body})
    return Posted("updated", existing, _html_url(reply))


def _id(reply: dict[str, Any], what: str) -> int:
    value = reply.get("id")
    if not isinstance(value, int):
        raise GitHubError(f"cannot {what}: the API's reply has no comment id")
    return value


def _html_url(reply: dict[str, Any]) -> str:
    value = reply.get("html_url")
    return value if isinstance(value, str) else "(no URL in the reply)"
