"""``git grep`` of the head tree for many words: the Perl alternations find what fixed
strings find, on a real repository, and what a plain scan of every file finds."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from tests.engine_helpers import change_between
from tests.gitrepo import GitRepo
from tribunal.git import treegrep
from tribunal.git.treegrep import grep_files, grep_patterns, word_pattern

#: Prefixes of each other, JS's ``$``, dots, regex syntax, a word that is a whole line.
WORDS = [
    *(f"mod_{n}" for n in range(60)),
    "$store", "a.b", "x+y", "(paren", "back\\slash", "[set]", "^start", "end$", "{1,2}", "a|b",
    "core.engine",
]  # fmt: skip
FILES = {
    "one.py": "import mod_10\n",  # mod_1 is inside mod_10: whole words find mod_10 only
    "two.py": "x = amod_59\n",  # inside a longer word: not a whole word
    "three.js": "const s = $store;\n",
    "four.py": "from core.engine import run\n",
    "five.py": "print('x+y', \"(paren\")\n",
    "six.py": "aXb = 1\n",  # ``a.b`` is a literal dot
    "seven.py": "path = 'back\\\\slash'\n",
    "eight.py": "nothing here\n",
    "nine.js": "let a$store = 1;\n",  # ``$`` is no word character for git
    "ten.py": "q = '[set]' + '^start' + 'end$' + '{1,2}' + 'a|b'\n",
}


def scanned(words: list[str], whole_words: bool) -> list[str]:
    """The files a plain scan of every file's text finds."""
    return sorted(p for p, text in FILES.items() if word_pattern(words, whole_words).search(text))


@pytest.mark.parametrize("whole_words", [False, True])
def test_perl_alternations_find_what_fixed_strings_and_a_plain_scan_find(
    repo: GitRepo, whole_words: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    base = repo.commit({"README": "x\n"}, "base")
    head = repo.commit(FILES, "files")
    expected = scanned(WORDS, whole_words)
    assert len(WORDS) >= treegrep.PERL_FROM and "eight.py" not in expected
    with change_between(repo, base, head) as change:
        perl = grep_files(change, WORDS, ("*.py", "*.js"), whole_words=whole_words)
        monkeypatch.setattr(treegrep, "PERL_FROM", 10**6)  # fixed strings only
        fixed = grep_files(change, WORDS, ("*.py", "*.js"), whole_words=whole_words)
    assert perl == fixed == expected
    assert ("two.py" in expected) is not whole_words and ("nine.js" in expected) is not whole_words


def test_many_words_go_as_a_few_alternations_on_git_s_input() -> None:
    words = [f"name_{n}" for n in range(5000)]
    flags, stdin = grep_patterns(words, True, perl=True)
    lines = stdin.decode().splitlines()
    assert flags == ["-P", "-f", "-"] and 10 < len(lines) < 30
    assert all(len(line) < 4200 for line in lines)
    assert sorted(w for line in lines for w in line.split("(?:")[1].split(")")[0].split("|")) == (
        sorted(words)
    )
    flags, stdin = grep_patterns(words, True, perl=False)
    assert flags == ["-F", "-w", "-f", "-"] and stdin.decode().splitlines() == words


def test_words_git_cannot_take_as_perl_fall_back_to_fixed_strings(repo: GitRepo) -> None:
    """A word with a newline would break an alternation's line: the fixed strings search."""
    base = repo.commit({"README": "x\n"}, "base")
    head = repo.commit(FILES, "files")
    words = [*WORDS, "two\nlines", "caf\u00e9"]
    with change_between(repo, base, head) as change:
        found = grep_files(change, words, ("*.py", "*.js"), whole_words=True)
    assert found == scanned(WORDS, True)


def test_a_git_without_pcre_is_asked_in_fixed_strings(
    repo: GitRepo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """git built without PCRE refuses ``-P`` (exit 128): the same words go as fixed strings."""
    real = shutil.which("git")
    assert real is not None
    fake = tmp_path / "bin" / "git"
    fake.parent.mkdir()
    fake.write_text(
        "#!/bin/sh\n"
        'for a in "$@"; do [ "$a" = -P ] && { echo refused >> "$0.log"; echo "fatal: cannot use'
        ' Perl-compatible regexes when not compiled with USE_LIBPCRE" >&2; exit 128; }; done\n'
        f'exec {real} "$@"\n'
    )
    fake.chmod(0o755)
    base = repo.commit({"README": "x\n"}, "base")
    head = repo.commit(FILES, "files")
    monkeypatch.setenv("PATH", f"{fake.parent}{os.pathsep}{os.environ['PATH']}")
    with change_between(repo, base, head) as change:
        found = grep_files(change, WORDS, ("*.py", "*.js"), whole_words=True)
    assert found == scanned(WORDS, True)
    assert fake.with_suffix(".log").read_text() == "refused\n"  # asked once, as Perl
