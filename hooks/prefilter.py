"""The pre-commit framework's ``files:`` / ``exclude:`` for the ``tribunal`` hook.

The hook is declared with ``pass_filenames: false`` on purpose: pre-commit splits a
long file list across several invocations, and a change judged in pieces is judged
wrongly (a test added in one piece, the code it covers in another; an import whose
module arrives in the other half). So the hook builds the whole change itself and
learns the filter from the file pre-commit reads: the top-level ``files:`` /
``exclude:`` and those of its own ``id: tribunal`` entry in ``.pre-commit-config.yaml``
at the repository root, applied as pre-commit applies them (``re.search`` on the
repository-relative path). A file filtered out is listed as skipped and never judged;
the rest of the change is judged in one piece, with the whole trees still readable (an
excluded module can still satisfy an import). ``types:`` are not applied.
"""

import re
from pathlib import Path
from typing import Any, NamedTuple

from tribunal.errors import ConfigError

CONFIG_NAME = ".pre-commit-config.yaml"
HOOK_ID = "tribunal"
SKIP_REASON = f"excluded by {CONFIG_NAME}"
_MAY_FILTER = re.compile(r"^[ \t-]*[\"']?(?:files|exclude)[\"']?[ \t]*:", re.M)


class PathFilter(NamedTuple):
    """Include and exclude patterns, top level and the hook's own; all must agree."""

    includes: tuple[re.Pattern[str], ...] = ()
    excludes: tuple[re.Pattern[str], ...] = ()

    def allows(self, path: str) -> bool:
        return all(p.search(path) for p in self.includes) and not any(
            p.search(path) for p in self.excludes
        )

    @property
    def is_empty(self) -> bool:
        return not (self.includes or self.excludes)


def load_filter(root: Path) -> PathFilter:
    """The filter of ``root``'s pre-commit config; an empty one when there is no config."""
    path = root / CONFIG_NAME
    try:
        text = path.read_text(encoding="utf-8")
    except (FileNotFoundError, NotADirectoryError):
        return PathFilter()
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read it: {exc}") from None
    if not _MAY_FILTER.search(text):
        return PathFilter()  # no filter key anywhere: spare every commit the YAML parser
    from tribunal.util.bounds import load_yaml

    try:
        document = load_yaml(text)
    except ValueError as exc:
        raise ConfigError(f"{path}: {exc}") from None
    return _filter_of(document, path) if isinstance(document, dict) else PathFilter()


def _filter_of(document: dict[str, Any], path: Path) -> PathFilter:
    includes, excludes = [], []
    for scope in (document, _own_entry(document)):
        includes.append(_pattern(scope.get("files"), path, "files"))
        excludes.append(_pattern(scope.get("exclude"), path, "exclude"))
    return PathFilter(
        tuple(p for p in includes if p is not None), tuple(p for p in excludes if p is not None)
    )


def _own_entry(document: dict[str, Any]) -> dict[str, Any]:
    """The first hook entry with ``id: tribunal`` (pre-commit does not say which one ran)."""
    for repo in document.get("repos") or ():
        for hook in (repo.get("hooks") or ()) if isinstance(repo, dict) else ():
            if isinstance(hook, dict) and hook.get("id") == HOOK_ID:
                return hook
    return {}


def _pattern(value: object, path: Path, key: str) -> re.Pattern[str] | None:
    """A compiled pattern; None for pre-commit's defaults (``''`` and ``'^$'``) or no key."""
    if value is None or value in ("", "^$"):
        return None
    if not isinstance(value, str):
        raise ConfigError(f"{path}: {key}: expected a regular expression, found {value!r}")
    try:
        return re.compile(value)
    except re.error as exc:
        raise ConfigError(f"{path}: {key}: {value!r} is not a regular expression: {exc}") from None
