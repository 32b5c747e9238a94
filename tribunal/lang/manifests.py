"""Dependency manifests: which distributions a file declares, and in which section.

The one reader of them: the claims (``no-new-dependency``, ``claims.known_deps``) and
hallucinated-symbol (``analyzers.hallucinated_symbol.pydeps``, what an import may
name) both read manifests here, so a file kind or a table one of them knows the other
knows too.

Covered: ``pyproject.toml`` (PEP 621 dependencies and optional dependencies,
PEP 735 dependency groups, build requirements, Poetry, uv, Rye, PDM and Hatch
tables), requirements files (``requirements*.txt`` / ``*.in``, ``requirement.txt``,
``dev-requirements.in``, and any ``.txt``/``.in`` under a ``requirements/``
directory), ``setup.cfg``, ``Pipfile`` and ``package.json``; and, for the names
only, the literal requirements ``setup.py`` gives ``setup()`` and the ``deps`` of
``tox.ini`` test environments (``setup_py_names``, ``tox_ini_names``).
Lockfiles are not manifests: they list what a resolver chose, not what the
project asked for. That includes a requirements file written by
``pip-compile`` or ``uv pip compile`` (its header says so, its pins carry
``# via`` notes): ``lock`` says why. A requirements file with no header in
which every entry is pinned (``==`` or ``--hash``, as ``pip freeze``, ``uv
export`` and ``poetry export`` write) may be either: ``maybe_lock`` says why.
Python names are PEP 503-normalized; npm names are kept as written. An entry
whose name cannot be read statically (a bare URL, a path) is recorded as
*uncertain* by its text. Files a list is read from (``-r``, a
``setup.cfg`` ``file:`` directive, a setuptools dynamic ``file`` list) are
*includes*, followed by the caller; ``-c`` constraint files are *constraints*
(they pin, they ask for nothing); a whole list kept elsewhere that no include
names (``dynamic = ["dependencies"]`` filled by a build plugin) is *opaque*.

No ``dataclasses`` and no parser at import time: hallucinated-symbol loads this module
inside ``tribunal check --staged`` (tests/test_cli.py counts what start-up imports).
"""

import ast
import re
from collections.abc import Iterable, Iterator, Mapping
from typing import Any, NamedTuple

from tribunal.util.bounds import load_json, load_toml

_NAME = re.compile(r"^\s*([A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)\s*(?=$|[\[(<>=!~;@,\s])")
_EGG = re.compile(r"[#&]egg=([A-Za-z0-9][A-Za-z0-9._-]*)")
#: An environment marker, which a one-line ``a; b`` list in setup.cfg cannot tell from an item.
_MARKER = re.compile(
    r"^\s*(?:python_(?:full_)?version|sys_platform|platform_\w+|os_name|implementation_\w+|extra)"
    r"\s*(?:[<>=!~]|in\b|not\b)"
)
_NPM_SECTIONS = ("dependencies", "devDependencies", "peerDependencies", "optionalDependencies")
#: The names a lenient reading takes from an entry the strict one cannot name.
_LENIENT_NAME = re.compile(r"\s*([A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)")
#: ``-r other.txt`` (an include) or ``-c pins.txt`` (a constraint), spelt every way pip reads.
_INCLUDE = re.compile(r"(-r|--requirement|-c|--constraint)(?:\s+|=|(?=[^\s=]))(\S+)")
_SETUP_KEYWORDS = ("install_requires", "extras_require", "tests_require", "setup_requires")


class Dependency(NamedTuple):
    name: str  # normalized: PEP 503 for Python, as written for npm (an alias's target)
    section: str
    text: str  # the entry as written, for evidence
    alias: str | None = None  # npm ``"alias": "npm:real@1"``: the key it is installed under


