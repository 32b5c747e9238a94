"""comment-code-drift: comments that mention declarations the change edited or removed."""

from __future__ import annotations

import subprocess

import pytest

from tests.engine_helpers import Files, change_for, run_range, src
from tests.gitrepo import GitRepo
from tribunal.analyzers.comment_code_drift.generic import is_generic
from tribunal.analyzers.grouping import locations
from tribunal.engine.runner import analyze
from tribunal.engine.sources import Selection
from tribunal.findings import Finding, Verdict

ID = "comment-code-drift"

GREET_PY = src(
    '''
    """Greeting helpers: see greet_user."""

    TIMEOUT = 30
    LIMIT = 2 * TIMEOUT  # twice TIMEOUT


    def greet_user(name):
        """greet_user returns a friendly greeting."""
        # greet_user never raises
        return "hi " + name


    def run(x):
        return x
    '''
)


def drift(repo: GitRepo, base: Files, head: Files) -> list[Finding]:
    found = run_range(repo, base, head, ID)
    assert all(f.verdict is Verdict.UNVERIFIED for f in found)
    return found


def lines(found: list[Finding]) -> list[int | None]:
    """Every comment line the findings list, in order."""
    return sorted(place.line or 0 for f in found for place in locations(f))


def test_python_body_edit_is_one_finding_listing_its_comment_lines(repo: GitRepo) -> None:
    head = GREET_PY.replace('"hi " + name', '"hello " + name')
    (finding,) = drift(repo, {"greet.py": GREET_PY}, {"greet.py": head})
    assert (finding.file, finding.line) == ("greet.py", 1)
    assert [(r.file, r.line) for r in finding.related] == [("greet.py", 8), ("greet.py", 9)]
    assert finding.title == "3 comment lines may describe the old 'greet_user' (edited)"
    assert "greet_user (greet.py:7) was edited" in finding.detail
    assert "greet.py:9  # greet_user never raises" in finding.detail
    assert finding.group == "greet.py:greet_user"


def test_module_constant_change_flags_its_end_of_line_comment(repo: GitRepo) -> None:
    head = GREET_PY.replace("TIMEOUT = 30", "TIMEOUT = 60")
    (finding,) = drift(repo, {"greet.py": GREET_PY}, {"greet.py": head})
    assert finding.line == 4 and "'TIMEOUT'" in finding.title


def test_a_comment_on_the_edited_line_itself_is_fresh(repo: GitRepo) -> None:
    base = "LIMIT = 3  # LIMIT caps retries\n"
    assert drift(repo, {"m.py": base}, {"m.py": base.replace("3", "5")}) == []


def test_freshly_added_comment_lines_are_skipped(repo: GitRepo) -> None:
    head = GREET_PY.replace('"hi " + name', '"hello " + name').replace(
        "# greet_user never raises", "# greet_user never raises; says hello now"
    )
    assert lines(drift(repo, {"greet.py": GREET_PY}, {"greet.py": head})) == [1, 8]


def test_generic_names_need_more_than_a_bare_word(repo: GitRepo) -> None:
    base = GREET_PY.replace("def run(x):", "# run the job\ndef run(x):")
    head = base.replace("return x", "return x * 2")
    assert drift(repo, {"greet.py": base}, {"greet.py": head}) == []


def test_generic_name_written_as_code_above_its_definition_counts(repo: GitRepo) -> None:
    base = GREET_PY.replace("def run(x):", "# `run` doubles nothing\ndef run(x):")
    head = base.replace("return x", "return x * 2")
    (finding,) = drift(repo, {"greet.py": base}, {"greet.py": head})
    assert finding.line == 13 and "'run'" in finding.title


@pytest.mark.parametrize("name", ["run", "get", "data", "id", "__init__", "Value"])
def test_generic_words(name: str) -> None:
    assert is_generic(name)


