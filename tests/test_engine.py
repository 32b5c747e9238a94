"""The engine: isolation of analyzer crashes, enabling, fingerprints, the report's bookkeeping."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

import pytest

from tests.fake_analyzers import FakeSpec, check_in_process, installed
from tests.gitrepo import GitRepo
from tribunal.change.diff.model import FileChange
from tribunal.change.model import Change
from tribunal.config.load import parse_config
from tribunal.engine import registry
from tribunal.engine.analysis import each_file
from tribunal.engine.registry import AnalyzerSpec, Kind
from tribunal.findings import Finding, Verdict


def _register(name: str, func: Callable[[Change], Iterable[Finding]]) -> None:
    kind = Kind.CLAIM_INDEPENDENT
    registry.BUILTINS[name] = FakeSpec(name, name, kind, "tests.fake_analyzers", "test", func)


def explode(change: Change) -> Iterable[Finding]:
    raise ValueError("whole analyzer broke")


def half_then_explode(change: Change) -> Iterator[Finding]:
    yield Finding("half", Verdict.CONTRADICTED, "a.py", 1, "found before the crash", "")
    raise KeyError("later")


def per_file(change: Change) -> Iterator[Finding]:
    def judge(fc: FileChange) -> list[Finding]:
        if fc.path == "boom.py":
            raise RuntimeError("cannot parse")
        return [Finding("per-file", Verdict.PASS, fc.path, 1, "ok", "")]

    return each_file(change.analyzable(), judge)


@pytest.fixture(autouse=True)
def _fakes() -> Iterator[None]:
    with installed(["fake-flag"]):
        yield


def test_a_crashing_analyzer_is_reported_and_the_others_still_run(repo: GitRepo) -> None:
    _register("explode", explode)
    repo.write({"a.py": "CONTRADICT\n"})
    report = check_in_process(repo)
    assert report.analyzers == ("fake-flag", "explode")
    assert [f.analyzer for f in report.findings] == ["fake-flag"]
    (error,) = report.errors
    assert error.analyzer == "explode" and error.file is None
    assert error.message == "analyzer explode crashed: ValueError: whole analyzer broke"
    assert "Traceback" in error.traceback and "explode" in error.traceback


def test_a_crash_on_one_file_names_it_and_spares_the_others(repo: GitRepo) -> None:
    _register("per-file", per_file)
    repo.write({"a.py": "a\n", "boom.py": "b\n", "c.py": "c\n"})
    report = check_in_process(repo)
    assert sorted(f.file for f in report.findings if f.analyzer == "per-file") == ["a.py", "c.py"]
    (error,) = report.errors
    assert (error.analyzer, error.file) == ("per-file", "boom.py")
    assert error.message == "analyzer per-file crashed on boom.py: RuntimeError: cannot parse"


def test_findings_made_before_a_crash_are_kept(repo: GitRepo) -> None:
    _register("half", half_then_explode)
    repo.write({"a.py": "a\n"})
    report = check_in_process(repo)
    assert [f.title for f in report.findings] == ["found before the crash"]
    assert len(report.errors) == 1


def test_an_analyzer_that_cannot_be_imported_is_an_error_not_a_verdict(repo: GitRepo) -> None:
    kind = Kind.CLAIM_INDEPENDENT
    registry.BUILTINS["ghost"] = AnalyzerSpec("ghost", "g", kind, "tests.no_such_module", "")
    repo.write({"a.py": "CONTRADICT\n"})
    report = check_in_process(repo)
    (error,) = report.errors
    assert error.analyzer == "ghost" and "ModuleNotFoundError" in error.message
    assert report.count(Verdict.CONTRADICTED) == 1  # fake-flag still ran


def test_disabled_analyzers_are_never_imported(repo: GitRepo) -> None:
    kind = Kind.CLAIM_INDEPENDENT
    registry.BUILTINS["ghost"] = AnalyzerSpec("ghost", "g", kind, "tests.no_such_module", "")
    repo.write({"a.py": "CONTRADICT\n"})
    config = parse_config("analyzers: {ghost: false}\n", "tribunal.yml")
    report = check_in_process(repo, config=config)
    assert report.errors == () and report.analyzers == ("fake-flag",)


def test_fingerprints_survive_a_move_and_tell_two_findings_on_a_line_apart(
    repo: GitRepo,
) -> None:
    repo.write({"a.py": "x = 'CONTRADICT UNVERIFY'\n"})
    first = check_in_process(repo).findings
    assert len(first) == 2 and first[0].fingerprint != first[1].fingerprint
    repo.write({"a.py": "\n\nx  =  'CONTRADICT UNVERIFY'\n"})
    moved = check_in_process(repo).findings
    assert [f.line for f in moved] == [3, 3]
    assert sorted(f.fingerprint for f in moved) == sorted(f.fingerprint for f in first)
    repo.write({"a.py": "x = 'CONTRADICT UNVERIFY!'\n"})
    changed = check_in_process(repo).findings
    assert {f.fingerprint for f in changed}.isdisjoint({f.fingerprint for f in first})


@pytest.mark.parametrize("builtin", [True, False])
def test_fingerprint_digests_are_sha256_without_openssl_or_with_it(
    monkeypatch: pytest.MonkeyPatch, builtin: bool
) -> None:
    """Fingerprints are stable across versions: the start-up-cheap SHA-256 is hashlib's."""
    import hashlib

    from tribunal.util import sha

    sha._sha256.cache_clear()
    if not builtin:  # an interpreter built without its own SHA-256: hashlib's is used
        monkeypatch.setattr(sha, "_BUILTIN", ("_no_such_sha_module",))
    try:
        for data in (b"", b"analyzer\0a.py\0\0x = 1", "é\udcff".encode("utf-8", "replace")):
            assert sha.sha256_hex(data) == hashlib.sha256(data).hexdigest()
        assert (sha._sha256() is hashlib.sha256) is not builtin
    finally:
        sha._sha256.cache_clear()


def test_report_bookkeeping(repo: GitRepo) -> None:
    repo.commit({"keep.py": "k\n"})
    repo.write(
        {
            "a.py": "UNVERIFY\n",
            "dist/x.js": "CONTRADICT\n",
            "data.bin": b"\x00\x01\x02",
            "big.py": "x" * (3 << 20),
        }
    )
    report = check_in_process(repo)
    assert report.files_analyzed == 1
    assert [f.file for f in report.findings] == ["a.py"]  # generated dist/ skipped
    skipped = dict(report.skipped)
    assert skipped["data.bin"] == "binary file"
    assert "size cap" in skipped["big.py"]
    assert report.range.kind == "worktree" and report.duration_ms >= 0
    assert report.worst is Verdict.UNVERIFIED
    assert report.counts == {"PASS": 0, "UNVERIFIED": 1, "CONTRADICTED": 0}
