"""Lens definitions (installed as ``tribunal.lenses``).

A lens is a council member with a focus: which analyzers it runs and a one-line
hint. The definitions are data files beside this module.
"""
