"""Who to ask: flags, then environment, then the ``council:`` section of tribunal.yml.

``tribunal/config/model.py`` has already validated the section's shape; this module
resolves it into ``MemberSpec`` values (endpoints made explicit, the API key
attached from the environment only -- never from a file) and checks what a
schema cannot: 2 to 5 members with distinct ids.
"""

from __future__ import annotations

import dataclasses
import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast
from urllib.parse import SplitResult, urlsplit, urlunsplit

from tribunal.config.model import Config
from tribunal.errors import ConfigError, UsageError
from tribunal.lenses import configured_lenses
from tribunal.llm.budget import Limits
from tribunal.llm.providers import MemberSpec, ProviderKind

ENDPOINT_ENV = "TRIBUNAL_ENDPOINT"
MODEL_ENV = "TRIBUNAL_MODEL"
KEY_ENV = "TRIBUNAL_API_KEY"
OLLAMA_ENV = "OLLAMA_HOST"
DEFAULT_OLLAMA = "http://127.0.0.1:11434"
DEFAULT_COUNCIL_SECONDS = 120.0
MIN_MEMBERS, MAX_MEMBERS = 2, 5
_ANY_ADDRESS = {"0.0.0.0": "127.0.0.1", "::": "[::1]"}
_MEMBER_FLAG = re.compile(
    r"(?:(?P<id>[A-Za-z0-9_.-]+)=)?(?P<provider>ollama|openai):(?P<model>[^@\s]+)"
    r"(?:@(?P<endpoint>\S+))?"
)


@dataclass(frozen=True)
class CouncilPlan:
    members: tuple[MemberSpec, ...]
    judge: MemberSpec | None
    limits: Limits
    seconds: float


def normalize_endpoint(provider: str, endpoint: str) -> str:
    """An explicit ``scheme://host:port[/path]``; Ollama's short forms are accepted."""
    text = endpoint.strip().rstrip("/")
    if provider == "ollama" and "://" not in text:
        text = "http://" + (f"127.0.0.1{text}" if text.startswith(":") else text)
        parts = urlsplit(text)
        if _port_ok(parts) and parts.port is None:
            text = f"http://{parts.netloc}:11434{parts.path}"
    parts = urlsplit(text)
    if parts.scheme not in ("http", "https") or not parts.hostname or not _port_ok(parts):
        raise UsageError(f"endpoint {endpoint!r}: expected an http:// or https:// URL")
    if provider == "ollama" and parts.hostname in _ANY_ADDRESS:
        # OLLAMA_HOST=0.0.0.0 tells a server to listen everywhere; as a client
        # address it means this machine, so say so in a form the guard knows.
        port = f":{parts.port}" if parts.port else ""
        host = _ANY_ADDRESS[parts.hostname] + port
        text = urlunsplit((parts.scheme, host, parts.path, parts.query, ""))
    return text


def _port_ok(parts: SplitResult) -> bool:
    try:
        parts.port  # noqa: B018 -- raises ValueError for "host:abc"
    except ValueError:
        return False
    return True


def default_endpoint(provider: str, env: Mapping[str, str]) -> str:
    """Ollama: ``$OLLAMA_HOST`` or the local default; openai: ``$TRIBUNAL_ENDPOINT``."""
    if provider == "ollama":
        return env.get(OLLAMA_ENV) or DEFAULT_OLLAMA
    if env.get(ENDPOINT_ENV):
        return env[ENDPOINT_ENV]
    raise UsageError(
        f"an openai-compatible member needs an endpoint (--endpoint or ${ENDPOINT_ENV})"
    )


def single_spec(
    provider: str | None,
    endpoint: str | None,
    model: str | None,
    env: Mapping[str, str] | None = None,
) -> MemberSpec:
    """The one model ``propose`` asks: ``--endpoint`` without ``--provider`` means openai."""
    env = os.environ if env is None else env
    given = endpoint or env.get(ENDPOINT_ENV) or None
    kind = provider or ("openai" if given else "ollama")
    name = model or env.get(MODEL_ENV)
    if not name:
        raise UsageError(f"no model: pass --model NAME or set ${MODEL_ENV}")
    return _spec(name, kind, name, given or default_endpoint(kind, env), env)


