"""The pre-push hook: convene every pushed ref, then gate on what ``summary.json`` says.

With plain git (the shims of ``tribunal install``, which say so with
``--plain``) every ref of the push comes on stdin and each is convened; only
those lines count. Under the pre-commit framework only the first ref with new
commits is shown to the hook (a limitation of pre-commit) and arrives as
``PRE_COMMIT_*`` variables. File names pre-commit passes are ignored: they come
from the checkout, and what is judged is the pushed commit. The repository is
the one git runs the hook for (``repo``). Before convening, the bypass audit
scans the reflogs for earlier pushes that got past the gate (``audit_hook``);
it never changes the gate's decision. Neither does the LLM council (opt-in):
its advice is printed after the gate's result.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from pathlib import Path
from typing import TextIO

from tribunal.audit.remote_state import state_for
from tribunal.errors import ExitCode, UsageError
from tribunal.gate.decision import evaluate
from tribunal.git.cmd import Git
from tribunal.hooks.advisory import advisory_lines
from tribunal.hooks.audit_hook import audit_before_push
from tribunal.hooks.convene import Target, convene
from tribunal.hooks.output import bypass_hint, write_lines
from tribunal.hooks.progress import Progress
from tribunal.hooks.pushinfo import Push, PushedRef, from_git, from_pre_commit
from tribunal.hooks.repo import Repo, open_repo
from tribunal.hooks.verdict import gate_lines


def run_pre_push(
    cwd: Path,
    git_args: list[str],
    stdin: TextIO,
    env: Mapping[str, str],
    out: TextIO,
    *,
    plain: bool = False,
) -> int:
    """Exit 0 when every pushed ref passes the gate, 1 when any is rejected."""
    framework = not plain and not git_args
    if not framework and len(git_args) != 2:
        raise UsageError("pre-push: expected the remote's name and URL, as git passes them")
    repo = open_repo(cwd, env)
    with repo.git() as git:
        audit_before_push(repo, git, framework, sys.stderr)
        if framework:
            push = from_pre_commit(env, git)
        else:
            push = from_git(git, git_args[0], git_args[1], stdin.read())
        state = state_for(git, repo.common_dir, push.remote_name, push.remote_url)
        write_lines(out, _preamble(repo, git, push))
        remote = state.remote.name if state is not None else None
        verdicts = [
            judge(repo, git, Target(ref, remote, push.remote_url, state), out) for ref in push.refs
        ]
    if not all(verdicts):
        write_lines(out, all_or_nothing(push, verdicts))
    return ExitCode.OK if all(verdicts) else ExitCode.CONTRADICTED


def _preamble(repo: Repo, git: Git, push: Push) -> list[str]:
    """What is not judged, and why; and what the gate could not read."""
    lines = [f"tribunal: {item.ref}: {item.why}" for item in push.unjudged]
    if repo.checkout is None and git.text("rev-parse", "--is-bare-repository") != "true":
        lines.append(
            f"tribunal: git was given the repository ({repo.git_dir}) without a work tree: "
            "the pushed commits are judged from the object database alone, and no claims "
            "file, .venv or node_modules is read from the current directory"
        )
    return lines


def all_or_nothing(push: Push, verdicts: list[bool]) -> list[str]:
    """Why a ref that passed was not pushed either: git pushes nothing when a hook refuses."""
    passed = [_label(ref) for ref, ok in zip(push.refs, verdicts, strict=True) if ok]
    if not passed:
        return []
    refs = ", ".join(passed)
    return [
        f"tribunal: git pushes nothing when any ref is rejected, so {refs} "
        f"{'was' if len(passed) == 1 else 'were'} not pushed either; push "
        f"{'it' if len(passed) == 1 else 'them'} on {'its' if len(passed) == 1 else 'their'} own"
    ]


def _label(ref: PushedRef) -> str:
    return ref.remote_ref or ref.local_ref or ref.local_sha[:12]


def judge(repo: Repo, git: Git, target: Target, out: TextIO) -> bool:
    """Convene one target and gate it; print the outcome; True if it may be pushed."""
    progress = Progress()
    label = _label(target.ref)
    convened = convene(repo, git, target, progress)
    if convened is None:
        where = target.remote_name or "the remote"
        write_lines(out, [f"tribunal: {label}: {where} already has every commit; nothing to judge"])
        return True
    result = evaluate(convened.path, convened.expected, convened.key)
    write_lines(out, gate_lines(label, convened, result))
    if not result.passed:
        write_lines(out, [bypass_hint("pre-push")])
    if result.summary is not None:  # advice, printed once the gate has decided
        write_lines(out, advisory_lines(result.summary.advisory))
    return result.passed


def is_remote(git: Git, name: str | None) -> bool:
    """A configured remote (a push to a plain URL has no remote-tracking refs)."""
    if not name:
        return False
    return bool(git.text("config", "--get", f"remote.{name}.url", ok_codes=(0, 1)))
