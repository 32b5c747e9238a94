"""Large generated repositories, written with ``git fast-import`` (seconds, not minutes).

- ``fast_import`` turns commits given as ``{path: text}`` into objects and refs in one
  stream, so a 50,000-file tree costs one process rather than 50,000 writes;
- ``big_commit_repo`` is the issue's big push: a Python project whose ``origin/main``
  has 2,500 files and whose ``main`` adds one commit changing 20,000: a vendored
  package with its tests, a generated code drop (protobuf modules, which the
  built-in generated paths skip, and database migrations, which are judged), a
  mass rename of the project's core package with the tests that import it
  updated, and generated documentation pages no analyzer reads.
"""

from __future__ import annotations

import subprocess
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import NamedTuple

from bench import perfgen


class Commit(NamedTuple):
    """One commit for ``fast_import``: the files it writes and the paths it deletes."""

    ref: str
    message: str
    files: Mapping[str, str]
    deletes: Sequence[str] = ()
    parent: bool = False  # on top of the previous commit of the stream


def fast_import(repo: Path, env: Mapping[str, str], commits: Sequence[Commit]) -> None:
    """Write ``commits`` into ``repo`` (each one's tree is its parent's plus its changes)."""
    stream = "".join(_stream(commits)).encode()
    subprocess.run(  # no reflog for origin/main: as `git clone` leaves it (fetched, not written)
        ["git", "-c", "core.logAllRefUpdates=false", "fast-import", "--quiet"],
        cwd=repo,
        env=dict(env),
        input=stream,
        check=True,
    )


def _stream(commits: Sequence[Commit]) -> Iterator[str]:
    mark = 0
    for commit in commits:
        marks = {}
        for path, text in commit.files.items():
            mark += 1
            marks[path] = mark
            yield f"blob\nmark :{mark}\ndata {len(text.encode())}\n{text}\n"
        mark += 1
        message = commit.message.encode()
        yield (
            f"commit {commit.ref}\nmark :{mark}\n"
            f"committer Bench <bench@example.com> 1767225600 +0000\n"
            f"data {len(message)}\n{commit.message}\n"
        )
        if commit.parent:
            yield f"from :{mark - len(marks) - 1}\n"
        yield "".join(f"D {path}\n" for path in commit.deletes)
        yield "".join(f"M 100644 :{m} {path}\n" for path, m in marks.items()) + "\n"


def remote_tracking(repo: Path, env: Mapping[str, str]) -> None:
    """Make ``origin/main`` look fetched: a remote URL and ``origin/HEAD``, plus an index."""
    perfgen.git(repo, "config", "remote.origin.url", "https://example.com/bench.git", env=env)
    fetch = "+refs/heads/*:refs/remotes/origin/*"  # as `git clone` sets it
    perfgen.git(repo, "config", "remote.origin.fetch", fetch, env=env)
    perfgen.git(
        repo, "symbolic-ref", "refs/remotes/origin/HEAD", "refs/remotes/origin/main", env=env
    )
    perfgen.git(repo, "read-tree", "main", env=env)  # an index, as a real checkout has


#: How the 20,000 changed files of ``big_commit_repo`` divide (the rest are renames).
VENDORED_MODULES = 8000  # package __init__ files included
VENDORED_TESTS = 1000
PROTOBUF = 4000
MIGRATIONS = 2000
DOC_PAGES = 2500
RENAMED = 2000
UPDATED_TESTS = 500


