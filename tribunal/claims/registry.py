"""The verifier table: one entry per claim key.

Adding a claim is one entry here plus its module under
``tribunal.claims.verifiers``, which exposes ``verify(change, claim) ->
Judgement``. Like the analyzer registry, the table holds names only, so
listing the known keys (for the "unrecognized claim" message, or for
``tribunal propose``) imports no verifier.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, cast

from tribunal.findings import Verdict

if TYPE_CHECKING:
    from tribunal.change.model import Change, Claim


@dataclass(frozen=True)
class Judgement:
    """A verifier's answer about one claim: the verdict and the evidence for it.

    ``where`` is the evidence's place at head, when it has one: the manifest
    line that adds the dependency, the changed default, the removed export's
    module, the deleted test's file. The finding points there (a code-scanning
    alert needs a place in the repository).
    """

    verdict: Verdict
    title: str
    detail: str = ""
    where: tuple[str, int | None] | None = None


class Verifier(Protocol):
    def verify(self, change: Change, claim: Claim) -> Judgement: ...


@dataclass(frozen=True)
class VerifierSpec:
    """``arg`` says what ``key: arg`` means; None when the claim takes no argument."""

    key: str
    module: str
    summary: str
    arg: str | None = None

    def load(self) -> Verifier:
        return cast("Verifier", importlib.import_module(self.module))


VERIFIERS: dict[str, VerifierSpec] = {
    spec.key: spec
    for spec in (
        VerifierSpec(
            "added-test",
            "tribunal.claims.verifiers.added_test",
            "the change adds a new test with a reachable assertion",
        ),
        VerifierSpec(
            "no-public-api-change",
            "tribunal.claims.verifiers.public_api",
            "the public names of the changed modules are the same before and after",
        ),
        VerifierSpec(
            "no-default-flip",
            "tribunal.claims.verifiers.default_flip",
            "no literal parameter default changed value",
            arg="only the parameter with this name",
        ),
        VerifierSpec(
            "no-new-dependency",
            "tribunal.claims.verifiers.new_dependency",
            "no dependency manifest names a distribution it did not name before",
        ),
        VerifierSpec(
            "no-test-removed",
            "tribunal.claims.verifiers.test_removed",
            "no test was deleted, skipped or marked xfail",
        ),
    )
}


def known_keys() -> list[str]:
    return sorted(VERIFIERS)


def judge(change: Change, claim: Claim) -> Judgement:
    """The verdict for one claim; unknown keys and misused arguments are UNVERIFIED."""
    spec = VERIFIERS.get(claim.key)
    if spec is None:
        return Judgement(
            Verdict.UNVERIFIED,
            f"unrecognized claim '{claim.key}'",
            f"Known claims: {', '.join(known_keys())}. An unrecognized claim is never "
            "checked, so it can only be UNVERIFIED.",
        )
    if claim.arg is not None and spec.arg is None:
        return Judgement(
            Verdict.UNVERIFIED,
            f"claim '{claim.key}' takes no argument (got '{claim.arg}')",
            "A narrowed claim cannot be checked as written; remove the argument to have it "
            "checked.",
        )
    return spec.load().verify(change, claim)
