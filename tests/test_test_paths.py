"""Which changed paths the runners collect as tests (claims, test-tampering, risky-diff)."""

from __future__ import annotations

from tests.engine_helpers import change_between
from tests.gitrepo import GitRepo
from tribunal.lang.test_diff import is_test_path


def test_pytest_patterns_apply_to_py_files_only_and_js_names_to_scripts(repo: GitRepo) -> None:
    base = repo.commit({"pytest.ini": "[pytest]\npython_files = test_*\n"}, "base")
    head = repo.commit(
        {
            "tests/test_a.py": "def test_a():\n    assert 1\n",
            "tests/test_b.pyi": "def test_b() -> None: ...\n",
            "tests/helper.py": "",
            "web/app.test.ts": "",
            "web/app.ts": "",
        },
        "head",
    )
    paths = [
        "tests/test_a.py",
        "tests/test_b.pyi",
        "tests/helper.py",
        "web/app.test.ts",
        "web/app.ts",
    ]
    with change_between(repo, base, head) as change:
        collected = [p for p in paths if is_test_path(change, p)]
    assert collected == ["tests/test_a.py", "web/app.test.ts"]
