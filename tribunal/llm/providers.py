"""One small interface over the chat endpoints, and the retry loop they share.

A provider turns a list of messages plus a JSON schema into the model's reply
text; it never validates content (``ask`` does) and raises only ``LLMError``.
Provider modules are imported when a member is first called, so that the CLI,
the convene and ``import tribunal.llm`` never pay for httpx or ollama.
"""

from __future__ import annotations

import importlib
import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol
from urllib.parse import urlsplit, urlunsplit

from tribunal.llm.budget import Budget, Limits
from tribunal.llm.errors import LLMError, missing_dependency

ProviderKind = Literal["ollama", "openai"]
PROVIDERS: Mapping[str, str] = {
    "ollama": "tribunal.llm.ollama_provider",
    "openai": "tribunal.llm.openai_provider",
}


@dataclass(frozen=True)
class MemberSpec:
    """Who to ask: a provider, a model id and an endpoint. The key never prints."""

    id: str
    provider: ProviderKind
    model: str
    endpoint: str
    api_key: str | None = field(default=None, repr=False, compare=False)
    focus: str = ""

    def public(self) -> dict[str, str]:
        """What may be shown or stored about this member (no credentials)."""
        return {
            "id": self.id,
            "provider": self.provider,
            "model": self.model,
            "endpoint": shown_endpoint(self.endpoint),
        }


def shown_endpoint(endpoint: str) -> str:
    """``endpoint`` without ``user:password@`` or a query string, which may hold secrets."""
    parts = urlsplit(endpoint)
    host = parts.netloc.rpartition("@")[2]
    return urlunsplit((parts.scheme, host, parts.path, "", ""))


@dataclass(frozen=True)
class Message:
    role: Literal["system", "user", "assistant"]
    content: str


@dataclass(frozen=True)
class Reply:
    text: str
    tokens_in: int = 0
    tokens_out: int = 0


class Provider(Protocol):
    """The contract both providers implement."""

    spec: MemberSpec

    def complete(
        self, messages: Sequence[Message], schema: Mapping[str, Any], name: str, timeout: float
    ) -> Reply:
        """The model's reply text to ``messages``, constrained to ``schema`` where supported."""
        ...

    def close(self) -> None: ...


#: Builds a provider; tests inject one that records or refuses calls.
Factory = Callable[[MemberSpec, Limits], Provider]


def make_provider(spec: MemberSpec, limits: Limits, transport: Any = None) -> Provider:
    """The provider for ``spec``; ``LLMError(kind="dependency")`` when the extra is missing."""
    try:
        module = importlib.import_module(PROVIDERS[spec.provider])
    except ModuleNotFoundError as exc:
        raise missing_dependency(exc.name or spec.provider) from None
    provider: Provider = module.build(spec, limits, transport)
    return provider


def chat(
    provider: Provider,
    messages: Sequence[Message],
    schema: Mapping[str, Any],
    name: str,
    limits: Limits,
    budget: Budget,
) -> Reply:
    """One completion with bounded retries and backoff, inside the run's budget."""
    attempt = 0
    while True:
        left = budget.admit()
        try:
            reply = provider.complete(messages, schema, name, min(limits.timeout, left))
        except LLMError as exc:
            pause = limits.backoff * (2**attempt) * (0.5 + random.random() / 2)
            if not exc.retryable or attempt >= limits.retries or pause >= budget.remaining():
                raise
            time.sleep(pause)
            attempt += 1
            continue
        budget.charge(reply.tokens_in, reply.tokens_out)
        return reply
