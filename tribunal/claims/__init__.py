"""Claims: what a change says about itself, and the verifiers that check it.

A claim is parsed, never understood: ``key[: arg]`` lines from a fenced
```` ```tribunal ```` block, a claims file, or ``Tribunal-Claim:`` commit
trailers. Each key maps to one deterministic verifier in ``registry``; a key
without one can only ever be UNVERIFIED, so nothing a model or an agent writes
into a claim can manufacture a false CONTRADICTED.
"""
