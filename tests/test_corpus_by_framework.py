"""The corpus's test-discovery pairs, checked by the frameworks' own tools.

A label in ``bench/corpus`` that says "this change adds no test" or "this change
removes one" states a fact about what Django's runner or pytest collects. The
analyzers encode those rules by reading files; here the frameworks themselves
are asked, in a venv of their own (Django and pytest from the package index), which
tests they find at the case's base and at its head. A label the real tool
contradicts fails here before it can train an analyzer to the wrong rule.

Cases whose verdict is UNVERIFIED are left out: their point is that the rules are
not known (a custom collector, a fixture that multiplies items), so no count can
settle them.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bench.harness import Case, load_cases, write_files

#: Django's own discovery (``manage.py test`` builds its suite this way), printing test ids.
DJANGO_IDS = """
import django
from django.conf import settings
settings.configure(
    INSTALLED_APPS=[],
    DATABASES={"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": ":memory:"}},
)
django.setup()
from django.test.runner import DiscoverRunner

def ids(suite):
    for test in suite:
        yield from ids(test) if hasattr(test, "__iter__") else [test.id()]

print("\\n".join(sorted(ids(DiscoverRunner(verbosity=0).build_suite([])))))
"""

CLAIMS = ("added-test", "no-test-removed")


def _selected() -> list[Case]:
    cases = []
    for case in load_cases(pattern="claims/"):
        claim = (case.claims or "").strip()
        if not case.name.endswith("-py") or claim not in CLAIMS or case.expect == "UNVERIFIED":
            continue
        if claim == "no-test-removed" and "django" not in case.name:
            continue  # xfail marks and broken imports: counting ids does not decide those
        cases.append(case)
    return cases


CASES = _selected()


def test_the_django_and_pytest_pairs_are_all_selected() -> None:
    names = {case.name for case in CASES}
    assert {
        "claims/c-added-test-django-tests-module-py",
        "claims/d-added-test-django-not-a-package-py",
        "claims/c-added-test-django-with-pytest-py",
        "claims/d-added-test-uncollected-py",
        "claims/d-test-removed-django-tests-module-py",
    } <= names


@pytest.fixture(scope="session")
def framework_python(tmp_path_factory: pytest.TempPathFactory) -> Path:
    venv = tmp_path_factory.mktemp("framework-venv")
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    python = venv / "bin" / "python"
    subprocess.run(
        [str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check",
         "django>=4.2", "pytest>=8"],
        check=True,
        timeout=600,  # a stalled index fails this test instead of hanging the suite
    )  # fmt: skip
    return python


def _runner(case: Case) -> str:
    """Django's runner for a manage.py project unless pytest-django is configured."""
    configured = "DJANGO_SETTINGS_MODULE" in (case.base.get("pytest.ini") or "")
    return "django" if "manage.py" in case.base and not configured else "pytest"


def _collected(python: Path, root: Path, runner: str) -> set[str]:
    if runner == "django":
        argv = [str(python), "-c", DJANGO_IDS]
    else:
        argv = [str(python), "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider"]
    done = subprocess.run(argv, cwd=root, capture_output=True, text=True, timeout=120)
    assert done.returncode in (0, 5), f"{runner} failed in {root}:\n{done.stdout}{done.stderr}"
    lines = [line.strip() for line in done.stdout.splitlines()]
    return {line for line in lines if ("::" in line if runner == "pytest" else line)}


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_the_label_agrees_with_what_the_framework_collects(
    case: Case, framework_python: Path, tmp_path: Path
) -> None:
    runner = _runner(case)
    write_files(tmp_path, case.base)
    before = _collected(framework_python, tmp_path, runner)
    write_files(tmp_path, case.head)
    after = _collected(framework_python, tmp_path, runner)
    if (case.claims or "").strip() == "added-test":
        adds = bool(after - before)
        assert adds == (case.label == "clean"), (runner, sorted(before), sorted(after))
    else:
        removes = bool(before - after)
        assert removes == (case.label == "defect"), (runner, sorted(before), sorted(after))
