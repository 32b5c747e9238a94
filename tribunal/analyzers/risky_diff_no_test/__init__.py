"""risky-diff-no-test: a security-relevant change with no correlated asserting test.

A changed source file is risky when a path segment, or an identifier on a
line the change added or removed, holds a risky word as a whole token (see
``vocab``). It is covered when the change adds or edits, in a correlated test
file (see ``correlate``), a test with a reachable assertion. "Is this risky?"
is a semantic guess, so the analyzer only ever says PASS (covered) or
UNVERIFIED (not covered): it never blocks, not even under ``--hard-fail``.
Generated paths are skipped.
"""

from __future__ import annotations

from collections.abc import Iterator

from tribunal.change.model import Change
from tribunal.claims.scope import looks_like_test
from tribunal.engine.analysis import each_file
from tribunal.findings import Finding
from tribunal.lang.test_diff import is_test_path

_LANGUAGES = ("python", "javascript", "typescript", "tsx")


def run(change: Change) -> Iterator[Finding]:
    sources = [
        fc
        for fc in change.analyzable(_LANGUAGES)
        if fc.has_head and not looks_like_test(fc.path) and not is_test_path(change, fc.path)
    ]
    if not sources:
        return
    # The vocabulary, the identifier readers and test correlation load only for source files.
    from tribunal.analyzers.risky_diff_no_test.judge import judge_file
    from tribunal.analyzers.risky_diff_no_test.vocab import vocabulary

    vocab = vocabulary(change.config.risky_words)
    yield from each_file(sources, lambda fc: judge_file(change, fc, vocab))
