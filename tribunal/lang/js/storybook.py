"""Storybook stories as tests: where the project runs them, a new story is a test.

A story file (``Button.stories.tsx``, ``*.story.*``, ``.mdx`` / ``.svelte`` /
``.vue`` stories) is no test by itself. Where ``@storybook/test-runner`` or
the Vitest addon (``@storybook/addon-vitest``) is declared, or a script runs
``test-storybook``, every story is rendered as a smoke test and a story with a
``play`` function is a test body; Tribunal does not judge those, so a change
whose only new test may be a story is at most UNVERIFIED there.
"""

from __future__ import annotations

from tribunal.change.model import Change
from tribunal.util.lazyre import lazy

_STORY = lazy(r"\.(?:stories|story)\.(?:[cm]?[jt]sx?|mdx|svelte|vue)$")


def is_story_file(path: str) -> bool:
    return _STORY().search(path.rpartition("/")[2]) is not None


def story_runner(change: Change, path: str) -> str | None:
    """What runs the stories of ``path`` as tests (the evidence), or None."""
    from tribunal.analyzers.test_tampering.runners import repo_runners

    found = repo_runners(change, path)
    if "storybook" not in found.runners:
        return None
    return next(e for e in found.evidence if e.startswith("storybook ("))