def test_removed_or_renamed_function(repo: GitRepo) -> None:
    head = GREET_PY.replace("def greet_user(name):", "def welcome_user(name):")
    found = drift(repo, {"greet.py": GREET_PY}, {"greet.py": head})
    assert lines(found) == [1, 8, 9]
    assert "removed or renamed" in found[0].detail


def test_formatting_comments_and_docstrings_are_not_changes(repo: GitRepo) -> None:
    head = GREET_PY.replace('"hi " + name', "'hi ' +  name  # hi").replace(
        '"""greet_user returns a friendly greeting."""', '"""greet_user greets."""'
    )
    assert drift(repo, {"greet.py": GREET_PY}, {"greet.py": head}) == []


def test_moved_unchanged_to_another_file_is_not_a_change(repo: GitRepo) -> None:
    func = "def greet_user(name):\n    return 'hi ' + name\n"
    base = {"a.py": "# see greet_user\n" + func, "b.py": "X = 1\n"}
    head = {"a.py": "# see greet_user\nfrom b import greet_user\n", "b.py": "X = 1\n" + func}
    assert drift(repo, base, head) == []


def test_code_shaped_mentions_in_other_changed_files_count(repo: GitRepo) -> None:
    base = {
        "lib.py": "def parse_header(h):\n    return h\n",
        "use.py": "# calls parse_header\nX = 1\n",
    }
    head = {
        "lib.py": "def parse_header(h):\n    return h.strip()\n",
        "use.py": "# calls parse_header\nX = 2\n",
    }
    (finding,) = drift(repo, base, head)
    assert (finding.file, finding.line) == ("use.py", 1)


def test_a_method_edit_does_not_flag_its_class(repo: GitRepo) -> None:
    base = "# Greeter: greet_all\nclass Greeter:\n    def greet_all(self):\n        return 1\n"
    head = base.replace("return 1", "return 2")
    (finding,) = drift(repo, {"g.py": base}, {"g.py": head})
    assert "'greet_all'" in finding.title and "Greeter" not in finding.title


def test_silent_without_a_base(repo: GitRepo) -> None:
    repo.commit({"greet.py": GREET_PY}, "base")
    repo.write({"greet.py": GREET_PY.replace("hi", "hello")})
    diff = subprocess.run(["git", "diff"], cwd=repo.path, capture_output=True, check=True).stdout
    patch = repo.path.parent / "plain.diff"
    patch.write_bytes(diff.replace(b"index ", b"x-index "))
    with change_for(repo, Selection(diff=str(patch))) as change:
        change.base = None
        assert analyze(change, only=[ID]).findings == ()


# --- JS/TS -----------------------------------------------------------------------------

GREET_TS = src(
    """
    // greet: returns a friendly greeting
    export function greet() { return 'hi'; }

    /**
     * Formats with greet and shout.
     */
    export const shout = (s: string) => /* shout is pure */
      s.toUpperCase();

    export class Speaker {
      /** speak: delegates to greet */
      speak() { return greet(); }
    }
    """
)


def test_seed_example_body_change(repo: GitRepo) -> None:
    head = GREET_TS.replace("return 'hi';", "return 'hello';")
    (finding,) = drift(repo, {"src/greet.ts": GREET_TS}, {"src/greet.ts": head})
    # Line 1 sits above greet. Lines 5 and 11 say "greet" as a bare word in the JSDoc of
    # other declarations (shout, speak): not about greet.
    assert lines([finding]) == [1] and "'greet'" in finding.title


def test_jsdoc_and_block_comments_count(repo: GitRepo) -> None:
    base = GREET_TS.replace("greet and shout.", "greet and `shout`.").replace(
        "/* shout is pure */", "/* shout() is pure */"
    )
    head = base.replace("s.toUpperCase()", "s.toUpperCase() + '!'")
    found = drift(repo, {"src/greet.ts": base}, {"src/greet.ts": head})
    assert lines(found) == [5, 7]


def test_a_plain_word_name_needs_marking_even_next_to_its_definition(repo: GitRepo) -> None:
    head = GREET_TS.replace("s.toUpperCase()", "s.toUpperCase() + '!'")
    assert drift(repo, {"src/greet.ts": GREET_TS}, {"src/greet.ts": head}) == []


