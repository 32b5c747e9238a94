"""The send guard: the diff is source code, and only loopback may see it by default.

Deciding "loopback" never touches the network: a host is loopback only when it
is ``localhost`` (RFC 6761) or a literal loopback address, so no DNS answer can
turn a remote host into an allowed one, and a refused endpoint is refused
before any connection is attempted. Sending elsewhere needs
``--allow-send-diff`` or ``TRIBUNAL_ALLOW_SEND_DIFF=1`` -- never a config key,
because a repository's own config must not be able to publish its reader's code.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable, Mapping
from urllib.parse import urlsplit

from tribunal.envflag import env_flag
from tribunal.llm.providers import MemberSpec, shown_endpoint

ALLOW_ENV = "TRIBUNAL_ALLOW_SEND_DIFF"


def is_loopback(endpoint: str) -> bool:
    """True for ``http(s)://localhost``, ``127.0.0.0/8`` and ``::1`` (also v4-mapped)."""
    try:
        host = urlsplit(endpoint).hostname
    except ValueError:
        return False
    if not host:
        return False
    host = host.rstrip(".").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped.is_loopback
    return address.is_loopback


def send_allowed(flag: bool, env: Mapping[str, str] | None = None) -> bool:
    return flag or env_flag(ALLOW_ENV, env)


def refused(specs: Iterable[MemberSpec], allowed: bool) -> list[MemberSpec]:
    """The members whose endpoint may not receive the diff under this permission."""
    if allowed:
        return []
    return [spec for spec in specs if not is_loopback(spec.endpoint)]


def refusal_notice(blocked: Iterable[MemberSpec], *, review_hint: bool = True) -> str:
    where = ", ".join(sorted({f"{shown_endpoint(s.endpoint)} ({s.id})" for s in blocked}))
    notice = f"not sent: {where} is not a loopback address and the diff is source code"
    if not review_hint:
        return notice
    return (
        f"{notice}; review what would be sent above, then pass --allow-send-diff "
        f"or set {ALLOW_ENV}=1"
    )
