"""The suite lens's throwaway repository: the pushed commit, checked out, in a repository
of its own.

A linked worktree shares the user's refs, tags, branches, stash and
``.git/config``, and ordinary test suites touch those without any malice
(``git config user.email``, ``git tag``, ``git stash`` in a fixture). So the
suite runs in a repository made for it, in ``tribunal-suite-<pid>-*/`` under the
private temp parent (``tempparent``), removed afterwards (a dead run's is
swept by ``reaper``):

- ``git init`` with no templates and the user's object format; the user's
  objects reachable read-only through ``objects/info/alternates`` (what the
  suite writes lands in its own object directory and goes with it); a shallow
  repository's ``shallow`` list copied, so history ends where the user's does;
- the user's tags (version tools such as setuptools-scm read them), HEAD
  detached at the pushed commit, the whole tree checked out;
- its own config: ``core.hooksPath`` an empty directory; the user's local
  ``user.*``, ``filter.*`` and ``lfs.*`` settings (identity, Git LFS and other
  filters: git-lfs finds the user's LFS objects through the alternates); a
  partial clone's promisor remotes, fetch only (their push URL goes nowhere),
  so missing objects are fetched into the throwaway repository. No other
  remote: a ``git push`` in the suite has nowhere to go;
- ``GIT_CONFIG_GLOBAL`` is a throwaway file that includes the user's real
  global config by absolute path: the suite reads it, ``git config --global``
  writes the throwaway file.

The suite's environment carries nothing of tribunal's (no ``TRIBUNAL_*``
variable) and no variable that points git at the user's repository. HOME stays
the user's: suites need their caches. Setting it up costs about what a full
checkout of a linked worktree costs (``bench/perf_suite.py``). When the tmpfs
location runs out of room during the checkout, it is made again in the disk
temp directory.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from tribunal.errors import GitError, TribunalError
from tribunal.git.cmd import Git, no_git_env
from tribunal.util.fsutil import remove_tree
from tribunal.worktree import tempparent
from tribunal.worktree.reaper import SUITE_PREFIX

_COPIED_SECTIONS = ("user.", "filter.", "lfs.")
_NO_PUSH = "/dev/null/tribunal: the suite's repository does not push"


class SuiteRepoError(TribunalError):
    """The suite's repository could not be made (git's reason in the message)."""


@dataclass(frozen=True)
class SuiteRepo:
    path: Path  # the checkout, where the suite runs
    env: dict[str, str]  # the suite's environment


@contextlib.contextmanager
def suite_repository(source: Path, common_dir: Path, commit: str) -> Iterator[SuiteRepo]:
    """A throwaway repository with ``commit`` checked out, removed on every exit path.

    ``source`` is the user's work tree (or git dir, if bare), ``common_dir``
    their git common dir. Raises ``SuiteRepoError`` when it cannot be made.
    """
    user = Git(source, env=no_git_env())
    try:
        commit = user.text("rev-parse", "--verify", "--end-of-options", f"{commit}^{{commit}}")
        local = _local_config(user)
        # In a partial clone, sizes would fetch every missing blob into the user's repository.
        size = 0 if _promisor_remotes(local) else tree_size(user, commit)
    except GitError as exc:
        raise SuiteRepoError(str(exc)) from None
    bases = [tempparent.choose_base(size)]
    if bases[0] != tempparent.disk_base():
        bases.append(tempparent.disk_base())
    for attempt, base in enumerate(bases, 1):
        prefix = f"{SUITE_PREFIX}{os.getpid()}-"
        container = Path(tempfile.mkdtemp(prefix=prefix, dir=tempparent.parent_in(base)))
        try:
            repo = _build(container, source, user, common_dir, commit, local)
        except GitError as exc:
            remove_tree(container)
            if attempt < len(bases) and "No space left on device" in str(exc):
                continue
            raise SuiteRepoError(str(exc)) from None
        except BaseException:
            remove_tree(container)
            raise
        try:
            yield repo
        finally:
            remove_tree(container)
        return


def suite_env(global_config: Path, env: Mapping[str, str] | None = None) -> dict[str, str]:
    """``env`` (default: ours) as the suite gets it: nothing of tribunal's, nothing of the
    user's repository, and ``global_config`` as git's global config."""
    out = {k: v for k, v in no_git_env(env).items() if not k.startswith("TRIBUNAL_")}
    out["GIT_CONFIG_GLOBAL"] = str(global_config)
    return out


def global_config_text(env: Mapping[str, str] | None = None) -> str:
    """A config file that only includes the user's real global config(s), by absolute path.

    Relative includes inside those keep working: git resolves them against the
    file that holds them.
    """
    source = os.environ if env is None else env
    lines = [
        "# Written by tribunal for the suite lens: your global git config is read through",
        "# the include below; `git config --global` in the suite writes this file instead.",
        "[include]",
    ]
    lines += [f"\tpath = {_quote(str(p))}" for p in real_global_configs(source)]
    return "\n".join(lines) + "\n"


def real_global_configs(env: Mapping[str, str]) -> list[Path]:
    """The files git reads as the global config, in git's order (later wins)."""
    explicit = env.get("GIT_CONFIG_GLOBAL")
    if explicit:
        return [Path(os.path.abspath(explicit))]
    home = Path(env.get("HOME") or Path.home())
    xdg = Path(env.get("XDG_CONFIG_HOME") or home / ".config")
    return [
        Path(os.path.abspath(xdg / "git" / "config")),
        Path(os.path.abspath(home / ".gitconfig")),
    ]


