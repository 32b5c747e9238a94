"""The shape of the package: no import cycles, and the arrows of DESIGN.md section 3.

Both read every import statement of the installed package with ``ast`` (see
``tests/importgraph.py``: lazy and ``TYPE_CHECKING`` imports count, ``importlib``
strings do not). ``docs/architecture.md`` draws the same rules for readers.
"""

from __future__ import annotations

import pytest

from tests.importgraph import Edge, cycles, import_edges, internal_graph, module_files

MODULES = module_files()
EDGES = import_edges()

#: The packages that analyze a change: the engine in DESIGN.md's sense.
ANALYSIS = (
    "tribunal.change",
    "tribunal.config",
    "tribunal.engine",
    "tribunal.lang",
    "tribunal.analyzers",
    "tribunal.claims",
)
#: Arrows that must never exist: (who, what it may never import, why). A name covers the
#: module and everything under it. Moving a module only changes the names in this table.
FORBIDDEN: tuple[tuple[tuple[str, ...], tuple[str, ...], str], ...] = (
    (
        ANALYSIS,
        ("tribunal.hooks", "tribunal.worktree", "tribunal.llm", "tribunal.lenses"),
        "the engine analyzes a change and knows nothing of hooks, worktrees or advisors",
    ),
    (
        ("tribunal.analyzers",),
        ("tribunal.render", "tribunal.github"),
        "analyzers produce findings; rendering them is the caller's business",
    ),
    (
        ("tribunal.llm",),
        (
            "tribunal.gate",
            "tribunal.engine.runner",
            "tribunal.analyzers",
            "tribunal.claims.verifiers",
            "tribunal.hooks",
        ),
        "the advisors may read claims but never reach the gate or any verdict logic",
    ),
    (
        ("tribunal.worktree",),
        ("tribunal.engine", "tribunal.analyzers", "tribunal.hooks", "tribunal.gate"),
        "the worktree code only makes and removes sandboxes",
    ),
    (
        ("tribunal.util",),
        (
            *ANALYSIS,
            "tribunal.gate",
            "tribunal.render",
            "tribunal.commands",
            "tribunal.cli",
            "tribunal.hooks",
            "tribunal.llm",
        ),
        "the utilities sit below everything: they know nothing of changes, analyzers or the gate",
    ),
)


def under(module: str, names: tuple[str, ...]) -> bool:
    return any(module == name or module.startswith(name + ".") for name in names)


def violations(edges: list[Edge]) -> list[str]:
    found = []
    for sources, targets, why in FORBIDDEN:
        for edge in edges:
            if under(edge.importer, sources) and under(edge.imported, targets):
                found.append(f"{edge.importer}:{edge.line} imports {edge.imported} ({why})")
    return found


def test_the_graph_reads_every_module() -> None:
    assert len(MODULES) > 200
    assert {"tribunal.cli", "tribunal.hooks.convene", "tribunal.worktree.sandbox"} <= set(MODULES)
    # lazy imports count: an analyzer loads its language half inside a function
    lazy = Edge(
        "tribunal.analyzers.assertion_free_test",
        "tribunal.analyzers.assertion_free_test.python",
        41,
    )
    assert lazy in EDGES


def test_there_is_no_import_cycle() -> None:
    assert cycles(internal_graph(EDGES, set(MODULES))) == []


def test_every_forbidden_name_is_a_real_package_or_module() -> None:
    # a rule naming a module that was moved away would pass forever
    for sources, targets, _ in FORBIDDEN:
        for name in (*sources, *targets):
            assert any(under(m, (name,)) for m in MODULES), name


def test_no_import_points_the_wrong_way() -> None:
    assert violations(EDGES) == []


@pytest.mark.parametrize(
    ("importer", "imported", "expected"),
    [
        ("tribunal.engine.runner", "tribunal.hooks.convene", 1),
        ("tribunal.analyzers.test_tampering.common", "tribunal.render.text", 1),
        ("tribunal.llm.council", "tribunal.gate.summary", 1),
        ("tribunal.llm.council", "tribunal.gate.policy", 1),
        ("tribunal.change.model", "tribunal.hooks.trust", 1),
        ("tribunal.util.fsutil", "tribunal.gate.summary", 1),
        ("tribunal.render.safeout", "tribunal.hooks.convene", 0),  # the CLI's output helper
        ("tribunal.analyzers.hallucinated_symbol.python_judge", "tribunal.render.safeout", 1),
        ("tribunal.hooks.convene", "tribunal.engine.runner", 0),
        ("tribunal.llm.council", "tribunal.claims.registry", 0),
    ],
)
def test_the_rules_catch_a_planted_arrow(importer: str, imported: str, expected: int) -> None:
    assert len(violations([Edge(importer, imported, 1)])) == expected


def test_the_cycle_finder_finds_a_planted_cycle() -> None:
    graph = internal_graph(EDGES, set(MODULES))
    graph["tribunal.errors"] = {*graph["tribunal.errors"], "tribunal.cli"}
    found = cycles(graph)
    assert any({"tribunal.errors", "tribunal.cli"} <= set(c) for c in found)
