"""Ask one model for one validated reply: the call, the parse, one repair retry.

Models wrap JSON in prose or fences even when told not to, so the object is
cut out of the reply before validation. A reply that breaks only limits (a
text too long, an item too many, one bad item) is salvaged, with a note for
each repair (``salvage``). A reply that still fails is shown its errors once
("repair"); a second failure raises ``LLMError(kind="malformed")`` and the
caller drops the member with that reason.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from pydantic import BaseModel, ValidationError

from tribunal.llm.budget import Budget, Limits
from tribunal.llm.errors import LLMError
from tribunal.llm.providers import Message, Provider, chat
from tribunal.llm.salvage import Salvaged, salvage
from tribunal.llm.schemas import json_schema

T = TypeVar("T", bound=BaseModel)


@dataclass(frozen=True)
class Answer(Generic[T]):
    value: T
    tokens_in: int
    tokens_out: int
    repaired: bool
    #: What ``salvage`` clipped or dropped to make the reply fit (empty when it fit).
    notes: tuple[str, ...] = ()


def ask(
    provider: Provider,
    messages: Sequence[Message],
    model: type[T],
    limits: Limits,
    budget: Budget,
) -> Answer[T]:
    """A reply of type ``model`` from ``provider``, or ``LLMError``."""
    schema = json_schema(model)
    name = "tribunal_" + model.__name__.lower()
    reply = chat(provider, messages, schema, name, limits, budget)
    tokens = (reply.tokens_in, reply.tokens_out)
    try:
        return Answer(parse(reply.text, model), *tokens, repaired=False)
    except ValueError as first:
        rescued = _salvaged(reply.text, model)
        if rescued is not None:
            return Answer(rescued.value, *tokens, repaired=False, notes=rescued.notes)
        problem = describe(first)
    repair = [
        *messages,
        Message("assistant", reply.text[:4000]),
        Message(
            "user",
            f"That reply is invalid: {problem}. Reply again with ONLY the "
            "corrected JSON object, following the schema exactly.",
        ),
    ]
    again = chat(provider, repair, schema, name, limits, budget)
    tokens = (tokens[0] + again.tokens_in, tokens[1] + again.tokens_out)
    try:
        return Answer(parse(again.text, model), *tokens, repaired=True)
    except ValueError as second:
        rescued = _salvaged(again.text, model)
        if rescued is not None:
            return Answer(rescued.value, *tokens, repaired=True, notes=rescued.notes)
        raise LLMError(
            f"{provider.spec.id}: malformed reply after one repair: {describe(second)}",
            kind="malformed",
        ) from None


def parse(text: str, model: type[T]) -> T:
    """The JSON object inside ``text`` (fences and prose around it ignored), validated."""
    return model.model_validate_json(extract_object(text))


def _salvaged(text: str, model: type[T]) -> Salvaged[T] | None:
    try:
        body = extract_object(text)
    except ValueError:
        return None
    return salvage(body, model)


def extract_object(text: str) -> str:
    body = text.strip()
    start, end = body.find("{"), body.rfind("}")
    if start < 0 or end < start:
        raise json.JSONDecodeError("no JSON object in the reply", body[:80], 0)
    return body[start : end + 1]


def describe(error: ValueError) -> str:
    """A short, model-readable account of what was wrong (first three problems)."""
    if isinstance(error, ValidationError):
        parts = []
        for item in error.errors()[:3]:
            where = ".".join(str(p) for p in item["loc"]) or "(top level)"
            parts.append(f"{where}: {item['msg']}")
        more = error.error_count() - len(parts)
        return "; ".join(parts) + (f"; and {more} more" if more > 0 else "")
    return f"not valid JSON ({str(error)[:120]})"
