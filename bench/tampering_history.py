"""How often each test-tampering rule fires on real histories (and every red, in full).

    python -m bench.tampering_history [--own REPO] [--package NAME==V1,V2,...] [--no-pypi]

Two kinds of history are replayed, every commit against its parent, through
the real engine in-process (read-only: only commits are read, never a
working tree):

- ``--own``: an existing repository's ``git log`` (default: this checkout's);
- ``--package``: consecutive source releases of a PyPI package with a test
  suite, downloaded with ``pip download --no-binary :all: --no-deps`` into a
  cache, unpacked one after another into a fresh repository under a
  temporary directory, and committed in order (defaults below);
  ``--from-empty`` also judges the first release as one change that adds the
  whole suite, which puts every test through the rules for new tests.

The table counts findings per rule and verdict; every CONTRADICTED is
printed with its detail so that it can be investigated (a real defect, or a
false red to fix).
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tarfile
import tempfile
from collections import Counter
from collections.abc import Iterator, Sequence
from pathlib import Path

from bench.gitrun import git_out
from tribunal.config.model import Config
from tribunal.engine.runner import analyze
from tribunal.engine.sources import Selection, build_change
from tribunal.findings import Finding, Verdict
from tribunal.git.cmd import Git

ID = "test-tampering"
ROOT = Path(__file__).resolve().parent.parent
DEFAULT_PACKAGES = (
    "attrs==21.4.0,22.1.0,22.2.0,23.1.0,23.2.0,24.1.0,24.2.0,24.3.0",
    "packaging==21.3,22.0,23.0,23.1,23.2,24.0,24.1,24.2",
    "more-itertools==8.13.0,8.14.0,9.0.0,9.1.0,10.0.0,10.1.0,10.2.0,10.3.0,10.4.0,10.5.0",
    "pytest==7.3.0,7.4.0,8.0.0,8.1.0,8.2.0,8.3.0,8.3.5",
    "click==8.0.0,8.0.4,8.1.0,8.1.3,8.1.7",
    "iniconfig==1.0.1,1.1.0,1.1.1,2.0.0",
)
RULES = (
    ("removed every check", "every check removed"),
    ("no longer has a check", "every check removed"),
    ("can never fail", "tautology"),
    ("failure is caught", "swallowed"),
    ("focused test", "focused"),
    ("newly", "skipped/xfailed"),
    ("deleted", "test deleted"),
    ("selection narrowed", "selection narrowed"),
    ("could not be parsed", "unparsable"),
)


def rule_of(finding: Finding) -> str:
    return next((rule for text, rule in RULES if text in finding.title), "other")


def pairs(root: Path) -> list[tuple[str, str, str]]:
    """(parent, commit, subject) for every non-root commit, oldest first (first parents)."""
    log = git_out(root, "log", "--first-parent", "--reverse", "--format=%H %P%x09%s")
    out = []
    for line in log.splitlines():
        ids, _, subject = line.partition("\t")
        commit, *parents = ids.split()
        if parents:
            out.append((parents[0], commit, subject))
    return out


def replay(root: Path) -> Iterator[tuple[str, list[Finding], list[str]]]:
    """The analyzer's findings (and crashes) for each commit against its parent."""
    with Git(root) as git:
        for parent, commit, subject in pairs(root):
            change = build_change(Selection(base=parent, head=commit), git, root, root, Config())
            report = analyze(change, only=[ID])
            errors = [e.message for e in report.errors]
            yield f"{commit[:10]} {subject[:60]}", list(report.findings), errors


