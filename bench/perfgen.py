"""Repositories for the performance benchmark, generated fresh for every run.

The content is shaped like real projects (modules with functions, test files
with several tests, some of which assert nothing) so the analyzers do real
work; it is deterministic so runs compare.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from bench.gitrun import git_out

#: A fixed identity and no user or system git config, so the machine's settings
#: cannot change what is measured.
GIT_ENV = {
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_AUTHOR_NAME": "Bench",
    "GIT_AUTHOR_EMAIL": "bench@example.com",
    "GIT_COMMITTER_NAME": "Bench",
    "GIT_COMMITTER_EMAIL": "bench@example.com",
    "GIT_AUTHOR_DATE": "2026-01-01T00:00:00Z",
    "GIT_COMMITTER_DATE": "2026-01-01T00:00:00Z",
}


def git(repo: Path, *args: str, env: Mapping[str, str]) -> str:
    """git in ``repo`` under exactly ``env`` (``bench_env``: what the measured commands see)."""
    return git_out(repo, *args, env=env)


def write(repo: Path, files: Mapping[str, str]) -> None:
    for name, body in files.items():
        target = repo / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(body, encoding="utf-8")


def init(repo: Path, env: Mapping[str, str]) -> None:
    repo.mkdir(parents=True)
    git(repo, "init", "-q", "-b", "main", env=env)


def commit(repo: Path, message: str, env: Mapping[str, str]) -> str:
    git(repo, "add", "-A", env=env)
    git(repo, "commit", "-q", "--no-verify", "-m", message, env=env)
    return git(repo, "rev-parse", "HEAD", env=env)


def python_module(n: int, variant: int = 0) -> str:
    funcs = "".join(
        f"def func_{n}_{i}(value: int) -> int:\n"
        f'    """Step {i} of module {n}."""\n'
        f"    total = value * {i + variant + 1}\n"
        f"    if total > {100 + i}:\n"
        f"        return total - {i}\n"
        f"    return total + {n % 7}\n\n\n"
        for i in range(6)
    )
    return f'"""Module {n}."""\n\nfrom __future__ import annotations\n\nimport os\n\n\n{funcs}'


def python_test(n: int, variant: int = 0) -> str:
    tests = "".join(
        f"def test_func_{n}_{i}() -> None:\n"
        + (
            f"    assert mod_{n}.func_{n}_{i}({i + variant}) >= 0\n\n\n"
            if i % 3
            else f"    mod_{n}.func_{n}_{i}({i + variant})\n\n\n"
        )
        for i in range(6)
    )
    return f"from pkg import mod_{n}\n\n\n{tests}"


def small_repo(repo: Path, env: Mapping[str, str], files: int = 2000) -> None:
    """``files`` files: modules, tests, docs and data; one commit; one test file staged."""
    init(repo, env)
    tree: dict[str, str] = {}
    for n in range(files):
        kind = n % 4
        if kind == 0:
            tree[f"pkg/sub{n % 20}/mod_{n}.py"] = python_module(n)
        elif kind == 1:
            tree[f"tests/sub{n % 20}/test_mod_{n}.py"] = python_test(n)
        elif kind == 2:
            tree[f"web/src/part{n % 20}/comp_{n}.ts"] = ts_module(n)
        else:
            tree[f"docs/page_{n}.md"] = f"# Page {n}\n\n" + "Some prose.\n" * 20
    write(repo, tree)
    commit(repo, "initial", env)
    write(repo, {"tests/sub1/test_mod_1.py": python_test(1, variant=1) + _EMPTY_PY_TEST})
    git(repo, "add", "tests/sub1/test_mod_1.py", env=env)


_EMPTY_PY_TEST = "def test_placeholder() -> None:\n    pass\n"


def ts_module(n: int, variant: int = 0) -> str:
    funcs = "".join(
        f"export function step{i}(value: number): number {{\n"
        f"  const total = value * {i + variant + 1};\n"
        f"  if (total > {100 + i}) {{\n"
        f"    return total - {i};\n"
        f"  }}\n"
        f"  return total + {n};\n"  # every module distinct, as in a real project
        f"}}\n\n"
        for i in range(6)
    )
    return f"import {{ helper }} from './helper{n % 5}';\n\n{funcs}"


def ts_test(n: int, variant: int = 0) -> str:
    cases = []
    for i in range(6):
        if i % 3 == 0:
            body = f"    step{i}({i + variant});\n"  # a smoke test: calls, asserts nothing
        elif i % 3 == 1:
            body = f"    expect(step{i}({i + variant})).toBeGreaterThan(0);\n"
        else:
            body = f"    const x = {i} + {variant};\n    const y = x * 2;\n"  # cannot fail
        cases.append(f"  it('step {i} of {n}', () => {{\n{body}  }});\n")
    imports = ", ".join(f"step{i}" for i in range(6))
    return (
        f"import {{ {imports} }} from '../src/comp_{n}';\n\n"
        f"describe('comp {n}', () => {{\n" + "\n".join(cases) + "});\n"
    )


def range_repo(repo: Path, env: Mapping[str, str], changed: int = 300, tests: int = 100) -> str:
    """A JS/TS repository whose HEAD changes ``changed`` files, ``tests`` of them tests.

    Returns the base commit. Half of the changed files exist in base (modified),
    half are new, and 500 unchanged files fill the tree around them.
    """
    init(repo, env)
    exts = (".ts", ".js", ".tsx")
    sources = [f"app/src/comp_{n}{exts[n % 3]}" for n in range(changed - tests)]
    test_exts = (".test.ts", ".spec.js", ".test.tsx")
    test_files = [f"app/test/comp_{n}{test_exts[n % 3]}" for n in range(tests)]
    filler = {f"lib/vendor/util_{n}.ts": ts_module(n) for n in range(500)}
    base = {**filler}
    base.update({p: ts_module(n) for n, p in enumerate(sources) if n % 2 == 0})
    base.update({p: ts_test(n) for n, p in enumerate(test_files) if n % 2 == 0})
    write(repo, base)
    base_sha = commit(repo, "base", env)
    head = {p: ts_module(n, variant=1) for n, p in enumerate(sources)}
    head.update({p: ts_test(n, variant=1) for n, p in enumerate(test_files)})
    write(repo, head)
    commit(repo, "head", env)
    return base_sha


def bench_env(home: Path) -> dict[str, str]:
    """The environment every measured command runs in.

    Byte-code caching is forced on (into a private prefix, so the source tree
    stays clean): an installed tribunal always has its ``.pyc`` files, and a
    ``PYTHONDONTWRITEBYTECODE`` inherited from a sandbox would otherwise make
    every run recompile every module.
    """
    drop = ("GIT_", "TRIBUNAL_", "PYTHONDONTWRITEBYTECODE", "PYTHONUNBUFFERED", "NO_COLOR")
    keep = {k: v for k, v in os.environ.items() if not k.startswith(drop)}
    return {
        **keep,
        **GIT_ENV,
        "HOME": str(home),
        "XDG_CONFIG_HOME": str(home / ".config"),
        "XDG_CACHE_HOME": str(home / ".cache"),
        "PYTHONPYCACHEPREFIX": str(home / "pycache"),
    }


def ts_repo(repo: Path, env: Mapping[str, str], files: int = 300) -> None:
    """A TS project of ``files`` files (two modules to each test) with one new test file staged.

    The issue's small change: ``tribunal check --staged`` when an agent adds one
    TS test file to a 300-file repository.
    """
    init(repo, env)
    tree = {"package.json": _PACKAGE_JSON, "tsconfig.json": _TSCONFIG}
    tree.update({f"app/src/helper{n}.ts": _TS_HELPER for n in range(5)})
    for n in range(files - len(tree)):
        if n % 3 == 2:
            tree[f"app/test/comp_{n}.test.ts"] = ts_test(n)
        else:
            tree[f"app/src/comp_{n}.ts"] = ts_module(n)
    write(repo, tree)
    commit(repo, "initial", env)
    write(repo, {"app/test/comp_1.test.ts": ts_test(1)})  # comp_1 has no test yet
    git(repo, "add", "app/test/comp_1.test.ts", env=env)


_PACKAGE_JSON = """\
{
  "name": "app",
  "private": true,
  "devDependencies": {"jest": "^29.0.0"}
}
"""
_TSCONFIG = (
    '{\n  "compilerOptions": {"strict": true, "module": "commonjs"},\n  "include": ["app"]\n}\n'
)
_TS_HELPER = "export function helper(): number {\n  return 1;\n}\n"
