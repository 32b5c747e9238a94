"""Lens definitions, user overrides, and what counts as weakening the gate."""

from __future__ import annotations

from tribunal.config.load import parse_config
from tribunal.config.model import Config
from tribunal.engine.registry import BUILTINS
from tribunal.hooks.trust import weakenings
from tribunal.lenses import builtin_lenses, configured_lenses, plan


def cfg(text: str = "") -> Config:
    return parse_config(text, "tribunal.yml")


def test_the_shipped_lenses() -> None:
    lenses = builtin_lenses()
    assert list(lenses) == ["tests", "symbols", "security", "docs", "claims", "suite"]
    for lens in lenses.values():
        assert lens.title and lens.focus and "\n" not in lens.focus
    assert lenses["tests"].analyzers[0] == "assertion-free-test"
    assert lenses["suite"].kind == "suite" and not lenses["suite"].enabled
    assert [lens.id for lens in configured_lenses(cfg())] == [
        "tests",
        "symbols",
        "security",
        "docs",
        "claims",
    ]


def test_the_suite_lens_is_opt_in() -> None:
    on = configured_lenses(cfg("suite:\n  command: pytest -q\n"))
    assert on[-1].id == "suite"
    off = configured_lenses(
        cfg("suite:\n  command: pytest -q\nlenses:\n  suite: {enabled: false}\n")
    )
    assert "suite" not in [lens.id for lens in off]
    assert configured_lenses(cfg("lenses:\n  suite: {enabled: true}\n"))[-1].id == "suite"


def test_users_override_and_add_lenses() -> None:
    config = cfg(
        "lenses:\n"
        "  docs: {enabled: false}\n"
        "  tests: {analyzers: [assertion-free-test], focus: Only this.}\n"
        "  mine: {title: Mine, analyzers: [assertion-free-test, not-yet-written]}\n"
    )
    lenses = {lens.id: lens for lens in configured_lenses(config)}
    assert "docs" not in lenses
    assert (
        lenses["tests"].analyzers == ("assertion-free-test",)
        and lenses["tests"].focus == "Only this."
    )
    assert lenses["mine"].title == "Mine" and lenses["mine"].kind == "analyzers"
    assert list(lenses)[-1] == "mine"


def test_unknown_and_disabled_analyzers_are_skipped_with_a_note() -> None:
    lens = {lens.id: lens for lens in configured_lenses(cfg())}["tests"]
    planned = plan(lens, cfg())
    assert "assertion-free-test" in planned.runnable
    unknown = [a for a in lens.analyzers if a not in BUILTINS]
    assert [n for n in planned.notes if "not available" in n] == [
        f"analyzer {a} is not available in this version; skipped" for a in unknown
    ]
    disabled = plan(lens, cfg("analyzers:\n  assertion-free-test: false\n"))
    assert "assertion-free-test" not in disabled.runnable
    assert (
        "analyzer assertion-free-test is disabled by the configuration; skipped" in disabled.notes
    )


def test_what_weakens_the_gate() -> None:
    old = cfg("strict: true\nsuite:\n  command: pytest\n")
    new = cfg(
        "analyzers:\n  assertion-free-test: false\n"
        "generated-paths: [src/]\n"
        "lenses:\n  docs: {enabled: false}\n  tests: {analyzers: []}\n"
    )
    found = weakenings(old, new)
    assert "disables analyzer assertion-free-test" in found
    assert "disables lens docs" in found
    assert "disables lens suite" in found
    assert "removes assertion-free-test from lens tests" in found
    assert "adds generated paths, which are not analyzed: src/" in found
    assert "turns strict off" in found
    assert weakenings(new, old) == []
    assert weakenings(cfg(), cfg("strict: true\n")) == []