def download(spec: str, cache: Path) -> list[Path]:
    """Source archives of ``name==v1,v2,...`` (downloaded once into ``cache``)."""
    name, _, versions = spec.partition("==")
    out = []
    for version in versions.split(","):
        found = _cached(cache, name, version)
        if found is None:
            command = [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps"]
            command += ["--no-binary", ":all:", "-d", str(cache), f"{name}=={version}"]
            subprocess.run(command, check=True)
            found = _cached(cache, name, version)
        if found is None:
            raise SystemExit(f"no source archive for {name}=={version} in {cache}")
        out.append(found)
    return out


def _cached(cache: Path, name: str, version: str) -> Path | None:
    stems = {f"{n}-{version}" for n in (name, name.replace("-", "_"), name.replace("_", "-"))}
    for path in sorted(cache.glob("*.tar.gz")):
        if path.name.removesuffix(".tar.gz").lower() in {s.lower() for s in stems}:
            return path
    return None


def build_history(archives: Sequence[Path], root: Path, from_empty: bool = False) -> None:
    """Commit each release's unpacked tree in turn (files a release dropped are deleted).

    ``from_empty`` starts with an empty commit, so that the first release is
    judged as one change adding the whole suite: every test in it meets the
    rules that judge new tests (tautologies, swallowed assertions, focus).
    """
    root.mkdir(parents=True)
    git_out(root, "init", "-q", "-b", "main")
    if from_empty:
        git_out(root, "commit", "-q", "--allow-empty", "--no-verify", "-m", "empty tree")
    for archive in archives:
        for child in root.iterdir():
            if child.name != ".git":
                shutil.rmtree(child) if child.is_dir() else child.unlink()
        with tempfile.TemporaryDirectory() as tmp, tarfile.open(archive) as tar:
            tar.extractall(tmp, filter="data")
            (top,) = Path(tmp).iterdir()
            for child in top.iterdir():
                shutil.move(str(child), root / child.name)
        git_out(root, "add", "-A", "-f")
        git_out(root, "commit", "-q", "--allow-empty", "--no-verify", "-m", archive.name)


def study(
    label: str, root: Path, counts: Counter[tuple[str, str]], reds: list[str], verbose: bool
) -> int:
    commits = 0
    for title, findings, errors in replay(root):
        commits += 1
        for error in errors:
            reds.append(f"[{label}] {title}: ANALYZER ERROR {error}")
        for finding in findings:
            if finding.analyzer != ID:
                continue
            counts[(rule_of(finding), finding.verdict.name)] += 1
            if verbose and finding.verdict is not Verdict.CONTRADICTED:
                print(f"  [{label}] {title}: {finding.verdict.name} {finding.file}:{finding.line}")
                print(f"      {finding.title}")
            if finding.verdict is Verdict.CONTRADICTED:
                reds.append(
                    f"[{label}] {title}\n  {finding.file}:{finding.line} {finding.title}\n"
                    f"  {finding.detail}"
                )
    return commits


def table(counts: Counter[tuple[str, str]]) -> str:
    rules = sorted({rule for rule, _ in counts})
    lines = [f"{'rule':<22} {'CONTRADICTED':>12} {'UNVERIFIED':>10} {'PASS':>5}"]
    for rule in rules:
        c, u, p = (counts[(rule, v.name)] for v in reversed(Verdict))
        lines.append(f"{rule:<22} {c:>12} {u:>10} {p:>5}")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.tampering_history", description=__doc__)
    parser.add_argument("--own", default=str(ROOT), help="a repository whose history to replay")
    parser.add_argument("--package", action="append", help="NAME==V1,V2,... (repeatable)")
    parser.add_argument("--no-pypi", action="store_true", help="only replay --own")
    parser.add_argument("--cache", default=None, help="where downloaded archives are kept")
    parser.add_argument("-v", "--verbose", action="store_true", help="list every finding")
    parser.add_argument(
        "--from-empty", action="store_true", help="judge the first release as adding every test"
    )
    ns = parser.parse_args(argv)
    reds: list[str] = []
    histories = [("own", Path(ns.own))]
    with tempfile.TemporaryDirectory(prefix="tribunal-history-") as tmp:
        cache = Path(ns.cache or Path(tmp) / "cache")
        cache.mkdir(parents=True, exist_ok=True)
        for spec in [] if ns.no_pypi else ns.package or DEFAULT_PACKAGES:
            name = spec.partition("==")[0]
            build_history(download(spec, cache), Path(tmp) / name, ns.from_empty)
            histories.append((name, Path(tmp) / name))
        for label, root in histories:
            counts: Counter[tuple[str, str]] = Counter()
            commits = study(label, root, counts, reds, ns.verbose)
            print(f"\n== {label}: {commits} commits against their parents")
            print(table(counts) if counts else "(no findings)")
    print(f"\n{len(reds)} CONTRADICTED finding(s) or errors to investigate")
    for red in reds:
        print("\n" + red)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
