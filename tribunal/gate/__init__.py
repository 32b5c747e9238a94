"""The gate: ``summary.json``, the decision read from it, the policy and suppressions."""
