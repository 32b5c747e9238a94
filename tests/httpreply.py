"""What the local test servers share: a threaded server on an ephemeral port that a
``with`` block starts and stops, and one way to answer (a client that hung up is
not an error: a test that gave up on a slow server closes the socket)."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Mapping
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Self


class LocalServer:
    """A ``ThreadingHTTPServer`` on ``host`` with an ephemeral port, serving ``handler``."""

    def __init__(self, handler: type[BaseHTTPRequestHandler], host: str = "127.0.0.1") -> None:
        self._server = ThreadingHTTPServer((host, 0), handler)
        self._server.daemon_threads = True
        self._server.block_on_close = False
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        )

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}"

    def __enter__(self) -> Self:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()


def reply(
    handler: BaseHTTPRequestHandler,
    status: int,
    data: bytes,
    headers: Mapping[str, str],
    content_type: str = "application/json",
) -> None:
    with contextlib.suppress(OSError):
        handler.send_response(status)
        handler.send_header("Content-Type", content_type)
        handler.send_header("Content-Length", str(len(data)))
        for name, value in headers.items():
            handler.send_header(name, value)
        handler.end_headers()
        handler.wfile.write(data)
