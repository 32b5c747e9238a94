"""The LLM advisors: ``tribunal propose`` and ``tribunal council``.

Trust Contract rule 1 holds by construction: nothing in this package can reach
the gate, the engine or a claim verifier (a test walks the import graph), so no
model output can change a verdict. Models only *propose* claim keys, which the
deterministic verifiers then judge like any other claim, and *advise*.

Importing this package is free: the HTTP clients (the ``llm`` extra) are
imported only when a model is actually called.
"""
