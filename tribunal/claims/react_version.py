"""Whether a file's project uses a React below 19, from the ``package.json`` range.

React 19 stopped applying ``defaultProps`` to function components, so a
flipped ``defaultProps`` value there is certain only below 19. Known means:
the nearest ``package.json`` above the file that names ``react`` gives a
range every version of which is below 19 (``^18.2.0``, ``~17.0``, ``16.x``,
``>=16 <19``, ``17 || 18``); anything open-ended (``*``, ``>=18``,
``latest``, a tag, a URL) is not known.
"""

from __future__ import annotations

import json
import posixpath
import re

from tribunal.change.model import Change
from tribunal.lang.treepaths import ancestor_dirs

_SECTIONS = ("dependencies", "peerDependencies", "devDependencies")
#: One space run before and one after the operator, never two adjacent ``\s*`` (each
#: split of a long run of spaces between them would be tried: quadratic).
_BOUNDED = re.compile(r"^\s*(?:[\^~=v]+\s*)?(\d+)(?:\.(?:\d+|x|\*))*\s*$")
_UPPER = re.compile(r"<\s*(?:=\s*)?v?(\d+)(?:\.(\d+|x|\*))*")


def below_react_19(change: Change, path: str) -> bool:
    for directory in ancestor_dirs(posixpath.dirname(path)):
        manifest = change.read_head(posixpath.join(directory, "package.json"))
        if manifest is None:
            continue
        spec = _react_spec(manifest.text)
        if spec is not None:
            return _all_below(spec, 19)
    return False


def _react_spec(text: str) -> str | None:
    try:
        data = json.loads(text)
    except ValueError:
        return None
    if not isinstance(data, dict):
        return None
    for section in _SECTIONS:
        deps = data.get(section)
        if isinstance(deps, dict) and isinstance(deps.get("react"), str):
            return str(deps["react"])
    return None


def _all_below(spec: str, major: int) -> bool:
    """Every alternative of the npm range is bounded below ``major``."""
    for alternative in spec.split("||"):
        exact = _BOUNDED.match(alternative)
        if exact is not None:
            if int(exact.group(1)) >= major:
                return False
            continue
        upper = _UPPER.search(alternative)
        if upper is None:
            return False
        inclusive = "<=" in alternative.replace(" ", "")
        limit = int(upper.group(1))
        if limit > major or (limit == major and (inclusive or upper.group(2) not in (None, "0"))):
            return False
    return True