def tree_size(git: Git, commit: str) -> int:
    """Bytes a full checkout of ``commit`` writes (to decide whether tmpfs has room)."""
    total = 0
    for line in git.stream("ls-tree", "-r", "-l", "--full-tree", commit):
        fields = line.split(b"\t", 1)[0].split()
        total += int(fields[3]) if len(fields) > 3 and fields[3].isdigit() else 0
    return total


def _build(
    container: Path,
    source: Path,
    user: Git,
    common_dir: Path,
    commit: str,
    local: list[tuple[str, str]],
) -> SuiteRepo:
    no_hooks = container / "no-hooks"
    no_hooks.mkdir()
    global_config = container / "gitconfig"
    global_config.write_text(global_config_text(), encoding="utf-8")
    env = suite_env(global_config)
    work = container / _work_name(source)
    fmt = user.text("rev-parse", "--show-object-format")
    formats = ["--object-format", fmt] if fmt != "sha1" else []
    Git(container, env=env).run("init", "-q", "--template=", *formats, str(work))
    git = Git(work, env=env)
    git_dir = work / ".git"
    _write_alternates(git_dir, common_dir / "objects")
    if (common_dir / "shallow").is_file():
        shutil.copyfile(common_dir / "shallow", git_dir / "shallow")
    _configure(git, local, source, no_hooks)
    tags = user.run("for-each-ref", "--format=create %(refname) %(objectname)", "refs/tags")
    if tags:
        git.run("update-ref", "--stdin", stdin=tags)
    git.run("update-ref", "--no-deref", "HEAD", commit)
    git.run("-c", "core.fsmonitor=false", "read-tree", "-u", "--reset", "HEAD")
    return SuiteRepo(work, env)


def _work_name(source: Path) -> str:
    """The checkout's directory name: the user's, so tools that read it see the same."""
    name = source.name
    return name if name not in ("", ".", "..") else "repo"


def _write_alternates(git_dir: Path, objects: Path) -> None:
    text = str(objects.resolve())
    if "\n" in text or text.startswith('"'):
        text = _quote(text)  # git unquotes a C-style quoted line
    (git_dir / "objects" / "info" / "alternates").write_text(text + "\n", encoding="utf-8")


def _configure(git: Git, local: list[tuple[str, str]], source: Path, no_hooks: Path) -> None:
    """Hooks off; the user's identity and filters; a partial clone's promisor remotes."""
    git.run("config", "core.hooksPath", str(no_hooks))
    promisor = _promisor_settings(local, source)
    if promisor:
        git.run("config", "core.repositoryformatversion", "1")  # extensions need format 1
    for key, value in [(k, v) for k, v in local if k.startswith(_COPIED_SECTIONS)] + promisor:
        git.run("config", "--add", key, value)


def _local_config(user: Git) -> list[tuple[str, str]]:
    """The user's repository config in the sections the throwaway repository may copy."""
    raw = user.run(
        "config",
        "--local",
        "-z",
        "--get-regexp",
        r"^(user|filter|lfs|remote|extensions)\.",
        ok_codes=(0, 1),
    )
    entries = []
    for record in raw.decode("utf-8", "surrogateescape").split("\0"):
        if record:
            key, _, value = record.partition("\n")
            entries.append((key, value if "\n" in record else "true"))
    return entries


def _promisor_remotes(local: list[tuple[str, str]]) -> set[str]:
    """The remotes a partial clone fetches missing objects from (none: not a partial clone)."""
    remotes = {v for k, v in local if k == "extensions.partialclone"}
    remotes |= {_subsection(k) for k, v in local if k.endswith(".promisor") and v.lower() == "true"}
    remotes.discard("")
    return remotes


def _promisor_settings(local: list[tuple[str, str]], source: Path) -> list[tuple[str, str]]:
    """What makes the throwaway repository a partial clone of the user's promisor remotes."""
    remotes = _promisor_remotes(local)
    if not remotes:
        return []
    out = [(k, v) for k, v in local if k == "extensions.partialclone"]
    for remote in sorted(remotes):
        for key, value in local:
            if key == f"remote.{remote}.url":
                out.append((key, _absolute_url(value, source)))
            elif key in (f"remote.{remote}.promisor", f"remote.{remote}.partialclonefilter"):
                out.append((key, value))
        out.append((f"remote.{remote}.pushurl", _NO_PUSH))
    return out


def _absolute_url(url: str, source: Path) -> str:
    """A relative local path (git reads it from the top of the work tree) made absolute."""
    scp_like = ":" in url.split("/", 1)[0]
    if "://" in url or scp_like or os.path.isabs(url):
        return url
    return str((source / url).resolve())


def _subsection(key: str) -> str:
    """``origin/mirror`` from ``remote.origin/mirror.promisor``; "" if not a remote key."""
    if not key.startswith("remote.") or key.count(".") < 2:
        return ""
    return key[len("remote.") : key.rindex(".")]


def _quote(text: str) -> str:
    """``text`` as a double-quoted git config value."""
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return f'"{escaped}"'
