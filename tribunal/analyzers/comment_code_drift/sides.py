"""One side of a changed file: its declarations by qualified name, read while its tree is cached.

``changed_decls`` reads both sides of a file once, one after the other, while
their trees are in the run's bounded cache, and compares each declaration by
its bytes first: equal bytes are equal code, so only a declaration whose bytes
differ (or that is gone) is ever normalized, and only when a comment could be
about it. A ``Side`` holds the tree's nodes, so it lives only while its file is
compared; the ``Entry`` values it makes for later (``lasting``) keep no node
and find their declaration again, in a tree parsed anew, if ``renamed`` is asked.
"""

from collections.abc import Callable, Sequence
from functools import partial
from itertools import accumulate
from typing import TYPE_CHECKING, Any, Generic, NamedTuple, Protocol, TypeVar

from tribunal.change.model import Source
from tribunal.lang.paths import is_js_family, language_of

if TYPE_CHECKING:
    from tribunal.lang.js.decls import JsDecl
    from tribunal.lang.python.decls import PyDecl

Span = tuple[int, int]

#: Text of a declaration the parser could not read: never compared.
UNREADABLE = "\0unreadable"


class Entry(NamedTuple):
    name: str
    text: str
    line: int
    span: Span  # first line (decorators included) to last line
    docstring: Span | None
    renamed: Callable[[], str]  # the text with locals renamed canonically, made on demand


class _Named(Protocol):
    @property
    def qualname(self) -> str: ...
    @property
    def name(self) -> str: ...


D = TypeVar("D", bound=_Named)


class Side(Generic[D]):
    """A file's declarations as parsed from one side's contents, by qualified name."""

    def __init__(self, source: Source | None, found: Sequence[D], readable: bool = True) -> None:
        self.source = source
        self.language = language_of(source.path) if source is not None else None
        self.by_qualname: dict[str, list[D]] = {}
        for decl in found:
            self.by_qualname.setdefault(decl.qualname, []).append(decl)
        #: False when tree-sitter recovered from an error: declarations may be lost,
        #: so none missing from this side counts as removed.
        self.readable = readable

    def comparable(self, other: "Side[D]") -> bool:
        """Whether equal bytes here and in ``other`` are certainly equal code.

        The same grammar: a ``.ts`` file renamed ``.tsx`` reads ``<T>x`` otherwise.
        """
        return self.language == other.language

    def raw(self, qualname: str) -> list[bytes]:
        """The declarations' own bytes, sorted: equal lists mean equal normalized texts."""
        return sorted(self._raw(decl) for decl in self.by_qualname[qualname])

    def entries(self, qualname: str, *, lasting: bool) -> list[Entry]:
        """Normalized entries; ``lasting`` ones hold no node (kept past this side's life)."""
        source = self.source
        bare = Source(source.path, source.data, source.trees) if source is not None else None
        out = []
        for ordinal, decl in enumerate(self.by_qualname[qualname]):
            renamed: Callable[[], str] = partial(self.renamed, decl)
            if lasting and bare is not None:  # the bytes only: no tree, no decoded text
                renamed = partial(_renamed_later, bare, qualname, ordinal)
            out.append(self._entry(decl, renamed))
        return out

    def renamed(self, decl: D) -> str:
        """The declaration's text with its locals renamed canonically."""
        raise NotImplementedError

    def _raw(self, decl: D) -> bytes:
        raise NotImplementedError

    def _entry(self, decl: D, renamed: Callable[[], str]) -> Entry:
        raise NotImplementedError


