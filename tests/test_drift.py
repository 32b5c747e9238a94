"""comment-code-drift: comments that mention declarations the change edited or removed."""

from __future__ import annotations

import subprocess

import pytest

from tests.engine_helpers import Files, change_for, run_range, src
from tests.gitrepo import GitRepo
from tribunal.analyzers.comment_code_drift.generic import is_generic
from tribunal.engine import analyze
from tribunal.findings import Finding, Verdict
from tribunal.sources import Selection

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
    return sorted(f.line for f in found)


def test_python_body_edit_flags_docstrings_and_comments(repo: GitRepo) -> None:
    head = GREET_PY.replace('"hi " + name', '"hello " + name')
    found = drift(repo, {"greet.py": GREET_PY}, {"greet.py": head})
    assert lines(found) == [1, 8, 9]
    kinds = {f.line: f.title.split()[0] for f in found}
    assert kinds == {1: "docstring", 8: "docstring", 9: "comment"}
    assert all("'greet_user'" in f.title for f in found)
    assert "greet_user (greet.py:7): edited" in found[0].detail


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


def test_generic_names_are_ignored(repo: GitRepo) -> None:
    base = GREET_PY.replace("def run(x):", "# run the job\ndef run(x):")
    head = base.replace("return x", "return x * 2")
    assert drift(repo, {"greet.py": base}, {"greet.py": head}) == []


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


def test_mentions_in_other_changed_files_count(repo: GitRepo) -> None:
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
      /** speak delegates to greet */
      speak() { return greet(); }
    }
    """
)


def test_seed_example_body_change(repo: GitRepo) -> None:
    head = GREET_TS.replace("return 'hi';", "return 'hello';")
    found = drift(repo, {"src/greet.ts": GREET_TS}, {"src/greet.ts": head})
    assert lines(found) == [1, 5, 11]  # line 11: the JSDoc of speak() mentions greet


def test_jsdoc_and_block_comments_count(repo: GitRepo) -> None:
    head = GREET_TS.replace("s.toUpperCase()", "s.toUpperCase() + '!'")
    found = drift(repo, {"src/greet.ts": GREET_TS}, {"src/greet.ts": head})
    assert lines(found) == [5, 7]


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
