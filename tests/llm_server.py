"""Real local HTTP servers that speak the Ollama and OpenAI chat protocols.

Not mocks of the client libraries: a ``ThreadingHTTPServer`` on 127.0.0.1 with
an ephemeral port answers ``/api/chat`` (Ollama) and ``/v1/chat/completions``
(OpenAI) with scripted replies, and records every request it received (path,
headers, JSON body) so tests can assert on exactly what left the process.
``tribunal_cli`` runs the real CLI against them.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any

from tests.httpreply import LocalServer, reply


@dataclass(frozen=True)
class Received:
    path: str
    headers: Mapping[str, str]
    body: Any

    @property
    def model(self) -> str:
        return str(self.body.get("model", ""))

    @property
    def text(self) -> str:
        """Every message's content, joined: what the model was shown."""
        return "\n".join(str(m.get("content", "")) for m in self.body.get("messages", []))

    @property
    def schema_title(self) -> str | None:
        """The reply schema the client asked for, if it asked structurally."""
        if isinstance(self.body.get("format"), dict):
            return str(self.body["format"].get("title"))
        rf = self.body.get("response_format")
        if isinstance(rf, dict):
            return str(rf["json_schema"]["schema"].get("title"))
        return None

    @property
    def phase(self) -> str:
        title = self.schema_title or ""
        for phase in ("Form", "Attack", "Defense", "Judge", "Propose"):
            if title.startswith(phase) or f"({phase})" in self.text:
                return phase.lower()
        return "defense" if "(Defend)" in self.text else "unknown"


@dataclass(frozen=True)
class Scripted:
    status: int = 200
    body: Any = None
    delay: float = 0.0
    headers: Mapping[str, str] = field(default_factory=dict)


Responder = Callable[[Received], Scripted]


def ollama_reply(content: Any, tokens: tuple[int, int] = (11, 7), **extra: Any) -> Scripted:
    text = content if isinstance(content, str) else json.dumps(content)
    body = {
        "model": "scripted",
        "created_at": "2026-01-01T00:00:00Z",
        "done": True,
        "message": {"role": "assistant", "content": text},
        "prompt_eval_count": tokens[0],
        "eval_count": tokens[1],
    }
    return Scripted(body=body, **extra)


def openai_reply(content: Any, tokens: tuple[int, int] = (13, 5), **extra: Any) -> Scripted:
    text = content if isinstance(content, str) else json.dumps(content)
    body = {
        "id": "x",
        "object": "chat.completion",
        "choices": [
            {"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}
        ],
        "usage": {"prompt_tokens": tokens[0], "completion_tokens": tokens[1]},
    }
    return Scripted(body=body, **extra)


def reply_for(request: Received, content: Any, **extra: Any) -> Scripted:
    """A successful reply in the protocol the request used."""
    if request.path.startswith("/api/"):
        return ollama_reply(content, **extra)
    return openai_reply(content, **extra)


class FakeLLM(LocalServer):
    """A scripted chat server; ``url`` is ``http://<host>:<port>`` (loopback by default)."""

    def __init__(self, responder: Responder, host: str = "127.0.0.1") -> None:
        self.responder = responder
        self.requests: list[Received] = []
        self._lock = threading.Lock()
        super().__init__(_handler(self), host)

    def record(self, request: Received) -> None:
        with self._lock:
            self.requests.append(request)


def _handler(owner: FakeLLM) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            try:
                body = json.loads(raw or b"{}")
            except ValueError:
                body = {"unparsed": raw.decode("utf-8", "replace")}
            request = Received(self.path, dict(self.headers.items()), body)
            owner.record(request)
            try:
                scripted = owner.responder(request)
            except Exception as exc:  # a bug in a test's script: say so loudly
                scripted = Scripted(500, {"error": f"script failed: {exc!r}"})
            self._send(scripted)

        def _send(self, scripted: Scripted) -> None:
            if scripted.delay:
                time.sleep(scripted.delay)
            payload = scripted.body
            data = payload.encode() if isinstance(payload, str) else json.dumps(payload).encode()
            reply(self, scripted.status, data, scripted.headers)

        def log_message(self, format: str, *args: Any) -> None:
            """Quiet: the tests read ``owner.requests`` instead."""

    return Handler


@contextlib.contextmanager
def serving(responder: Responder, host: str = "127.0.0.1") -> Iterator[FakeLLM]:
    with FakeLLM(responder, host) as server:
        yield server


def closed_port_url() -> str:
    """A loopback URL nobody listens on (connections are refused)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}"


def tribunal_cli(
    *args: str, cwd: Path, env: dict[str, str] | None = None, stdin: str | None = None
) -> subprocess.CompletedProcess[str]:
    """``python -m tribunal ARGS`` with none of our ``TRIBUNAL_*``/``OLLAMA_*`` settings.

    A developer's endpoint, model or send permission must never reach a test:
    only ``env`` (over the rest of the environment) says where the CLI may send.
    """
    base = {k: v for k, v in os.environ.items() if not k.startswith(("TRIBUNAL_", "OLLAMA_"))}
    return subprocess.run(
        [sys.executable, "-m", "tribunal", *args],
        cwd=cwd,
        input=stdin,
        env={**base, **(env or {})},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
