"""What is being pushed: from git's pre-push stdin, or from pre-commit's environment.

Plain git hands a pre-push hook one line per ref:
``<local ref> <local sha> <remote ref> <remote sha>``. Refs may contain spaces
only at the front, so lines are split from the right (``rsplit(maxsplit=3)``),
as pre-commit does. Object ids are not assumed to be 40 characters (SHA-256
repositories); an all-zero id means "none" (a deletion, or a new remote ref).
The shims of ``tribunal install`` say they are plain git hooks (``--plain``),
and then only those lines count: the environment cannot change what is judged.

Under the pre-commit framework there is no stdin: the first ref with new
commits arrives as ``PRE_COMMIT_*`` variables (see ``from_pre_commit``).

Every pushed object must be in the repository (git just read it from there):
one that is not is an error that blocks, never a ref dropped from the push. A
ref is left unjudged only when it is a deletion or names an object that is not
a commit (a tag of a tree or a blob), and each one is named.
"""

from collections.abc import Mapping
from typing import NamedTuple

from tribunal.errors import InputError, PushInputError
from tribunal.git.cmd import Git, is_zero

#: pre-commit 3.2 and later set all four on every pre-push run.
FRAMEWORK_VARS = (
    "PRE_COMMIT_LOCAL_BRANCH",
    "PRE_COMMIT_REMOTE_BRANCH",
    "PRE_COMMIT_REMOTE_NAME",
    "PRE_COMMIT_REMOTE_URL",
)


class PushedRef(NamedTuple):
    """One ref update to judge; ``remote_sha`` is None for a new remote ref."""

    local_ref: str | None
    local_sha: str
    remote_ref: str | None
    remote_sha: str | None


class Unjudged(NamedTuple):
    """A ref of the push with nothing to convene, and why (for the output)."""

    ref: str
    why: str


class Push(NamedTuple):
    remote_name: str | None
    remote_url: str | None
    refs: list[PushedRef]
    unjudged: tuple[Unjudged, ...] = ()


def parse_push_lines(text: str) -> tuple[list[PushedRef], list[Unjudged]]:
    """The ref updates on pre-push stdin, and the deletions among them."""
    refs, deleted = [], []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        parts = line.rsplit(maxsplit=3)
        if len(parts) != 4:
            raise InputError(f"pre-push input line {number}: expected 4 fields: {line!r}")
        local_ref, local_sha, remote_ref, remote_sha = parts
        if is_zero(local_sha):
            deleted.append(Unjudged(remote_ref, "a deletion: nothing to judge"))
            continue
        remote = None if is_zero(remote_sha) else remote_sha
        refs.append(PushedRef(local_ref, local_sha, remote_ref, remote))
    return refs, deleted


def from_git(git: Git, remote: str, url: str, text: str) -> Push:
    """The push as plain git describes it (the hook's arguments and its stdin)."""
    refs, deleted = parse_push_lines(text)
    judged, unjudged = peeled(git, refs)
    return Push(remote, url, judged, (*deleted, *unjudged))


def peeled(git: Git, refs: list[PushedRef]) -> tuple[list[PushedRef], list[Unjudged]]:
    """Refs with their pushed object peeled to a commit (an annotated tag names a tag
    object), and the refs whose object is not a commit. A pushed object this
    repository does not have is a ``PushInputError``."""
    kinds = object_kinds(git, [ref.local_sha for ref in refs])
    judged, unjudged = [], []
    for ref in refs:
        kind, commit = kinds[ref.local_sha]
        name = ref.remote_ref or ref.local_ref or ref.local_sha
        if kind == "missing":
            raise PushInputError(
                f"pre-push: {name}: the pushed object {ref.local_sha} is not in the repository "
                f"at {_where(git)}, so what it holds cannot be judged"
            )
        if kind != "commit":
            unjudged.append(Unjudged(name, f"names a {kind}, not a commit: nothing to judge"))
            continue
        judged.append(ref._replace(local_sha=commit))
    return judged, unjudged


def object_kinds(git: Git, names: list[str]) -> dict[str, tuple[str, str]]:
    """For each object name: the type of what it peels to and that object's id, or
    ``("missing", "")`` when the repository has no such object."""
    unique = [n for n in dict.fromkeys(names) if n and not n.startswith("-") and n.isprintable()]
    kinds = dict.fromkeys(names, ("missing", ""))
    if not unique:
        return kinds
    query = "".join(f"{name}^{{}}\n" for name in unique).encode("utf-8", "surrogateescape")
    out = git.run("cat-file", "--batch-check=%(objectname) %(objecttype)", stdin=query)
    for name, answer in zip(unique, out.decode("ascii", "replace").splitlines(), strict=True):
        found, _, kind = answer.rpartition(" ")
        if kind not in ("missing", "ambiguous") and found:
            kinds[name] = (kind, found)
    return kinds


def from_pre_commit(env: Mapping[str, str], git: Git) -> Push:
    """The one ref pre-commit shows its pre-push hooks.

    The commit judged is the one ``PRE_COMMIT_LOCAL_BRANCH`` (the local side of
    git's pre-push line) names, never ``HEAD``. ``PRE_COMMIT_TO_REF`` is that
    line's sha, except that pre-commit leaves ``FROM_REF``/``TO_REF`` unset when
    the pushed history reaches a root commit, so a value exported by hand
    reaches the hook unchanged: one that names another commit blocks.
    ``PRE_COMMIT_FROM_REF`` is not evidence of what the remote has, for the same
    reason; the range comes from the remote-tracking refs alone.
    """
    missing = [name for name in FRAMEWORK_VARS if not env.get(name)]
    if missing:
        raise PushInputError(
            f"pre-push: {', '.join(missing)} not set: pre-commit 3.2 or later sets them on "
            "every pre-push run, so what is being pushed is not known"
        )
    local = env["PRE_COMMIT_LOCAL_BRANCH"]
    kind, pushed = object_kinds(git, [local])[local]
    if kind == "missing":
        raise PushInputError(f"pre-push: PRE_COMMIT_LOCAL_BRANCH {local}: no such object here")
    to_ref = env.get("PRE_COMMIT_TO_REF")
    if to_ref:
        _check_to_ref(git, to_ref, local, pushed)
    remote_ref = env["PRE_COMMIT_REMOTE_BRANCH"]
    refs, unjudged = [], []
    if kind == "commit":
        refs.append(PushedRef(local, pushed, remote_ref, None))
    else:
        unjudged.append(Unjudged(remote_ref, f"names a {kind}, not a commit: nothing to judge"))
    return Push(env["PRE_COMMIT_REMOTE_NAME"], env["PRE_COMMIT_REMOTE_URL"], refs, tuple(unjudged))


def _check_to_ref(git: Git, to_ref: str, local: str, pushed: str) -> None:
    kind, named = object_kinds(git, [to_ref])[to_ref]
    if named != pushed:
        what = "names no object here" if kind == "missing" else f"is {named}"
        raise PushInputError(
            f"pre-push: PRE_COMMIT_TO_REF ({to_ref}) {what}, but the pushed {local} is "
            f"{pushed}: pre-commit sets it to the pushed commit, so it was set by hand"
        )


def _where(git: Git) -> str:
    return str(git.git_dir or git.cwd)
