"""assertion-free-test: a test the change touched that can never fail.

The Python and JS/TS halves live in their own modules and are imported only
when the change holds files of that language.
"""

from __future__ import annotations

from collections.abc import Iterator

from tribunal.analysis import each_file
from tribunal.change import Change
from tribunal.findings import Finding
from tribunal.paths import is_js_family, language_of

ID = "assertion-free-test"


def run(change: Change) -> Iterator[Finding]:
    files = change.analyzable(("python", "javascript", "typescript", "tsx"))
    python = [fc for fc in files if language_of(fc.path) == "python"]
    scripts = [fc for fc in files if is_js_family(language_of(fc.path))]
    if python:
        from tribunal.analyzers.assertion_free_test import python as py

        yield from each_file(python, lambda fc: py.judge_file(change, fc))
    if scripts:
        from tribunal.analyzers.assertion_free_test import jsts

        yield from each_file(scripts, lambda fc: jsts.judge_file(change, fc))
