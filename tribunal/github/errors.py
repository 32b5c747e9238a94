"""The one error type of the GitHub reporter, and keeping the token out of it.

A comment that cannot be posted is reported, not raised into a traceback: the
command turns a ``GitHubError`` into one line on stderr and a workflow warning,
and only ``--hard-fail`` makes it fail the job.
"""

from __future__ import annotations

from tribunal.errors import TribunalError


class GitHubError(TribunalError):
    """A failure to read the Actions context or to talk to the GitHub API; ``status`` is
    the HTTP status GitHub answered, when it answered one."""

    def __init__(self, message: str, status: int | None = None) -> None:
        super().__init__(message)
        self.status = status


def scrub(text: str, secret: str | None, limit: int = 300) -> str:
    """``text`` on one line, cut short, with ``secret`` replaced.

    A server may echo a credential back in an error body, and every message we
    print ends up in a public CI log.
    """
    if secret:
        text = text.replace(secret, "***")
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."
