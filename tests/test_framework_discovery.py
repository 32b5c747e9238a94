"""Test discovery by framework: Django's runner, Playwright, Cypress.

Real git repositories, the real engine. Each rule was checked against the
framework's own tool (``manage.py test -v 2``, ``pytest`` with pytest-django,
``npx playwright test``) when it was written; the bench cases keep the pairs.
"""

from __future__ import annotations

import pytest

from tests.claims_support import claim_verdict
from tests.engine_helpers import Files, run_range
from tests.gitrepo import GitRepo
from tribunal.findings import Verdict

C, U, P = Verdict.CONTRADICTED, Verdict.UNVERIFIED, Verdict.PASS
DJANGO: Files = {"manage.py": "import os\n", "shop/__init__.py": "", "shop/models.py": "X = 1\n"}
TESTCASE = (
    "from django.test import TestCase\n\n\nclass ViewTests(TestCase):\n"
    "    def test_home(self):\n        self.assertContains(self.client.get('/'), 'Shop')\n"
)


@pytest.mark.parametrize(
    ("path", "extra", "expected"),
    [
        ("shop/tests.py", {}, P),
        ("shop/tests/test_views.py", {"shop/tests/__init__.py": ""}, P),
        ("shop/tests/test_views.py", {}, C),  # not a package: discovery skips it
        ("shop/view_tests.py", {}, C),  # not test*.py
        ("shop/tests/test_views.py", {"requirements.txt": "pytest-django\n"}, P),
        ("shop/view_tests.py", {"settings.py": "TEST_RUNNER = 'x.Runner'\n"}, U),
        ("shop/view_tests.py", {"tox.ini": "[x]\nc = manage.py test -p '*_tests.py'\n"}, U),
    ],
    ids=["tests-module", "tests-package", "not-a-package", "name", "pytest-django", "runner",
         "pattern"],
)  # fmt: skip
def test_added_test_follows_djangos_runner(
    repo: GitRepo, path: str, extra: Files, expected: Verdict
) -> None:
    verdict, finding = claim_verdict(repo, {**DJANGO, **extra}, {path: TESTCASE}, "added-test")
    assert verdict is expected, finding.detail
    if expected is C:
        assert "Django's test runner (manage.py)" in finding.detail


def test_a_module_only_django_collects_is_read_with_unittest_rules(repo: GitRepo) -> None:
    head = {
        "shop/tests.py": (
            "import unittest\n\ndef test_function():\n    pass\n\n"
            "class T(unittest.TestCase):\n    def test_empty(self):\n        pass\n"
        )
    }
    found = run_range(repo, DJANGO, head, "assertion-free-test")
    assert [(f.verdict, f.line) for f in found] == [(C, 7)]  # the plain function is no test


def test_a_test_deleted_from_djangos_tests_module_is_removed(repo: GitRepo) -> None:
    two = TESTCASE + "\n    def test_other(self):\n        self.assertTrue(True)\n"
    base = {**DJANGO, "shop/tests.py": two}
    verdict, finding = claim_verdict(repo, base, {"shop/tests.py": TESTCASE}, "no-test-removed")
    assert verdict is C and "ViewTests.test_other" in finding.detail


PW_BASE = "import { test, expect } from '@playwright/test';\n"
PW_TEST = (
    PW_BASE
    + "test('login', async ({ page }) => {\n  {line}\n  await expect(page).toHaveURL('/');\n});\n"
)


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("test.fail();", C),
        ("test.skip();", C),
        ("test.fixme(true, 'later');", C),
        ("test.skip(browserName === 'webkit');", U),
        ("test.slow();", P),
        ("test.skip(false);", P),
    ],
)
def test_playwright_annotations_in_the_body(repo: GitRepo, line: str, expected: Verdict) -> None:
    base = {"tests/a.spec.ts": PW_TEST.replace("{line}", "")}
    head = {"tests/a.spec.ts": PW_TEST.replace("{line}", line)}
    verdict, finding = claim_verdict(repo, base, head, "no-test-removed")
    assert verdict is expected, finding.detail


@pytest.mark.parametrize(
    ("plain", "focused"),
    [("test('x'", "test.only('x'"), ("test.describe('s'", "test.describe.only('s'")],
)
def test_a_playwright_focus_is_certain_and_names_its_import(
    repo: GitRepo, plain: str, focused: str
) -> None:
    spec = PW_BASE + (
        "test.describe('s', () => {\n"
        "  test('x', async ({ page }) => { await expect(page).toHaveURL('/'); });\n});\n"
    )
    base = {"tests/a.spec.ts": spec}
    head = {"tests/a.spec.ts": spec.replace(plain, focused, 1)}
    found = run_range(repo, base, head, "test-tampering")
    assert [f.verdict for f in found] == [C]
    assert "comes from '@playwright/test'" in found[0].detail
    assert "every file of the run" in found[0].detail


@pytest.mark.parametrize(
    ("extra", "expected"),
    [
        ({"package.json": '{"devDependencies": {"cypress": "^13.0.0"}}'}, C),
        ({"cypress.config.ts": "export default {};\n"}, C),
        ({}, U),
    ],
    ids=["declared", "config", "unknown-runner"],
)
def test_a_cypress_focus_is_certain_where_cypress_runs_the_spec(
    repo: GitRepo, extra: Files, expected: Verdict
) -> None:
    spec = "it('a', () => { cy.visit('/'); cy.get('h1').should('contain', 'Hi'); });\n"
    base = {**extra, "cypress/e2e/a.cy.ts": spec}
    head = {"cypress/e2e/a.cy.ts": spec.replace("it(", "it.only(")}
    found = run_range(repo, base, head, "test-tampering")
    assert [f.verdict for f in found] == [expected]
