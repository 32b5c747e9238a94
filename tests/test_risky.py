"""risky-diff-no-test: tokens, vocabulary, correlation, and the analyzer on real repositories."""

from __future__ import annotations

import pytest

from tests.engine_helpers import Files, change_between, run_range, src
from tests.gitrepo import GitRepo
from tribunal.analyzers.risky_diff_no_test.correlate import correlated
from tribunal.analyzers.risky_diff_no_test.vocab import vocabulary
from tribunal.engine.runner import analyze
from tribunal.findings import Finding, Verdict
from tribunal.lang.identifiers import split_words

ID = "risky-diff-no-test"

LOGIN_PY = src(
    """
    def greet(name):
        return "hi " + name


    def login(user, password):
        return user.check(password)
    """
)
AUTH_TEST_PY = "from app.auth import login\n\n\ndef test_login():\n    assert login(U, 'pw')\n"


def risky(repo: GitRepo, base: Files, head: Files, config: str | None = None) -> list[Finding]:
    found = run_range(repo, base, head, ID, config=config)
    assert all(f.verdict is not Verdict.CONTRADICTED for f in found)
    return found


# --- tokens and vocabulary -------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("JWTToken", ("jwt", "token")),
        ("parseSQLQuery", ("parse", "sql", "query")),
        ("snake_case_name", ("snake", "case", "name")),
        ("kebab-case-name", ("kebab", "case", "name")),
        ("HTTPServer2", ("http", "server", "2")),
        ("getAPIKey", ("get", "api", "key")),
    ],
)
def test_identifiers_split_on_case_separators_and_acronyms(name: str, words: tuple[str]) -> None:
    assert split_words(name) == words


@pytest.mark.parametrize("name", ["authors", "tokenize", "authorization", "cryptic", "secretary"])
def test_whole_tokens_only(name: str) -> None:
    hits = vocabulary().hits(split_words(name))
    assert "auth" not in hits and "token" not in hits and "crypto" not in hits
    assert "secret" not in hits


@pytest.mark.parametrize(
    ("name", "hit"),
    [("JWTToken", "jwt"), ("refreshAuthToken", "auth"), ("get_api_key", "api key"),
     ("PAYMENT_URL", "payment"), ("verifyPassword", "password")],
)  # fmt: skip
def test_risky_identifiers(name: str, hit: str) -> None:
    assert hit in vocabulary().hits(split_words(name))


def test_configured_words_add_to_the_builtins() -> None:
    vocab = vocabulary(["ledger", "wire-transfer"])
    assert vocab.hits(split_words("postLedgerEntry")) == ["ledger"]
    assert vocab.hits(split_words("sendWireTransfer")) == ["wire transfer"]
    assert vocab.hits(split_words("wireless_transfer")) == []
    assert "auth" in vocab.words


@pytest.mark.parametrize(
    ("source", "test", "expected"),
    [
        ("src/auth.ts", "src/auth.test.ts", True),
        ("src/auth/index.ts", "test/auth.test.ts", True),
        ("pkg/auth/__init__.py", "tests/test_auth.py", True),
        ("src/payments/stripe_client.py", "tests/test_stripe.py", True),
        ("src/auth/session.py", "tests/test_auth.py", True),
        ("src/auth.py", "tests/auth/test_flows.py", True),
        ("src/auth/index.ts", "tests/auth/index.test.ts", True),
        ("src/authors.ts", "test/auth.test.ts", False),
        ("src/api/auth.ts", "tests/api/users.test.ts", False),
        ("src/lib/auth.ts", "test/lib.test.ts", False),
    ],
)
def test_correlation_by_stem_and_directory(source: str, test: str, expected: bool) -> None:
    assert correlated(source, test) is expected


# --- the analyzer ----------------------------------------------------------------------


def test_risky_change_without_a_test_is_unverified_at_its_own_line(repo: GitRepo) -> None:
    head = LOGIN_PY.replace("user.check(password)", "user.check(password) or DEBUG")
    (finding,) = risky(repo, {"app/users.py": LOGIN_PY}, {"app/users.py": head})
    assert finding.verdict is Verdict.UNVERIFIED
    assert finding.line == 6
    assert "'password'" in finding.title
    assert "line 6: 'password' (password)" in finding.detail


def test_correlated_asserting_test_passes(repo: GitRepo) -> None:
    head = LOGIN_PY.replace("check(password)", "check(password, strict=True)")
    (finding,) = risky(
        repo,
        {"app/auth.py": LOGIN_PY, "tests/test_auth.py": AUTH_TEST_PY},
        {"app/auth.py": head, "tests/test_auth.py": AUTH_TEST_PY + "\n\ndef test_strict():\n"
         "    assert login(U, 'x') is False\n"},
    )  # fmt: skip
    assert finding.verdict is Verdict.PASS
    assert "tests/test_auth.py::test_strict" in finding.detail


@pytest.mark.parametrize(
    "test_file",
    [
        {"tests/test_auth.py": "def test_login():\n    login(U, 'pw')\n"},
        {"tests/test_users.py": "def test_login():\n    assert login(U, 'pw')\n"},
        {"tests/test_auth.py": "import pytest\n\n@pytest.mark.skip\ndef test_x():\n    assert 0\n"},
    ],
    ids=["no-assertion", "uncorrelated", "skipped"],
)
def test_tests_that_do_not_cover_it_leave_it_unverified(repo: GitRepo, test_file: Files) -> None:
    head = {"app/auth.py": LOGIN_PY.replace("check(password)", "check(password, 1)"), **test_file}
    (finding,) = risky(repo, {"app/auth.py": LOGIN_PY}, head)
    assert finding.verdict is Verdict.UNVERIFIED


