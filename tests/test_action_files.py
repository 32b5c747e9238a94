"""``action.yml`` and the workflows: valid for GitHub, and safe to run on a stranger's PR.

The schemas are SchemaStore's ``github-action`` and ``github-workflow``, as
vendored by ``check-jsonschema`` (what the pre-commit hooks for these files
use), so they are checked offline with exactly what GitHub's editors check.
The rules below add what a schema cannot say: a composite ``run`` step needs a
shell; every ``inputs.*``/``steps.*`` reference names something that exists;
and no ``${{ }}`` is spliced into a shell script, where a branch name or a PR
body would become code (GitHub's own hardening advice: pass them in ``env``).
"""

from __future__ import annotations

import importlib.resources
import json
import re
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml

from tests.actionrunner import load_action

ROOT = Path(__file__).resolve().parents[1]
WORKFLOWS = sorted((ROOT / ".github" / "workflows").glob("*.yml"))
_REFERENCE = re.compile(r"\b(inputs|steps)\.([A-Za-z_][\w-]*)")


def _schema(name: str) -> jsonschema.protocols.Validator:
    vendor = importlib.resources.files("check_jsonschema.builtin_schemas.vendor")
    schema = json.loads(vendor.joinpath(name).read_text(encoding="utf-8"))
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema)


def _errors(validator: jsonschema.protocols.Validator, data: Any) -> list[str]:
    return [f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(data)]


def _workflow(path: Path) -> dict[str, Any]:
    """A workflow as GitHub reads it: YAML 1.2, where ``on`` is a key, not ``True``."""
    data: dict[Any, Any] = yaml.safe_load(path.read_text(encoding="utf-8"))
    if True in data:
        data["on"] = data.pop(True)
    return data


def _steps(data: dict[str, Any]) -> list[dict[str, Any]]:
    if "runs" in data:
        steps: list[dict[str, Any]] = data["runs"]["steps"]
        return steps
    return [step for job in data["jobs"].values() for step in job.get("steps", [])]


def test_there_are_workflows_to_check() -> None:
    names = {path.name for path in WORKFLOWS}
    assert {"tribunal.yml", "tribunal-sarif.yml", "tribunal-verify.yml", "ci.yml"} <= names


def test_action_matches_the_github_action_schema() -> None:
    assert _errors(_schema("github-actions.json"), load_action()) == []


@pytest.mark.parametrize("path", WORKFLOWS, ids=lambda p: p.name)
def test_workflow_matches_the_github_workflow_schema(path: Path) -> None:
    assert _errors(_schema("github-workflows.json"), _workflow(path)) == []


def test_the_schemas_are_strict_enough_to_fail() -> None:
    """A check that cannot fail proves nothing: these are the keys GitHub requires."""
    action = load_action()
    broken = {**action, "runs": {"using": "composite"}}  # no steps
    assert _errors(_schema("github-actions.json"), broken)
    assert _errors(_schema("github-actions.json"), {k: v for k, v in action.items() if k != "name"})
    workflow = _workflow(ROOT / ".github/workflows/tribunal.yml")
    job = workflow["jobs"]["tribunal"]
    no_runner = {**workflow, "jobs": {"tribunal": {k: v for k, v in job.items() if k != "runs-on"}}}
    assert _errors(_schema("github-workflows.json"), no_runner)


def test_action_is_composite_with_a_shell_on_every_run_step() -> None:
    action = load_action()
    assert action["runs"]["using"] == "composite"
    for step in _steps(action):
        assert ("run" in step) != ("uses" in step), step
        if "run" in step:
            assert step["shell"] == "bash", step.get("name")


def test_action_inputs_the_issue_names_with_reporter_first_defaults() -> None:
    inputs = load_action()["inputs"]
    assert {"base", "head", "hard-fail"} <= set(inputs)
    assert inputs["hard-fail"]["default"] == "false"
    assert inputs["base"]["default"].startswith("${{ github.event.pull_request.base.sha || ")
    assert inputs["head"]["default"].startswith("${{ github.event.pull_request.head.sha || ")
    assert all(spec.get("description") for spec in inputs.values())


def test_action_references_only_what_it_declares() -> None:
    action = load_action()
    text = (ROOT / "action.yml").read_text(encoding="utf-8")
    step_ids = {step["id"] for step in _steps(action) if "id" in step}
    for kind, name in _REFERENCE.findall(text.split("runs:", 1)[1] + str(action["outputs"])):
        known = action["inputs"] if kind == "inputs" else step_ids
        assert name in known, f"{kind}.{name} is not declared"
    assert all("value" in spec for spec in action["outputs"].values())


@pytest.mark.parametrize("path", [ROOT / "action.yml", *WORKFLOWS], ids=lambda p: p.name)
def test_no_expression_is_spliced_into_a_shell_script(path: Path) -> None:
    data = load_action(path) if path.name == "action.yml" else _workflow(path)
    for step in _steps(data):
        assert "${{" not in step.get("run", ""), f"{path.name}: {step.get('name', step['run'])}"


