"""Run every labelled case through the real engine on a real git repository.

A case is one YAML file under ``bench/corpus/`` (any depth)::

    analyzer: assertion-free-test   # the analyzer judged
    label: defect                   # defect: must be CONTRADICTED; clean: must not be
    expect: UNVERIFIED              # optional: the analyzer's exact worst verdict
    note: why this case exists      # optional
    config: |                       # optional tribunal.yml for the case
      ...
    base: {path: contents, ...}     # the first commit
    head: {path: contents or null}  # changes on top of base (null deletes)
    worktree: {path: contents}      # optional: left uncommitted on top of head (the checkout)
    message: |                      # optional: the head commit's message (claim trailers)
      ...
    claims: |                       # optional: a claims file passed as --claims
      ...

Counting: TP a defect flagged CONTRADICTED, FN a defect that was not, FP a
clean case flagged CONTRADICTED, TN a clean case that was not. The run fails
on any FP, on recall below 90%, and on any ``expect`` mismatch.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from bench.gitrun import git_out
from tribunal.claims.sources import load_claims
from tribunal.config.load import parse_config
from tribunal.config.model import Config
from tribunal.engine.runner import analyze
from tribunal.engine.sources import Selection, build_change
from tribunal.findings import Verdict
from tribunal.git.cmd import Git

CORPUS = Path(__file__).parent / "corpus"


@dataclass(frozen=True)
class Case:
    name: str
    analyzer: str
    label: str
    base: Mapping[str, str]
    head: Mapping[str, str | None]
    expect: str | None = None
    config: str | None = None
    note: str = ""
    extra: Mapping[str, Any] = field(default_factory=dict)
    message: str = "head"
    claims: str | None = None


@dataclass(frozen=True)
class Outcome:
    case: Case
    worst: Verdict
    titles: tuple[str, ...]
    errors: tuple[str, ...]

    @property
    def flagged(self) -> bool:
        return self.worst is Verdict.CONTRADICTED

    @property
    def kind(self) -> str:
        if self.case.label == "defect":
            return "TP" if self.flagged else "FN"
        return "FP" if self.flagged else "TN"

    @property
    def expectation_met(self) -> bool:
        return self.case.expect is None or self.case.expect == self.worst.name


def load_cases(root: Path = CORPUS, pattern: str | None = None) -> list[Case]:
    cases = []
    for path in sorted(root.rglob("*.yml")):
        name = str(path.relative_to(root).with_suffix(""))
        if pattern and pattern not in name:
            continue
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        if data.get("label") not in ("defect", "clean"):
            raise SystemExit(f"{path}: label must be defect or clean")
        known = {"analyzer", "label", "base", "head", "expect", "config", "note"}
        known |= {"message", "claims"}
        cases.append(
            Case(
                name=name,
                analyzer=data["analyzer"],
                label=data["label"],
                base=data.get("base") or {},
                head=data.get("head") or {},
                expect=data.get("expect"),
                config=data.get("config"),
                note=data.get("note", ""),
                extra={k: v for k, v in data.items() if k not in known},
                message=data.get("message") or "head",
                claims=data.get("claims"),
            )
        )
    return cases


def write_files(root: Path, files: Mapping[str, str | None]) -> None:
    """Write a case's files under ``root``; a None content deletes the file."""
    for name, content in files.items():
        target = root / name
        if content is None:
            if target.exists():
                target.unlink()
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(content, encoding="utf-8")


def build_repo(root: Path, case: Case) -> tuple[str, str]:
    """Commit the case's base, then its head; return both commit ids."""
    git_out(root, "init", "-q", "-b", "main")
    write_files(root, case.base)
    git_out(root, "add", "-A")
    git_out(root, "commit", "-q", "--allow-empty", "-m", "base")
    base = git_out(root, "rev-parse", "HEAD")
    write_files(root, case.head)
    git_out(root, "add", "-A")
    git_out(root, "commit", "-q", "--allow-empty", "-m", case.message)
    return base, git_out(root, "rev-parse", "HEAD")


def run_case(case: Case) -> Outcome:
    with tempfile.TemporaryDirectory(prefix="tribunal-bench-") as tmp:
        root = Path(tmp).resolve() / "repo"
        root.mkdir()
        base, head = build_repo(root, case)
        write_files(root, case.extra.get("worktree") or {})  # a range must not read the checkout
        config = parse_config(case.config, "tribunal.yml") if case.config else Config()
        claims_file = None
        if case.claims is not None:
            claims_file = str(Path(tmp) / "claims.md")
            Path(claims_file).write_text(case.claims, encoding="utf-8")
        with Git(root) as git:
            change = build_change(Selection(base=base, head=head), git, root, root, config)
            change.claims = load_claims(change, claims_file=claims_file)
            report = analyze(change, only=[case.analyzer])
    mine = [f for f in report.findings if f.analyzer == case.analyzer]
    worst = max((f.verdict for f in mine), default=Verdict.PASS)
    titles = tuple(f"{f.verdict.name} {f.file}:{f.line} {f.title}" for f in mine)
    return Outcome(case, worst, titles, tuple(e.message for e in report.errors))


def summarize(outcomes: Sequence[Outcome]) -> tuple[str, bool]:
    counts = {k: sum(1 for o in outcomes if o.kind == k) for k in ("TP", "TN", "FP", "FN")}
    tp, fp, fn = counts["TP"], counts["FP"], counts["FN"]
    recall = tp / (tp + fn) if tp + fn else 1.0
    precision = tp / (tp + fp) if tp + fp else 1.0
    line = (
        f"cases={len(outcomes)} TP={tp} TN={counts['TN']} FP={fp} FN={fn} "
        f"recall={recall:.1%} precision={precision:.1%}"
    )
    failed = (
        fp > 0
        or recall < 0.9
        or any(not o.expectation_met for o in outcomes)
        or any(o.errors for o in outcomes)
    )
    return line, failed


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("-k", metavar="TEXT", help="only cases whose name contains TEXT")
    parser.add_argument("-v", "--verbose", action="store_true", help="show each case's findings")
    ns = parser.parse_args(argv)
    outcomes = []
    for case in load_cases(pattern=ns.k):
        outcome = run_case(case)
        outcomes.append(outcome)
        mark = "ok " if outcome.kind in ("TP", "TN") and outcome.expectation_met else "BAD"
        expect = f" expected {case.expect}" if not outcome.expectation_met else ""
        print(f"{mark} {outcome.kind} {outcome.worst.name:<12} {case.name}{expect}")
        for error in outcome.errors:
            print(f"      error: {error}")
        if ns.verbose or mark == "BAD":
            for title in outcome.titles:
                print(f"      {title}")
    line, failed = summarize(outcomes)
    print(line)
    sys.stdout.flush()
    return 1 if failed or not outcomes else 0
