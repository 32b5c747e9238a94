"""Run ``action.yml``'s own steps the way the GitHub runner runs a composite action.

Not a mock of Tribunal: the action's real ``run:`` scripts execute with
``bash --noprofile --norc -eo pipefail`` (the runner's command line for
``shell: bash``), with the variables the runner sets (``GITHUB_OUTPUT`` per
step, ``GITHUB_STEP_SUMMARY``, ``RUNNER_TEMP``, ``GITHUB_ACTION_PATH``...),
and the outputs they write are parsed as the runner parses them. Expressions
are evaluated for the small grammar the action uses; anything else raises, so
that a new construct in ``action.yml`` fails this harness loudly rather than
being misread. ``actions/setup-python`` is the one step that is emulated: its
``python-path`` output is this interpreter; ``actions/cache`` is a miss.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

ACTION = Path(__file__).resolve().parents[1] / "action.yml"
_EXPR = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")
_TOKEN = re.compile(r"\s*(?:(&&|\|\||==|!=|!|\(|\))|'((?:[^']|'')*)'|([A-Za-z_][\w.\-]*))")


def load_action(path: Path = ACTION) -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load(path.read_text(encoding="utf-8"))
    return data


@dataclass
class StepRun:
    name: str
    ran: bool
    code: int = 0
    stdout: str = ""
    stderr: str = ""
    outputs: dict[str, str] = field(default_factory=dict)


@dataclass
class ActionRun:
    steps: list[StepRun]
    outputs: dict[str, str]
    failed: bool

    def step(self, name_start: str) -> StepRun:
        (found,) = [s for s in self.steps if s.name.startswith(name_start)]
        return found

    @property
    def stdout(self) -> str:
        return "".join(s.stdout for s in self.steps)


@dataclass
class Runner:
    """One job's worth of runner state: where things live and what the event was."""

    workspace: Path
    temp: Path
    action_path: Path
    event: Mapping[str, Any]
    env: Mapping[str, str]
    skip: tuple[str, ...] = ()
    timeout: float = 300

    def run(self, inputs: Mapping[str, str]) -> ActionRun:
        action = load_action(self.action_path / "action.yml")
        ctx: dict[str, Any] = {"github": self._github(), "steps": {}, "inputs": {}}
        for name, spec in action.get("inputs", {}).items():
            default = str(spec.get("default", ""))
            ctx["inputs"][name] = inputs.get(name, interpolate(default, ctx))
        unknown = set(inputs) - set(ctx["inputs"])
        assert not unknown, f"not inputs of the action: {unknown}"
        runs, failed = [], False
        for step in action["runs"]["steps"]:
            name = step.get("name", step.get("uses", "step"))
            condition = _unwrap(str(step.get("if", "success()")))
            if not re.search(r"\b(?:success|failure|always|cancelled)\(", condition):
                condition = f"success() && ({condition})"  # the runner's implicit status check
            if not _truthy(evaluate(condition, ctx, failed)):
                runs.append(StepRun(name, False))
                continue
            result = self._step(step, name, ctx)
            ctx["steps"][step.get("id", f"_{len(runs)}")] = {"outputs": result.outputs}
            failed = failed or result.code != 0
            runs.append(result)
        outputs = {
            key: interpolate(str(spec["value"]), ctx)
            for key, spec in action.get("outputs", {}).items()
        }
        return ActionRun(runs, outputs, failed)

    def _github(self) -> dict[str, Any]:
        return {"token": self.env.get("GITHUB_TOKEN", ""), "event": dict(self.event)}

    def _step(self, step: Mapping[str, Any], name: str, ctx: dict[str, Any]) -> StepRun:
        if "uses" in step:
            return self._uses(step, name, ctx)
        if any(name.startswith(prefix) for prefix in self.skip):
            return StepRun(name, False)
        assert step.get("shell") == "bash", f"{name}: the harness runs bash steps only"
        env = {key: interpolate(_as_text(v), ctx) for key, v in step.get("env", {}).items()}
        output = self.temp / f"output-{len(ctx['steps'])}"
        output.write_text("")
        script = self.temp / f"step-{len(ctx['steps'])}.sh"
        script.write_text(interpolate(step["run"], ctx))
        cwd = self.workspace / interpolate(str(step.get("working-directory", ".")), ctx)
        proc = subprocess.run(
            ["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)],
            cwd=cwd,
            env={**self._runner_env(), **env, "GITHUB_OUTPUT": str(output)},
            capture_output=True,
            text=True,
            timeout=self.timeout,
        )
        return StepRun(
            name, True, proc.returncode, proc.stdout, proc.stderr, parse_outputs(output.read_text())
        )

    def _uses(self, step: Mapping[str, Any], name: str, ctx: dict[str, Any]) -> StepRun:
        uses = str(step["uses"])
        if uses.startswith("actions/cache@"):
            return StepRun(name, True, outputs={})  # a cache miss: the install step runs
        assert uses.startswith("actions/setup-python@"), f"{name}: cannot emulate {uses}"
        given = {k: interpolate(_as_text(v), ctx) for k, v in step.get("with", {}).items()}
        assert given.get("update-environment") == "false", "setup-python must not touch PATH"
        return StepRun(name, True, outputs={"python-path": sys.executable})

    def _runner_env(self) -> dict[str, str]:
        base = {k: v for k, v in os.environ.items() if not k.startswith("GITHUB_")}
        return {
            **base,
            "GITHUB_ACTIONS": "true",
            "GITHUB_WORKSPACE": str(self.workspace),
            "GITHUB_ACTION_PATH": str(self.action_path),
            "RUNNER_TEMP": str(self.temp),
            **self.env,
        }


def interpolate(text: str, ctx: Mapping[str, Any]) -> str:
    """``${{ expr }}`` replaced by its value, as the runner does before a step starts."""
    return _EXPR.sub(lambda m: _as_text(evaluate(m[1], ctx, False)), text)


def evaluate(expr: str, ctx: Mapping[str, Any], failed: bool) -> Any:
    """The value of an expression in the subset used: ``!``, ``&&``, ``||``, ``==``, ``!=``,
    parentheses, string literals, context paths and the status functions."""
    tokens = _tokens(expr)
    value, rest = _or(tokens, ctx, failed)
    assert not rest, f"cannot parse {expr!r} near {rest}"
    return value


def parse_outputs(text: str) -> dict[str, str]:
    """``name=value`` lines and ``name<<DELIM`` blocks, as in ``$GITHUB_OUTPUT``."""
    out: dict[str, str] = {}
    lines = iter(text.splitlines())
    for line in lines:
        if "<<" in line and ("=" not in line or line.index("<<") < line.index("=")):
            key, delim = line.split("<<", 1)
            body = []
            for inner in lines:
                if inner == delim:
                    break
                body.append(inner)
            out[key] = "\n".join(body)
        elif "=" in line:
            key, value = line.split("=", 1)
            out[key] = value
    return out


def _unwrap(condition: str) -> str:
    match = re.fullmatch(r"\s*\$\{\{\s*(.*?)\s*\}\}\s*", condition)
    return match[1] if match else condition


def _tokens(expr: str) -> list[tuple[str, str]]:
    tokens, pos = [], 0
    while pos < len(expr.rstrip()):
        match = _TOKEN.match(expr, pos)
        assert match, f"cannot parse {expr!r} at {expr[pos:]!r}"
        if match[1]:
            tokens.append(("op", match[1]))
        elif match[2] is not None:
            tokens.append(("str", match[2].replace("''", "'")))
        else:
            tokens.append(("name", match[3]))
        pos = match.end()
    return tokens


Tokens = list[tuple[str, str]]


def _or(tokens: Tokens, ctx: Mapping[str, Any], failed: bool) -> tuple[Any, Tokens]:
    left, tokens = _and(tokens, ctx, failed)
    while tokens[:1] == [("op", "||")]:
        right, tokens = _and(tokens[1:], ctx, failed)
        left = left if _truthy(left) else right
    return left, tokens


def _and(tokens: Tokens, ctx: Mapping[str, Any], failed: bool) -> tuple[Any, Tokens]:
    left, tokens = _compare(tokens, ctx, failed)
    while tokens[:1] == [("op", "&&")]:
        right, tokens = _compare(tokens[1:], ctx, failed)
        left = right if _truthy(left) else left
    return left, tokens


def _compare(tokens: Tokens, ctx: Mapping[str, Any], failed: bool) -> tuple[Any, Tokens]:
    left, tokens = _unary(tokens, ctx, failed)
    if tokens[:1] in ([("op", "==")], [("op", "!=")]):
        op = tokens[0][1]
        right, tokens = _unary(tokens[1:], ctx, failed)
        same = _as_text(left).lower() == _as_text(right).lower()  # GitHub ignores case
        return same if op == "==" else not same, tokens
    return left, tokens


def _unary(tokens: Tokens, ctx: Mapping[str, Any], failed: bool) -> tuple[Any, Tokens]:
    kind, text = tokens[0]
    if (kind, text) == ("op", "!"):
        value, rest = _unary(tokens[1:], ctx, failed)
        return not _truthy(value), rest
    if (kind, text) == ("op", "("):
        value, rest = _or(tokens[1:], ctx, failed)
        assert rest[:1] == [("op", ")")], "unbalanced parentheses"
        return value, rest[1:]
    if kind == "str":
        return text, tokens[1:]
    if tokens[1:3] == [("op", "("), ("op", ")")]:
        status = {"success": not failed, "failure": failed, "always": True, "cancelled": False}
        assert text in status, f"unknown function {text}()"
        return status[text], tokens[3:]
    assert kind == "name", f"unexpected {text!r}"
    return _lookup(text, ctx), tokens[1:]


def _lookup(path: str, ctx: Mapping[str, Any]) -> Any:
    head, *rest = path.split(".")
    assert head in ("inputs", "steps", "github"), f"context {head} is not emulated"
    node: Any = ctx[head]
    for part in rest:
        node = node.get(part) if isinstance(node, Mapping) else None
    return "" if node is None else node


def _truthy(value: Any) -> bool:
    return bool(value)  # as GitHub's: any non-empty string is true, even 'false'


def _as_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
