"""Remove obvious secrets from a diff before any of it leaves the process.

Deliberately narrow: private key blocks, tokens whose format identifies them
(AWS, GitHub, Slack, OpenAI-style ``sk-``, JWTs, ...) and every value in a
``.env`` file. A generic "looks random" detector would redact hashes and test
fixtures the reviewer needs; a missed exotic secret is why sending needs consent.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

_PRIVATE_KEY = re.compile(
    r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----"
    r".*?(?:-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|(?=^diff --git )|\Z)",
    re.DOTALL | re.MULTILINE,
)
_TOKENS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("aws-access-key", re.compile(r"\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b")),
    (
        "aws-secret-key",
        re.compile(
            r"(?i)(?<=aws_secret_access_key)(\s*[\"']?\s*[:=]\s*[\"']?)[A-Za-z0-9/+=]{40}\b"
        ),
    ),
    ("github-token", re.compile(r"\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_\w{22,255})\b")),
    ("slack-token", re.compile(r"\bxox[abposre]-[A-Za-z0-9-]{10,}")),
    ("slack-webhook", re.compile(r"https://hooks\.slack\.com/services/[A-Za-z0-9/_-]+")),
    ("openai-key", re.compile(r"\bsk-(?:proj-|ant-|svcacct-)?[A-Za-z0-9_-]{20,}")),
    ("jwt", re.compile(r"\beyJ[A-Za-z0-9_-]{5,}\.eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{8,}")),
    ("google-api-key", re.compile(r"\bAIza[0-9A-Za-z_-]{35}\b")),
    ("stripe-key", re.compile(r"\b[rs]k_live_[0-9A-Za-z]{16,}\b")),
)
#: A file header naming a dotenv file: ``diff --git a/.env b/.env`` or ``+++ b/config/.env.local``.
_ENV_FILE = re.compile(r"(?:^|/)\.env(?:\.[\w.-]+)?$|(?:^|/)[\w.-]+\.env$")
_ENV_LINE = re.compile(r"^([+\- ]\s*(?:export\s+)?[A-Za-z_][A-Za-z0-9_.]*\s*=\s*)(\S.*)$")


@dataclass(frozen=True)
class Redacted:
    text: str
    count: int
    kinds: dict[str, int]


def redact(text: str) -> Redacted:
    """``text`` with each secret replaced by ``[REDACTED:<kind>]``, and how many were."""
    counts: Counter[str] = Counter()
    text = _sub(_PRIVATE_KEY, "private-key", text, counts)
    for kind, pattern in _TOKENS:
        text = _sub(pattern, kind, text, counts, keep_group=kind == "aws-secret-key")
    text = _redact_env_files(text, counts)
    return Redacted(text, sum(counts.values()), dict(sorted(counts.items())))


def _sub(
    pattern: re.Pattern[str], kind: str, text: str, counts: Counter[str], keep_group: bool = False
) -> str:
    def replace(match: re.Match[str]) -> str:
        counts[kind] += 1
        prefix = match.group(1) if keep_group else ""
        return f"{prefix}[REDACTED:{kind}]"

    return pattern.sub(replace, text)


def _redact_env_files(text: str, counts: Counter[str]) -> str:
    """Blank every value in the hunks of a ``.env`` file (its names stay: they help review)."""
    lines = text.splitlines(keepends=True)
    in_env = False
    for index, line in enumerate(lines):
        if line.startswith("diff "):
            in_env = any(_ENV_FILE.search(part) for part in line.split()[2:])
        elif _is_header_pair(lines, index):
            names = (_header_name(line), _header_name(lines[index + 1]))
            in_env = any(_ENV_FILE.search(name) for name in names)
        elif in_env and not line.startswith(("+++ ", "@@")):
            lines[index] = _redact_env_line(line, counts)
    return "".join(lines)


def _is_header_pair(lines: list[str], index: int) -> bool:
    """``--- old`` directly followed by ``+++ new``: a file header, not a removed line."""
    return (
        lines[index].startswith("--- ")
        and index + 1 < len(lines)
        and lines[index + 1].startswith("+++ ")
    )


def _header_name(line: str) -> str:
    return line[4:].rstrip("\r\n").split("\t")[0].strip()


def _redact_env_line(line: str, counts: Counter[str]) -> str:
    body = line.rstrip("\r\n")
    match = _ENV_LINE.match(body)
    if match is None or match.group(2).startswith("[REDACTED"):
        return line
    counts["env-value"] += 1
    return f"{match.group(1)}[REDACTED:env-value]{line[len(body) :]}"
