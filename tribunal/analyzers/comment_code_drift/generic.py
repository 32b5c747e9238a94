"""Names too ordinary to count as a mention: prose uses them without meaning the code.

A comment saying "run the tests" does not refer to a function ``run``. The list
holds words programmers use in comments every day (verbs of the trade, common
nouns, language keywords and dunder methods); anything shorter than three
characters is ignored too.
"""

from __future__ import annotations

_WORDS = """
add all and any app apply arg args async await base body build cache call callback can
check child children class clear close code config connect const constructor context copy
count create ctx current data date debug default delete describe destroy dict do done each
else emit end entry env error errors event exec exit export false fetch field file files
filter find first flag flush for format from func function get handle handler has hash head
help id if import index info init input insert instance is it item items key keys kind kwargs
last len length let line lines list load log main make map match max message meta method min
mode model module name new next node nodes none not null obj object of off on open option
options or out output parse parent path post prev print process props push put query read
reduce refresh register remove render request reset resolve response result results return
root row run save self send server set setup size sort source start state status step stop
store string sum super test text the then this time to tmp todo total tree true try type
undefined update url use user val validate value values var view void when while with write
yield
"""
GENERIC = frozenset(_WORDS.split())


def is_generic(name: str) -> bool:
    """Whether a mention of ``name`` in a comment says nothing about the code named so."""
    if len(name) < 3 or (name.startswith("__") and name.endswith("__")):
        return True
    return name.lower() in GENERIC