class Declared:
    """What one manifest declares; ``error`` is set when it could not be parsed."""

    def __init__(self, path: str, *, opaque: list[str] | None = None) -> None:
        self.path = path
        self.deps: list[Dependency] = []
        self.uncertain: list[str] = []  # entries whose name cannot be read, as written
        self.error: str | None = None
        self.project: str | None = None  # the manifest's own name: ``pkg[extra]`` is itself
        self.includes: list[str] = []  # ``-r other.txt``, ``file:``: relative paths
        self.constraints: list[str] = []  # ``-c pins.txt``: relative paths; they declare nothing
        self.opaque: list[str] = opaque or []  # lists whose every name is unknown
        self.lock: str | None = None  # why it is certainly a resolver's output, not a manifest
        self.maybe_lock: str | None = None  # why it may be one (every entry pinned, no header)

    def __repr__(self) -> str:
        return f"Declared({self.path!r}, deps={[d.name for d in self.deps]})"


def canonical(name: str) -> str:
    """PEP 503 normalization: ``Foo.Bar_baz`` -> ``foo-bar-baz``."""
    return re.sub(r"[-_.]+", "-", name).lower()


def requirement_name(spec: str) -> str | None:
    """The distribution a PEP 508 string starts with, read leniently (as written, not normalized).

    ``name[extra]>=1; marker`` -> ``name``; ``git+https://...#egg=pkg`` -> ``pkg``. For the
    names-only readers (``setup.py``, ``tox.ini``) and an *uncertain* entry's best guess.
    """
    egg = _EGG.search(spec)
    if egg:
        return egg[1]
    match = _LENIENT_NAME.match(spec)
    return match[1] if match else None


def kind_of(path: str) -> str | None:
    """Which manifest format ``path`` is, or None when it is not a manifest."""
    name = path.rsplit("/", 1)[-1]
    if name in ("pyproject.toml", "setup.cfg", "package.json", "Pipfile"):
        return name
    stem, dot, ext = name.rpartition(".")
    if dot and ext in ("txt", "in"):
        in_dir = "/requirements/" in f"/{path}"
        if "requirements" in stem.lower() or in_dir or is_requirements_name(name):
            return "requirements"
    return None


def is_requirements_name(name: str) -> bool:
    """``requirements.txt``, ``dev-requirements.in``, ``requirement_test.txt`` and the like.

    ``[prefix[-_.]]requirement[s][[-_.]suffix].(txt|in)``, found with ``str.find``:
    as a regex (two ``.*`` around the word) it was cubic in a long file name.
    """
    stem, dot, ext = name.lower().rpartition(".")
    if not dot or ext not in ("txt", "in"):
        return False
    word = "requirement"
    index = stem.find(word)
    while index >= 0:
        end = index + len(word)
        ends = (end, end + 1) if stem.startswith("s", end) else (end,)
        if (index == 0 or stem[index - 1] in "-_.") and any(
            e == len(stem) or stem[e] in "-_." for e in ends
        ):
            return True
        index = stem.find(word, index + 1)
    return False


def parse_manifest(path: str, text: str, force: str | None = None) -> Declared:
    """The dependencies ``text`` (the contents of ``path``) declares.

    ``force`` reads it as that kind whatever its name (``-r common.txt``).
    """
    import configparser  # parsers load only when a manifest is read (not at start-up)

    out = Declared(path)
    kind = force or kind_of(path)
    try:
        if kind == "pyproject.toml":
            _pyproject(load_toml(text), out)
        elif kind == "Pipfile":
            _pipfile(load_toml(text), out)
        elif kind == "setup.cfg":
            _setup_cfg(text, out)
        elif kind == "package.json":
            _package_json(load_json(text), out)
        elif kind == "requirements":
            _requirements(text, "requirements", out)
            out.lock, out.maybe_lock = lock_evidence(text, out)
    except (ValueError, configparser.Error) as exc:
        out.error = f"{path}: not parseable ({type(exc).__name__}: {exc})"
    return out


def _add_pep508(items: Iterable[Any], section: str, out: Declared) -> None:
    for item in items:
        if isinstance(item, str):
            _add_requirement(item, section, out)


