"""The weakened-gate audit under the real pre-commit framework (one environment per session,
shared with ``test_hooks_precommit``): the convene installs the reference-transaction hook,
which pre-commit cannot, and records SKIP=tribunal-convene and the refs pre-commit skips."""

from __future__ import annotations

import re
from pathlib import Path

from tests import hookscenarios as sc
from tests import test_hooks_precommit
from tests.audittools import audit, log_records, warnings
from tests.hooktools import GOOD_TEST, UserRepo

#: The session's pre-commit environment (built once, shared with test_hooks_precommit) and
#: its user repository: pre-commit installed, one push made before any convene.
framework = test_hooks_precommit.framework
precommit_user = test_hooks_precommit.user

INSTALLED = re.compile(r"tribunal: installed .*reference-transaction: it records pushes")


def hook(repo: UserRepo) -> Path:
    return repo.path / ".git" / "hooks" / "reference-transaction"


def first_convened_push(repo: UserRepo) -> str:
    repo.commit(sc.GOOD, "good")
    result = sc.push(repo)
    assert result.code == 0, sc.output(result)
    return sc.output(result)


def test_the_first_convene_installs_the_hook_and_says_so_once(precommit_user: UserRepo) -> None:
    user = precommit_user
    assert not hook(user).exists()
    said = first_convened_push(user)
    assert len(INSTALLED.findall(said)) == 1, said
    text = hook(user).read_text()
    assert text.startswith("#!/bin/sh\n# tribunal-shim: reference-transaction")
    assert user.env["PRE_COMMIT_HOME"] in text  # the pre-commit environment's Python
    user.commit({"tests/test_more.py": GOOD_TEST}, "more")
    again = sc.push(user)
    assert again.code == 0 and not INSTALLED.search(sc.output(again))
    hook(user).unlink()  # the user's choice stands: it is not installed again
    user.commit({"tests/test_last.py": GOOD_TEST}, "last")
    assert sc.push(user).code == 0 and not hook(user).exists()
    assert log_records(user) == []


def test_skipping_the_convene_is_recorded(precommit_user: UserRepo) -> None:
    user = precommit_user
    first_convened_push(user)
    sha = user.commit(sc.BAD, "bad")
    user.env["SKIP"] = "tribunal-convene"
    result = sc.push(user)
    assert result.code == 0, sc.output(result)
    assert len(warnings(result)) == 1 and sha[:12] in warnings(result)[0]
    [record] = log_records(user)
    assert record["how"] == ["skipped-hook"] and record["new"] == sha
    assert record["detail"] == "SKIP=tribunal-convene"


def test_the_ref_pre_commit_does_not_show_the_gate_is_recorded(precommit_user: UserRepo) -> None:
    user = precommit_user
    first_convened_push(user)
    shas = {}
    for branch in ("one", "two"):
        user.git("checkout", "-q", "-b", branch, "main")
        shas[branch] = user.commit({f"tests/test_{branch}.py": GOOD_TEST}, branch)
    result = sc.push(user, "origin", "one", "two")
    assert result.code == 0, sc.output(result)
    assert sc.output(result).count("unanimous pass") == 1
    [record] = log_records(user)
    assert record["how"] == ["not-convened"] and record["new"] in shas.values()
    convened = next(sha for sha in shas.values() if sha != record["new"])
    assert sc.only_summary(user, convened).gate.decision == "pass"


def test_a_removed_environment_is_survived_and_the_push_found_later(
    precommit_user: UserRepo,
) -> None:
    user = precommit_user
    first_convened_push(user)
    live = hook(user).read_text()
    python = re.search(r"^python='([^']*)'", live, re.M)
    assert python is not None
    hook(user).write_text(live.replace(python.group(1), "/gone/py_env-python3/bin/python"))
    sha = user.commit(sc.BAD, "bad")
    result = user.run("push", "--no-verify")
    assert result.code == 0, sc.output(result)
    assert "is gone; `tribunal audit` finds any later" in sc.output(result)
    user.git("checkout", "-q", "-b", "next")
    user.commit({"tests/test_next.py": GOOD_TEST}, "next")
    result = sc.push(user, "-u", "origin", "next")
    assert result.code == 0, sc.output(result)
    assert hook(user).read_text() == live  # rewritten quietly for the live environment
    assert not INSTALLED.search(sc.output(result))
    [record] = log_records(user)
    assert (record["new"], record["how"], record["found"]) == (sha, ["unknown"], "pre-push")
    assert "how: no passing summary; how the gate was passed is not visible" in audit(user).stdout


def test_a_push_whose_commit_removes_the_hook_config_says_so(precommit_user: UserRepo) -> None:
    """Issue 21, case 5: the "how" names the real cause, not "one ref per push"."""
    user = precommit_user
    first_convened_push(user)
    user.git("checkout", "-q", "-b", "control")
    user.commit(sc.BAD, "bad")
    assert sc.push(user, "origin", "control").code != 0  # the control: convened, rejected
    user.git("checkout", "-q", "-b", "no-config", "main")
    removed = user.commit({**sc.BAD, ".pre-commit-config.yaml": None}, "bad, config gone")
    user.env["PRE_COMMIT_ALLOW_NO_CONFIG"] = "1"
    result = sc.push(user, "origin", "no-config")
    assert result.code == 0, sc.output(result)  # pre-commit ran nothing
    [record] = [r for r in log_records(user) if r["new"] == removed]
    assert record["how"] == ["gate-config-removed"]
    assert record["detail"] == (
        "the pushed commit removes .pre-commit-config.yaml, so pre-commit convened nothing "
        "for this push"
    )
    user.git("checkout", "-q", "-b", "no-convene", "main")
    config = (user.path / ".pre-commit-config.yaml").read_text()
    lean = config.replace("      - id: tribunal-convene\n", "")
    dropped = user.commit({**sc.BAD, ".pre-commit-config.yaml": lean}, "bad, convene dropped")
    result = sc.push(user, "origin", "no-convene")
    assert result.code == 0, sc.output(result)
    [record] = [r for r in log_records(user) if r["new"] == dropped]
    assert record["how"] == ["gate-config-removed"]
    assert "drops tribunal-convene from .pre-commit-config.yaml" in record["detail"]
    assert "the pushed change removes tribunal-convene" in audit(user).stdout
