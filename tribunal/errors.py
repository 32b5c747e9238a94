"""The project's own error types and the exit codes they map to.

Every failure a user can cause (bad flags, bad config, a git error, an unreadable
input file) is a ``TribunalError`` with a one-line message; the CLI's single
handler prints it and exits with its code. Anything else is a bug (exit 3).
"""

from __future__ import annotations

import enum


class ExitCode(enum.IntEnum):
    """Stable exit codes: scripts and hooks depend on these numbers."""

    OK = 0
    CONTRADICTED = 1
    USAGE = 2
    INTERNAL = 3
    INTERRUPTED = 130


class TribunalError(Exception):
    """A failure with a message meant for the user, not a traceback."""

    exit_code: ExitCode = ExitCode.USAGE


class UsageError(TribunalError):
    """Flags that make no sense together, or a missing argument."""


class ConfigError(TribunalError):
    """``tribunal.yml`` is missing, malformed, or holds a wrong value."""


class GitError(TribunalError):
    """A git command failed; the message carries the command and git's stderr."""


class InputError(TribunalError):
    """An input file (a diff, a claims file) could not be read or parsed."""


class PushInputError(TribunalError):
    """What git or pre-commit handed the push gate does not add up (a pushed object the
    repository does not have, pre-commit's variables missing or contradicting each
    other): the gate cannot tell what it would judge, so it blocks (exit 3)."""

    exit_code = ExitCode.INTERNAL
