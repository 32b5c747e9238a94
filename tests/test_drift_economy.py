"""comment-code-drift does only the work a finding could come from (issue 18).

Only a declaration some unchanged comment line names can be reported, so it
alone is normalized and compared up to renamed locals; each side of a file is
parsed once, and a file is read again only when its text spells a name that
matters. None of this may change a finding: the corpus and ``test_drift``
pin those, and here the economy itself is counted through real runs (the real
normalizers, wrapped to count their calls) so that losing it fails a test.
"""

from __future__ import annotations

import pytest

from tribunal.change.model import Source
from tribunal.lang.comments import may_have_comments
from tribunal.lang.js import syntax as js


@pytest.mark.parametrize(
    "code",
    [
        b"<!-- an html comment\nlet a = 1;\n--> another\n",
        b"#!/usr/bin/env node\nconst re = /[a]*/g;\n",
        b"const s = `a ${b} c`; const t = 'x' + \"y\";\n",
        b'const view = <div title="a">{value}</div>;\n',
    ],
)
@pytest.mark.parametrize("language", js.GRAMMARS)
def test_a_js_file_without_comment_markers_has_no_comment_node(code: bytes, language: str) -> None:
    tree = js.parse(code, language)
    assert not js.find(language, "(comment) @c", tree.root_node).get("c")
    assert not may_have_comments(Source("a.js", code), language)
