"""A generated history with the noise patterns measured on real projects, and real problems.

The patterns (from code nobody wrote for this tool): a library named after its
main function, whose comments say the library's name everywhere; functions
named like ordinary words (``load``); docstrings and comments elsewhere that
name a function in prose; refactors that only rename locals; a JS/TS project
without ``node_modules`` (a fresh clone, CI before the install step) whose
test files all import ``vitest``. Between them, commits that plant a real
problem (a signature change under a comment that still describes the old one,
an undeclared or misspelled package, a risky change with no test) with the
finding that must still appear: that is the recall half of the benchmark.

Ordinary commits (a helper added or fixed, a test, docs) make up about half of
it, as they do on the projects measured. Everything is generated from fixed
text, so two runs build the same history.
"""

from __future__ import annotations

from typing import NamedTuple

Files = dict[str, str | None]


class Step(NamedTuple):
    """One commit: the files it writes (None deletes) and the findings it must produce.

    ``expect`` holds (analyzer, text in the title or a listed place) pairs: each
    must match an UNVERIFIED or CONTRADICTED finding of that commit.
    """

    name: str
    files: Files
    expect: tuple[tuple[str, str], ...] = ()


PROSE = [
    "# tally keeps the counts in a dict; tally is fast enough for {n} rows",
    "# see the tally docs: tally never mutates its input ({n})",
    "# the tally command line prints what tally returns ({n})",
]


def _prose(lines: int, offset: int = 0) -> str:
    return "".join(PROSE[(i + offset) % 3].format(n=i) + "\n" for i in range(lines))


def _module(lines: int, offset: int, body: str) -> str:
    return f'"""Part of tally: tally helpers ({offset})."""\n\n{_prose(lines, offset)}\n{body}'


TALLY_HEAD = '''"""tally: count things. tally is the whole library; tally(items) counts them."""

'''
TALLY_BODY = '''
# tally is the main entry point
def tally(items, key=None):
    """Count the items; tally returns a dict."""
    counts = {}
    for item in items:
        name = key(item) if key else item
        counts[name] = counts.get(name, 0) + 1
    return counts
'''
#: The library's own module: 70 comment lines say "tally", as real ones do.
TALLY = TALLY_HEAD + _prose(66) + TALLY_BODY

UTIL = '''"""Small helpers: load the file, then parse_row on every line."""


# load the rows from disk; load is lazy
def load(path):
    with open(path) as handle:
        return handle.read().splitlines()


# parse_row splits one line on commas
def parse_row(line):
    return line.split(",")


def format_row(cells):
    """format_row joins the cells with commas."""
    return ",".join(cells)


def widths(rows):
    """The width of each column, for aligned output."""
    result = []
    for row in rows:
        for index, cell in enumerate(row):
            if index >= len(result):
                result.append(0)
            result[index] = max(result[index], len(cell))
    return result
'''

PACKAGE_JSON = """{
  "name": "tally-web",
  "private": true,
  "devDependencies": {"vitest": "^1.6.0", "typescript": "^5.4.0"}
}
"""

SUM_TS = """// sumAll adds every value up
export function sumAll(values: number[]): number {
  let total = 0;
  for (const v of values) total += v;
  return total;
}

// mean: the average, or 0 for no values
export function mean(values: number[]): number {
  return values.length ? sumAll(values) / values.length : 0;
}
"""


def _test_ts(n: int) -> str:
    return (
        "import { describe, it, expect } from 'vitest';\n"
        "import { sumAll } from './sum';\n\n"
        f"describe('sum {n}', () => {{\n"
        f"  it('adds {n}', () => {{\n    expect(sumAll([{n}, 1])).toBe({n + 1});\n  }});\n}});\n"
    )


BASE: Files = {
    "pyproject.toml": '[project]\nname = "tally"\nversion = "1.0"\ndependencies = []\n',
    "tally/__init__.py": TALLY,
    "tally/util.py": UTIL,
    **{f"tally/part{i}.py": _module(20, i, f"PART = {i}\n") for i in range(4)},
    "web/package.json": PACKAGE_JSON,
    "web/src/sum.ts": SUM_TS,
    "web/src/sum.test.ts": _test_ts(0),
}


def _edited_everywhere(n: int) -> Files:
    """An edit to tally's body (70 comment lines in its module say "tally") and to the
    modules that talk about it."""
    files: Files = {"tally/__init__.py": TALLY.replace("+ 1", f"+ {n + 1}")}
    for i in range(4):
        files[f"tally/part{i}.py"] = _module(20, i, f"PART = {i + 10 * n}\n")
    return files