class _PySide(Side["PyDecl"]):
    def __init__(self, source: Source, found: "Sequence[PyDecl]") -> None:
        super().__init__(source, found)
        self._starts: list[int] | None = None

    def comparable(self, other: "Side[PyDecl]") -> bool:
        """The same language, and the same encoding lines (the first two), so the same text."""
        if not isinstance(other, _PySide) or not super().comparable(other):
            return False
        return self._header() == other._header()

    def renamed(self, decl: "PyDecl") -> str:
        from tribunal.lang.python import decls as py_decls

        return py_decls.normalized_up_to_locals(decl)

    def _raw(self, decl: "PyDecl") -> bytes:
        """Its whole lines and where in them it is: together they fix its syntax tree."""
        node, first, last = decl.node, decl.first_line, decl.last_line
        place = (
            getattr(node, "lineno", first) - first,
            getattr(node, "col_offset", 0),
            (getattr(node, "end_lineno", None) or last) - first,
            getattr(node, "end_col_offset", None) or 0,
        )
        return b"%d %d %d %d\n" % place + self._lines(first, last)

    def _entry(self, decl: "PyDecl", renamed: Callable[[], str]) -> Entry:
        from tribunal.lang.python import decls as py_decls

        doc = py_decls.docstring_node(decl.node) if decl.kind != "assignment" else None
        docspan = (doc.lineno, doc.end_lineno or doc.lineno) if doc is not None else None
        span = (decl.first_line, decl.last_line)
        return Entry(decl.name, py_decls.normalized(decl), decl.first_line, span, docspan, renamed)

    def _header(self) -> bytes:
        """The first two lines, where a byte order mark and an encoding cookie are."""
        return self._lines(1, 2)

    def _lines(self, first: int, last: int) -> bytes:
        data = self.source.data if self.source is not None else b""
        if self._starts is None:  # bytes.splitlines ends lines where Python does: \r\n, \r, \n
            lengths = map(len, data.splitlines(keepends=True))
            self._starts = list(accumulate(lengths, initial=0))
        starts = self._starts
        end = min(last, len(starts) - 1)
        return data[starts[min(first - 1, end)] : starts[end]]


class _JsSide(Side["JsDecl"]):
    def renamed(self, decl: "JsDecl") -> str:
        from tribunal.lang.js import decls as js_decls

        return js_decls.normalized_up_to_locals(decl, self._grammar())

    def _raw(self, decl: "JsDecl") -> bytes:
        return decl.node.text or b""

    def _entry(self, decl: "JsDecl", renamed: Callable[[], str]) -> Entry:
        from tribunal.lang.js import decls as js_decls

        if decl.node.has_error:
            text, renamed = UNREADABLE, partial(str, UNREADABLE)
        else:
            text = js_decls.normalized(decl, self._grammar())
        span = (_js_first_line(decl), decl.last_line)
        return Entry(decl.name, text, decl.first_line, span, None, renamed)

    def _grammar(self) -> str:
        return self.language or "javascript"


def empty() -> Side[Any]:
    """A side with no declarations: a file absent on that side, or in no language read here."""
    return Side(None, ())


def read_side(source: Source | None) -> Side[Any] | None:
    """The declarations of ``source``; None if it does not parse.

    Raises ``RecursionError`` for code nested deeper than the walk follows.
    """
    language = language_of(source.path) if source is not None else None
    if source is None:
        return empty()
    if language == "python":
        found = _python_decls(source)
        return None if found is None else _PySide(source, found)
    if is_js_family(language) and language is not None:
        from tribunal.lang.trees import js_tree

        readable = not js_tree(source, language).root_node.has_error
        return _JsSide(source, _js_decls(source, language), readable)
    return empty()


def _python_decls(source: Source) -> "list[PyDecl] | None":
    """Declarations in source order, class attributes left out."""
    from tribunal.lang.python import decls as py_decls
    from tribunal.lang.trees import python_tree

    tree = python_tree(source)
    if tree is None:
        return None
    return [
        decl
        for decl in py_decls.python_decls(tree)
        if not (decl.kind == "assignment" and "." in decl.qualname)
    ]


def _js_decls(source: Source, language: str) -> "list[JsDecl]":
    """Declarations in source order, class fields left out."""
    from tribunal.lang.js import decls as js_decls

    return [
        jd
        for jd in js_decls.declarations(source, language)
        if not (jd.kind == "variable" and "." in jd.qualname)
    ]


def _renamed_later(source: Source, qualname: str, ordinal: int) -> str:
    """``renamed`` of the ``ordinal``-th ``qualname`` of a side read again from its bytes."""
    again = read_side(source)
    if again is None:  # it parsed when the entry was made: the same bytes parse again
        raise ValueError(f"{source.path} no longer parses")
    return again.renamed(again.by_qualname[qualname][ordinal])


def _js_first_line(jd: "JsDecl") -> int:
    """Where a JS/TS declaration starts, its ``export`` and ``const`` keywords included."""
    node = jd.node
    while node.parent is not None and node.parent.type in _JS_WRAPPERS:
        node = node.parent
    return node.start_point[0] + 1


_JS_WRAPPERS = frozenset({"lexical_declaration", "variable_declaration", "export_statement"})
