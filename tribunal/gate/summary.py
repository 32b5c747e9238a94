"""``summary.json``: what a convene decided, in a versioned, authenticated file.

The schema is a pydantic model (validated at this boundary only; the engine
keeps its own small value objects) exported to ``schemas/summary.schema.json``.
Each summary is written atomically as
``<git common dir>/tribunal/runs/<key>/summary.json``, one directory per convene
key (range base, commit, config digest, tool version, remote), and carries
an HMAC made with a per-user key kept outside every repository
(``$XDG_CONFIG_HOME/tribunal/key``), so a summary copied in from elsewhere or
edited by hand is ignored rather than trusted. pydantic is imported only by the
pre-push path, never by ``tribunal check``.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
import tempfile
import urllib.parse
from pathlib import Path
from typing import Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from tribunal.errors import TribunalError
from tribunal.util.bounds import load_json
from tribunal.util.fsutil import write_atomically

SCHEMA_ID: Final = "tribunal.summary/1"
SCHEMA_FILE = Path(__file__).parent.parent / "schemas" / "summary.schema.json"

FindingVerdict = Literal["PASS", "UNVERIFIED", "CONTRADICTED"]
MemberVerdict = Literal["PASS", "UNVERIFIED", "CONTRADICTED", "ERROR"]


class SummaryError(TribunalError):
    """A summary that cannot be trusted: missing, malformed, invalid or unauthenticated."""


class SummaryUnauthentic(SummaryError):
    """A well-formed summary whose MAC does not match: edited, or made with another key.
    Ignored like any untrusted summary, and logged (``tribunal audit``)."""


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


class FindingRecord(_Model):
    analyzer: str
    verdict: FindingVerdict
    file: str
    line: int | None = None
    end_line: int | None = None
    title: str
    detail: str = ""
    claim: str | None = None
    source: str | None = None
    language: str | None = None
    suppressed: str | None = None
    fingerprint: str = ""


class MemberRecord(_Model):
    """One lens's vote: the worst of its findings, or ERROR when it could not complete."""

    lens: str
    title: str
    kind: Literal["analyzers", "suite"]
    verdict: MemberVerdict
    analyzers: list[str]
    findings: list[FindingRecord]
    duration_ms: float = Field(ge=0)
    error: str | None = None
    notes: list[str] = []


class ToolRecord(_Model):
    name: Literal["tribunal"] = "tribunal"
    version: str


class RangeRecord(_Model):
    base: str | None = Field(description="the range base commit; null: the empty tree")
    head: str
    commits: int = Field(ge=0)
    notes: list[str] = []


class RemoteRecord(_Model):
    name: str | None = None
    url: str | None = Field(default=None, description="without embedded credentials")


class RefRecord(_Model):
    local: str | None = None
    remote: str | None = None


class ConfigRecord(_Model):
    digest: str
    source: str
    commit: str | None = None
    strict: bool = False
    lenses: list[str]


class GateRecord(_Model):
    """Informational: the gate recomputes the decision from ``members`` every time."""

    decision: Literal["pass", "reject"]
    reasons: list[str] = []


class TimingRecord(_Model):
    total_ms: float = Field(ge=0)
    sandbox_ms: float = Field(ge=0)
    members_ms: float = Field(ge=0)


class AuthRecord(_Model):
    alg: Literal["hmac-sha256"] = "hmac-sha256"
    key_id: str
    mac: str


class Summary(_Model):
    schema_id: Literal["tribunal.summary/1"] = Field(default=SCHEMA_ID, alias="schema")
    tool: ToolRecord
    created: str
    commit: str
    tree: str
    range: RangeRecord
    remote: RemoteRecord
    ref: RefRecord
    config: ConfigRecord
    members: list[MemberRecord]
    notes: list[FindingRecord] = Field(
        default=[], description="about the change as a whole; never blocking"
    )
    gate: GateRecord
    timings: TimingRecord
    advisory: dict[str, Any] | None = Field(
        default=None,
        description="the LLM council's record (tribunal.council/1) when council.enabled; "
        "advice only: the gate never reads it",
    )
    auth: AuthRecord | None = None


SUMMARY_NAME = "summary.json"


def summary_key(
    base: str | None, commit: str, config_digest: str, version: str, remote: str | None = None
) -> str:
    """The convene key, as a directory name: ``<commit, 12 hex>-<digest, 16 hex>``.

    A second push of the same range base, commit, config and tool to the same
    remote reuses the summary; any other range, config or remote is convened
    afresh (a summary is evidence only for the push it was made for). The
    commit comes first so that the summaries of one commit are found by name.
    """
    parts = (base or "", commit, config_digest, version, remote or "")
    digest = hashlib.sha256("\0".join(parts).encode("utf-8", "surrogateescape")).hexdigest()
    return f"{commit[:12]}-{digest[:16]}"


def runs_dir(common_dir: Path) -> Path:
    return common_dir / "tribunal" / "runs"


def summary_path(common_dir: Path, key: str) -> Path:
    """``<git common dir>/tribunal/runs/<key>/summary.json``."""
    return runs_dir(common_dir) / key / SUMMARY_NAME


def summary_paths(common_dir: Path, commit: str) -> list[Path]:
    """Every ``summary.json`` written for ``commit`` (any range, config or remote)."""
    return sorted(runs_dir(common_dir).glob(f"{commit[:12]}-*/{SUMMARY_NAME}"))