def test_prose_parentheses_are_not_a_call(repo: GitRepo) -> None:
    base = '# keeps a digest (one per row)\ndef digest(data):\n    """A digest of data."""\n'
    base += "    return hash(data)\n"
    head = base.replace("hash(data)", "hash(repr(data))")
    assert drift(repo, {"d.py": base}, {"d.py": head}) == []


def test_quote_style_and_comment_edits_are_not_changes(repo: GitRepo) -> None:
    head = GREET_TS.replace("return 'hi';", 'return "hi"; // same').replace(
        "speak() { return greet(); }", "speak() {\n    return greet();\n  }"
    )
    assert drift(repo, {"src/greet.ts": GREET_TS}, {"src/greet.ts": head}) == []


def test_js_method_rename(repo: GitRepo) -> None:
    head = GREET_TS.replace("speak()", "talk()")
    (finding,) = drift(repo, {"src/greet.ts": GREET_TS}, {"src/greet.ts": head})
    assert finding.line == 11 and "removed or renamed" in finding.detail


def test_plain_words_in_other_files_count_only_when_written_as_code(repo: GitRepo) -> None:
    base = {
        "lib.py": "def digest(data):\n    return hash(data)\n",
        "prose.py": "# keeps a digest of the input\nX = 1\n",
        "code.py": "# calls `digest` on every row\nY = 1\n",
    }
    head = {
        "lib.py": "def digest(data):\n    return hash(repr(data))\n",
        "prose.py": "# keeps a digest of the input\nX = 2\n",
        "code.py": "# calls `digest` on every row\nY = 2\n",
    }
    (finding,) = drift(repo, base, head)
    assert finding.file == "code.py"


def test_class_attributes_are_not_declarations(repo: GitRepo) -> None:
    base = {"m.py": "# the added lines\nclass Section:\n    added: int = 0\n"}
    head = {"m.py": "# the added lines\nclass Section:\n    added: int = 1\n"}
    assert drift(repo, base, head) == []


def test_methods_of_a_renamed_class_are_not_changed(repo: GitRepo) -> None:
    base = {
        "a.py": "# see render_rows\nclass _Table:\n    def render_rows(self):\n        return 1\n"
    }
    head = {
        "a.py": "# see render_rows\nclass Table:\n    def render_rows(self):\n        return 1\n"
    }
    assert drift(repo, base, head) == []


# --- what counts as a change ------------------------------------------------------------

RENAMES_PY = src(
    """
    # total_of adds the items up
    def total_of(items, start=0):
        total = start
        for item in items:
            total += item
        return total
    """
)


def test_renamed_locals_and_formatting_are_not_a_change(repo: GitRepo) -> None:
    head = src(
        """
        # total_of adds the items up
        def total_of(items, start=0):
            acc = start
            for x in items:
                acc  +=  x
            return acc
        """
    )
    assert drift(repo, {"t.py": RENAMES_PY}, {"t.py": head}) == []


def test_a_renamed_local_that_now_shadows_a_global_is_a_change(repo: GitRepo) -> None:
    base = "# pick_one calls choose\ndef pick_one(xs):\n    y = choose(xs)\n    return y\n"
    head = (
        "# pick_one calls choose\ndef pick_one(xs):\n    choose = choose(xs)\n    return choose\n"
    )
    (finding,) = drift(repo, {"p.py": base}, {"p.py": head})
    assert "'pick_one'" in finding.title


def test_a_renamed_parameter_is_a_signature_change(repo: GitRepo) -> None:
    head = RENAMES_PY.replace("items, start=0", "values, start=0").replace("in items", "in values")
    (finding,) = drift(repo, {"t.py": RENAMES_PY}, {"t.py": head})
    assert finding.line == 1 and "edited" in finding.title


