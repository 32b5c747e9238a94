"""Memory stays bounded as the change grows: trees, sources and diff lines (issue 18).

No test here is timed. They check what is kept: how many parsed trees are
alive while a run goes over many generated files, that a tight bound changes
no finding, and that the pieces the bound rests on (the cache, the change's
sources, the compact diff lines, the batched git reads, the query walk) behave
as the things they replace.
"""

from __future__ import annotations

import ast
import gc
import threading
from collections.abc import Iterator, Sequence

import pytest

from tests.engine_helpers import MANY_MODULES, change_between, many_files_range, many_module
from tests.gitrepo import GitRepo
from tribunal.change import model as change_module
from tribunal.change.snapshot import Blob
from tribunal.engine.runner import analyze
from tribunal.lang import tree_cache, trees
from tribunal.util.lru import BoundedCache

MODULES = MANY_MODULES


@pytest.fixture
def many_files(repo: GitRepo) -> tuple[str, str]:
    return many_files_range(repo)


@pytest.fixture
def bounded() -> Iterator[None]:
    """Restore the default bound after a test that sets its own."""
    yield
    tree_cache.configure()


def _live_python_trees() -> int:
    return sum(1 for obj in gc.get_objects() if type(obj) is ast.Module)


def test_a_run_over_many_files_keeps_at_most_the_configured_trees_alive(
    repo: GitRepo, many_files: tuple[str, str], bounded: None
) -> None:
    tree_cache.configure(max_trees=4)
    before = _live_python_trees()
    alive: list[int] = []
    ticks = 0

    def sample(analyzer: str, done: int, total: int) -> None:
        nonlocal ticks
        ticks += 1
        if ticks % 3 == 0:
            alive.append(_live_python_trees() - before)

    with change_between(repo, *many_files) as change:
        report = analyze(change, progress=sample)
        parsed = change.tree_cache().stats()
    assert report.errors == ()
    assert len(alive) > 50  # sampled all along every analyzer's walk
    # The four the cache keeps, and at most the one an analyzer holds while it asks for the next.
    assert max(alive) <= 4 + 1
    assert parsed.entries <= 4 and parsed.evictions > MODULES  # the bound was what limited it


def test_a_tight_bound_changes_no_finding(
    repo: GitRepo, many_files: tuple[str, str], bounded: None
) -> None:
    def findings() -> list[tuple[str, str, int | None, str, str | None]]:
        with change_between(repo, *many_files) as change:
            report = analyze(change)
        assert report.errors == ()
        found = report.findings
        return [(f.analyzer, f.file, f.line, f.verdict.name, f.fingerprint) for f in found]

    roomy = findings()
    tree_cache.configure(max_trees=2)
    tight = findings()
    assert tight == roomy and len(roomy) > MODULES


