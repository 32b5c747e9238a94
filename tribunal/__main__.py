"""``python -m tribunal``: the same entry point as the console script."""

from tribunal.entry import run

run()