def write(path: Path, summary: Summary, key: bytes) -> None:
    """Sign ``summary`` and write it atomically (temporary file, then rename).

    File names that are not UTF-8 are written in git's quoted form
    (``tribunal.git.cquote``), before signing, so the file is valid UTF-8 JSON.
    """
    from tribunal.git.cquote import printable_data

    writable = Summary.model_validate(printable_data(_dump(summary)))
    text = json.dumps(_dump(sign(writable, key)), indent=2, ensure_ascii=False) + "\n"
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomically(path, text, fsync=True)
    except OSError as exc:
        raise SummaryError(
            f"{path.parent}: cannot write summaries: {exc.strerror or exc}"
        ) from None


def load(path: Path, key: bytes) -> Summary:
    """Read, validate and authenticate ``path``; raise ``SummaryError`` saying why not."""
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise SummaryError(f"{path}: no summary") from None
    except OSError as exc:
        raise SummaryError(f"{path}: cannot read: {exc.strerror or exc}") from None
    try:
        data = load_json(raw)  # a tampered file may nest deeply: not valid, never a crash
    except (ValueError, UnicodeDecodeError) as exc:
        raise SummaryError(f"{path}: not valid JSON: {exc}") from None
    try:
        summary = Summary.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "(top level)"
        raise SummaryError(f"{path}: not a valid summary: {where}: {first['msg']}") from None
    if not authentic(data, key):
        raise SummaryUnauthentic(
            f"{path}: does not authenticate (edited, or made with another key)"
        )
    return summary


def sign(summary: Summary, key: bytes) -> Summary:
    data = _dump(summary.model_copy(update={"auth": None}))
    auth = AuthRecord(key_id=key_id(key), mac=_mac(data, key))
    return summary.model_copy(update={"auth": auth})


def authentic(data: dict[str, Any], key: bytes) -> bool:
    """Whether ``data`` (a parsed summary) carries a valid MAC made with ``key``."""
    auth = data.get("auth")
    if not isinstance(auth, dict) or not isinstance(auth.get("mac"), str):
        return False
    return hmac.compare_digest(auth["mac"], _mac({**data, "auth": None}, key))


def key_id(key: bytes) -> str:
    return hashlib.sha256(b"tribunal key id\0" + key).hexdigest()[:12]


def _mac(data: dict[str, Any], key: bytes) -> str:
    canonical = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hmac.new(key, canonical.encode(), hashlib.sha256).hexdigest()


def _dump(summary: Summary) -> dict[str, Any]:
    return summary.model_dump(mode="json", by_alias=True)


def key_file() -> Path:
    base = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return Path(base) / "tribunal" / "key"


_WARNED: set[Path] = set()


def user_key() -> bytes:
    """The per-user HMAC key, created (mode 0600) on first use; never inside a repository.

    A key that other users can read is still used (refusing it would block every
    push), with a warning: whoever reads it can sign summaries of their own.
    """
    path = key_file()
    try:
        if not path.exists():
            _create_key(path)
        key = _read_key(path)
        mode = path.stat().st_mode & 0o777
    except OSError as exc:
        message = f"cannot create the summary key: {exc.strerror or exc}"
        raise SummaryError(f"{path}: {message}") from None
    if mode & 0o077 and path not in _WARNED:
        _WARNED.add(path)
        import sys

        print(
            f"tribunal: warning: {path} can be read by other users (mode {mode:03o}): "
            f"whoever reads it can sign summaries the gate trusts; `chmod 600 {path}`",
            file=sys.stderr,
        )
    return key


def _create_key(path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    fd, tmp = tempfile.mkstemp(prefix=".key-", dir=path.parent)  # created 0600
    try:
        with os.fdopen(fd, "w", encoding="ascii") as handle:
            handle.write(secrets.token_hex(32) + "\n")
        os.link(tmp, path)  # atomic: a concurrent creator's key wins, never a half-written one
    except FileExistsError:
        pass
    finally:
        os.unlink(tmp)


def _read_key(path: Path) -> bytes:
    """The key's bytes as they are (surrounding whitespace aside): never decoded, so two
    different keys can never read as the same one."""
    key = path.read_bytes().strip()
    if len(key) < 32:
        raise SummaryError(f"{path}: the summary key is damaged; delete it to make a new one")
    return key


def public_url(url: str | None) -> str | None:
    """``url`` without credentials: no user name or password (``https://token@host/x`` ->
    ``https://host/x``), and no query or fragment (``?access_token=...``,
    ``?private_token=...``: git remotes need neither, tokens hide in both)."""
    if not url or "://" not in url:
        return url
    parts = urllib.parse.urlsplit(url)
    host = parts.netloc.rsplit("@", 1)[-1]
    return urllib.parse.urlunsplit(parts._replace(netloc=host, query="", fragment=""))


def schema_text() -> str:
    """The JSON Schema of ``Summary`` as committed in ``schemas/summary.schema.json``."""
    schema = Summary.model_json_schema(by_alias=True)
    schema = {"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": SCHEMA_ID, **schema}
    return json.dumps(schema, indent=2, sort_keys=True) + "\n"


if __name__ == "__main__":  # python -m tribunal.gate.summary: regenerate the committed schema
    SCHEMA_FILE.write_text(schema_text(), encoding="utf-8")
    print(f"wrote {SCHEMA_FILE}")
