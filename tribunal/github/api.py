"""The one place that speaks HTTP to the GitHub REST API.

Explicit timeouts on every request, one retry after a short pause when the
request never reached GitHub or GitHub answered 5xx/429, and every failure
mapped here to a ``GitHubError`` that says what to do. A read timeout is not
retried: the request may have been processed, and a second POST would post a
second comment. The token is sent only to the API's own origin (a pagination
link to any other host is refused) and never appears in a message.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import httpx

from tribunal import __version__
from tribunal.github.errors import GitHubError, scrub

#: Pause before the one retry; a 429's ``Retry-After`` is honoured up to ``MAX_WAIT``.
BACKOFF = 0.5
MAX_WAIT = 5.0
#: A pull request with more comments than this many pages is not one we can serve.
MAX_PAGES = 500
_IDEMPOTENT = frozenset({"GET", "PATCH"})


class Api:
    """A client bound to one API base URL and token; use it as a context manager."""

    def __init__(
        self,
        base_url: str,
        token: str,
        timeout: float,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        self.base_url = base_url
        self.timeout = timeout
        self._token = token
        self._http = httpx.Client(
            headers={
                "Authorization": f"Bearer {token}",
                "Accept": "application/vnd.github+json",
                "X-GitHub-Api-Version": "2022-11-28",
                "User-Agent": f"tribunal/{__version__}",
            },
            timeout=httpx.Timeout(timeout),
            transport=transport,
            follow_redirects=False,
        )

    def __enter__(self) -> Api:
        return self

    def __exit__(self, *exc: object) -> None:
        self._http.close()

    def pages(self, url: str, what: str) -> Iterator[list[Any]]:
        """Each page of a listing, following ``Link: <...>; rel="next"`` to the end."""
        for _ in range(MAX_PAGES):
            response = self.send("GET", url, what)
            page = _json(response, what, self._token)
            if not isinstance(page, list):
                raise GitHubError(f"cannot {what}: the API answered something other than a list")
            yield page
            next_url = response.links.get("next", {}).get("url")
            if not next_url:
                return
            url = self._same_origin(next_url, what)
        raise GitHubError(f"cannot {what}: more than {MAX_PAGES} pages")

    def call(self, method: str, url: str, what: str, body: dict[str, Any]) -> dict[str, Any]:
        """One request with a JSON body whose reply is a JSON object."""
        reply = _json(self.send(method, url, what, body), what, self._token)
        if not isinstance(reply, dict):
            raise GitHubError(f"cannot {what}: the API answered something other than an object")
        return reply

    def send(
        self, method: str, url: str, what: str, body: dict[str, Any] | None = None
    ) -> httpx.Response:
        """The response to a request, retried once when that is safe; 2xx or an error."""
        for attempt in (1, 2):
            last = attempt == 2
            try:
                response = self._http.request(method, url, json=body)
            except httpx.TimeoutException as exc:
                if isinstance(exc, httpx.ConnectTimeout) and not last:
                    time.sleep(BACKOFF)
                    continue
                raise self._transport_error(exc, what) from None
            except httpx.TransportError as exc:
                unsent = isinstance(exc, httpx.ConnectError)
                if not last and (unsent or method in _IDEMPOTENT):
                    time.sleep(BACKOFF)
                    continue
                raise self._transport_error(exc, what) from None
            if response.is_success:
                return response
            if not last and _retryable(response):
                time.sleep(min(_wait(response), MAX_WAIT))
                continue
            raise status_error(response, what, self._token)
        raise AssertionError("unreachable: the second attempt returns or raises")

    def _same_origin(self, url: str, what: str) -> str:
        base = httpx.URL(self.base_url)
        try:
            link = httpx.URL(url)
        except httpx.InvalidURL:
            raise GitHubError(f"cannot {what}: the next-page link is not a URL") from None
        if (link.scheme, link.host, link.port) != (base.scheme, base.host, base.port):
            raise GitHubError(
                f"cannot {what}: the next-page link leaves {self.base_url}; "
                "the token is not sent anywhere else"
            )
        return url

    def _transport_error(self, exc: httpx.TransportError, what: str) -> GitHubError:
        if isinstance(exc, httpx.ConnectTimeout | httpx.ConnectError):
            return GitHubError(
                f"cannot {what}: cannot connect to the GitHub API at {self.base_url} "
                f"({type(exc).__name__}); check GITHUB_API_URL and the runner's network"
            )
        if isinstance(exc, httpx.TimeoutException):
            return GitHubError(
                f"cannot {what}: no answer from the GitHub API at {self.base_url} "
                f"within {self.timeout:g} s"
            )
        detail = scrub(str(exc), self._token) or type(exc).__name__
        return GitHubError(f"cannot {what}: the connection to {self.base_url} failed: {detail}")


def status_error(response: httpx.Response, what: str, token: str | None) -> GitHubError:
    """An HTTP error status as one line that says what to do about it."""
    return GitHubError(_status_message(response, what, token), response.status_code)


def _status_message(response: httpx.Response, what: str, token: str | None) -> str:
    status = response.status_code
    detail = _detail(response, token)
    if status == 401:
        fix = "pass the action's github-token input or set GITHUB_TOKEN to a valid token"
        return f"cannot {what}: the token is invalid or expired (401); {fix}"
    if status in (403, 429) and _rate_limited(response):
        return f"cannot {what}: GitHub's API rate limit is exhausted ({status})"
    if status == 403:
        return (
            f"cannot {what}: permission denied (403): the token needs `pull-requests: write` "
            "(the workflow's `permissions:`); a pull request from a fork gets a read-only "
            "token and cannot be commented on; the report is still in the job summary"
        )
    if status == 404:
        return (
            f"cannot {what}: not found (404): the repository or pull request does not exist, "
            "or the token cannot see it"
        )
    if status == 422:
        return f"cannot {what}: GitHub rejected it (422): {detail or 'no reason'}"
    if status >= 500 or status == 429:
        return f"cannot {what}: GitHub answered HTTP {status} twice; re-run the job"
    return f"cannot {what}: HTTP {status}" + (f": {detail}" if detail else "")


def _retryable(response: httpx.Response) -> bool:
    status = response.status_code
    return status >= 500 or (status == 429 and _wait(response) <= MAX_WAIT)


def _wait(response: httpx.Response) -> float:
    """The pause before the retry: ``Retry-After`` when given, else ``BACKOFF``."""
    value = response.headers.get("Retry-After", "")
    return float(value) if value.isdigit() else BACKOFF


def _rate_limited(response: httpx.Response) -> bool:
    headers = response.headers
    return headers.get("X-RateLimit-Remaining") == "0" or "Retry-After" in headers


def _detail(response: httpx.Response, token: str | None) -> str:
    """GitHub's ``message`` and each ``errors[].message``, else the start of the body."""
    try:
        doc = response.json()
    except ValueError:
        return scrub(response.text, token, limit=160)
    if not isinstance(doc, dict):
        return scrub(str(doc), token, limit=160)
    parts = [str(doc.get("message") or "")]
    for error in doc.get("errors") or []:
        if isinstance(error, dict):
            parts.append(str(error.get("message") or error.get("code") or ""))
        else:
            parts.append(str(error))
    return scrub("; ".join(p for p in parts if p), token)


def _json(response: httpx.Response, what: str, token: str | None) -> Any:
    try:
        return response.json()
    except ValueError:
        body = scrub(response.text, token, limit=80)
        raise GitHubError(f"cannot {what}: the API's reply is not JSON: {body!r}") from None
