"""Command-line entry point: ``tribunal <command>``.

``main`` is thin: parse, dispatch to one function per command, and turn every
failure into a stable exit code through one handler (see ``errors.ExitCode``).
Commands import what they need when they run, so ``--version`` and ``--help``
stay instant.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Callable, Sequence

from tribunal import __version__
from tribunal.commands.helpformat import HelpFormatter
from tribunal.errors import ExitCode, TribunalError

Command = Callable[[argparse.Namespace], int]

DESCRIPTION = """\
Tribunal: a deterministic gate against the defects coding agents ship.

Verdicts: PASS, UNVERIFIED (loud, never blocks) and CONTRADICTED (a syntactic
certainty; blocks with --hard-fail and in the git hooks).
"""

EPILOG = """\
exit codes (each command's --help lists the ones it can return):
  0    ran; nothing blocks
  1    a gate blocks: `check --hard-fail` with a CONTRADICTED finding, a hook's
       block, a convene or `verify-pushes` that does not pass, `audit --verify`
       on a broken chain
  2    usage, configuration, git or input-file error
  3    internal error (a bug report with the traceback is written)
  130  interrupted (Ctrl-C); 129 and 143 when stopped by SIGHUP or SIGTERM
"""


#: Command modules, in ``--help`` order. Each has ``add_parser(subparsers, epilog)``
#: which registers its flags and sets ``func`` to a ``(Namespace) -> int``; its own
#: ``--help`` lists only its exit codes (``tribunal.commands.exitcodes``), ``epilog``
#: being the general list.
COMMAND_MODULES = (
    "check",
    "hook",
    "convene",
    "install",
    "audit",
    "verify_pushes",
    "propose",
    "council",
    "github_comment",
)


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser; with ``command`` naming a command module, only that module is loaded.

    Every command module imports what its flags need; loading all of them for
    ``tribunal check`` would tax every commit. Anything else (``--help``, a
    command registered by another module) loads them all.
    """
    import importlib

    parser = argparse.ArgumentParser(
        prog="tribunal",
        description=DESCRIPTION,
        epilog=EPILOG,
        formatter_class=HelpFormatter,
    )
    parser.add_argument("-V", "--version", action="version", version=f"tribunal {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="<command>")
    names = (command,) if command in COMMAND_MODULES else COMMAND_MODULES
    for name in names:
        importlib.import_module(f"tribunal.commands.{name}").add_parser(sub, EPILOG)
    return parser


def main(argv: Sequence[str] | None = None, *, on_command: Callable[[], None] | None = None) -> int:
    """Run the command ``argv`` names; its exit code. ``on_command`` is called just before
    the command itself runs, once its flags are read (``tribunal.entry``)."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args in (["--version"], ["-V"]):
        print(f"tribunal {__version__}")
        return ExitCode.OK
    _tolerate_unencodable_output()
    from tribunal.render.safeout import protect

    protect()  # from here on, what happens to the output never changes the exit status
    try:
        parser = build_parser(args[0] if args else None)
        ns = parser.parse_args(args)
        func: Command | None = getattr(ns, "func", None)
        if func is None:
            parser.print_help(sys.stderr)
            return ExitCode.USAGE
        if on_command is not None:
            on_command()
        code = func(ns)
        sys.stdout.flush()
        return code
    except TribunalError as exc:
        return _fail(str(exc), exc.exit_code)
    except KeyboardInterrupt as exc:
        from tribunal.worktree.signals import exit_code

        with contextlib.suppress(OSError):  # the terminal may be gone (SIGHUP)
            _fail("interrupted", 0)
        return exit_code(exc)
    except Exception as exc:
        return _internal_error(exc)


def _tolerate_unencodable_output() -> None:
    """File names are bytes; one that is not valid in the terminal's encoding must not crash.

    git paths that are not UTF-8 reach us as surrogate escapes; a strict UTF-8
    stdout (``LANG=en_US.UTF-8``, macOS) would raise on them mid-report.
    """
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")


def _fail(message: str, code: int) -> int:
    print(f"tribunal: error: {message}", file=sys.stderr)
    return code


def _internal_error(exc: BaseException) -> int:
    import traceback

    from tribunal.util.crashlog import write_bug_report

    path = write_bug_report("".join(traceback.format_exception(exc)))
    where = f"; traceback written to {path}" if path else ""
    print(
        f"tribunal: internal error: {type(exc).__name__}: {exc}{where}\n"
        "tribunal: this is a bug in tribunal; please report it with that file",
        file=sys.stderr,
    )
    return ExitCode.INTERNAL
