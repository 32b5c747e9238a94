"""The one boundary where vendor exceptions become the project's ``LLMError``.

Both providers speak HTTP through httpx (the ``ollama`` client wraps it), so one
mapping covers them: connection problems, 429 and 5xx are retryable, a read
timeout is not (a slow model should not be asked twice inside one budget), and
everything else is a plain failure. Messages are scrubbed of the API key and
cut short, because a server may echo a credential back in its error body.
"""

from __future__ import annotations

import json
from typing import Literal

from tribunal.errors import TribunalError

ErrorKind = Literal[
    "connect",
    "timeout",
    "rate-limited",
    "server",
    "http",
    "protocol",
    "malformed",
    "budget",
    "dependency",
    "refused",
]

INSTALL_HINT = "pip install 'tribunal-gate[llm]'"
_RETRYABLE: frozenset[str] = frozenset({"connect", "rate-limited", "server"})


class LLMError(TribunalError):
    """A failed model call, with a kind a caller can act on (retry, drop the member, ...)."""

    def __init__(self, message: str, *, kind: ErrorKind, status: int | None = None) -> None:
        super().__init__(message)
        self.kind: ErrorKind = kind
        self.status = status

    @property
    def retryable(self) -> bool:
        return self.kind in _RETRYABLE


def missing_dependency(module: str) -> LLMError:
    return LLMError(
        f"the LLM advisors need the optional dependency {module!r}: {INSTALL_HINT}",
        kind="dependency",
    )


def scrub(text: str, secret: str | None, limit: int = 200) -> str:
    """``text`` without ``secret``, on one line, without control or escape characters
    (a server's error body is as untrusted as a model's reply), at most ``limit`` long."""
    from tribunal.llm.modeltext import clean

    if secret:
        text = text.replace(secret, "***")
    return clean(text, limit)


def vendor_error(exc: BaseException, where: str, secret: str | None) -> LLMError:
    """Map an exception raised by httpx, the ollama client or a reply parser."""
    import httpx

    if isinstance(exc, LLMError):
        return exc
    if isinstance(exc, httpx.ConnectTimeout):
        return LLMError(f"{where}: connection timed out", kind="connect")
    if isinstance(exc, httpx.TimeoutException):
        return LLMError(f"{where}: no reply within the timeout", kind="timeout")
    if isinstance(exc, httpx.HTTPStatusError):
        return status_error(exc.response.status_code, exc.response.text, where, secret)
    if isinstance(exc, httpx.TransportError | ConnectionError):
        return LLMError(f"{where}: cannot connect ({type(exc).__name__})", kind="connect")
    status = getattr(exc, "status_code", None)
    if isinstance(status, int) and status >= 0:  # ollama.ResponseError
        return status_error(status, str(exc), where, secret)
    if isinstance(exc, ValueError | KeyError | TypeError | json.JSONDecodeError):
        detail = scrub(str(exc), secret)
        return LLMError(f"{where}: unexpected reply ({detail})", kind="protocol")
    detail = scrub(f"{type(exc).__name__}: {exc}", secret)
    return LLMError(f"{where}: request failed ({detail})", kind="protocol")


def status_error(status: int, body: str, where: str, secret: str | None) -> LLMError:
    detail = scrub(body, secret, limit=160)
    message = f"{where}: HTTP {status}" + (f": {detail}" if detail else "")
    if status == 429:
        return LLMError(message, kind="rate-limited", status=status)
    if status >= 500:
        return LLMError(message, kind="server", status=status)
    return LLMError(message, kind="http", status=status)


def require_extra() -> None:
    """Stop with the install hint, before any work, when the ``llm`` extra is missing."""
    import importlib

    for module in ("httpx", "pydantic"):
        try:
            importlib.import_module(module)
        except ImportError:
            raise missing_dependency(module) from None