def test_the_change_keeps_sources_within_its_bound(
    repo: GitRepo, many_files: tuple[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(change_module, "SOURCE_CACHE_BYTES", 20_000)
    monkeypatch.setattr(change_module, "RAW_CACHE_BYTES", 30_000)
    with change_between(repo, *many_files) as change:
        for fc in change.files:
            assert change.head_source(fc) is not None
        kept, raw = change._cache.stats(), change._raw.stats()
        again = change.head_source(change.files[0])  # read again, from git, whole
    assert kept.cost <= 20_000 and kept.evictions > 0
    assert raw.cost <= 30_000 and raw.evictions > 0
    assert again is not None and again.data.startswith(b'"""Module 0."""')


def test_a_source_that_left_the_change_is_made_again_from_its_bytes(
    repo: GitRepo, many_files: tuple[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Analyzers walk a change one after another: the second walk must not go back to git."""
    monkeypatch.setattr(change_module, "SOURCE_CACHE_BYTES", 20_000)
    with change_between(repo, *many_files) as change:
        first = [change.head_source(fc) for fc in change.files]
        assert change.head is not None
        read_many = change.head.read_many
        reads: list[int] = []

        def counted(paths: Sequence[str], ids: Sequence[str | None]) -> list[Blob]:
            reads.append(len(paths))
            return read_many(paths, ids)

        monkeypatch.setattr(change.head, "read_many", counted)
        second = [change.head_source(fc) for fc in change.files]
    assert reads == []  # every file was made again from the bytes kept, none read from git
    assert change._cache.stats().evictions > 0 and change._raw.stats().hits > 0
    assert [s.data for s in second if s] == [s.data for s in first if s]


def test_the_bytes_kept_for_making_sources_again_are_compressed_past_the_bound(
    repo: GitRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Contents fit plain until the change has read more than the bound; then they are kept
    compressed, so that more files stay than the bound holds plain."""

    def module(n: int) -> str:
        return "".join(f"def f{n}_{i}(x):\n    return x * {i} + {n}\n\n" for i in range(150))

    monkeypatch.setattr(change_module, "RAW_CACHE_BYTES", 40_000)
    base = repo.commit({"README": "x\n"}, "base")
    head = repo.commit({f"pkg/m{n}.py": module(n) for n in range(20)}, "twenty modules")
    with change_between(repo, base, head) as change:
        first = [change.head_source(fc) for fc in change.files]
        change._cache.clear()  # the decoded tier gone: they are made from the kept bytes
        again = [change.head_source(fc) for fc in change.files if change._holds("head", fc.path)]
    size = len(module(0))
    kept = change._raw.stats()
    assert len(first) == 20 and 20 * size > 2 * 40_000
    assert kept.cost <= 40_000 and kept.entries > 40_000 // size + 3
    assert len(again) == kept.entries
    assert {s.data for s in again if s} <= {s.data for s in first if s}

def test_a_cache_evicts_the_least_recent_but_keeps_the_first_share() -> None:
    cache: BoundedCache[str, int] = BoundedCache(max_entries=4, max_cost=100, protected_share=0.5)
    for key in "abcdef":
        cache.put(key, ord(key), 10)
    # The first half of the bound (two entries) stays; the rest is least-recently-used.
    assert [k for k in "abcdef" if k in cache] == ["a", "b", "e", "f"]
    assert cache.get("e") == (ord("e"),) and cache.get("c") is None  # then the most recent
    cache.put("big", 0, 1000)  # larger than the bound: kept alone with the first ones
    assert "big" in cache and cache.stats().cost <= 1000 + 20


def test_a_cache_tells_a_cached_none_from_a_miss_and_counts() -> None:
    cache: BoundedCache[str, int | None] = BoundedCache(max_entries=8, max_cost=1000)
    made = []
    for _ in range(3):
        value = cache.get_or_make("x", lambda: made.append(1), lambda v: 1)
        assert value is None
    assert len(made) == 1 and cache.get("x") == (None,) and cache.get("y") is None
    stats = cache.stats()
    assert (stats.entries, stats.misses) == (1, 1) and stats.hits >= 2


def test_a_cache_stays_within_its_bound_under_threads() -> None:
    cache: BoundedCache[int, int] = BoundedCache(max_entries=50, max_cost=500, protected_share=0.2)

    def work(offset: int) -> None:
        for n in range(2000):
            cache.get_or_make((n * 7 + offset) % 300, lambda key=n: key, lambda v: 5)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    stats = cache.stats()
    assert stats.entries <= 50 and stats.cost <= 500 and stats.hits + stats.misses == 8000
    assert stats.cost == 5 * stats.entries


def test_trees_are_shared_by_content_whatever_the_path() -> None:
    from tribunal.change.model import Source

    cache = tree_cache.new_cache()
    data = b"def f():\n    return 1\n"
    first = trees.python_tree(Source("a.py", data, cache))
    again = trees.python_tree(Source("moved/b.py", data, cache))
    assert first is again and cache.stats().misses == 1
    assert trees.python_tree(Source("c.py", b"def (:\n", cache)) is None  # never raises


def test_declarations_kept_for_the_whole_change_hold_no_tree(bounded: None) -> None:
    from tribunal.analyzers.comment_code_drift.changes import Entry
    from tribunal.analyzers.comment_code_drift.sides import read_side
    from tribunal.change.model import Source

    def declarations(source: Source) -> dict[str, list[Entry]]:
        side = read_side(source)
        assert side is not None
        return {q: side.entries(q, lasting=True) for q in side.by_qualname}

    def live_functions() -> int:
        gc.collect()
        return sum(1 for obj in gc.get_objects() if type(obj) is ast.FunctionDef)

    tree_cache.configure(max_trees=2)
    cache = tree_cache.new_cache()
    before = live_functions()
    kept = [declarations(Source(f"m{n}.py", many_module(n, 1).encode(), cache)) for n in range(30)]
    # two functions in each of the two trees the cache keeps, none for each file kept
    assert live_functions() - before <= 2 * 2
    first = kept[0]
    assert set(first) == {"f_0", "g_0"}
    # renaming locals parses the file again when asked, with the same answer
    assert first["f_0"][0].renamed() == first["f_0"][0].renamed() != ""