def test_renamed_locals_plus_another_edit_is_a_change(repo: GitRepo) -> None:
    head = (
        RENAMES_PY.replace("total = start", "acc = start * 2")
        .replace("total +=", "acc +=")
        .replace("return total", "return acc")
    )
    assert lines(drift(repo, {"t.py": RENAMES_PY}, {"t.py": head})) == [1]


def test_js_renamed_locals_are_not_a_change(repo: GitRepo) -> None:
    base = "// sumAll adds up\nexport function sumAll(xs) {\n  let total = 0;\n"
    base += "  for (const x of xs) total += x;\n  return total;\n}\n"
    head = base.replace("total", "acc")
    assert drift(repo, {"s.js": base}, {"s.js": head}) == []


def test_js_renamed_shorthand_property_is_a_change(repo: GitRepo) -> None:
    base = "// makePoint builds one\nexport function makePoint(a) {\n  const x = a;\n"
    base += "  return { x };\n}\n"
    head = base.replace("const x", "const y").replace("{ x }", "{ y }")
    assert lines(drift(repo, {"p.js": base}, {"p.js": head})) == [1]


# --- which comments are about the changed declaration ------------------------------------

LIB = "def parse_header(h):\n    return h\n\n\ndef digest(data):\n    return hash(data)\n"
LIB_HEAD = LIB.replace("return h\n", "return h.strip()\n").replace("hash(data)", "hash(repr(data))")


@pytest.mark.parametrize(
    ("comment", "flagged"),
    [
        ("# keeps a digest of the input", False),  # a plain word, elsewhere: prose
        ("# lib.digest(rows) hashes them", True),  # qualified
        ("# digest(rows) hashes them", True),  # a call with arguments
        ("# calls `digest` on every row", True),  # written as code
        ("# see other.digest for rows", False),  # another object's attribute
    ],
)
def test_mentions_elsewhere_must_be_unambiguous(repo: GitRepo, comment: str, flagged: bool) -> None:
    base = {"lib.py": LIB, "use.py": f"{comment}\nX = 1\n"}
    head = {"lib.py": LIB_HEAD, "use.py": f"{comment}\nX = 2\n"}
    found = [f for f in drift(repo, base, head) if "'digest'" in f.title]
    assert bool(found) is flagged


def test_a_name_declared_twice_needs_a_qualified_mention_elsewhere(repo: GitRepo) -> None:
    base = {
        "a.py": "class Reader:\n    def parse_row(self, r):\n        return r\n",
        "b.py": "class Writer:\n    def parse_row(self, r):\n        return r\n",
        "use.py": "# parse_row strips\n# Writer.parse_row(r) strips\nX = 1\n",
    }
    head = {
        "a.py": base["a.py"].replace("return r", "return r.strip()"),
        "b.py": base["b.py"].replace("return r", "return r.strip()"),
        "use.py": base["use.py"].replace("X = 1", "X = 2"),
    }
    found = drift(repo, base, head)
    assert [(f.file, f.line) for f in found] == [("use.py", 2)]
    assert found[0].group == "b.py:Writer.parse_row"


def test_the_projects_own_name_needs_more_than_a_bare_mention(repo: GitRepo) -> None:
    manifest = '[project]\nname = "tally-ho"\nversion = "1"\n'
    body = '"""tally_ho counts things."""\n\n\n# tally_ho: the main entry\n'
    body += "def tally_ho(xs):\n    # tally_ho(xs) counts xs\n    return len(xs)\n"
    base = {"pyproject.toml": manifest, "tally_ho.py": body, "cli.py": "# uses tally_ho\nY = 1\n"}
    head = {
        "pyproject.toml": manifest,
        "tally_ho.py": body.replace("len(xs)", "len(set(xs))"),
        "cli.py": "# uses tally_ho\nY = 2\n",
    }
    (finding,) = drift(repo, base, head)
    # the label above it and the call with arguments inside it; not the prose elsewhere
    assert lines([finding]) == [4, 6]


