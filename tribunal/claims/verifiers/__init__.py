"""One module per claim key; each exposes ``verify(change, claim) -> Judgement``."""
