"""The send guard (seed 001): the diff is source code, and it leaves only when the user says so.

No endpoint is trusted for its address: a loopback URL may be a local proxy
that forwards to a hosted model. So ``propose`` and ``council`` send nothing
without ``--allow-send-diff`` or ``TRIBUNAL_ALLOW_SEND_DIFF=1`` and print what
they would have sent instead. The pre-push convene has no flags: its council
sends only when the environment variable is set or the user's own git config
says so (``git config --global tribunal.allowSendDiff true``). Never a
repository's config and never ``tribunal.yml``: the trusted config belongs to
the remote's owners, and a key there would let them have every contributor's
diff sent to an endpoint of their choosing.

``is_loopback`` serves something else: a client talking to a loopback endpoint
ignores the proxy variables, which would carry the traffic off the machine.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable, Mapping, Sequence
from urllib.parse import urlsplit

from tribunal.errors import GitError
from tribunal.git.cmd import Git
from tribunal.llm.providers import MemberSpec, shown_endpoint
from tribunal.util.envflag import env_flag

ALLOW_ENV = "TRIBUNAL_ALLOW_SEND_DIFF"
ALLOW_KEY = "tribunal.allowSendDiff"
ALLOW_GLOBALLY = f"git config --global {ALLOW_KEY} true"
#: What the convene prints, on one line, when its council may not send.
SKIPPED = (
    "council skipped: sending the diff is not allowed; see `tribunal council --help` "
    f"(allow it with `{ALLOW_GLOBALLY}` or {ALLOW_ENV}=1)"
)


def is_loopback(endpoint: str) -> bool:
    """True for ``http(s)://localhost``, ``127.0.0.0/8`` and ``::1`` (also v4-mapped).

    Decided without the network: no DNS answer can make a remote host loopback.
    """
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
    """On the command line: ``--allow-send-diff`` or ``$TRIBUNAL_ALLOW_SEND_DIFF``."""
    return flag or env_flag(ALLOW_ENV, env)


def user_allows_sending(git: Git, env: Mapping[str, str] | None = None) -> bool:
    """For the convene: ``$TRIBUNAL_ALLOW_SEND_DIFF``, else the user's global git config.

    ``--global`` reads only the per-user file (``~/.gitconfig`` or
    ``$XDG_CONFIG_HOME/git/config``, or ``$GIT_CONFIG_GLOBAL``): never the
    repository's own config, nor ``git -c`` settings. An unreadable or
    non-boolean value does not allow.
    """
    if env_flag(ALLOW_ENV, env):
        return True
    try:
        value = git.text("config", "--global", "--type=bool", "--get", ALLOW_KEY, ok_codes=(0, 1))
    except (GitError, OSError):  # a bad value, no git, no HOME: not allowed, never a failure
        return False
    return value == "true"


def refused(specs: Iterable[MemberSpec], allowed: bool) -> list[MemberSpec]:
    """The members that may not receive the diff: all of them, unless sending is allowed."""
    return [] if allowed else list(specs)


def refusal_notice(blocked: Sequence[MemberSpec]) -> str:
    where = ", ".join(sorted({f"{shown_endpoint(s.endpoint)} ({s.id})" for s in blocked}))
    return (
        f"not sent to {where}: the diff is source code, and no endpoint is trusted for its "
        "address (a loopback URL may forward to a hosted model); review what would be sent "
        f"above, then pass --allow-send-diff or set {ALLOW_ENV}=1"
    )
