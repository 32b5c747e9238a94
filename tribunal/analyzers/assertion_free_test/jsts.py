"""assertion-free-test for JavaScript and TypeScript. Placeholder: filled in next."""

from __future__ import annotations

from collections.abc import Iterator

from tribunal.change import Change
from tribunal.diff.model import FileChange
from tribunal.findings import Finding


def judge_file(change: Change, fc: FileChange) -> Iterator[Finding]:
    return iter(())
