"""The config a convene runs under: the remote's, never the pushed commit's.

Config comes from ``tribunal.yml`` at the tip of the remote's default branch as
last fetched (``refs/remotes/<remote>/HEAD``'s target, else
``<remote>/<init.defaultBranch or main>``, else ``<remote>/master``; never the
pushed ref's own counterpart), for every push, orphan branches included: the
same rule as ``--config-from-base`` in CI. "As last fetched" is the newest
value git itself wrote to that ref from the remote (``remote_state``): a value
written locally (``git update-ref``) is not the team's. The built-in defaults
apply only when the remote has none of those branches here, or its tip has no
``tribunal.yml``; the summary and the output name where the config came from.
``--config`` and ``$TRIBUNAL_CONFIG`` play no part. A pushed ``tribunal.yml``
that would weaken the gate is reported (UNVERIFIED, never blocking, so a team
can still push its own config change) and takes effect only once it is on the
remote's default branch.
"""

from __future__ import annotations

from dataclasses import dataclass

from tribunal.audit.remote_state import RemoteState, default_branch
from tribunal.change.snapshot import MAX_FILE_BYTES
from tribunal.config.load import CONFIG_NAME, parse_config
from tribunal.config.model import Config
from tribunal.engine.registry import BUILTINS, WEAKENED_ID
from tribunal.errors import ConfigError
from tribunal.findings import Finding, Verdict
from tribunal.git.cmd import Git
from tribunal.lenses import configured_lenses


@dataclass(frozen=True)
class TrustedConfig:
    config: Config
    source: str  # for people: where the config came from
    commit: str | None  # the commit it was read from; None for built-in defaults
    notes: tuple[Finding, ...] = ()  # the pushed config's weakenings, never blocking
    layout: Config | None = None  # ``config`` with the pushed layout keys, when they differ


def trusted_config(git: Git, head: str, state: RemoteState | None) -> TrustedConfig:
    """The config in force for a push of ``head`` to the remote whose evidence is ``state``
    (None: a push to a URL that is no configured remote)."""
    if state is None:
        why = "a push to a URL that is no configured remote: no default branch is known"
        return trusted_config_at(git, None, head, None, why)
    name = state.remote.name
    anchor = default_branch(git, state)
    if anchor is None:
        why = f"{name} has no default branch here ({name}/HEAD, its main or master)"
        return trusted_config_at(git, None, head, None, why)
    where = anchor.ref.removeprefix("refs/remotes/")
    if anchor.fetched is None:
        raise ConfigError(
            f"{anchor.ref}, the default branch of {name} whose {CONFIG_NAME} the gate uses, "
            f"holds no value git fetched from {name} ({anchor.why}); "
            f"`git fetch {name}` restores it"
        )
    label = f"the tip of {where} as last fetched"
    if anchor.fetched != anchor.tip:
        label += f" ({anchor.why}; the value before it)"
    if state.head == anchor.ref and state.head_set_locally:
        label += f", which `git remote set-head` chose as {name}'s default branch here"
    elif state.head_set_locally and state.head:
        label += f"; {name}/HEAD, set here by `git remote set-head`, is not taken as its default"
    return trusted_config_at(git, anchor.fetched, head, where, label=label)


def trusted_config_at(
    git: Git,
    commit: str | None,
    head: str,
    anchor: str | None,
    why_none: str = "",
    *,
    label: str = "",
) -> TrustedConfig:
    """The config at ``commit`` (None: the built-in defaults, ``why_none`` says why), and
    what ``head``'s own config would weaken. ``anchor`` names the branch ``commit``
    came from; ``label`` says so for people (default: ``anchor``).

    The gate and CI read it at the tip the change merges into, which the team
    protects, not at an older fork point: a branch made before the config was
    tightened must still be judged by the tightened one.
    """
    trusted_blob = _blob(git, commit) if commit else None
    if trusted_blob is None:
        why = f"no {CONFIG_NAME} at {commit[:12]}" if commit else why_none or "no base known"
        if commit and label:
            why += f", {label}"
        config, source, at = Config(), f"built-in defaults ({why})", None
    else:
        assert commit is not None
        name = f"{CONFIG_NAME} at {commit[:12]}"
        config, at = parse_config(_text(trusted_blob), name), commit
        source = f"{name} ({label or anchor})"
    pushed_blob = _blob(git, head)
    notes: tuple[Finding, ...] = ()
    layout = None
    if pushed_blob is not None and pushed_blob != trusted_blob:
        notes = tuple(_judge_pushed(config, pushed_blob, head, anchor))
        layout = _pushed_layout(config, pushed_blob, head)
    return TrustedConfig(config, source, at, notes, layout)


def _pushed_layout(trusted: Config, blob: bytes, head: str) -> Config | None:
    from tribunal.hooks.layout import layout_config

    try:
        pushed = parse_config(_text(blob), f"{CONFIG_NAME} at {head[:12]}")
    except ConfigError:
        return None
    return layout_config(trusted, pushed)


def config_at(git: Git, commit: str | None) -> Config:
    """The config ``tribunal.yml`` at ``commit`` holds (None, or none there: the defaults)."""
    blob = _blob(git, commit) if commit else None
    if blob is None:
        return Config()
    assert commit is not None
    return parse_config(_text(blob), f"{CONFIG_NAME} at {commit[:12]}")


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
