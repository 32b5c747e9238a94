"""Any OpenAI-compatible ``/v1/chat/completions`` endpoint, through httpx.

Structured output is asked for with ``response_format`` (a JSON schema). Many
compatible servers (older llama.cpp, some proxies) reject that field with a
400; the provider then falls back, once and for the rest of the run, to plain
instructions that name the schema, and ``ask`` validates the reply either way.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any
from urllib.parse import urlsplit

from tribunal.llm.budget import Limits
from tribunal.llm.errors import LLMError, missing_dependency, status_error, vendor_error
from tribunal.llm.guard import is_loopback
from tribunal.llm.providers import MemberSpec, Message, Reply

_REJECTED = (400, 422)  # how servers say "unknown field"


def completions_url(endpoint: str) -> str:
    """``https://host/v1`` -> ``.../v1/chat/completions``; a bare host gets ``/v1`` too."""
    base = endpoint.rstrip("/")
    if base.endswith("/chat/completions"):
        return base
    if urlsplit(base).path in ("", "/"):
        base += "/v1"
    return base + "/chat/completions"


def plain_instructions(schema: Mapping[str, Any]) -> str:
    return (
        "Reply with ONLY one JSON object (no prose, no markdown fence) that validates "
        f"against this JSON schema:\n{json.dumps(schema, separators=(',', ':'))}"
    )


class OpenAIProvider:
    def __init__(self, spec: MemberSpec, limits: Limits, transport: Any = None) -> None:
        try:
            import httpx
        except ModuleNotFoundError as exc:
            raise missing_dependency(exc.name or "httpx") from None
        self.spec = spec
        self._limits = limits
        self._url = completions_url(spec.endpoint)
        self._structured = True
        headers = {"Authorization": f"Bearer {spec.api_key}"} if spec.api_key else {}
        self._client = httpx.Client(
            headers=headers,
            timeout=limits.timeout,
            follow_redirects=False,
            trust_env=not is_loopback(spec.endpoint),
            transport=transport,
        )

    def complete(
        self, messages: Sequence[Message], schema: Mapping[str, Any], name: str, timeout: float
    ) -> Reply:
        try:
            response = self._post(messages, schema, name, timeout)
            if response.status_code in _REJECTED and self._structured:
                self._structured = False  # the server refuses response_format: say it in words
                response = self._post(messages, schema, name, timeout)
            if response.status_code >= 400:
                raise status_error(
                    response.status_code, response.text, self.spec.id, self.spec.api_key
                )
            return parse_reply(response.json(), self.spec.id)
        except Exception as exc:
            raise vendor_error(exc, self.spec.id, self.spec.api_key) from None

    def _post(
        self, messages: Sequence[Message], schema: Mapping[str, Any], name: str, timeout: float
    ) -> Any:
        body: dict[str, Any] = {
            "model": self.spec.model,
            "messages": [{"role": m.role, "content": m.content} for m in messages],
            "temperature": 0,
            "max_tokens": self._limits.max_output_tokens,
            "stream": False,
        }
        if self._structured:
            body["response_format"] = {
                "type": "json_schema",
                "json_schema": {"name": name, "schema": dict(schema), "strict": False},
            }
        else:  # said in words, at the end of the last message, where models look last
            last = body["messages"][-1]
            last["content"] = f"{last['content']}\n\n{plain_instructions(schema)}"
        return self._client.post(self._url, json=body, timeout=timeout)

    def close(self) -> None:
        self._client.close()


def parse_reply(data: Any, where: str) -> Reply:
    """The first choice's content and the token usage of a chat-completions reply."""
    try:
        content = data["choices"][0]["message"]["content"]
    except (KeyError, IndexError, TypeError):
        raise LLMError(f"{where}: reply is not a chat completion", kind="protocol") from None
    if not isinstance(content, str):
        raise LLMError(f"{where}: reply has no message content", kind="protocol")
    usage = data.get("usage") if isinstance(data, dict) else None
    usage = usage if isinstance(usage, dict) else {}
    return Reply(
        content, _count(usage.get("prompt_tokens")), _count(usage.get("completion_tokens"))
    )


def _count(value: Any) -> int:
    return value if isinstance(value, int) and value >= 0 else 0


def build(spec: MemberSpec, limits: Limits, transport: Any = None) -> OpenAIProvider:
    return OpenAIProvider(spec, limits, transport)
