"""A focused test committed: ``it.only``, ``test.only``, ``describe.only``, ``fit``, ``fdescribe``.

CONTRADICTED when the diff adds the focus and the runner that runs the file
(``runners``) is known to honour it: every other test in the file (under
Mocha, in the whole run) silently stops running. Under ``node:test``
``.only`` does nothing without ``--test-only``, and an unknown or mixed
runner proves nothing: UNVERIFIED.

Files under ``fixtures/``, ``__fixtures__/`` or ``__mocks__/`` are not test
files (``js_tests.is_test_file``, shared with every analyzer): they are the
data of tests, such as a lint rule's examples of ``.only``, which a runner
configured with its defaults plus the usual ignore patterns does not collect.
A ``.only`` there gets no finding.
"""

from collections import Counter
from collections.abc import Iterator
from typing import TYPE_CHECKING, NamedTuple

from tribunal.analyzers.test_tampering.common import cap, make, quoted
from tribunal.analyzers.test_tampering.runners import FOCUS_NAMES, GLOBAL_RUNNERS, repo_runners
from tribunal.change.diff.model import FileChange
from tribunal.change.model import Change
from tribunal.findings import Finding, Verdict
from tribunal.lang.js import syntax as js
from tribunal.lang.js.calls import ApiCall, api_calls
from tribunal.lang.js.decls import code_text
from tribunal.lang.js.imports import RUNNER_MODULES
from tribunal.lang.js.module import ModuleIndex, dotted

if TYPE_CHECKING:
    from tree_sitter import Node

_FOCUSING = frozenset({"jest", "vitest", "mocha", "jasmine", "playwright", "cypress"})
#: Runners whose ``.only`` silences every unfocused test of the whole run, not just the file.
_WHOLE_RUN = frozenset({"mocha", "playwright"})


#: The module each runner's test API is imported from, to name it in the evidence.
_MODULES = {runner: module for module, runner in RUNNER_MODULES.items() if runner != "deno"}


class Decision(NamedTuple):
    verdict: Verdict
    runner: str
    why: str


def findings(
    change: Change, fc: FileChange, head: ModuleIndex, base: ModuleIndex | None
) -> Iterator[Finding]:
    focused = [c for c in api_calls(head) if c.focused]
    if not focused:
        return
    before: Counter[str] = Counter()
    if base is not None:
        before.update(_key(c, base.language) for c in api_calls(base) if c.focused)
    limit = Verdict.UNVERIFIED if head.root.has_error else Verdict.CONTRADICTED
    label = "javascript" if head.language == "javascript" else "typescript"
    for call in focused:
        if _shadowed(call, head):
            continue  # ``import { fit } from './model'``: not the test API
        marker = _marker(call.node)
        line = js.first_line(marker)
        key = _key(call, head.language)
        if before[key] > 0:
            before[key] -= 1
            continue  # it was focused before the change: moved, not added
        if line not in fc.added:
            continue
        decision = decide(change, fc.path, head, call)
        callee = call.node.child_by_field_name("function")
        what = quoted(js.text(callee if callee is not None else marker), 40)
        yield make(
            cap(decision.verdict, limit),
            fc.path,
            line,
            _title(decision),
            f"`{what}` was added; {decision.why}." + _uncertain(limit),
            label,
            js.last_line(call.node),
        )


