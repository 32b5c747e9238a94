"""``no-test-removed``: no test was deleted, skipped or marked as expected to fail.

CONTRADICTED when a base test is gone from head (and no head test carries its
body under another name or file: that is a rename or a move), when a test
that ran at base is skipped or xfailed at head, or when a literal
``parametrize`` list lost cases (fewer test items: ``param_cases``). UNVERIFIED when the evidence
is not certain: a test added anywhere may be the deleted one in another form
(``test_kinship``: the same name, the same body up to renamed names, or a
parametrized test holding its literals; a file gaining an unrelated test is no
such evidence), a conditional ``skipif`` was added, a test file could not be
read, or a deleted test file is in a language Tribunal does not read. A PASS is
earned: a changed test file Tribunal does not read that lost lines, a changed
story where the project runs stories as tests, or test selection the change
narrowed (test-tampering's ``selection``) makes it UNVERIFIED.
"""

from __future__ import annotations

from tribunal.change.model import Change, Claim
from tribunal.claims.param_cases import item_count
from tribunal.claims.registry import Judgement
from tribunal.claims.scope import looks_like_test
from tribunal.findings import Verdict
from tribunal.lang.test_diff import TestDiff, diff_tests
from tribunal.lang.test_kinship import relation
from tribunal.lang.test_record import TestRecord


def verify(change: Change, claim: Claim) -> Judgement:
    if not change.has_base:
        return Judgement(Verdict.UNVERIFIED, "no base: removed tests cannot be seen")
    tests = diff_tests(change)
    certain, doubtful = [], []
    places: list[tuple[str, int | None]] = []
    for test in tests.removed:
        kin = _kin(tests, test)
        if kin is not None:
            doubtful.append(f"{test.label} is gone, but {kin}")
        elif test.head_path in tests.partial:
            doubtful.append(
                f"{test.label} is not found in {test.head_path}, which has syntax "
                "the parser could not read"
            )
        else:
            certain.append(f"{test.label} (base line {test.line}) was deleted")
            places.append((test.head_path, None))
    for _old, new in tests.newly_disabled():
        how = "skipped" if new.skipped else "marked as expected to fail"
        certain.append(f"{new.label} (line {new.line}) is now {how}")
        places.append((new.head_path, new.line))
    certain += _fewer_cases(tests)
    doubtful += _conditional(tests) + _unreadable(change, tests)
    if not certain:
        doubtful += _unread_removals(change, tests)
    if certain:
        where = places[0] if places else None
        detail = "\n".join(certain + doubtful)
        return Judgement(Verdict.CONTRADICTED, _title(certain), detail, where)
    if doubtful:
        return Judgement(Verdict.UNVERIFIED, "tests may have been removed", "\n".join(doubtful))
    compared = len(tests.kept) + len(tests.moved)
    return Judgement(
        Verdict.PASS, "no test removed, skipped or xfailed", f"{compared} existing tests compared."
    )


def _kin(tests: TestDiff, gone: TestRecord) -> str | None:
    """An added test that may be ``gone`` in another form (``test_kinship``), described."""
    for test in tests.added:
        how = relation(gone, test)
        if how is not None:
            return f"{test.label} {how}"
    return None


def _fewer_cases(tests: TestDiff) -> list[str]:
    """Kept tests whose literal ``parametrize`` lists now expand to fewer items."""
    out = []
    for old, new in [*tests.kept, *tests.moved]:
        before, after = item_count(old), item_count(new)
        if before is not None and after is not None and after < before:
            out.append(
                f"{new.label} (line {new.line}) runs {after} parametrized case(s), "
                f"down from {before}"
            )
    return out


def _title(certain: list[str]) -> str:
    return f"{len(certain)} test(s) removed or disabled"


def _conditional(tests: TestDiff) -> list[str]:
    out = []
    for old, new in [*tests.kept, *tests.moved]:
        if new.conditional_skip and new.conditional_skip != old.conditional_skip:
            out.append(f"{new.label} gained a conditional skip: {new.conditional_skip}")
    return out


def _unread_removals(change: Change, tests: TestDiff) -> list[str]:
    """Lines removed where tests may hide from the differ; narrowed test selection."""
    from tribunal.analyzers.test_tampering.selection import findings as narrowed
    from tribunal.claims.unread import unread_test_files
    from tribunal.lang.js.storybook import is_story_file, story_runner

    out = [
        f"{path} lost lines and may hold tests Tribunal does not read"
        for path in unread_test_files(change, tests.test_files)
    ]
    for fc in change.files:
        if fc.removed and is_story_file(fc.path) and story_runner(change, fc.path):
            out.append(
                f"{fc.path} lost lines: its stories are tests ({story_runner(change, fc.path)})"
            )
    out += [f"test selection narrowed: {f.title} ({f.file}:{f.line})" for f in narrowed(change)]
    return out


def _unreadable(change: Change, tests: TestDiff) -> list[str]:
    out = list(tests.unreadable)
    for fc in change.files:
        if not fc.has_head and looks_like_test(fc.path) and fc.path not in tests.test_files:
            out.append(f"{fc.path} was deleted and may have held tests Tribunal does not read")
    return out