def _add_requirement(text: str, section: str, out: Declared) -> None:
    entry = text.strip()
    if not entry:
        return
    egg = _EGG.search(entry)
    match = _NAME.match(entry) if "://" not in entry.split("@", 1)[0] else None
    name = egg[1] if egg else (match[1] if match else None)
    if name is None:
        out.uncertain.append(entry)
    else:
        out.deps.append(Dependency(canonical(name), section, entry))


def _pyproject(data: Mapping[str, Any], out: Declared) -> None:
    project = _table(data, "project")
    name = project.get("name") or _table(_table(data, "tool"), "poetry").get("name")
    out.project = canonical(name) if isinstance(name, str) else None
    _add_pep508(_list(project, "dependencies"), "project.dependencies", out)
    for extra, items in _table(project, "optional-dependencies").items():
        _add_pep508(_as_list(items), f"project.optional-dependencies.{extra}", out)
    for group, items in _table(data, "dependency-groups").items():
        _add_pep508(_as_list(items), f"dependency-groups.{group}", out)
    _add_pep508(_list(_table(data, "build-system"), "requires"), "build-system.requires", out)
    tool = _table(data, "tool")
    _add_pep508(_list(_table(tool, "uv"), "dev-dependencies"), "tool.uv.dev-dependencies", out)
    _add_pep508(_list(_table(tool, "rye"), "dev-dependencies"), "tool.rye.dev-dependencies", out)
    for env, body in _table(_table(tool, "hatch"), "envs").items():
        for key in ("dependencies", "extra-dependencies"):
            _add_pep508(_list(_table_of(body), key), f"tool.hatch.envs.{env}.{key}", out)
    for group, items in _table(_table(tool, "pdm"), "dev-dependencies").items():
        _add_pep508(_as_list(items), f"tool.pdm.dev-dependencies.{group}", out)
    _poetry(_table(tool, "poetry"), out)
    _dynamic(project, _table(_table(tool, "setuptools"), "dynamic"), out)


def _dynamic(project: Mapping[str, Any], setuptools: Mapping[str, Any], out: Declared) -> None:
    """``dynamic`` dependency lists: setuptools ``file`` lists are includes, others opaque."""
    dynamic = _list(project, "dynamic")
    if "dependencies" in dynamic:
        _dynamic_files(setuptools.get("dependencies"), "project.dependencies", out)
    if "optional-dependencies" in dynamic:
        extras = setuptools.get("optional-dependencies")
        for extra, spec in _table_of(extras).items():
            _dynamic_files(spec, f"project.optional-dependencies.{extra}", out)
        if not _table_of(extras):
            _dynamic_files(None, "project.optional-dependencies", out)


def _dynamic_files(spec: Any, section: str, out: Declared) -> None:
    files = _table_of(spec).get("file")
    paths = [files] if isinstance(files, str) else _as_list(files)
    if paths and all(isinstance(p, str) for p in paths):
        out.includes += paths
    else:
        out.opaque.append(f"{out.path}: {section} is dynamic and read from no listed file")


def _poetry(poetry: Mapping[str, Any], out: Declared) -> None:
    tables = [("tool.poetry.dependencies", _table(poetry, "dependencies"))]
    tables.append(("tool.poetry.dev-dependencies", _table(poetry, "dev-dependencies")))
    for group, body in _table(poetry, "group").items():
        if isinstance(body, dict):
            tables.append((f"tool.poetry.group.{group}", _table(body, "dependencies")))
    for section, table in tables:
        _add_keys(table, section, out, python=True)


def _pipfile(data: Mapping[str, Any], out: Declared) -> None:
    _add_keys(_table(data, "packages"), "packages", out, python=True)
    _add_keys(_table(data, "dev-packages"), "dev-packages", out, python=True)


def _add_keys(table: Mapping[str, Any], section: str, out: Declared, *, python: bool) -> None:
    for name in table:
        if python and name.lower() == "python":
            continue
        out.deps.append(Dependency(canonical(name) if python else name, section, name))