def big_commit_repo(repo: Path, env: Mapping[str, str], scale: int = 1) -> int:
    """The big push (see the module docstring); returns how many files ``main`` changes.

    ``scale`` divides every count (a test builds the same shape a hundred times smaller).
    """
    perfgen.init(repo, env)
    renamed, tests = RENAMED // scale, UPDATED_TESTS // scale
    base = {"pyproject.toml": _PYPROJECT, "README.md": "# app\n"}
    base.update({_core(n): perfgen.python_module(n) for n in range(renamed)})
    base.update({_core_test(n): _core_test_text(n, "core") for n in range(tests)})
    head = {_moved(n): perfgen.python_module(n) for n in range(renamed)}
    head.update({_core_test(n): _core_test_text(n, "engine") for n in range(tests)})
    head.update(_vendored(VENDORED_MODULES // scale, VENDORED_TESTS // scale))
    head.update({f"proto/gen/svc_{n}_pb2.py": _protobuf(n) for n in range(PROTOBUF // scale)})
    migrations = range(MIGRATIONS // scale)
    head.update({f"migrations/versions/{n:04d}_step.py": _migration(n) for n in migrations})
    head.update({f"docs/api/page_{n}.md": _doc_page(n) for n in range(DOC_PAGES // scale)})
    gone = [_core(n) for n in range(renamed)]
    fast_import(
        repo,
        env,
        [
            Commit("refs/remotes/origin/main", "base", base),
            Commit(
                "refs/heads/main",
                "vendor httpkit, generated code, core -> engine",
                head,
                gone,
                parent=True,
            ),
        ],
    )
    remote_tracking(repo, env)
    return len(head)


def _core(n: int) -> str:
    return f"pkg/core/sub{n % 40}/mod_{n}.py"


def _moved(n: int) -> str:
    return _core(n).replace("/core/", "/engine/")


def _core_test(n: int) -> str:
    return f"tests/core/test_mod_{n}.py"


def _core_test_text(n: int, package: str) -> str:
    module = f"pkg.{package}.sub{n % 40}"
    return perfgen.python_test(n).replace("from pkg import", f"from {module} import")


def _vendored(modules: int, tests: int) -> dict[str, str]:
    files = {"vendor/httpkit/__init__.py": '"""httpkit, vendored."""\n'}
    for sub in range(80):
        files[f"vendor/httpkit/sub{sub}/__init__.py"] = ""
    for n in range(modules - len(files)):
        neighbour = f"from .mod_{n - 80} import func_{n - 80}_0\n" if n >= 80 else ""
        files[f"vendor/httpkit/sub{n % 80}/mod_{n}.py"] = neighbour + perfgen.python_module(n)
    files["vendor/httpkit/tests/__init__.py"] = ""
    for n in range(tests - 1):  # with the __init__ above
        text = perfgen.python_test(n).replace("from pkg import", f"from ..sub{n % 80} import")
        files[f"vendor/httpkit/tests/test_mod_{n}.py"] = text
    return files


def _protobuf(n: int) -> str:
    return (
        "# -*- coding: utf-8 -*-\n# Generated by the protocol buffer compiler.  DO NOT EDIT!\n"
        "from google.protobuf import descriptor as _descriptor\n\n"
        f"DESCRIPTOR = _descriptor.FileDescriptor(name='svc_{n}.proto', package='svc{n}')\n"
        + "".join(f"_FIELD_{i} = DESCRIPTOR.fields_by_name.get('f{i}')\n" for i in range(20))
    )


def _migration(n: int) -> str:
    previous = f'"{n - 1:04d}"' if n else "None"
    return (
        f'"""step {n}\n\nRevision ID: {n:04d}\nRevises: {previous}\n"""\n'
        "from alembic import op\nimport sqlalchemy as sa\n\n"
        f'revision = "{n:04d}"\ndown_revision = {previous}\n\n\n'
        "def upgrade() -> None:\n"
        f'    op.add_column("table_{n % 50}", sa.Column("col_{n}", sa.Integer()))\n\n\n'
        "def downgrade() -> None:\n"
        f'    op.drop_column("table_{n % 50}", "col_{n}")\n'
    )


def _doc_page(n: int) -> str:
    return f"# API page {n}\n\n" + "Generated reference text.\n" * 30


_PYPROJECT = """\
[project]
name = "app"
version = "1.0"
dependencies = ["alembic", "sqlalchemy", "protobuf"]

[tool.pytest.ini_options]
testpaths = ["tests"]
"""
