"""The cheaper ways of reading a change give the same answers as the ones they replace.

- diff lines kept as arrays and one string (``diff.linetable``) behave as the
  dict and frozenset they were;
- blobs asked of ``cat-file --batch`` in pipelined batches, trees read through it,
  and config probes fetched ahead read exactly what one-by-one reads did;
- simple tree-sitter queries answered by a walk give the compiled query's captures;
- the engine says how far each analyzer is.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from tree_sitter import QueryCursor

from tests.engine_helpers import change_between
from tests.gitrepo import GitRepo
from tribunal.change.diff.linetable import LineTable, joined
from tribunal.engine.runner import analyze
from tribunal.git.cmd import BlobTooLarge, Git
from tribunal.lang.js import syntax as js
from tribunal.lang.js.match import matches, names_known, parse_patterns, source_order

# --- diff lines ------------------------------------------------------------------------

short_lines_st = st.dictionaries(st.integers(1, 400), st.text(max_size=12), max_size=60)
#: enough text to be kept compressed: any characters, lone surrogates and newlines too
long_lines_st = st.dictionaries(
    st.integers(1, 400), st.text(min_size=40, max_size=80), min_size=60, max_size=80
)
lines_st = short_lines_st | long_lines_st


@given(lines_st, st.sets(st.integers(-3, 410), max_size=20))
def test_a_line_table_is_the_dict_and_its_numbers_the_frozenset(
    lines: dict[int, str], others: set[int]
) -> None:
    table = LineTable(lines)
    numbers = table.numbers()
    assert dict(table) == lines and table == lines and len(table) == len(lines)
    assert list(table) == sorted(lines) and list(numbers) == sorted(lines)
    assert numbers == frozenset(lines) and frozenset(lines) == numbers
    for n in others:
        assert (n in table, n in numbers, table.get(n)) == (n in lines, n in lines, lines.get(n))
    assert numbers & others == frozenset(lines) & others
    assert numbers | others == frozenset(lines) | others
    assert numbers - others == frozenset(lines) - others
    assert bool(numbers) == bool(lines) and hash(numbers) == hash(frozenset(lines))
    assert list(numbers.ordered()) == sorted(lines)
    assert all(w in joined(table) for w in lines.values())


def test_a_long_new_file_is_kept_compressed_and_read_back_exactly() -> None:
    import tracemalloc

    lines = {n: f"    value_{n} = compute(value_{n - 1}, '\udc80\u00e9')" for n in range(1, 3001)}
    tracemalloc.start()
    try:
        table = LineTable(lines)
        kept = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert kept < sum(map(len, lines.values())) / 4  # not the text, nor a number per line
    assert dict(table) == lines and joined(table) == "".join(lines.values())


def test_compressed_tables_read_in_turn_each_give_their_own_lines() -> None:
    tables = [LineTable({n: f"table {t} line {n} " * 8 for n in range(1, 40)}) for t in range(9)]
    for _ in range(2):  # more tables than are kept open, read round and round
        for t, table in enumerate(tables):
            assert table[7] == f"table {t} line 7 " * 8 and len(joined(table)) > 2048


def test_a_whole_new_file_keeps_its_numbers_as_a_range() -> None:
    table = LineTable({n: f"line {n}" for n in range(1, 1001)})
    assert isinstance(table.numbers().ordered(), range) and table[1000] == "line 1000"
    with pytest.raises(KeyError):
        table[1001]


# --- reads from git ----------------------------------------------------------------------


def test_blobs_read_in_batches_come_back_in_order_whatever_each_is(repo: GitRepo) -> None:
    files = {f"d/f{n}.txt": f"content {n}\n" * (n % 3) for n in range(300)}
    head = repo.commit({**files, "big.bin": "x" * 5000, "sub/x.py": "1\n"})
    specs = [f"{head}:d/f{n}.txt" for n in range(300)]
    specs[7] = f"{head}:missing.txt"
    specs[8] = f"{head}:sub"  # a tree, not a blob
    specs[9] = f"{head}:big.bin"
    with Git(repo.path) as git:
        got = git.read_blobs(specs, 4000)
        one_by_one = [git.read_blob(spec, 4000) for spec in specs]
    assert got[0] == b"" and got[1] == b"content 1\n" and got[299] == b"content 299\n" * 2
    assert got[7] is None and got[8] is None and isinstance(got[9], BlobTooLarge)
    assert [g if not isinstance(g, BlobTooLarge) else g.size for g in got] == [
        o if not isinstance(o, BlobTooLarge) else o.size for o in one_by_one
    ]


def test_a_tree_read_through_the_batch_reader_lists_names_and_kinds(repo: GitRepo) -> None:
    head = repo.commit({"a/b.py": "1\n", "a/c/d.txt": "2\n", "a/é x.md": "3\n"})
    (repo.path / "a" / "link").symlink_to("b.py")
    repo.git("add", "-A")
    repo.git("commit", "-q", "-m", "link")
    with Git(repo.path) as git:
        entries = {e.name: (e.mode, e.is_tree) for e in git.read_tree("HEAD:a") or ()}
        assert git.read_tree(f"{head}:nothing") is None
        assert git.read_tree(f"{head}:a/b.py") is None  # a blob is no tree
        root = {e.name for e in git.read_tree(f"{head}:") or ()}
    assert entries == {
        "b.py": (b"100644", False),
        "c": (b"40000", True),
        "é x.md": (b"100644", False),
        "link": (b"120000", False),
    }
    assert root == {"a"}


def test_probes_fetched_ahead_read_as_one_by_one(repo: GitRepo) -> None:
    base = repo.commit({"a/conftest.py": "X = 1\n", "pytest.ini": "[pytest]\n"})
    head = repo.commit({"a/test_x.py": "def test_x():\n    assert 1\n"})
    names = ["a/conftest.py", "pytest.ini", "a/missing.py", "tox.ini", "a/test_x.py"]
    with change_between(repo, base, head) as change:
        change.prefetch_head(names)
        ahead = [change.read_head(n) for n in names]
    with change_between(repo, base, head) as change:
        single = [change.read_head(n) for n in names]
    assert [s and s.data for s in ahead] == [s and s.data for s in single]
    assert [s is not None for s in ahead] == [True, True, False, False, True]


# --- queries answered by a walk ----------------------------------------------------------

_SOURCES = [
    "import { a, b as c } from './x';\nexport * from './y';\nconst f = () => a(c);\n"
    "function g(p) { try { f(); } catch (e) { throw new Error(e); } }\n"
    "class K { @dec() m(q) { return q; } }\n// note\nconst s = `t${1}` + 'u' + /r/;\n",
    "describe('s', () => {\n  it('t', async () => { await x(); expect(y).toBe(1); });\n"
    "  for (const k in o) { z += k; }\n  let w; w = 2; w += 3;\n});\n",
    "export function broken( {\n  return [1, 2\n}\nimport { q } from 'q'\n@x class\n",
    "const a = require('./a'), r = requirex('./r');\nimport('./b').then(m => m.require('c'));\n",
]
_QUERIES = [
    "(import_statement) @stmt (export_statement source: (_)) @stmt",
    "(comment) @comment (string) @string (template_string) @verbatim (regex) @verbatim",
    "(decorator) @decorator",
    "(variable_declarator value: [(arrow_function) (function_expression)] @fnvalue)",
    "(call_expression function: (_) @callee) (new_expression) @new"
    " (catch_clause parameter: (_) @b)",
    "[(identifier) (property_identifier)] @name",
    '(call_expression function: (identifier) @fn (#eq? @fn "require")) @call',
    "(call_expression function: (import)) @call",
]


@pytest.mark.parametrize("language", ["javascript", "typescript", "tsx"])
@pytest.mark.parametrize("query", _QUERIES)
def test_a_walk_gives_the_compiled_querys_captures(language: str, query: str) -> None:
    patterns = parse_patterns(query)
    assert patterns is not None and names_known(patterns, js.grammar(language))
    for source in _SOURCES:
        for data in (source.encode(), source.encode()[: len(source) // 2]):
            root = js.parse(data, language).root_node
            want = QueryCursor(js.query(language, query)).captures(root)
            got = matches(patterns, root)
            # the same nodes, in source order (QueryCursor's own order is not, nor stable)
            assert {k: [n.id for n in v] for k, v in got.items()} == {
                k: [n.id for n in sorted(v, key=source_order)] for k, v in want.items()
            }


@pytest.mark.parametrize(
    "query",
    [
        '((identifier) @cjs (#eq? @cjs "exports"))',  # a predicate
        "(call_expression function: (identifier) @f arguments: (_) @a)",  # two fields
        '"(" @paren',  # an anonymous node
        "(program (comment) @c)",  # a nested pattern
    ],
)
def test_a_query_the_walk_does_not_answer_is_compiled(query: str) -> None:
    assert parse_patterns(query) is None


def test_a_name_the_grammar_lacks_is_left_to_the_compiler() -> None:
    patterns = parse_patterns("(module name: (string) @name)")
    assert patterns is not None
    assert names_known(patterns, js.grammar("typescript"))
    assert not names_known(patterns, js.grammar("javascript"))


# --- progress -------------------------------------------------------------------------------


def test_the_engine_says_how_far_each_analyzer_is(repo: GitRepo) -> None:
    base = repo.commit({f"tests/test_{n}.py": "def test_x():\n    assert 1\n" for n in range(5)})
    head = repo.commit({f"tests/test_{n}.py": "def test_x():\n    pass\n" for n in range(5)})
    told: list[tuple[str, int, int]] = []
    with change_between(repo, base, head) as change:
        analyze(change, only=["assertion-free-test"], progress=lambda *t: told.append(t))
    assert told == [("assertion-free-test", n, 5) for n in range(1, 6)]


def test_progress_lines_name_the_lens_the_analyzer_and_the_count(tmp_path: Path) -> None:
    import io

    from tribunal.hooks import progress as progress_module

    stream = io.StringIO()
    progress = progress_module.Progress(stream, enabled=True)
    progress.files("symbols", "hallucinated-symbol", 1, 20_000)  # too soon: nothing yet
    progress._last_files -= progress_module.HEARTBEAT_S
    progress.files("symbols", "hallucinated-symbol", 12_000, 20_000)
    assert stream.getvalue() == "tribunal:   symbols: hallucinated-symbol, 12,000 of 20,000 files\n"


def test_find_gives_the_same_whether_it_walks_or_runs_the_compiled_query() -> None:
    query = _QUERIES[4] + "  "  # a key of its own: nothing walked or compiled for it yet
    root = js.parse(_SOURCES[0].encode() + _SOURCES[1].encode(), "typescript").root_node
    walked = js.find("typescript", query, root)
    js.query("typescript", query)  # compiled from now on
    compiled = js.find("typescript", query, root)
    assert walked and {k: [n.id for n in v] for k, v in walked.items()} == {
        k: [n.id for n in v] for k, v in compiled.items()
    }
