"""A real local HTTP server that speaks the parts of the GitHub REST API we use.

Not a mock of httpx: a ``ThreadingHTTPServer`` on 127.0.0.1 with an ephemeral
port serves one repository's issue comments (list with real pagination and
``Link`` headers, create, update), checks the bearer token as GitHub does,
rejects a body over GitHub's 65,536 characters with GitHub's own 422, and
records every request (method, path, query, headers, JSON body). A test can
script a status for the next requests of a method, or make the server slow.
``github_cli`` runs the real CLI against it with an environment built from
scratch, as a GitHub Actions runner would set it.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from tests.httpreply import LocalServer, reply

TOKEN = "ghs_TestToken0123456789abcdefABCDEF"
OWNER, NAME = "octo", "widgets"
BOT = "github-actions[bot]"
BODY_LIMIT = 65_536

_LIST = re.compile(r"/repos/([^/]+)/([^/]+)/issues/(\d+)/comments")
_ONE = re.compile(r"/repos/([^/]+)/([^/]+)/issues/comments/(\d+)")


@dataclass(frozen=True)
class Request:
    method: str
    path: str
    query: Mapping[str, str]
    headers: Mapping[str, str]  # names lower-cased
    body: Any

    @property
    def page(self) -> str | None:
        return self.query.get("page")


@dataclass(frozen=True)
class Failure:
    status: int
    body: Any = None
    headers: Mapping[str, str] = field(default_factory=dict)


class FakeGitHub(LocalServer):
    """One repository's pull-request comments behind a REST API on 127.0.0.1."""

    def __init__(self, token: str = TOKEN, login: str = BOT, link_host: str | None = None) -> None:
        self.token = token
        self.login = login  # who the token posts as
        self.link_host = link_host  # another host for ``Link`` URLs (a hostile server)
        self.delay = 0.0
        self.comments: dict[int, list[dict[str, Any]]] = {}
        self.requests: list[Request] = []
        self._failures: dict[str, list[Failure]] = {}
        self._next_id = 1000
        self._lock = threading.Lock()
        super().__init__(_handler(self))

    def add(self, number: int, body: str, login: str = BOT) -> int:
        """A comment already on pull request ``number``; returns its id."""
        with self._lock:
            return int(self._add(number, body, login)["id"])

    def fail(self, method: str, status: int, times: int = 1, **kw: Any) -> None:
        """Answer the next ``times`` requests of ``method`` with ``status``."""
        with self._lock:
            self._failures.setdefault(method, []).extend([Failure(status, **kw)] * times)

    def made(self, method: str | None = None) -> list[Request]:
        with self._lock:
            return [r for r in self.requests if method is None or r.method == method]

    def body_of(self, comment_id: int) -> str:
        for comments in self.comments.values():
            for comment in comments:
                if comment["id"] == comment_id:
                    return str(comment["body"])
        raise KeyError(comment_id)

    # -- the API (called by the handler, under the lock) --------------------------

    def _add(self, number: int, body: str, login: str) -> dict[str, Any]:
        self._next_id += 1
        cid = self._next_id
        comment = {
            "id": cid,
            "body": body,
            "user": {"login": login, "type": "Bot"},
            "html_url": f"https://github.com/{OWNER}/{NAME}/pull/{number}#issuecomment-{cid}",
        }
        self.comments.setdefault(number, []).append(comment)
        return comment

    def answer(self, request: Request) -> tuple[int, Any, dict[str, str]]:
        with self._lock:
            self.requests.append(request)
            queued = self._failures.get(request.method)
            if queued:
                failure = queued.pop(0)
                return (
                    failure.status,
                    failure.body or {"message": "scripted"},
                    dict(failure.headers),
                )
            if request.headers.get("authorization") != f"Bearer {self.token}":
                return 401, {"message": "Bad credentials"}, {}
            return self._route(request)

    def _route(self, request: Request) -> tuple[int, Any, dict[str, str]]:
        listing, one = _LIST.fullmatch(request.path), _ONE.fullmatch(request.path)
        match = listing or one
        if match is None or (match[1], match[2]) != (OWNER, NAME):
            return 404, {"message": "Not Found"}, {}
        if listing and request.method == "GET":
            return self._list(int(listing[3]), request)
        if listing and request.method == "POST":
            return self._write(request, lambda body: self._add(int(listing[3]), body, self.login))
        if one and request.method == "PATCH":
            return self._write(request, lambda body: self._update(int(one[3]), body))
        return 404, {"message": "Not Found"}, {}

    def _list(self, number: int, request: Request) -> tuple[int, Any, dict[str, str]]:
        per_page = min(int(request.query.get("per_page", "30")), 100)
        page = int(request.query.get("page", "1"))
        comments = self.comments.get(number, [])
        last = max(1, -(-len(comments) // per_page))
        chunk = comments[(page - 1) * per_page : page * per_page]
        base = self.url if self.link_host is None else self.url.replace("127.0.0.1", self.link_host)
        link = f"{base}/repos/{OWNER}/{NAME}/issues/{number}/comments?per_page={per_page}&page="
        rels = [(page + 1, "next"), (last, "last")] if page < last else []
        rels += [(1, "first"), (page - 1, "prev")] if page > 1 else []
        header = ", ".join(f'<{link}{n}>; rel="{rel}"' for n, rel in rels)
        return 200, chunk, ({"Link": header} if header else {})

    def _update(self, cid: int, body: str) -> dict[str, Any] | None:
        for comments in self.comments.values():
            for comment in comments:
                if comment["id"] == cid:
                    comment["body"] = body
                    return comment
        return None

    def _write(
        self, request: Request, apply: Callable[[str], dict[str, Any] | None]
    ) -> tuple[int, Any, dict[str, str]]:
        body = request.body.get("body") if isinstance(request.body, dict) else None
        if not isinstance(body, str):
            return 422, {"message": "Invalid request.", "errors": ["body is missing"]}, {}
        if len(body) > BODY_LIMIT:
            error = {
                "resource": "IssueComment",
                "code": "custom",
                "field": "body",
                "message": "body is too long (maximum is 65536 characters)",
            }
            return 422, {"message": "Validation Failed", "errors": [error]}, {}
        comment = apply(body)
        if comment is None:
            return 404, {"message": "Not Found"}, {}
        return (201 if request.method == "POST" else 200), comment, {}


def _handler(owner: FakeGitHub) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self._serve()

        def do_POST(self) -> None:
            self._serve()

        def do_PATCH(self) -> None:
            self._serve()

        def _serve(self) -> None:
            raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            try:
                body = json.loads(raw) if raw else None
            except ValueError:
                body = {"unparsed": raw.decode("utf-8", "replace")}
            parts = urlsplit(self.path)
            query = {k: v[-1] for k, v in parse_qs(parts.query).items()}
            headers = {k.lower(): v for k, v in self.headers.items()}
            status, payload, extra = owner.answer(
                Request(self.command, parts.path, query, headers, body)
            )
            if owner.delay:
                time.sleep(owner.delay)
            data = json.dumps(payload).encode()
            reply(self, status, data, extra, "application/json; charset=utf-8")

        def log_message(self, format: str, *args: Any) -> None:
            """Quiet: the tests read ``owner.requests`` instead."""

    return Handler


@contextlib.contextmanager
def github(**kw: Any) -> Iterator[FakeGitHub]:
    with FakeGitHub(**kw) as server:
        yield server


def actions_env(tmp: Path, api_url: str, event: Any = None, **extra: str | None) -> dict[str, str]:
    """An Actions step's environment, from scratch; ``event`` is the payload, None for none;
    an ``extra`` value of None unsets that variable.
    """
    env: dict[str, str | None] = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(tmp),
        "LANG": "C.UTF-8",
        "GITHUB_ACTIONS": "true",
        "GITHUB_TOKEN": TOKEN,
        "GITHUB_REPOSITORY": f"{OWNER}/{NAME}",
        "GITHUB_API_URL": api_url,
        "GITHUB_SERVER_URL": "https://github.com",
        "GITHUB_RUN_ID": "42",
        "GITHUB_RUN_ATTEMPT": "2",
        "GITHUB_STEP_SUMMARY": str(tmp / "step_summary.md"),
    }
    if event is not None:
        path = tmp / "event.json"
        path.write_text(json.dumps(event), encoding="utf-8")
        env["GITHUB_EVENT_PATH"] = str(path)
        env["GITHUB_EVENT_NAME"] = "pull_request"
    env.update(extra)
    return {k: v for k, v in env.items() if v is not None}


def pr_event(number: int = 7) -> dict[str, Any]:
    return {"action": "synchronize", "number": number, "pull_request": {"number": number}}


def github_cli(
    *args: str, env: Mapping[str, str], cwd: Path, stdin: str | None = None
) -> subprocess.CompletedProcess[str]:
    """``python -m tribunal github-comment ARGS`` with exactly ``env``; the token never leaks."""
    proc = subprocess.run(
        [sys.executable, "-m", "tribunal", "github-comment", *args],
        cwd=cwd,
        input=stdin,
        env=dict(env),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    token = env.get("GITHUB_TOKEN")
    if token:
        assert token not in proc.stdout + proc.stderr, "the token leaked into the output"
    return proc
