"""What a remote is known to have: remote-tracking refs that git wrote from that remote.

A commit counts as already on a remote only on evidence git itself produced.
For a remote-tracking ref of exactly that remote (``Refs.owner``: its fetch
refspec's namespace, never a prefix another remote's namespace also matches)
that is:

- its newest reflog entry was written by a fetch, pull, ``remote update``,
  clone or ``update by push`` that names no other source (``fetch . X:...`` and
  ``fetch other ...`` name another one), and holds the ref's current value; or
- it has no reflog at all (``git clone`` packs the refs it writes without one;
  ``core.logAllRefUpdates=false``),

and in both cases no local write of its current value was recorded by the
reference-transaction hook (``tracking-ref-written`` records in the
weakened-gate log). Reflog text can be forged (``git update-ref -m "fetch
origin: ..."``); the record, written while the command ran, is the stronger
signal. Reflogs are read through git (``git log -g``), never from the files
under ``logs/``: reftable repositories have none.
"""

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from tribunal.audit.reflog import PUSH_MESSAGE, Refs, Remote, forward
from tribunal.git.cmd import Git

#: The kind of a record of a remote-tracking ref written locally (see ``scan``).
WRITTEN = "tracking-ref-written"
_FIELD = "\x1f"
#: Options of ``git fetch`` / ``git pull`` that take their value as the next word.
_VALUED = frozenset(
    {
        "--depth",
        "--deepen",
        "--shallow-since",
        "--shallow-exclude",
        "-j",
        "--jobs",
        "--refmap",
        "-o",
        "--server-option",
        "--upload-pack",
        "--exec",
        "--negotiation-tip",
        "--filter",
        "--recurse-submodules-default",
        "--submodule-prefix",
        "-s",
        "--strategy",
        "-X",
        "--strategy-option",
    }
)
#: git's own options before the subcommand that take a value as the next word.
_GIT_VALUED = frozenset(
    {"-c", "-C", "--git-dir", "--work-tree", "--namespace", "--exec-path", "--config-env"}
)


class Source(NamedTuple):
    """Where a fetch or pull took its refs from, as its command line says."""

    every: bool  # --all: every configured remote
    names: tuple[str, ...]  # the remotes, groups or URLs named; empty: the default remote


def fetch_source(words: Sequence[str]) -> Source:
    """The source of ``fetch``/``pull`` given its arguments (after the subcommand)."""
    positional: list[str] = []
    every = multiple = False
    skip = False
    options_done = False
    for word in words:
        if skip:
            skip = False
            continue
        if options_done or not word.startswith("-") or word == "-":
            positional.append(word)
            continue
        if word == "--":
            options_done = True
        elif word == "--all":
            every = True
        elif word == "--multiple":
            multiple = True
        elif word in _VALUED:
            skip = True
    names = tuple(positional) if multiple or every else tuple(positional[:1])
    return Source(every, names)


def from_remote(source: Source, remote: Remote, refs: Refs) -> bool:
    """Whether refs fetched from ``source`` into ``remote``'s namespace came from it."""
    if not source.names:
        return True  # the default remote or --all: each remote into its own namespace
    for name in source.names:
        if name == remote.name or remote.named_by(name) or _same_url(name, remote.url):
            return True
        if remote.name in refs.groups.get(name, ()):
            return True
    return False


def message_from_remote(message: str, remote: Remote, refs: Refs) -> bool:
    """Whether a reflog entry with ``message`` was written by git from ``remote``."""
    if message.startswith(PUSH_MESSAGE) or message.startswith("clone: from "):
        return True
    command, sep, _ = message.rpartition(": ")
    words = command.split()
    if not sep or not words or words[0] not in ("fetch", "pull"):
        return False
    return from_remote(fetch_source(words[1:]), remote, refs)


def git_subcommand(argv: Sequence[str]) -> tuple[str, list[str]]:
    """``(subcommand, its arguments)`` of a git command line (``git -c x=y fetch ...``)."""
    words = list(argv[1:])
    while words and words[0].startswith("-"):
        word = words.pop(0)
        if word in _GIT_VALUED and words:
            words.pop(0)
    return (words[0], words[1:]) if words else ("", [])


def _same_url(given: str, url: str | None) -> bool:
    """git writes a fetch's URL to the reflog without credentials."""
    from tribunal.gate.summary import public_url

    return bool(url) and public_url(given) == public_url(url)


class Tracked(NamedTuple):
    """One remote-tracking ref of a remote, and whether its value is evidence."""

    ref: str
    tip: str
    evidence: bool
    why: str  # how its current value was written, for people
    fetched: str | None  # the newest value git wrote from the remote (the tip if evidence)


@dataclass(frozen=True)
class RemoteState:
    """A remote's remote-tracking refs as evidence of what it has."""

    remote: Remote
    tracked: dict[str, Tracked] = field(default_factory=dict)
    head: str | None = None  # what refs/remotes/<remote>/HEAD points at
    head_set_locally: bool = False  # by `git remote set-head` since the clone

    def known(self) -> list[str]:
        """The tips git wrote from the remote: commits it is known to have."""
        return [t.tip for t in self.tracked.values() if t.evidence]

    def counterpart(self, remote_ref: str | None) -> Tracked | None:
        """The remote-tracking ref of ``remote_ref`` (a ref on the remote), if there is one."""
        if not remote_ref:
            return None
        for spec in self.remote.fetch:
            ref = forward(spec, remote_ref)
            if ref is not None and ref in self.tracked:
                return self.tracked[ref]
        return None

    def unproven(self) -> list[Tracked]:
        return [t for t in self.tracked.values() if not t.evidence]


