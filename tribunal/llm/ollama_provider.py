"""Ollama's ``/api/chat`` through the official ``ollama`` client.

Structured output uses ``format=<JSON schema>``. The client's own defaults are
unsafe for us and are overridden: its timeout is none (we always set one), it
follows redirects (a loopback server could bounce the diff elsewhere), and it
honours proxy variables (which would send loopback traffic off the machine).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from tribunal.llm.budget import Limits
from tribunal.llm.errors import LLMError, missing_dependency, vendor_error
from tribunal.llm.guard import is_loopback
from tribunal.llm.providers import MemberSpec, Message, Reply

if TYPE_CHECKING:
    import ollama


class OllamaProvider:
    def __init__(self, spec: MemberSpec, limits: Limits, transport: Any = None) -> None:
        try:
            import httpx  # noqa: F401
            import ollama  # noqa: F401
        except ModuleNotFoundError as exc:
            raise missing_dependency(exc.name or "ollama") from None
        self.spec = spec
        self._limits = limits
        self._transport = transport

    def complete(
        self, messages: Sequence[Message], schema: Mapping[str, Any], name: str, timeout: float
    ) -> Reply:
        try:
            with self._client(timeout) as client:
                response = client.chat(
                    model=self.spec.model,
                    messages=[{"role": m.role, "content": m.content} for m in messages],
                    format=dict(schema),
                    stream=False,
                    options={"temperature": 0, "num_predict": self._limits.max_output_tokens},
                )
            text = response.message.content
        except Exception as exc:
            raise vendor_error(exc, self.spec.id, self.spec.api_key) from None
        if not isinstance(text, str):
            raise LLMError(f"{self.spec.id}: reply has no message content", kind="protocol")
        return Reply(text, response.prompt_eval_count or 0, response.eval_count or 0)

    def _client(self, timeout: float) -> ollama.Client:
        """A client per call: the ollama client takes its timeout only at construction."""
        import httpx
        import ollama

        headers = {"Authorization": f"Bearer {self.spec.api_key}"} if self.spec.api_key else None
        return ollama.Client(
            host=self.spec.endpoint,
            timeout=httpx.Timeout(timeout),
            follow_redirects=False,
            trust_env=not is_loopback(self.spec.endpoint),
            headers=headers,
            transport=self._transport,
        )

    def close(self) -> None:
        """Nothing is held between calls."""


def build(spec: MemberSpec, limits: Limits, transport: Any = None) -> OllamaProvider:
    return OllamaProvider(spec, limits, transport)
