"""assertion-free-test: a test the change touched that can never fail.

The Python and JS/TS halves live in their own modules and are imported only
when the change holds files of that language. Tests of one file that all hand
their work to the same imported module (``sc.scenario(user)``, whose checks
Tribunal does not follow into) share one doubt, said once: one UNVERIFIED
finding listing them, instead of one per test.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Iterator

from tribunal.analyzers.assertion_free_test.ident import ID
from tribunal.analyzers.grouping import Place, grouped
from tribunal.change.model import Change
from tribunal.engine.analysis import each_file
from tribunal.findings import Finding, Verdict
from tribunal.lang.paths import is_js_family, language_of

#: The doubt of a test that calls into another module, as the reason that opens its detail:
#: ``No assertion found in `t`; it calls `sc.scenario(user)` ...`` (Python), ``It calls ...``.
_DELEGATES = re.compile(
    r"^(?:No assertion found in `[^`]+`; it|It) calls `([A-Za-z_$][\w$]*)\.([^`]*)`"
)
#: Qualifiers that are the test's own object, not another module.
_OWN = frozenset({"self", "cls", "this", "super"})


def run(change: Change) -> Iterator[Finding]:
    yield from _same_doubt_once(_judged(change))


def _judged(change: Change) -> Iterator[Finding]:
    files = change.analyzable(("python", "javascript", "typescript", "tsx"))
    python = [fc for fc in files if language_of(fc.path) == "python"]
    scripts = [fc for fc in files if is_js_family(language_of(fc.path))]
    if python:
        from tribunal.analyzers.assertion_free_test import python as py

        yield from each_file(python, lambda fc: py.judge_file(change, fc))
    if scripts:
        from tribunal.analyzers.assertion_free_test import jsts

        yield from each_file(scripts, lambda fc: jsts.judge_file(change, fc))


def _same_doubt_once(found: Iterable[Finding]) -> Iterator[Finding]:
    """Findings in order, with each file's tests that delegate to one module as one finding."""
    findings = list(found)
    groups: dict[tuple[str, str], list[Finding]] = defaultdict(list)
    for finding in findings:
        module = _delegate(finding)
        if module is not None:
            groups[(finding.file, module)].append(finding)
    done: set[tuple[str, str]] = set()
    for finding in findings:
        module = _delegate(finding)
        key = (finding.file, module or "")
        if module is None or len(groups[key]) < 2:
            yield finding
        elif key not in done:
            done.add(key)
            yield _grouped(finding.file, module, groups[key])


def _delegate(finding: Finding) -> str | None:
    if finding.verdict is not Verdict.UNVERIFIED or finding.suppressed:
        return None
    match = _DELEGATES.search(finding.detail)
    return match[1] if match and match[1] not in _OWN else None


def _grouped(path: str, module: str, tests: list[Finding]) -> Finding:
    places = []
    for test in tests:
        match = _DELEGATES.search(test.detail)
        name = re.search(r"`([^`]+)`", test.title)
        call = f"{module}.{match[2]}" if match else module
        places.append(Place(test.file, test.line, f"`{name[1] if name else '?'}` calls `{call}`"))
    return grouped(
        analyzer=ID,
        verdict=Verdict.UNVERIFIED,
        group=f"{path}:delegates-to:{module}",
        title=f"{len(tests)} tests only call into `{module}` and assert nothing Tribunal can see",
        explanation=(
            f"Each fails only if the `{module}` code it calls raises or checks something "
            "itself; Tribunal does not follow calls into other modules. If a test should "
            "check a result, assert on it. The tests:"
        ),
        places=places,
        language=tests[0].language,
    )