def test_comment_above_a_renamed_function_is_about_it(repo: GitRepo) -> None:
    base = "X = 1\n\n\n# greet: says hi\ndef greet():\n    return 'hi'\n"
    head = base.replace("def greet", "def welcome")
    (finding,) = drift(repo, {"g.py": base}, {"g.py": head})
    assert finding.line == 4 and "removed or renamed" in finding.title


def test_the_fingerprint_stays_when_the_group_grows(repo: GitRepo) -> None:
    from tests.engine_helpers import findings_for

    lib = "# parse_header trims\n" + LIB
    edited = "# parse_header trims\n" + LIB_HEAD
    start = repo.commit({"lib.py": lib, "use.py": "X = 1\n"}, "base")
    small = repo.commit({"lib.py": edited, "use.py": "X = 2\n"}, "small")
    repo.commit({"lib.py": lib, "use.py": "# parse_header(h) is used\nX = 1\n"}, "back")
    large = repo.commit({"lib.py": edited, "use.py": "# parse_header(h) is used\nX = 2\n"}, "l")
    (before,) = [f for f in findings_for(repo, start, small, ID) if "parse_header" in f.title]
    (after,) = [f for f in findings_for(repo, large + "~1", large, ID) if "parse_header" in f.title]
    assert len(after.related) == len(before.related) + 1
    assert after.fingerprint == before.fingerprint


def _same_up_to_locals(before: str, after: str) -> bool:
    import ast

    from tribunal.lang.python.decls import normalized_up_to_locals, python_decls

    def text(code: str) -> str:
        (decl,) = [d for d in python_decls(ast.parse(src(code))) if d.qualname == "f"]
        return normalized_up_to_locals(decl)

    return text(before) == text(after)


@pytest.mark.parametrize(
    ("before", "after", "same"),
    [
        ("def f(a):\n    x = a\n    return x\n", "def f(a):\n    y = a\n    return y\n", True),
        # the nested function binds its own x: renaming the outer one alone changes nothing
        (
            "def f(a):\n    x = a\n    def g(x):\n        return x\n    return g(x)\n",
            "def f(a):\n    y = a\n    def g(x):\n        return x\n    return g(y)\n",
            True,
        ),
        # a closure reads the outer local: renamed alike
        (
            "def f(a):\n    x = a\n    return lambda: x\n",
            "def f(a):\n    y = a\n    return lambda: y\n",
            True,
        ),
        # locals() sees the names: no renaming at all
        (
            "def f(a):\n    x = a\n    return locals()\n",
            "def f(a):\n    y = a\n    return locals()\n",
            False,
        ),
        # global and imported names are never renamed
        ("def f():\n    global x\n    x = 1\n", "def f():\n    global y\n    y = 1\n", False),
        (
            "def f():\n    import os\n    return os\n",
            "def f():\n    import sys\n    return sys\n",
            False,
        ),
        # swapping which local is returned is a change
        (
            "def f(a):\n    x = a\n    y = 2\n    return x\n",
            "def f(a):\n    x = a\n    y = 2\n    return y\n",
            False,
        ),
    ],
)
def test_python_renamed_locals(before: str, after: str, same: bool) -> None:
    assert _same_up_to_locals(before, after) is same


def test_a_grouped_finding_is_suppressed_by_a_marker_at_any_of_its_places(repo: GitRepo) -> None:
    from tests.engine_helpers import findings_for

    lib = "def parse_header(h):\n    return h\n"
    use = "# tribunal: ignore[comment-code-drift] reworded later\n# parse_header(h) trims\nX = 1\n"
    start = repo.commit({"lib.py": "# parse_header: trims\n" + lib, "use.py": use})
    end = repo.commit(
        {"lib.py": "# parse_header: trims\n" + lib.replace("h\n", "h.strip()\n"),
         "use.py": use.replace("X = 1", "X = 2")}
    )  # fmt: skip
    (finding,) = findings_for(repo, start, end, "comment-code-drift")
    assert (finding.file, finding.line) == ("lib.py", 1)  # the marker sits at another place
    assert finding.suppressed == "reworded later"
