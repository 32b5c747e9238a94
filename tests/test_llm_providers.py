"""The two providers against real local servers, plus MockTransport for pure parsing."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from typing import cast

import httpx
import pytest

from tests.llm_server import (
    Received,
    Scripted,
    closed_port_url,
    ollama_reply,
    openai_reply,
    serving,
)
from tribunal.llm.budget import Budget, Limits
from tribunal.llm.errors import LLMError
from tribunal.llm.openai_provider import OpenAIProvider, completions_url, parse_reply
from tribunal.llm.providers import MemberSpec, Message, ProviderKind, chat, make_provider

FAST = Limits(timeout=1.0, retries=2, backoff=0.01)  # wide enough for a loaded machine
SCHEMA = {"title": "Thing", "type": "object", "properties": {"a": {"type": "integer"}}}
MESSAGES = [Message("system", "be brief"), Message("user", "hello")]


def spec(provider: str, url: str, key: str | None = None) -> MemberSpec:
    return MemberSpec("m1", cast(ProviderKind, provider), "model-x", url, api_key=key)


def call(s: MemberSpec, limits: Limits = FAST, budget: Budget | None = None) -> str:
    provider = make_provider(s, limits)
    try:
        return chat(provider, MESSAGES, SCHEMA, "thing", limits, budget or Budget(10)).text
    finally:
        provider.close()


# -- pure parsing (MockTransport: the client's own parsing only) -----------------


def test_completions_url_accepts_base_urls_and_full_paths() -> None:
    assert (
        completions_url("https://api.example.com/v1")
        == "https://api.example.com/v1/chat/completions"
    )
    assert completions_url("http://127.0.0.1:8080") == "http://127.0.0.1:8080/v1/chat/completions"
    assert completions_url("http://h/v1/chat/completions/") == "http://h/v1/chat/completions"


def test_parse_reply_reads_content_and_usage_and_rejects_other_shapes() -> None:
    reply = parse_reply(openai_reply({"a": 1}).body, "m")
    assert (json.loads(reply.text), reply.tokens_in, reply.tokens_out) == ({"a": 1}, 13, 5)
    with pytest.raises(LLMError) as info:
        parse_reply({"error": "nope"}, "m")
    assert info.value.kind == "protocol"


def test_mock_transport_fallback_drops_response_format_after_a_400() -> None:
    seen: list[dict[str, object]] = []

    def handle(request: httpx.Request) -> httpx.Response:
        body = json.loads(request.content)
        seen.append(body)
        if "response_format" in body:
            return httpx.Response(400, json={"error": "response_format is not supported"})
        return httpx.Response(200, json=openai_reply({"a": 2}).body)

    provider = OpenAIProvider(
        spec("openai", "http://127.0.0.1:1/v1"), FAST, httpx.MockTransport(handle)
    )
    first = provider.complete(MESSAGES, SCHEMA, "thing", 1.0)
    second = provider.complete(MESSAGES, SCHEMA, "thing", 1.0)
    assert json.loads(first.text) == {"a": 2} and json.loads(second.text) == {"a": 2}
    assert ["response_format" in b for b in seen] == [True, False, False]
    assert "validates against this JSON schema" in str(seen[1]["messages"])


# -- real local servers ----------------------------------------------------------


def test_ollama_provider_sends_the_schema_as_format_and_reads_the_reply() -> None:
    with serving(lambda r: ollama_reply({"a": 1})) as server:
        assert json.loads(call(spec("ollama", server.url))) == {"a": 1}
    (request,) = server.requests
    assert request.path == "/api/chat"
    assert request.body["format"] == SCHEMA
    assert request.body["stream"] is False
    assert request.body["options"]["temperature"] == 0
    assert [m["role"] for m in request.body["messages"]] == ["system", "user"]


def test_openai_provider_asks_for_a_json_schema_and_sends_the_key() -> None:
    with serving(lambda r: openai_reply({"a": 1})) as server:
        assert json.loads(
            call(spec("openai", server.url + "/v1", key="sk-test-0123456789abcdefghij"))
        ) == {"a": 1}
    (request,) = server.requests
    assert request.path == "/v1/chat/completions"
    assert request.body["response_format"]["json_schema"]["schema"] == SCHEMA
    assert request.headers["Authorization"] == "Bearer sk-test-0123456789abcdefghij"


def test_openai_server_rejecting_response_format_gets_plain_instructions() -> None:
    def respond(r: Received) -> Scripted:
        if "response_format" in r.body:
            return Scripted(
                400, {"error": {"message": "Unrecognized request argument: response_format"}}
            )
        return openai_reply({"a": 3})

    with serving(respond) as server:
        assert json.loads(call(spec("openai", server.url))) == {"a": 3}
    assert len(server.requests) == 2
    assert "JSON schema" in server.requests[1].text


@pytest.mark.parametrize("provider", ["ollama", "openai"])
@pytest.mark.parametrize("status", [429, 503])
def test_429_and_5xx_are_retried_then_succeed(provider: str, status: int) -> None:
    replies = iter([Scripted(status, {"error": "slow down"}), None])

    def respond(r: Received) -> Scripted:
        scripted = next(replies)
        if scripted is not None:
            return scripted
        return ollama_reply({"a": 4}) if provider == "ollama" else openai_reply({"a": 4})

    budget = Budget(10)
    with serving(respond) as server:
        assert json.loads(call(spec(provider, server.url), budget=budget)) == {"a": 4}
    assert len(server.requests) == 2
    assert budget.costs().calls == 2


@pytest.mark.parametrize("provider", ["ollama", "openai"])
def test_retries_are_bounded(provider: str) -> None:
    down = serving(lambda r: Scripted(500, {"error": "down"}))
    with down as server, pytest.raises(LLMError) as info:
        call(spec(provider, server.url))
    assert info.value.kind == "server"
    assert len(server.requests) == FAST.retries + 1


@pytest.mark.parametrize("provider", ["ollama", "openai"])
def test_a_client_error_is_not_retried(provider: str) -> None:
    missing = serving(lambda r: Scripted(404, {"error": "model 'model-x' not found"}))
    with missing as server, pytest.raises(LLMError) as info:
        call(spec(provider, server.url))
    assert info.value.kind == "http" and "404" in str(info.value)
    assert len(server.requests) == 1


@pytest.mark.parametrize("provider", ["ollama", "openai"])
def test_a_server_slower_than_the_timeout_fails_fast_without_retry(provider: str) -> None:
    with serving(lambda r: ollama_reply({"a": 1}, delay=4.0)) as server:
        started = time.monotonic()
        with pytest.raises(LLMError) as info:
            call(spec(provider, server.url))
        elapsed = time.monotonic() - started
    assert info.value.kind == "timeout"
    assert elapsed < 2.5  # the server sleeps 4 s
    assert len(server.requests) == 1


@pytest.mark.parametrize("provider", ["ollama", "openai"])
def test_a_refused_connection_is_retried_then_reported(provider: str) -> None:
    with pytest.raises(LLMError) as info:
        call(spec(provider, closed_port_url()))
    assert info.value.kind == "connect"
    assert "cannot connect" in str(info.value)


def test_a_credential_echoed_by_the_server_never_reaches_the_message() -> None:
    key = "sk-proj-SECRETSECRETSECRET0123456789"

    def respond(r: Received) -> Scripted:
        return Scripted(401, {"error": f"bad key: {r.headers.get('Authorization')}"})

    with serving(respond) as server, pytest.raises(LLMError) as info:
        call(spec("openai", server.url, key=key))
    assert "401" in str(info.value)
    assert key not in str(info.value) and key not in repr(info.value)


def test_the_run_budget_stops_calls_before_they_are_made() -> None:
    budget = Budget(10, max_calls=1)
    down = serving(lambda r: Scripted(500, {"error": "down"}))
    with down as server, pytest.raises(LLMError) as info:
        call(spec("ollama", server.url), budget=budget)
    assert info.value.kind == "budget"
    assert len(server.requests) == 1


def test_an_expired_time_budget_sends_nothing() -> None:
    budget = Budget(0.001)
    time.sleep(0.01)
    with serving(lambda r: ollama_reply({"a": 1})) as server, pytest.raises(LLMError) as info:
        call(spec("ollama", server.url), budget=budget)
    assert info.value.kind == "budget"
    assert server.requests == []


def test_member_repr_hides_the_api_key() -> None:
    s = spec("openai", "http://127.0.0.1:1", key="sk-hidden-0123456789abcdefgh")
    assert "sk-hidden" not in repr(s) and "sk-hidden" not in str(s.public())


def test_missing_extra_gives_the_install_hint() -> None:
    code = (
        "import sys; sys.modules['ollama'] = None\n"
        "from tribunal.llm.providers import MemberSpec, make_provider\n"
        "from tribunal.llm.budget import Limits\n"
        "from tribunal.llm.errors import LLMError\n"
        "try:\n"
        "    make_provider(MemberSpec('a', 'ollama', 'm', 'http://127.0.0.1:1'), Limits())\n"
        "except LLMError as exc:\n"
        "    print(exc.kind, exc)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.startswith("dependency ")
    assert "pip install 'tribunal-gate[llm]'" in out.stdout