def parse_member_flag(text: str, env: Mapping[str, str], index: int) -> MemberSpec:
    """``[id=]provider:model[@endpoint]``, e.g. ``qwen=ollama:qwen2.5:7b``."""
    match = _MEMBER_FLAG.fullmatch(text.strip())
    if match is None:
        raise UsageError(f"--member {text!r}: expected [id=]ollama|openai:MODEL[@ENDPOINT]")
    kind = match["provider"]
    endpoint = match["endpoint"] or default_endpoint(kind, env)
    return _spec(match["id"] or f"m{index + 1}", kind, match["model"], endpoint, env)


def _spec(
    member_id: str, kind: str, model: str, endpoint: str, env: Mapping[str, str], focus: str = ""
) -> MemberSpec:
    provider = cast(ProviderKind, kind)
    if provider not in ("ollama", "openai"):
        raise UsageError(f"unknown provider {kind!r}; expected ollama or openai")
    return MemberSpec(
        id=member_id,
        provider=provider,
        model=model,
        endpoint=normalize_endpoint(provider, endpoint),
        api_key=env.get(KEY_ENV) or None,
        focus=focus,
    )


def council_plan(
    section: Mapping[str, Any] | None,
    *,
    member_flags: Sequence[str] = (),
    judge_flag: str | None = None,
    lens_flags: Sequence[str] = (),
    lens_table: Mapping[str, Any] | None = None,
    seconds: float | None = None,
    limits: Limits | None = None,
    env: Mapping[str, str] | None = None,
) -> CouncilPlan:
    """Members from ``--member`` (else the config), lenses by index, the judge, the budget."""
    env = os.environ if env is None else env
    section = section or {}
    if member_flags:
        members = [parse_member_flag(text, env, i) for i, text in enumerate(member_flags)]
    else:
        members = [_from_config(entry, env) for entry in section.get("members", ())]
    members = _with_lenses(members, lens_flags, lens_table or {})
    _check_members(members, from_flags=bool(member_flags))
    judge = parse_member_flag(judge_flag, env, 0) if judge_flag else None
    if judge is None and section.get("judge"):
        judge = _from_config(section["judge"], env)
    budget = seconds or float(section.get("timeout") or DEFAULT_COUNCIL_SECONDS)
    return CouncilPlan(tuple(members), judge, limits or Limits(), budget)


def judge_conflict(plan: CouncilPlan) -> MemberSpec | None:
    """The member whose model is also the judge's, if any: a judge with a stake.

    Seed 002's judge is stake-free: it must not weigh a verdict its own model
    wrote. Models are compared by name (case and Ollama's implicit ``:latest``
    aside) whatever the provider or endpoint: the same weights behind another
    URL still favour their own verdict.
    """
    if plan.judge is None:
        return None
    judge = _model_key(plan.judge.model)
    return next((m for m in plan.members if _model_key(m.model) == judge), None)


def _model_key(name: str) -> str:
    return name.strip().lower().removesuffix(":latest")


def _from_config(entry: Mapping[str, Any], env: Mapping[str, str]) -> MemberSpec:
    kind = str(entry["provider"])
    endpoint = entry.get("endpoint") or default_endpoint(kind, env)
    return _spec(
        str(entry["id"]), kind, str(entry["model"]), endpoint, env, str(entry.get("focus") or "")
    )


def _with_lenses(
    members: list[MemberSpec], lens_flags: Sequence[str], table: Mapping[str, Any]
) -> list[MemberSpec]:
    """Hand lens ``i`` to member ``i``: a lens name from the config's ``lenses:``, or a hint."""
    out = list(members)
    for index, lens in enumerate(lens_flags[: len(out)]):
        entry = table.get(lens)
        focus = entry.get("focus") if isinstance(entry, Mapping) else None
        out[index] = dataclasses.replace(out[index], focus=focus or lens)
    return out


def _check_members(members: Sequence[MemberSpec], from_flags: bool) -> None:
    error = UsageError if from_flags else ConfigError
    where = "--member" if from_flags else "tribunal.yml: council.members"
    if not MIN_MEMBERS <= len(members) <= MAX_MEMBERS:
        raise error(
            f"{where}: a council needs {MIN_MEMBERS} to {MAX_MEMBERS} members, found {len(members)}"
        )
    ids = [m.id for m in members]
    duplicate = next((i for i in ids if ids.count(i) > 1), None)
    if duplicate is not None:
        raise error(f"{where}: member id {duplicate!r} is used twice")


def lens_table(config: Config) -> dict[str, Any]:
    """Lens id -> ``{"focus": ...}``: the configured lenses over the config's raw entries."""
    table: dict[str, Any] = dict(config.raw.get("lenses") or {})
    for lens in configured_lenses(config):
        table[lens.id] = {"focus": lens.focus}
    return table
