"""comment-code-drift does only the work a finding could come from (issue 18).

Only a declaration some unchanged comment line names can be reported, so it
alone is normalized and compared up to renamed locals; each side of a file is
parsed once, and a file is read again only when its text spells a name that
matters. None of this may change a finding: the corpus and ``test_drift``
pin those, and here the economy itself is counted through real runs (the real
normalizers, wrapped to count their calls) so that losing it fails a test.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

from tests.engine_helpers import Files, change_between, run_range
from tests.gitrepo import GitRepo
from tribunal.analyzers.comment_code_drift.changes import changed_decls
from tribunal.analyzers.comment_code_drift.spelled import Spelling
from tribunal.analyzers.comment_code_drift.words import CommentWords
from tribunal.change.model import Source
from tribunal.engine.runner import analyze
from tribunal.lang import tree_cache
from tribunal.lang.comments import may_have_comments
from tribunal.lang.js import decls as js_decls
from tribunal.lang.js import syntax as js
from tribunal.lang.python import decls as py_decls

ID = "comment-code-drift"
FILES = 6
MANY = [f"x{i}" for i in range(30)]


def _ts(n: int, factor: int) -> str:
    return (
        f"// Helpers for the pipeline, part {n}.\n"
        f"export function step{n}(value: number): number {{\n"
        f"  const total = value * {factor};\n  return total + {n};\n}}\n\n"
        f"export function scale{n}(value: number): number {{\n  return value / {factor};\n}}\n"
    )


def _py(n: int, factor: int) -> str:
    return (
        f'"""Helpers for the pipeline, part {n}."""\n\n\n'
        f"def fold_{n}(value):\n    # keep it small\n    total = value * {factor}\n"
        f"    return total + {n}\n\n\nNAME_{n} = 'part {n}'\n"
    )


def _change(mention: str, factor: int) -> Files:
    files: Files = {f"web/s{n}.ts": _ts(n, factor) for n in range(FILES)}
    files |= {f"lib/p{n}.py": _py(n, factor) for n in range(FILES)}
    files["z_notes.py"] = f"# {mention}\nLEVEL = {factor}\n"  # compared after the others
    return files


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """Names of the declarations the real normalizers were asked about, counted."""
    calls: Counter[str] = Counter()

    def counting(module: object, attr: str) -> None:
        real = getattr(module, attr)

        def wrapper(decl: Any, *args: Any) -> str:
            calls[f"{attr}:{decl.name}"] += 1
            text: str = real(decl, *args)
            return text

        monkeypatch.setattr(module, attr, wrapper)

    for module in (js_decls, py_decls):
        counting(module, "normalized")
        counting(module, "normalized_up_to_locals")
    return calls


@pytest.fixture
def two_trees() -> Iterator[None]:
    """A cache of two trees: a file read again is parsed again, and counted."""
    tree_cache.configure(max_trees=2)
    yield
    tree_cache.configure()


def test_only_declarations_a_comment_names_are_normalized(
    repo: GitRepo, counted: Counter[str]
) -> None:
    mention = "see step2, fold_4 and NAME_1"  # NAME_1 is the same at head
    found = run_range(repo, _change(mention, 2), _change(mention, 3), ID)
    assert sorted(f.title for f in found) == [
        "1 comment line may describe the old 'fold_4' (edited)",
        "1 comment line may describe the old 'step2' (edited)",
    ]
    # every other function changed too, and none was normalized or compared; nor was
    # NAME_1: the same bytes are the same code
    assert {key.split(":")[1] for key in counted} == {"step2", "fold_4"}
    assert counted["normalized_up_to_locals:step2"] == 2  # texts differ: locals compared


def _parsed(repo: GitRepo, base: Files, head: Files) -> tuple[list[str], int]:
    """Drift's finding titles between two commits of these files, and the trees it parsed."""
    with change_between(repo, repo.commit(base, "base"), repo.commit(head, "head")) as change:
        report = analyze(change, only=[ID])
        assert report.errors == ()
        return [f.title for f in report.findings], change.tree_cache().stats().misses


def test_each_side_is_parsed_once_when_no_comment_names_a_changed_declaration(
    repo: GitRepo, counted: Counter[str], two_trees: None
) -> None:
    found, parses = _parsed(repo, _change("nothing here", 2), _change("nothing here", 3))
    assert found == []
    assert parses == 2 * (2 * FILES + 1)  # every changed file, both sides, once each
    assert not counted


def test_nothing_is_parsed_when_no_changed_file_has_a_comment(repo: GitRepo) -> None:
    bare = {f"web/s{n}.ts": _ts(n, 2).split("\n", 1)[1] for n in range(FILES)}
    head = {path: text.replace("* 2", "* 3") for path, text in bare.items()}
    assert _parsed(repo, bare, head) == ([], 0)


def test_a_file_moved_unchanged_is_not_parsed(repo: GitRepo) -> None:
    moved: dict[str, str | None] = {f"web/s{n}.ts": None for n in range(FILES)}
    moved |= {f"app/s{n}.ts": _ts(n, 2) for n in range(FILES)}  # git sees renames
    head = {**moved, "z_notes.py": "# nothing here\nLEVEL = 3\n"}
    assert _parsed(repo, _change("nothing here", 2), head) == ([], 2)  # z_notes.py only