def decide(change: Change, path: str, index: ModuleIndex, call: ApiCall) -> Decision:
    """Whether the runner of ``path`` honours this focus, and why Tribunal thinks so."""
    callee = call.node.child_by_field_name("function")
    base = dotted(callee)[0] if callee is not None and dotted(callee) else ""
    uses_only = base not in ("fit", "fdescribe")
    if call.runner is not None:
        module = _MODULES.get(call.runner, call.runner)
        return _judge(call.runner, uses_only, base, f"`{base}` comes from '{module}'", True)
    in_file = _file_runner(index)
    if in_file is not None:
        evidence = f"the file imports its test API from '{in_file}'"
        return _judge(in_file, uses_only, base, evidence, False)
    found = repo_runners(change, path)
    candidates = sorted(found.runners & GLOBAL_RUNNERS)
    if not candidates:
        why = "no test runner that defines it as a global was found in the repository"
        return Decision(Verdict.UNVERIFIED, "unknown", why)
    where = "; ".join(e for e in found.evidence if e.split(" ")[0] in candidates)
    decisions = [
        _judge(r, uses_only, base, f"the repository uses {where}", False) for r in candidates
    ]
    if all(d.verdict is Verdict.CONTRADICTED for d in decisions):
        return decisions[0]._replace(runner=", ".join(candidates))
    unsure = next(d for d in decisions if d.verdict is not Verdict.CONTRADICTED)
    return Decision(Verdict.UNVERIFIED, ", ".join(candidates), unsure.why)


def _judge(runner: str, uses_only: bool, base: str, evidence: str, imported: bool) -> Decision:
    if runner == "node:test":
        why = f"{evidence}, and under node:test `.only` does nothing unless run with --test-only"
        return Decision(Verdict.UNVERIFIED, runner, why)
    names = FOCUS_NAMES.get(runner)
    honoured = names is not None and (imported or base in names)
    if runner == "jasmine" and uses_only:
        honoured = False
    if runner in ("vitest", "mocha") and not uses_only:
        honoured = False
    if not honoured:
        why = f"{evidence}; Tribunal does not know that {runner} honours this focus here"
        return Decision(Verdict.UNVERIFIED, runner, why)
    scope = (
        "every test outside it, in every file of the run, stops running"
        if runner in _WHOLE_RUN
        else "every other test in this file stops running"
    )
    return Decision(Verdict.CONTRADICTED, runner, f"{evidence}, so {scope}")


def _shadowed(call: ApiCall, index: ModuleIndex) -> bool:
    """The callee's base name is bound in the file by something other than a runner import."""
    callee = call.node.child_by_field_name("function")
    parts = dotted(callee) if callee is not None else []
    if not parts or parts[0] in index.imports.api:
        return False
    name = parts[0]
    binders = [*index.binders.get("bind", ()), *index.binders.get("assign", ())]
    return (
        name in index.imports.bound
        or name in index.definitions
        or any(js.text(node) == name for node in binders)
    )


def _file_runner(index: ModuleIndex) -> str | None:
    """The runner the file imports its test API from, when there is exactly one."""
    runners = {runner for _, runner in index.imports.api.values() if runner is not None}
    return runners.pop() if len(runners) == 1 else None


def _title(decision: Decision) -> str:
    if decision.verdict is Verdict.CONTRADICTED and decision.runner in _WHOLE_RUN:
        return "a focused test was committed: every other test stops running"
    if decision.verdict is Verdict.CONTRADICTED:
        return "a focused test was committed: every other test in this file stops running"
    return "a focused test was committed"


def _marker(call: "Node") -> "Node":
    """The ``only`` property (or ``fit`` name) of the call, where the focus is written."""
    node = call.child_by_field_name("function")
    while node is not None:
        if node.type == "identifier":
            return node
        if node.type == "member_expression":
            prop = node.child_by_field_name("property")
            if prop is not None and js.text(prop) == "only":
                return prop
            node = node.child_by_field_name("object")
        elif node.type == "call_expression":
            node = node.child_by_field_name("function")
        else:
            break
    return call


def _key(call: ApiCall, language: str) -> str:
    args = call.node.child_by_field_name("arguments")
    first = args.named_children[0] if args is not None and args.named_children else None
    callee = call.node.child_by_field_name("function")
    parts = [code_text(n, language) for n in (callee, first) if n is not None]
    return "\0".join(parts)


def _uncertain(limit: Verdict) -> str:
    if limit is Verdict.CONTRADICTED:
        return ""
    return " (Not certain: the file has syntax the parser could not read.)"
