"""Keep what is usable in a reply that breaks a limit: clip a long text, drop a bad item.

A member whose Attack reply has one over-long ``target``, or a ninth
refutation, must not lose its verdict for it. Before a reply counts as
malformed, ``salvage`` walks it against the JSON schema of its type: a string
longer than its ``maxLength`` is clipped, an array longer than its
``maxItems`` is cut, and an array item that is still invalid is dropped. Each
repair is noted (field names and positions only, never the model's text).
Only a reply that fails after that -- no JSON object, a required field
missing, a verdict outside its enum, an unknown top-level key -- is malformed.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from pydantic import BaseModel, ValidationError

from tribunal.llm.schemas import json_schema

T = TypeVar("T", bound=BaseModel)
#: Rounds of dropping invalid items; each round drops every item pydantic named.
_ROUNDS = 3


@dataclass(frozen=True)
class Salvaged(Generic[T]):
    value: T
    notes: tuple[str, ...]


def salvage(obj_text: str, model: type[T]) -> Salvaged[T] | None:
    """``obj_text`` (one JSON object) as ``model`` after clipping and dropping, or None."""
    try:
        data = json.loads(obj_text)
    except ValueError:
        return None
    if not isinstance(data, dict):
        return None
    notes: list[str] = []
    data = _clip(data, json_schema(model), "", notes)
    for _ in range(_ROUNDS):
        try:
            value = model.model_validate_json(json.dumps(data))
        except ValidationError as exc:
            if not _drop_invalid_items(data, exc, model, notes):
                return None
            continue
        return Salvaged(value, tuple(notes))
    return None


def _clip(value: Any, schema: dict[str, Any], where: str, notes: list[str]) -> Any:
    if isinstance(value, str):
        limit = schema.get("maxLength")
        text = value.strip()
        if isinstance(limit, int) and len(text) > limit:
            notes.append(f"{where}: clipped to {limit} characters")
            return text[:limit]
        return value
    if isinstance(value, dict) and isinstance(schema.get("properties"), dict):
        known = schema["properties"]
        return {
            key: _clip(item, known[key], f"{where}.{key}" if where else key, notes)
            if key in known
            else item
            for key, item in value.items()
        }
    if isinstance(value, list) and isinstance(schema.get("items"), dict):
        items = [
            _clip(item, schema["items"], f"{where}[{i}]", notes) for i, item in enumerate(value)
        ]
        limit = schema.get("maxItems")
        if isinstance(limit, int) and len(items) > limit:
            notes.append(f"{where}: {len(items) - limit} item(s) over the limit of {limit} dropped")
            items = items[:limit]
        return items
    return value


def _drop_invalid_items(
    data: dict[str, Any], error: ValidationError, model: type[BaseModel], notes: list[str]
) -> bool:
    """Remove each list item an error points into; False when an error is anywhere else."""
    doomed: dict[str, set[int]] = {}
    for item in error.errors():
        loc = item["loc"]
        field = loc[0] if loc else None
        if (
            len(loc) < 2
            or not isinstance(field, str)
            or field not in model.model_fields
            or not isinstance(data.get(field), list)
            or not isinstance(loc[1], int)
        ):
            return False
        doomed.setdefault(field, set()).add(loc[1])
    for field, indexes in doomed.items():
        for index in sorted(indexes, reverse=True):
            del data[field][index]
            notes.append(f"{field}[{index}]: dropped (it does not fit the schema)")
    return bool(doomed)