def test_a_file_is_read_again_only_when_it_spells_a_name_that_matters(
    repo: GitRepo, two_trees: None
) -> None:
    found, parses = _parsed(repo, _change("`scale5` divides", 2), _change("`scale5` divides", 3))
    assert found == ["1 comment line may describe the old 'scale5' (edited)"]
    # Both sides of every file once; then both sides of web/s5.ts again, to compare
    # scale5 once z_notes.py (compared last) named it, and z_notes.py's head for the
    # judge. The cache holds one tree besides the first: each read again is a parse.
    assert parses == 2 * (2 * FILES + 1) + 3


def test_the_words_leave_out_exactly_the_declarations_no_comment_names(repo: GitRepo) -> None:
    base: Files = {
        "a.py": "class Reader:\n    def parse_row(self, r):\n        return r\n\n\n"
        "def quiet(x):\n    return x\n\n\ndef gone_one(x):\n    return x\n",
        "b.ts": "// Writer.parse_row and gone_one\nexport function moved(a) {\n  return a;\n}\n"
        "export function edited(a) {\n  return a + 1;\n}\n",
    }
    head: Files = {
        "a.py": "class Reader:\n    def parse_row(self, r):\n        return r.strip()\n\n\n"
        "def quiet(x):\n    return -x\n",
        "b.ts": "// Writer.parse_row and gone_one\n"
        "export function edited(a) {\n  return a + 2;\n}\n",
        "d.ts": "export function moved(a) {\n  return a * 2;\n}\n",
    }
    with change_between(repo, repo.commit(base, "base"), repo.commit(head, "head")) as change:
        files = change.analyzable(("python", "javascript", "typescript", "tsx"))
        every = changed_decls(change, files).changed
        named = changed_decls(change, files, CommentWords(change)).changed
    assert [d.qualname for d in every] == [
        "Reader.parse_row",
        "quiet",
        "edited",
        "gone_one",
        "moved",
    ]
    assert [d.how for d in every][-1] == "moved and edited"
    assert named == [d for d in every if d.name in {"parse_row", "gone_one"}]


@pytest.mark.parametrize(
    ("path", "data", "names", "expected"),
    [
        ("a.ts", b"// see parseHeader\n", ["parseHeader"], True),
        ("a.ts", b"// see parseHead\n", ["parseHeader"], False),
        ("a.ts", "// caf\u00e9 parseHeader\n".encode(), ["parseHeader"], True),
        ("a.ts", "// caf\u00e9\n".encode(), ["caf\u00e9"], True),  # not ASCII: never ruled out
        ("a.py", b"# see fold_1\n", ["fold_1"], True),
        ("a.py", b"# see fold\n", ["fold_1"], False),
        ("a.py", "def \ufb01le():\n    pass\n".encode(), ["file"], True),  # NFKC: declares file
        ("a.py", b"# coding: utf-7\ndef +AGE-():\n", ["a"], True),  # the bytes are not the text
        (
            "a.ts",
            b"// " + b" ".join(b"w%d" % i for i in range(40)),
            [f"x{i}" for i in range(30)],
            False,
        ),
        ("a.ts", b"// w7 x29", [f"x{i}" for i in range(30)], True),
    ],
)
def test_spelling_rules_out_only_what_is_certainly_absent(
    path: str, data: bytes, names: list[str], expected: bool
) -> None:
    assert Spelling(names).could_be_in(Source(path, data)) is expected


@pytest.mark.parametrize(
    "code",
    [
        b"<!-- an html comment\nlet a = 1;\n--> another\n",
        b"#!/usr/bin/env node\nconst re = /[a]*/g;\n",
        b"const s = `a ${b} c`; const t = 'x' + \"y\";\n",
        b'const view = <div title="a">{value}</div>;\n',
    ],
)
@pytest.mark.parametrize("language", js.GRAMMARS)
def test_a_js_file_without_comment_markers_has_no_comment_node(code: bytes, language: str) -> None:
    tree = js.parse(code, language)
    assert not js.find(language, "(comment) @c", tree.root_node).get("c")
    assert not may_have_comments(Source("a.js", code), language)


def test_a_line_naming_a_shared_name_is_weighed_once_not_per_declaration(
    repo: GitRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One codemod edits ``render`` in every component; each one's comment is about it alone."""
    from tribunal.analyzers.comment_code_drift import judge

    measured: Counter[str] = Counter()
    real = judge.near_lines

    def counting(change: Any, decl: Any, fc: Any) -> frozenset[int]:
        measured[f"{decl.path} in {fc.path}"] += 1
        return real(change, decl, fc)

    monkeypatch.setattr(judge, "near_lines", counting)

    def component(n: int, variant: int) -> str:
        return (
            f"export class View{n} {{\n  // `render` draws part {n}\n"
            f"  render() {{ return {variant}; }}\n}}\n"
        )

    base = {f"v{n}.ts": component(n, 1) for n in range(FILES)}
    head = {f"v{n}.ts": component(n, 2) for n in range(FILES)}
    found = run_range(repo, base, head, ID)
    assert sorted((f.group, f.line) for f in found) == [
        (f"v{n}.ts:View{n}.render", 2) for n in range(FILES)
    ]
    # only each file's own declaration is measured against its line, not all of them
    assert measured == Counter({f"v{n}.ts in v{n}.ts": 1 for n in range(FILES)})
