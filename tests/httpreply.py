"""One way for the local test servers to answer: status, headers, body, and a client
that hung up is not an error (a test that gave up on a slow server closes the socket)."""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from http.server import BaseHTTPRequestHandler


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
