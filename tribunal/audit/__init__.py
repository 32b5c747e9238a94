"""Weakened-gate records: the pushes that got past the gate, in a hash-chained local log.

``git push --no-verify`` skips the pre-push gate but not the
``reference-transaction`` hook, and git writes ``update by push`` to the reflog
of the remote-tracking ref either way. So a pushed commit with no passing
``summary.json`` is detectable: immediately by that hook, lazily by scanning
those reflogs (at pre-push, in ``tribunal audit`` and ``tribunal install``).
Each detection appends one record to ``<git common dir>/tribunal/weakened-gate.jsonl``.

What a local, keyless log cannot promise is said plainly in ``tribunal audit
--help`` and ``docs/audit.md``: CI re-running the gate (``tribunal
verify-pushes``) is the enforcement a team can rely on.
"""
