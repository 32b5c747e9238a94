"""``added-test``: the change adds a new test with a reachable assertion.

PASS: a test that is not in base (and is not an existing test renamed or
moved) can fail through an assertion Tribunal sees. CONTRADICTED: the change
adds no test and changes no test at all: no changed file is a test file, in
any language, or sits in a test directory, and no added line may be a test
Tribunal cannot discover (a doctest, a test inside a Rust or other source
file). Everything in between is
UNVERIFIED: only existing tests were edited, the new test's assertion is not
visible, test files changed that Tribunal cannot read, or a file changed in a
folder of test inputs (``testdata/``, ``fixtures/``), where a new file may be
a new case of a test that globs the folder. A file that defines tests the
project's known configuration never collects (pytest's ``python_files``:
``uncollected``; a literal jest ``testMatch`` / vitest ``include``:
``js_collection``) holds no new test, and neither does a helper named like a
test (``test-utils.jsx``, ``tests/factories.py``) that Tribunal reads and that
defines no test, fixture or collection hook. A Storybook story is a test only
where the project runs stories (``storybook``): there a new one keeps the
verdict UNVERIFIED.
"""

from __future__ import annotations

import re

from tribunal.change.model import Change, Claim
from tribunal.claims.registry import Judgement
from tribunal.claims.scope import in_test_data_dir, is_other_code, looks_like_test
from tribunal.findings import Verdict
from tribunal.lang.js.testcases import is_test_file as is_js_test
from tribunal.lang.paths import is_js_family, language_of
from tribunal.lang.test_diff import diff_tests, judge
from tribunal.lang.test_record import TestRecord

_SHOWN = 5
_TEST = re.compile(r"test", re.IGNORECASE)
#: Tests written inside source files of languages Tribunal reads (Vitest in-source testing).
_IN_SOURCE = re.compile(r"import\.meta\.vitest|\bDeno\.test\(")


def verify(change: Change, claim: Claim) -> Judgement:
    if not change.has_base:
        return Judgement(Verdict.UNVERIFIED, "no base: which tests are new cannot be told")
    tests = diff_tests(change)
    uncollected = _uncollected(change)
    added = [t for t in tests.added if t.head_path not in uncollected]
    running = [t for t in added if not t.disabled]
    asserting = [t for t in running if judge(t, change) is Verdict.PASS]
    if asserting:
        return Judgement(
            Verdict.PASS,
            f"adds {len(asserting)} test(s) with a reachable assertion",
            _list(asserting),
        )
    if added:
        why = "none of them has an assertion Tribunal can see" if running else "all are skipped"
        return Judgement(Verdict.UNVERIFIED, f"adds {len(added)} test(s), but {why}", _list(added))
    helpers = _helpers_without_tests(change, tests.test_files)
    related = sorted({fc.path for fc in change.files if looks_like_test(fc.path)})
    related += [f for f in tests.test_files if f not in related]
    related += [f for f in _unread_tests(change) if f not in related]
    related = [f for f in related if f not in uncollected and f not in helpers]
    stories = _run_stories(change)
    if stories:
        return Judgement(
            Verdict.UNVERIFIED,
            "no new test found, but stories the project runs as tests changed",
            "\n".join(stories),
        )
    if related or tests.moved or tests.unreadable:
        detail = "Test files changed: " + ", ".join(related[:_SHOWN]) if related else ""
        detail = "\n".join([detail, *tests.unreadable]).strip()
        title = "no new test found; only existing tests changed"
        return Judgement(Verdict.UNVERIFIED, title, detail)
    data = [
        fc.path
        for fc in change.files
        if fc.has_head
        and in_test_data_dir(fc.path)
        and fc.path not in uncollected
        and fc.path not in helpers
    ]
    if data:
        shown = ", ".join(data[:_SHOWN])
        return Judgement(
            Verdict.UNVERIFIED,
            "no new test found, but test data changed",
            f"A test that reads its cases from these folders may have gained one: {shown}.",
        )
    changed = [fc.path for fc in change.files]
    shown = ", ".join(changed[:_SHOWN])
    if len(changed) > _SHOWN:
        shown += f" and {len(changed) - _SHOWN} more"
    if uncollected:
        return Judgement(
            Verdict.CONTRADICTED,
            "the change adds no test its test runner collects",
            "\n".join(uncollected.values()) + f"\nChanged: {shown}.",
        )
    helped = f" Test helpers that define no test: {', '.join(sorted(helpers))}." if helpers else ""
    return Judgement(
        Verdict.CONTRADICTED,
        "the change adds no test and changes none",
        f"No changed file is a test file or in a test directory.{helped} "
        f"Changed: {shown or 'nothing'}.",
    )


def _uncollected(change: Change) -> dict[str, str]:
    """Changed test files the project's known collection rules never collect (pytest's
    ``python_files``, a literal jest ``testMatch`` or vitest ``include``)."""
    out = {}
    for fc in change.files:
        if not fc.has_head or not (looks_like_test(fc.path) or is_js_test(fc.path)):
            continue
        why = None
        if fc.path.endswith(".py"):
            from tribunal.lang.python.uncollected import why_uncollected

            why = why_uncollected(change, fc.path)
        elif is_js_family(language_of(fc.path)):
            from tribunal.lang.js.collection import why_uncollected as why_js

            why = why_js(change, fc.path)
        if why is not None:
            out[fc.path] = why
    return out


def _run_stories(change: Change) -> list[str]:
    """Changed stories the project runs as tests, each with the evidence."""
    from tribunal.lang.js.storybook import is_story_file, story_runner

    out = []
    for fc in change.files:
        if fc.has_head and is_story_file(fc.path):
            runner = story_runner(change, fc.path)
            if runner is not None:
                out.append(f"{fc.path}: every story is a test under {runner}")
    return out


def _helpers_without_tests(change: Change, test_files: list[str]) -> set[str]:
    """Changed Python/JS/TS files named like tests that hold no test on either side."""
    from tribunal.lang.test_helpers import holds_no_test

    out = set()
    for fc in change.files:
        if fc.path in test_files or not looks_like_test(fc.path):
            continue
        if holds_no_test(change, fc):
            out.add(fc.path)
    return out


def _unread_tests(change: Change) -> list[str]:
    """Files whose added lines may hold tests Tribunal does not discover.

    Doctests (``>>>`` lines, in code or docs), in-source tests of JS/TS files
    (``if (import.meta.vitest)``, ``Deno.test(`` outside test files), and code in other languages
    that keeps tests beside the code (Rust's ``#[test]``, for one) and whose
    added lines mention tests.
    """
    out = []
    for fc in change.files:
        added = fc.added_text.values()
        doctest = any(line.lstrip().startswith(">>>") for line in added)
        other = is_other_code(fc.path)
        in_source = any(_IN_SOURCE.search(line) for line in added)
        if doctest or in_source or (other and any(_TEST.search(line) for line in added)):
            out.append(fc.path)
    return out


def _list(tests: list[TestRecord]) -> str:
    lines = [f"{t.label} (line {t.line})" for t in tests[:_SHOWN]]
    if len(tests) > _SHOWN:
        lines.append(f"... and {len(tests) - _SHOWN} more")
    return "\n".join(lines)