def test_installs_the_actions_own_version_in_its_own_environment() -> None:
    """Pinned: the package installed is the checkout of the action that runs, with the
    extra the comment needs; setup-python leaves the job's own Python alone."""
    steps = _steps(load_action())
    setup = next(step for step in steps if str(step.get("uses", "")).startswith("actions/setup"))
    assert setup["with"]["update-environment"] is False
    install = next(step for step in steps if "pip install" in step.get("run", ""))
    assert '"$GITHUB_ACTION_PATH[github]"' in install["run"]
    assert '-m venv "$VENV"' in install["run"]
    assert 'PIP_CONSTRAINT="$GITHUB_ACTION_PATH/.github/action/constraints.txt"' in install["run"]
    assert (ROOT / ".github/action/constraints.txt").is_file()


def test_the_environment_cache_is_keyed_on_the_action_and_python_versions() -> None:
    steps = _steps(load_action())
    cache = next(step for step in steps if str(step.get("uses", "")).startswith("actions/cache@"))
    assert cache["with"] == {
        "path": "${{ steps.key.outputs.venv }}",
        "key": "${{ steps.key.outputs.key }}",
    }
    key = next(step for step in steps if step.get("id") == "key")["run"]
    assert "__version__" in key and "python_version()" in key
    assert "-py$python-v$version-$digest" in key
    install = next(step for step in steps if "pip install" in step.get("run", ""))
    assert install["env"]["CACHE_HIT"] == "${{ steps.cache.outputs.cache-hit }}"


def test_workflows_use_least_permissions() -> None:
    perms = {path.name: _workflow(path).get("permissions") for path in WORKFLOWS}
    assert perms["tribunal.yml"] == {"contents": "read", "pull-requests": "write"}
    assert perms["tribunal-sarif.yml"] == {
        "contents": "read",
        "security-events": "write",
        "actions": "read",
    }
    assert perms["tribunal-verify.yml"] == {"contents": "read"}
    assert perms["ci.yml"] == {"contents": "read"}


def test_workflows_fetch_the_history_the_range_needs() -> None:
    for name in ("tribunal.yml", "tribunal-sarif.yml", "tribunal-verify.yml"):
        steps = _steps(_workflow(ROOT / ".github/workflows" / name))
        checkout = next(s for s in steps if str(s.get("uses", "")).startswith("actions/checkout"))
        assert checkout["with"]["fetch-depth"] == 0, name


def test_sarif_upload_has_the_tribunal_category() -> None:
    steps = _steps(_workflow(ROOT / ".github/workflows/tribunal-sarif.yml"))
    upload = next(s for s in steps if str(s.get("uses", "")).startswith("github/codeql-action"))
    assert "/upload-sarif@" in upload["uses"]
    assert upload["with"] == {"sarif_file": "tribunal.sarif", "category": "tribunal"}


def _readme_block(first_line: str) -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    match = re.search(rf"```yaml\n{re.escape(first_line)}\n(.*?)```", text, re.S)
    assert match, f"README has no yaml block starting {first_line!r}"
    return match[1]


@pytest.mark.parametrize("name", ["tribunal.yml", "tribunal-sarif.yml"])
def test_readme_workflows_are_the_dogfooded_ones_with_a_public_uses(name: str) -> None:
    """Copy-pasteable means tested: the README shows exactly what this repository runs."""
    block = _readme_block(f"# .github/workflows/{name}")
    dogfood = (ROOT / ".github/workflows" / name).read_text(encoding="utf-8")
    body = "\n".join(line for line in dogfood.splitlines() if not line.startswith("#"))
    assert (
        block.strip()
        == body.replace("uses: ./", "uses: tribunal-gate/tribunal@<commit sha>").strip()
    )
    data = yaml.safe_load(block)
    data["on"] = data.pop(True)
    assert _errors(_schema("github-workflows.json"), data) == []


def _documented_workflows() -> list[tuple[str, str]]:
    found = []
    for doc in (ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))):
        for block in re.findall(r"```yaml\n(# \.github/workflows/.*?)```", doc.read_text(), re.S):
            found.append((f"{doc.name}: {block.splitlines()[0]}", block))
    return found


@pytest.mark.parametrize(("where", "block"), _documented_workflows(), ids=lambda v: v[:60])
def test_every_documented_workflow_is_valid_and_splices_nothing(where: str, block: str) -> None:
    data = yaml.safe_load(block)
    data["on"] = data.pop(True)
    assert _errors(_schema("github-workflows.json"), data) == [], where
    for step in _steps(data):
        assert "${{" not in step.get("run", ""), where


_PINNED = re.compile(r"^[\w.-]+/[\w.-]+(?:/[\w./-]+)?@[0-9a-f]{40} # v\d+(?:\.\d+)*$")


@pytest.mark.parametrize("path", [ROOT / "action.yml", *WORKFLOWS], ids=lambda p: p.name)
def test_every_uses_is_pinned_by_commit_sha_with_its_version(path: Path) -> None:
    """A tag can be moved by whoever controls the action; a 40-character sha cannot."""
    uses = re.findall(r"^\s*(?:- )?uses:\s*(.+?)\s*$", path.read_text(encoding="utf-8"), re.M)
    assert uses
    for ref in uses:
        assert ref == "./" or _PINNED.match(ref), f"{path.name}: {ref!r} is not pinned by sha"


@pytest.mark.parametrize("path", WORKFLOWS, ids=lambda p: p.name)
def test_checkouts_keep_no_credentials(path: Path) -> None:
    for step in _steps(_workflow(path)):
        if str(step.get("uses", "")).startswith("actions/checkout@"):
            assert step["with"]["persist-credentials"] is False, path.name