def _package_json(data: Any, out: Declared) -> None:
    if not isinstance(data, dict):
        out.error = f"{out.path}: not a JSON object"
        return
    for section in _NPM_SECTIONS:
        for key, spec in _table(data, section).items():
            target = _npm_alias(spec)
            name = target or key
            text = f"{key} (npm:{target})" if target else key
            out.deps.append(Dependency(name, section, text, alias=key if target else None))
    out.project = data["name"] if isinstance(data.get("name"), str) else None


def _npm_alias(spec: Any) -> str | None:
    """``npm:real-name@^1`` -> ``real-name`` (installed under another key)."""
    if not isinstance(spec, str) or not spec.startswith("npm:"):
        return None
    rest = spec[4:]
    at = rest.find("@", 1)  # a scope's leading ``@`` is part of the name
    return (rest[:at] if at > 0 else rest) or None


def _setup_cfg(text: str, out: Declared) -> None:
    import configparser

    parser = configparser.ConfigParser(interpolation=None, strict=False)
    parser.read_string(text)
    if parser.has_option("metadata", "name"):
        out.project = canonical(parser.get("metadata", "name"))
    for option in ("install_requires", "setup_requires", "tests_require"):
        if parser.has_option("options", option):
            _cfg_list(parser.get("options", option), f"options.{option}", out)
    if parser.has_section("options.extras_require"):
        for extra, value in parser.items("options.extras_require"):
            _cfg_list(value, f"options.extras_require.{extra}", out)


def _cfg_list(value: str, section: str, out: Declared) -> None:
    if value.strip().startswith("file:"):  # setuptools reads these files as requirements
        out.includes += [p.strip() for p in value.strip()[5:].split(",") if p.strip()]
        return
    if "\n" in value.strip():
        items = value.splitlines()
    else:
        items = [item for item in value.split(";") if not _MARKER.match(item)]
    for item in items:
        _add_requirement(item.split(" #", 1)[0], section, out)


def _requirements(text: str, section: str, out: Declared) -> None:
    for line in _logical_lines(text):
        entry = re.split(r"(?:^|\s)#", line, maxsplit=1)[0].strip()
        if not entry:
            continue
        if entry.startswith(("-e", "--editable")):
            _add_requirement(entry.split(None, 1)[-1] if " " in entry else entry[2:], section, out)
        elif entry.startswith("-"):
            include = _INCLUDE.match(entry)
            if include:  # followed by the caller, which can read other files
                pins = include[1] in ("-c", "--constraint")
                (out.constraints if pins else out.includes).append(include[2])
        else:
            _add_requirement(entry.split(" --", 1)[0], section, out)


#: The first lines ``pip-compile`` and ``uv pip compile`` write.
_LOCK_HEADER = re.compile(
    r"^#\s*This file (?:is|was) autogenerated by (pip-compile|uv)\b", re.IGNORECASE | re.MULTILINE
)
#: What follows the ``#`` of a ``# via`` note (matched at that one position).
_VIA_AFTER = re.compile(r"\s+via\b")
_PINNED = re.compile(r"===?\s*[^\s,;*]+(?:\s*;.*)?$")


def lock_evidence(text: str, declared: Declared) -> tuple[str | None, str | None]:
    """(why it is a lock file, why it may be one) for a requirements file's ``text``."""
    header = _LOCK_HEADER.search(text[:2000])
    if header:
        return f"{declared.path}: generated by {header[1]} (its header says so)", None
    if _via_notes(text):
        return f"{declared.path}: its pins carry `# via` notes (a resolver's output)", None
    pins = [_pinned(line) for line in _entry_lines(text)]
    if pins and all(pins) and not declared.uncertain:
        return None, f"{declared.path}: every entry is pinned, as a lock or an export writes"
    return None, None