def test_index_file_correlates_through_its_directory(repo: GitRepo) -> None:
    base = {"src/auth/index.ts": "export function login(u) { return u.ok; }\n"}
    head = {
        "src/auth/index.ts": "export function login(u) { return u.ok && u.active; }\n",
        "test/auth.test.ts": "import { login } from '../src/auth';\n"
        "it('logs in', () => { expect(login({ ok: true, active: true })).toBe(true); });\n",
    }
    (finding,) = risky(repo, base, head)
    assert finding.verdict is Verdict.PASS


def test_package_init_correlates_through_its_directory(repo: GitRepo) -> None:
    base = {"pkg/auth/__init__.py": "def check(u):\n    return u.ok\n"}
    head = {
        "pkg/auth/__init__.py": "def check(u):\n    return u.ok and u.active\n",
        "tests/test_auth.py": "def test_check():\n    assert check(U)\n",
    }
    (finding,) = risky(repo, base, head)
    assert finding.verdict is Verdict.PASS and finding.line == 2


@pytest.mark.parametrize(
    ("path", "base", "head"),
    [
        ("src/authors.ts", "export const authors = [];\n", "export const authors = ['a'];\n"),
        ("src/tokenize.py", "def tokenize(s):\n    return s\n", "def tokenize(s):\n    return 1\n"),
        ("src/notes.py", "x = 1\n", "x = 2  # rotate the secret token\nmsg = 'password'\n"),
        ("src/notes.ts", "let x = 1;\n", "let x = 2; // auth token\nconst m = 'password';\n"),
        ("src/headers.ts", "let x = 1;\n", "let x = headers.authors;\n"),
    ],
    ids=["authors", "tokenize", "py-strings-and-comments", "js-strings-and-comments", "member"],
)
def test_look_alikes_strings_and_comments_are_not_risky(
    repo: GitRepo, path: str, base: str, head: str
) -> None:
    assert risky(repo, {path: base}, {path: head}) == []


def test_js_identifier_hit_on_its_line(repo: GitRepo) -> None:
    base = "export function call() {\n  return fetch(url);\n}\n"
    head = base.replace("  return fetch(url);", "  const jwt = read();\n  return fetch(jwt);")
    (finding,) = risky(repo, {"src/client.ts": base}, {"src/client.ts": head})
    assert finding.line == 2 and "'jwt'" in finding.title


def test_a_removed_check_is_reported_where_it_was(repo: GitRepo) -> None:
    base = {"app/views.py": "def view(req):\n    require_auth(req)\n    return render(req)\n"}
    head = {"app/views.py": "def view(req):\n    return render(req)\n"}
    (finding,) = risky(repo, base, head)
    assert finding.line == 2 and "'require_auth' (auth)" in finding.detail


def test_path_hit_is_reported_at_the_first_changed_line(repo: GitRepo) -> None:
    base = {"src/crypto/util.py": "A = 1\nB = 2\nC = 3\n"}
    head = {"src/crypto/util.py": "A = 1\nB = 2\nC = 4\n"}
    (finding,) = risky(repo, base, head)
    assert finding.line == 3 and "path segment 'crypto'" in finding.detail


def test_generated_paths_are_skipped_and_globs_behave(repo: GitRepo) -> None:
    config = 'generated-paths:\n  - "**/*.gen.ts"\n  - "src/v?/"\n'
    base = {"a.txt": "x"}
    head = {
        "dist/auth.js": "export const token = 1;\n",
        "auth.gen.ts": "export const token = 1;\n",
        "src/v1/auth.ts": "export const token = 1;\n",
        "src/auth.min.js": "var token=1;\n",
    }
    assert risky(repo, base, head, config=config) == []


def test_no_skip_generated_flags_them_again(repo: GitRepo) -> None:
    base_sha = repo.commit({"a.txt": "x"}, "base")
    head_sha = repo.commit({"dist/auth.js": "export const token = 1;\n"}, "head")
    with change_between(repo, base_sha, head_sha) as change:
        change.skip_generated = False
        report = analyze(change, only=[ID])
    assert [f.file for f in report.findings] == ["dist/auth.js"]


def test_risky_words_config_adds_vocabulary(repo: GitRepo) -> None:
    base = {"src/books.py": "def post(entry):\n    return entry\n"}
    head = {"src/books.py": "def post(entry):\n    return ledger_entry(entry)\n"}
    assert risky(repo, base, head) == []
    second = GitRepo.init(repo.path.parent / "second")
    (finding,) = risky(second, base, head, config="risky-words: [ledger]\n")
    assert "'ledger'" in finding.title


def test_test_files_and_pure_renames_are_not_risky(repo: GitRepo) -> None:
    base = {"tests/test_auth.py": AUTH_TEST_PY, "src/auth.py": LOGIN_PY}
    head = {
        "tests/test_auth.py": AUTH_TEST_PY.replace("'pw'", "'pw2'"),
        "src/auth.py": None,
        "src/authn.py": LOGIN_PY,
    }
    assert risky(repo, base, head) == []


def test_signal_analyzers_never_fail_a_hard_fail_run(repo: GitRepo) -> None:
    base = repo.commit({"app/auth.py": "# login: checks\ndef login(u):\n    return u.ok\n"}, "base")
    head = repo.commit({"app/auth.py": "# login: checks\ndef login(u):\n    return True\n"}, "h")
    result = repo.tribunal("check", "--base", base, "--head", head, "--hard-fail")
    assert result.code == 0, result.stdout + result.stderr
    assert "[risky-diff-no-test]" in result.stdout
    assert "[comment-code-drift]" in result.stdout
