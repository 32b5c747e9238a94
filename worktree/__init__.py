"""Throwaway worktree lifecycle (installed as ``tribunal.worktree``).

This package only makes and removes sandboxes; it knows nothing of analyzers.
"""
