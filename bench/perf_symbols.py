"""hallucinated-symbol cost against repository size: ``python -m bench.perf_symbols``.

Generates two repositories, one with 50 modules and one with 5,000, makes the
same one-import change in each and times the analyzer on it (in-process,
median of several runs, after one warm-up so that imports and tree-sitter
grammars are loaded in both). The cost must follow the imports in the diff,
not the repository: the run fails when the large repository costs more than
twice the small one.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from bench.gitrun import git_out
from tribunal.config.model import Config
from tribunal.engine.runner import analyze
from tribunal.engine.sources import Selection, build_change
from tribunal.git.cmd import Git

ID = "hallucinated-symbol"
PER_PACKAGE = 50


def _module(language: str, index: int) -> tuple[str, str]:
    """Path and text of module ``index``: a few definitions and an import of its neighbour."""
    package = f"pkg{index // PER_PACKAGE}"
    neighbour = max(index - 1, 0)
    if language == "python":
        text = (
            f"from pkg{neighbour // PER_PACKAGE}.mod{neighbour} import func{neighbour}\n\n"
            f"def func{index}():\n    return {index}\n\nCONST{index} = {index}\n"
        )
        return f"{package}/mod{index}.py", text
    text = (
        f"import {{ func{neighbour} }} from '../pkg{neighbour // PER_PACKAGE}/mod{neighbour}';\n"
        f"export function func{index}() {{ return {index}; }}\nexport const CONST{index} = 1;\n"
    )
    return f"src/{package}/mod{index}.ts", text


def generate(root: Path, modules: int, language: str) -> tuple[str, str]:
    """A repository of ``modules`` modules and a one-import change on top; both commit ids."""
    git_out(root, "init", "-q", "-b", "main")
    for index in range(modules):
        path, text = _module(language, index)
        target = root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
        if language == "python" and index % PER_PACKAGE == 0:
            (target.parent / "__init__.py").write_text("", encoding="utf-8")
    git_out(root, "add", "-A")
    git_out(root, "commit", "-q", "-m", "base")
    base = git_out(root, "rev-parse", "HEAD")
    path, text = _module(language, 2)
    extra = (
        "from pkg0.mod1 import CONST1\n"
        if language == "python"
        else "import { CONST1 } from './mod1';\n"
    )
    (root / path).write_text(extra + text, encoding="utf-8")
    git_out(root, "commit", "-q", "-am", "one import")
    return base, git_out(root, "rev-parse", "HEAD")


def time_once(root: Path, base: str, head: str) -> tuple[float, int]:
    """Seconds for the analyzer on the change, and how many findings it made."""
    with Git(root) as git:
        change = build_change(Selection(base, head), git, root, root, Config())
        started = time.perf_counter()
        report = analyze(change, only=[ID])
        elapsed = time.perf_counter() - started
    if report.errors:
        raise SystemExit(report.errors[0].message)
    return elapsed, len(report.findings)


def measure(sizes: Sequence[int], language: str, runs: int) -> list[list[float]]:
    """Seconds per run for each size; runs alternate between sizes so load hits all alike."""
    with tempfile.TemporaryDirectory(prefix="tribunal-perf-") as tmp:
        repos = []
        for size in sizes:
            root = Path(tmp, f"repo{size}").resolve()
            root.mkdir()
            repos.append((root, *generate(root, size, language)))
        for repo in repos:
            time_once(*repo)  # warm-up: imports, grammars, git's own caches
        samples: list[list[float]] = [[] for _ in sizes]
        for _ in range(runs):
            for index, repo in enumerate(repos):
                elapsed, found = time_once(*repo)
                if found:
                    raise SystemExit(f"{sizes[index]} modules: the change should be clean")
                samples[index].append(elapsed)
    return samples


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.perf_symbols", description=__doc__)
    parser.add_argument("--small", type=int, default=50)
    parser.add_argument("--large", type=int, default=5000)
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--language", choices=("python", "typescript", "both"), default="both")
    ns = parser.parse_args(argv)
    languages = ("python", "typescript") if ns.language == "both" else (ns.language,)
    failed = False
    for language in languages:
        small, large = (
            statistics.median(s) for s in measure((ns.small, ns.large), language, ns.runs)
        )
        ratio = large / small
        failed = failed or ratio > 2.0
        print(
            f"{language}: {ns.small} modules {small * 1000:.1f} ms, "
            f"{ns.large} modules {large * 1000:.1f} ms (medians of {ns.runs}), "
            f"ratio {ratio:.2f} (limit 2.00)"
        )
    sys.stdout.flush()
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
