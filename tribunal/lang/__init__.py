"""Language front ends: Python through ``ast``, JS/TS through tree-sitter."""
