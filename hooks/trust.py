"""The config a convene runs under: the remote's, never the pushed commit's.

Config comes from ``tribunal.yml`` at the merge base of the pushed commit with
the remote's default branch (``refs/remotes/<remote>/HEAD``, else its ``main``
or ``master``, else the pushed ref's remote counterpart), and from the built-in
defaults when there is no such commit or it has no ``tribunal.yml``.
``--config`` and ``$TRIBUNAL_CONFIG`` play no part. A pushed ``tribunal.yml``
that would weaken the gate is reported (UNVERIFIED, never blocking, so a team
can still push its own config change) and takes effect only once it is on the
remote's default branch.
"""

from __future__ import annotations

from dataclasses import dataclass

from tribunal.config import CONFIG_NAME, Config, parse_config
from tribunal.errors import ConfigError
from tribunal.findings import Finding, Verdict
from tribunal.gitcmd import Git
from tribunal.lenses import configured_lenses
from tribunal.registry import BUILTINS, WEAKENED_ID
from tribunal.snapshot import MAX_FILE_BYTES
from tribunal.sources import resolve_commit


@dataclass(frozen=True)
class TrustedConfig:
    config: Config
    source: str  # for people: where the config came from
    commit: str | None  # the commit it was read from; None for built-in defaults
    notes: tuple[Finding, ...] = ()  # the pushed config's weakenings, never blocking


def trusted_config(
    git: Git, head: str, remote: str | None, remote_ref: str | None
) -> TrustedConfig:
    """The config in force for a push of ``head`` to ``remote``."""
    return trusted_config_from(git, head, _anchor(git, remote, remote_ref))


def trusted_config_from(git: Git, head: str, anchor: str | None) -> TrustedConfig:
    """The config at the merge base of ``head`` with ``anchor`` (a ref the team trusts:
    the remote's default branch), as the pre-push gate reads it."""
    commit = git.text("merge-base", head, anchor, ok_codes=(0, 1)) if anchor else ""
    return trusted_config_at(git, commit or None, head, anchor)


def trusted_config_at(git: Git, commit: str | None, head: str, anchor: str | None) -> TrustedConfig:
    """The config at ``commit`` (None: the built-in defaults), and what ``head``'s own
    config would weaken. ``anchor`` only names where ``commit`` came from.

    CI reads it at the base commit itself (the tip the change merges into, which
    the team protects), not at an older fork point: a branch made before the
    config was tightened must still be judged by the tightened one.
    """
    trusted_blob = _blob(git, commit) if commit else None
    if trusted_blob is None:
        why = f"no {CONFIG_NAME} at {commit[:12]}" if commit else "no remote default branch known"
        config, source, at = Config(), f"built-in defaults ({why})", None
    else:
        assert commit is not None
        name = f"{CONFIG_NAME} at {commit[:12]}"
        config, source, at = parse_config(_text(trusted_blob), name), f"{name} ({anchor})", commit
    pushed_blob = _blob(git, head)
    notes: tuple[Finding, ...] = ()
    if pushed_blob is not None and pushed_blob != trusted_blob:
        notes = tuple(_judge_pushed(config, pushed_blob, head, anchor))
    return TrustedConfig(config, source, at, notes)


def weakenings(old: Config, new: Config) -> list[str]:
    """How ``new`` would let through what ``old`` stops (empty: it would not)."""
    out = []
    for analyzer in sorted({*BUILTINS, *old.analyzers, *new.analyzers}):
        if old.enabled(analyzer) and not new.enabled(analyzer):
            out.append(f"disables analyzer {analyzer}")
    old_lenses = {lens.id: lens for lens in configured_lenses(old)}
    new_lenses = {lens.id: lens for lens in configured_lenses(new)}
    for lens_id, lens in old_lenses.items():
        if lens_id not in new_lenses:
            out.append(f"disables lens {lens_id}")
            continue
        for analyzer in lens.analyzers:
            if analyzer not in new_lenses[lens_id].analyzers:
                out.append(f"removes {analyzer} from lens {lens_id}")
    widened = [p for p in new.generated_paths if p not in old.generated_paths]
    if widened:
        out.append(f"adds generated paths, which are not analyzed: {', '.join(widened)}")
    if old.strict and not new.strict:
        out.append("turns strict off")
    return out


def _judge_pushed(trusted: Config, blob: bytes, head: str, anchor: str | None) -> list[Finding]:
    where = f"{anchor}'s tip" if anchor else "the remote's default branch"
    try:
        pushed = parse_config(_text(blob), f"{CONFIG_NAME} at {head[:12]}")
    except ConfigError as exc:
        return [_note(f"{CONFIG_NAME} in this change is not valid", f"{exc}")]
    detail = f"It takes effect only once it is on {where}; until then the gate uses the old one."
    return [
        _note(f"gate weakened by this change: {what}", detail)
        for what in weakenings(trusted, pushed)
    ]


def _note(title: str, detail: str) -> Finding:
    return Finding(WEAKENED_ID, Verdict.UNVERIFIED, CONFIG_NAME, None, title, detail)


def _anchor(git: Git, remote: str | None, remote_ref: str | None) -> str | None:
    if not remote:
        return None
    default = git.text("config", "--get", "init.defaultBranch", ok_codes=(0, 1)) or "main"
    candidates = [f"refs/remotes/{remote}/HEAD"]
    candidates += [f"refs/remotes/{remote}/{name}" for name in dict.fromkeys((default, "master"))]
    if remote_ref and remote_ref.startswith("refs/heads/"):
        candidates.append(f"refs/remotes/{remote}/{remote_ref.removeprefix('refs/heads/')}")
    return next((ref for ref in candidates if resolve_commit(git, ref)), None)


def _blob(git: Git, commit: str) -> bytes | None:
    blob = git.read_blob(f"{commit}:{CONFIG_NAME}", MAX_FILE_BYTES)
    if blob is not None and not isinstance(blob, bytes):
        raise ConfigError(f"{CONFIG_NAME} at {commit[:12]}: larger than {MAX_FILE_BYTES} bytes")
    return blob


def _text(blob: bytes) -> str:
    try:
        return blob.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{CONFIG_NAME}: not UTF-8: {exc}") from None
