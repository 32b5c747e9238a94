"""Trust Contract rule 1 by construction: the advisors cannot reach a verdict.

Nothing under ``tribunal.llm`` (nor the two commands) may import the engine,
the gate, an analyzer, a claim verifier or the summary; checked three ways:
statically over every import statement and ``import_module`` string, by
importing every module in a fresh interpreter, and by watching the imports of a
real ``tribunal propose`` and ``tribunal council`` run (``-X importtime``).
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path

import tribunal
from tests.llm_council_script import DIFF, scripted, verdict
from tests.llm_server import serving

FORBIDDEN = (
    "tribunal.engine.runner",
    "tribunal.gate.decision",
    "tribunal.analyzers",
    "tribunal.claims.verifiers",
    "tribunal.gate.summary",
)
PACKAGE = Path(tribunal.__file__).parent
SOURCES = [
    *sorted((PACKAGE / "llm").glob("*.py")),
    PACKAGE / "commands" / "propose.py",
    PACKAGE / "commands" / "council.py",
]


def forbidden(names: Iterable[str]) -> list[str]:
    return sorted(n for n in names if any(n == f or n.startswith(f + ".") for f in FORBIDDEN))


def imported_names(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Constant) and str(node.value).startswith("tribunal."):
            names.add(str(node.value))  # importlib.import_module("tribunal....")
    return names


def test_no_source_file_names_a_forbidden_module() -> None:
    assert len(SOURCES) > 20
    for path in SOURCES:
        assert forbidden(imported_names(path)) == [], path


def test_importing_every_llm_module_loads_nothing_forbidden() -> None:
    modules = sorted(f"tribunal.llm.{p.stem}" for p in SOURCES if p.parent.name == "llm")
    code = (
        f"import importlib, sys\nfor m in {modules!r} + ['tribunal.commands.propose', "
        "'tribunal.commands.council']:\n    importlib.import_module(m)\n"
        "from tribunal.llm.claim_keys import known_claim_keys, filter_claims\n"
        "filter_claims(['added-test'], known_claim_keys())\n"
        "print('\\n'.join(sorted(sys.modules)))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.split()
    assert "tribunal.llm.council" in out and "tribunal.claims.registry" in out
    assert forbidden(out) == []
    assert "tribunal.commands.check" not in out


def runtime_imports(args: list[str], cwd: Path, env: dict[str, str]) -> list[str]:
    proc = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "tribunal", *args],
        cwd=cwd,
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        input=DIFF,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    return [
        line.split("|")[-1].strip()
        for line in proc.stderr.splitlines()
        if line.startswith("import time:")
    ]


def test_real_propose_and_council_runs_import_nothing_forbidden(tmp_path: Path) -> None:
    behaviour = {
        "m1": {"form": verdict("m1"), "propose": {"claims": ["added-test"]}},
        "m2": {"form": verdict("m2")},
    }
    with serving(scripted(behaviour)) as server:
        env = {"OLLAMA_HOST": server.url, "TRIBUNAL_ALLOW_SEND_DIFF": "1"}
        proposed = runtime_imports(["propose", "--diff", "-", "--model", "m1"], tmp_path, env)
        council = runtime_imports(
            ["council", "--diff", "-", "--member", "ollama:m1", "--member", "ollama:m2"],
            tmp_path,
            env,
        )
    assert "ollama" in proposed and "tribunal.llm.propose" in proposed
    assert "tribunal.llm.council" in council and len(server.requests) > 4
    assert forbidden(proposed) == [] and forbidden(council) == []
    # nor the exit-code logic of `check`: the CLI loads only the command it runs
    assert "tribunal.commands.check" not in proposed + council