def default_branch(git: Git, state: RemoteState) -> Tracked | None:
    """The remote's default branch: what ``refs/remotes/<remote>/HEAD`` points at, else
    its ``init.defaultBranch`` (else ``main``), else ``master``; None if none is here.

    A ``HEAD`` that ``git remote set-head`` pointed somewhere since the clone is a
    local choice, not something git learnt from the remote: it comes last.
    """
    initial = git.text("config", "--get", "init.defaultBranch", ok_codes=(0, 1)) or "main"
    named = [state.counterpart(f"refs/heads/{b}") for b in dict.fromkeys((initial, "master"))]
    head = state.tracked.get(state.head or "")
    order = [*named, head] if state.head_set_locally else [head, *named]
    return next((found for found in order if found is not None), None)


def remote_for(refs: Refs, name: str | None, url: str | None) -> Remote | None:
    """The configured remote a push goes to: by name, else by its exact URL."""
    if name and name in refs.remotes:
        return refs.remotes[name]
    given = url or name
    if not given:
        return None
    matches = [r for r in refs.remotes.values() if r.named_by(given)]
    return matches[0] if len(matches) == 1 else None


def state_for(git: Git, common_dir: Path, name: str | None, url: str | None) -> RemoteState | None:
    """The evidence of the configured remote a push to ``name`` (and ``url``) goes to;
    None for a URL that is no configured remote."""
    from tribunal.audit.reflog import read_refs

    refs = read_refs(git)
    remote = remote_for(refs, name, url)
    return read_state(git, common_dir, refs, remote) if remote is not None else None


def read_state(git: Git, common_dir: Path, refs: Refs, remote: Remote) -> RemoteState:
    """Which of ``remote``'s remote-tracking refs are evidence of what it has."""
    owned = {}
    for ref, tip in refs.tips.items():
        owner = refs.owner(ref)
        if owner is not None and owner[0].name == remote.name:
            owned[ref] = tip
    head_ref = _head_ref(remote)
    logs = reflogs(git, [*owned, *([head_ref] if head_ref in refs.symrefs else [])])
    written = recorded_writes(common_dir)
    tracked = {
        ref: _judge(ref, tip, logs.get(ref, []), written.get(ref, set()), remote, refs)
        for ref, tip in owned.items()
    }
    head_log = logs.get(head_ref, [])
    set_locally = any(message.startswith("remote set-head") for _, message in head_log)
    return RemoteState(remote, tracked, refs.symrefs.get(head_ref), set_locally)


def _head_ref(remote: Remote) -> str:
    return f"refs/remotes/{remote.name}/HEAD"


def _judge(
    ref: str,
    tip: str,
    log: list[tuple[str, str]],
    written: set[str],
    remote: Remote,
    refs: Refs,
) -> Tracked:
    """``log``: the ref's reflog, newest first, as ``(value, message)``."""
    fetched = next(
        (
            value
            for value, message in log
            if value not in written and message_from_remote(message, remote, refs)
        ),
        None,
    )
    if tip in written:
        why = "the reference-transaction hook recorded its value as written locally"
        return Tracked(ref, tip, False, why, fetched)
    if not log:
        return Tracked(ref, tip, True, "no reflog (as `git clone` writes it)", tip)
    value, message = log[0]
    if value != tip:
        why = "its value has no reflog entry (the reflog was edited or disabled)"
        return Tracked(ref, tip, False, why, fetched)
    if not message_from_remote(message, remote, refs):
        return Tracked(ref, tip, False, f"written by {_describe(message)}", fetched)
    return Tracked(ref, tip, True, f"written by {_describe(message)}", tip)


def _describe(message: str) -> str:
    command = message.rpartition(": ")[0] if ": " in message else message
    return f"`{command}`" if command.strip() else "a command that left no reflog message"


def reflogs(git: Git, refs: Iterable[str]) -> dict[str, list[tuple[str, str]]]:
    """Each ref's reflog, newest first, as ``(value, message)``; absent when it has none."""
    wanted = list(refs)
    if not wanted:
        return {}
    fields = _FIELD.join(("%gD", "%H", "%gs"))
    out = git.run(
        "log", "-g", "--no-abbrev", f"--format={fields}", *wanted, "--", ok_codes=(0, 128)
    )
    found: dict[str, list[tuple[int, str, str]]] = {}
    for line in out.decode("utf-8", "surrogateescape").splitlines():
        parts = line.split(_FIELD)
        if len(parts) != 3:
            continue
        selector, value, message = parts
        ref, _, index = selector.rpartition("@{")
        number = index.rstrip("}")
        if ref and number.isdigit():
            found.setdefault(ref, []).append((int(number), value, message))
    return {ref: [(v, m) for _, v, m in sorted(items)] for ref, items in found.items()}


def recorded_writes(common_dir: Path) -> Mapping[str, set[str]]:
    """Remote-tracking ref -> the values the reference-transaction hook saw written locally."""
    from tribunal.audit.log import records

    out: dict[str, set[str]] = {}
    for _, record in records(common_dir):
        if record is not None and WRITTEN in record.how:
            out.setdefault(record.tracking_ref, set()).add(record.new)
    return out
