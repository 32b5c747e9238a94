"""Tribunal: a deterministic gate against the defects coding agents ship.

The version is a literal so that ``tribunal --version`` answers before anything
else is imported (no ``importlib.metadata`` at start-up).
"""

__version__ = "0.1.0"
