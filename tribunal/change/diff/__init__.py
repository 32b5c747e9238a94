"""The diff layer: unified diffs in, per-file added and removed lines out."""

from tribunal.change.diff.model import FileChange, Hunk, Status

__all__ = ["FileChange", "Hunk", "Status"]
