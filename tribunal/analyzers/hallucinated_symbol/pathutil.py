"""Tree paths: ``/``-separated, relative to the repository root, ``""`` for the root."""

from __future__ import annotations


def join(directory: str, name: str) -> str:
    return f"{directory}/{name}" if directory else name


def parent_dir(path: str) -> str:
    return path.rpartition("/")[0]


def resolve_path(directory: str, relative: str) -> str | None:
    """``relative`` read from ``directory``; None when it leaves the tree or is absolute."""
    if relative.startswith("/"):
        return None
    parts = directory.split("/") if directory else []
    for part in relative.split("/"):
        if part == "..":
            if not parts:
                return None
            parts.pop()
        elif part not in ("", "."):
            parts.append(part)
    return "/".join(parts)