def _via_notes(text: str) -> bool:
    """``pip-compile`` / ``uv`` annotations: ``    # via requests`` on an indented line under
    a pin, or ``pkg==1.0  # via requests`` after it.

    Each ``#`` is looked at once, with the spaces on either side of it and the
    word before: the regex this replaces (``^\\s+#\\s+via\\b|==\\S*\\s+#\\s+via\\b``,
    multiline) matched exactly this but rescanned a long run of ``=`` or of blank
    lines from every position in it (quadratic).
    """
    at = text.find("#")
    while at >= 0:
        if _VIA_AFTER.match(text, at + 1) and (at == 0 or text[at - 1].isspace()):
            gap_start = at
            while gap_start > 0 and text[gap_start - 1].isspace():
                gap_start -= 1
            gap = text[gap_start:at]
            if "\n" in gap[:-1] or (gap_start == 0 and gap):  # first on an indented line
                return True
            word_start = gap_start
            while word_start > 0 and not text[word_start - 1].isspace():
                word_start -= 1
            if "==" in text[word_start:gap_start]:  # a pin, then its note
                return True
        at = text.find("#", at + 1)
    return False


def _entry_lines(text: str) -> Iterator[str]:
    """The requirement lines of a requirements file (options and comments left out)."""
    for line in _logical_lines(text):
        entry = re.split(r"(?:^|\s)#", line, maxsplit=1)[0].strip()
        if entry and not entry.startswith("-"):
            yield entry


def _pinned(entry: str) -> bool:
    """``name==1.2`` (``===``), or any entry with a ``--hash``."""
    return "--hash" in entry or bool(_PINNED.search(entry.split(" --", 1)[0].strip()))


def _logical_lines(text: str) -> Iterator[str]:
    pending = ""
    for raw in text.splitlines():
        if raw.endswith("\\"):
            pending += raw[:-1] + " "
            continue
        yield pending + raw
        pending = ""
    if pending:
        yield pending


def _table(data: Mapping[str, Any], key: str) -> Mapping[str, Any]:
    value = data.get(key)
    return value if isinstance(value, dict) else {}


def _list(data: Mapping[str, Any], key: str) -> list[Any]:
    return _as_list(data.get(key))


def _as_list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _table_of(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, dict) else {}


def setup_py_names(text: str) -> list[str]:
    """Requirement names a ``setup.py`` gives ``setup()`` literally (directly or via a constant).

    Never run: only string literals of ``install_requires``, ``extras_require``,
    ``tests_require`` and ``setup_requires`` (``claims.known_deps`` says when a list is
    not written out).
    """
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return []
    constants = {
        t.id: node.value
        for node in tree.body
        if isinstance(node, ast.Assign)
        for t in node.targets
        if isinstance(t, ast.Name)
    }
    return [
        name
        for node in ast.walk(tree)
        if isinstance(node, ast.keyword) and node.arg in _SETUP_KEYWORDS
        for name in _strings(node.value, constants)
    ]


def _strings(node: ast.expr, constants: dict[str, ast.expr], depth: int = 0) -> Iterator[str]:
    for sub in ast.walk(node):
        if isinstance(sub, ast.Constant) and isinstance(sub.value, str):
            name = requirement_name(sub.value)
            if name:
                yield name
        elif isinstance(sub, ast.Name) and sub.id in constants and depth < 3:
            yield from _strings(constants[sub.id], constants, depth + 1)


def tox_ini_names(text: str) -> list[str]:
    """Requirement names of the ``deps`` of every ``[testenv...]`` section of a ``tox.ini``."""
    import configparser

    parser = configparser.ConfigParser(interpolation=None, strict=False)
    try:
        parser.read_string(text)
    except configparser.Error:
        return []
    names = []
    for section in parser.sections():
        if section.startswith("testenv"):
            for line in parser.get(section, "deps", fallback="").splitlines():
                name = requirement_name(line.strip()) if line.strip() else None
                if name and not line.strip().startswith(("-", "{")):
                    names.append(name)
    return names
