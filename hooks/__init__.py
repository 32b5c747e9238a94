"""Git-facing entry points (installed as ``tribunal.hooks``).

The pre-commit and pre-push hooks call into the engine from here; the engine
never imports this package.
"""