def steps() -> list[Step]:
    """The history, in order, after ``BASE``."""
    out = [
        Step("library named after its main function: body edit", _edited_everywhere(1)),
        Step(
            "ordinary word: load edited",
            {"tally/util.py": UTIL.replace("handle.read()", "handle.read().strip()")},
        ),
        Step(
            "fresh clone: five test files import vitest",
            {f"web/src/t{i}.test.ts": _test_ts(i) for i in range(1, 6)},
            (("hallucinated-symbol", "package 'vitest' is not installed"),),
        ),
        Step(
            "refactor: locals renamed",
            {"tally/util.py": UTIL.replace("result", "out").replace("index", "i")},
        ),
        Step(
            "JS refactor: locals renamed",
            {"web/src/sum.ts": SUM_TS.replace("total", "acc")},
        ),
        Step("library named after its main function: second edit", _edited_everywhere(2)),
        Step(
            "real: signature change under a stale comment",
            {
                "tally/util.py": UTIL.replace(
                    "def parse_row(line):", "def parse_row(line, sep):"
                ).replace('line.split(",")', "line.split(sep)")
            },
            (("comment-code-drift", "'parse_row'"),),
        ),
        Step(
            "real: misspelled package",
            {
                "tally/net.py": "import reqeusts\n\n\ndef fetch(url):\n"
                "    return reqeusts.get(url)\n"
            },
            (("hallucinated-symbol", "'reqeusts'"),),
        ),
        Step(
            "real: undeclared JS package in three files",
            {
                f"web/src/pad{i}.ts": f"import {{ pad }} from 'lodahs';\nexport const p{i} = pad;\n"
                for i in range(3)
            },
            (("hallucinated-symbol", "'lodahs'"),),
        ),
        Step(
            "real: docstring that describes the old body",
            {"tally/util.py": _util_after_steps()},
            (("comment-code-drift", "'format_row'"),),
        ),
        Step(
            "real: risky change without a test",
            {"tally/auth.py": "def check_token(token, secret):\n    return token == secret\n"},
            (("risky-diff-no-test", "auth"),),
        ),
        Step(
            "vitest again: two more test files",
            {f"web/src/more{i}.test.ts": _test_ts(10 + i) for i in range(2)},
            (("hallucinated-symbol", "package 'vitest' is not installed"),),
        ),
        Step("docs only", {"README.md": "# tally\n\nCounts things.\n"}),
        Step(
            "a new function with its own comment",
            {
                "tally/extra.py": "# top_n: the n most common\ndef top_n(counts, n):\n"
                "    return sorted(counts, key=counts.get, reverse=True)[:n]\n"
            },
        ),
        Step(
            "a new test",
            {
                "tests/test_tally.py": "from tally import tally\n\n\ndef test_tally():\n"
                "    assert tally('aab') == {'a': 2, 'b': 1}\n"
            },
        ),
    ]
    for n in range(3, 8):  # the pattern seen most: the library's own function, edited again
        out.append(Step(f"library named after its main function: edit {n}", _edited_everywhere(n)))
    for n in range(3):
        out.append(
            Step(
                f"vitest in a fresh clone: test file {n}",
                {f"web/src/again{n}.test.ts": _test_ts(20 + n)},
                (("hallucinated-symbol", "package 'vitest' is not installed"),),
            )
        )
    out += [_ordinary(n) for n in range(16)]
    out.append(
        Step(
            "JS mean edited: its comment is right above it",
            {"web/src/sum.ts": SUM_TS.replace("/ values.length : 0", "/ values.length : NaN")},
            (("comment-code-drift", "'mean'"),),
        )
    )
    return out


def _ordinary(n: int) -> Step:
    """A commit like most: a fix or a feature in code no comment talks about, a test, docs."""
    kind = n % 4
    if kind == 0:
        body = f"def scale_{n}(values, factor):\n    return [v * factor for v in values]\n"
        return Step(f"ordinary: new helper {n}", {f"tally/ops{n}.py": body})
    if kind == 1:
        body = f"def scale_{n - 1}(values, factor):\n    return [v * factor + 0 for v in values]\n"
        return Step(f"ordinary: fix in helper {n - 1}", {f"tally/ops{n - 1}.py": body})
    if kind == 2:
        test = f"from tally.ops{n - 2} import scale_{n - 2}\n\n\ndef test_scale_{n}():\n"
        test += f"    assert scale_{n - 2}([1], 2) == [2]\n"
        return Step(f"ordinary: test for helper {n - 2}", {f"tests/test_ops{n}.py": test})
    ts = f"export function clamp{n}(x: number, lo: number, hi: number): number {{\n"
    ts += f"  return Math.min(hi, Math.max(lo, x + {n} - {n}));\n}}\n"
    return Step(f"ordinary: TS helper {n}", {f"web/src/clamp{n}.ts": ts})


def _util_after_steps() -> str:
    """util.py after the earlier steps, with format_row's separator changed."""
    text = UTIL.replace("handle.read()", "handle.read().strip()")
    text = text.replace("result", "out").replace("index", "i")
    text = text.replace("def parse_row(line):", "def parse_row(line, sep):")
    text = text.replace('line.split(",")', "line.split(sep)")
    return text.replace('return ",".join(cells)', 'return ";".join(cells)')
