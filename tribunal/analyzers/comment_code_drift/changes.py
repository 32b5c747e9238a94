"""Which declarations the change edited or removed, in both languages.

Each declaration's normalized text (code only: no comments, layout or
docstring) is compared base vs head, so a body edit counts, not only a change
to the first line; a body that differs only by renamed locals is the same
code (``py_rename``, ``js_rename``), since nothing a comment says about it can
have become wrong. A declaration that disappears from one file but appears,
unchanged, under the same qualified name in another changed file was moved,
not changed; so was one whose code reappears unchanged under a renamed class
or module. Class attributes and fields are not declarations here: they are
data named like ordinary words (``added``, ``status``), and comments use those
words without meaning the field.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, NamedTuple

from tribunal.change.diff.model import FileChange
from tribunal.change.model import Change, Source
from tribunal.lang.paths import is_js_family, language_of

if TYPE_CHECKING:
    from tribunal.lang.js.decls import JsDecl
    from tribunal.lang.python.decls import PyDecl

Span = tuple[int, int]


class Entry(NamedTuple):
    name: str
    text: str
    line: int
    span: Span  # first line (decorators included) to last line
    docstring: Span | None
    renamed: Callable[[], str]  # the text with locals renamed canonically, made on demand


class ChangedDecl(NamedTuple):
    name: str  # the identifier a comment would use
    qualname: str
    path: str
    line: int
    how: str  # "edited" | "removed or renamed" | "moved and edited"
    old_path: str | None = None
    base_span: Span | None = None  # where it was in ``old_path``
    head_span: Span | None = None  # where it is in ``path``
    base_docstring: Span | None = None
    head_docstring: Span | None = None


Decls = dict[str, list[Entry]]

#: Text of a declaration the parser could not read: never compared.
UNREADABLE = "\0unreadable"


class Declared(NamedTuple):
    """Every changed declaration, and how many declarations each name has at head."""

    changed: list[ChangedDecl]
    names_at_head: dict[str, set[str]]  # name -> qualified names declaring it


def changed_decls(change: Change, files: list[FileChange]) -> Declared:
    found: list[ChangedDecl] = []
    gone: list[tuple[FileChange, str, Entry]] = []
    heads: dict[int, Decls] = {}  # by position in ``files``
    for at, fc in enumerate(files):
        if fc.old_path is None:
            continue  # a new file: read below, and only if another file changed or lost one
        try:
            base = declarations(change.base_source(fc), fc.old_path)
            head = declarations(change.head_source(fc), fc.path) if fc.has_head else {}
        except RecursionError:  # nested deeper than the analysis follows: as if unparsable
            continue
        if base is None or head is None:
            continue  # one side does not parse: nothing can be said about this file
        heads[at] = head
        for qualname, olds in base.items():
            news = head.get(qualname)
            if news is None:
                if UNREADABLE not in head:  # a head that parses in full lost it
                    gone += [(fc, qualname, old) for old in olds]
            elif _unreadable(olds) or _unreadable(news):
                continue
            elif not _same(olds, news):
                found.append(_edited(fc, qualname, olds[0], news[0], "edited"))
    for at, fc in enumerate(files) if found or gone else ():
        if fc.old_path is None:  # where a lost declaration may be now; names it shares
            try:
                head = declarations(change.head_source(fc), fc.path) if fc.has_head else {}
            except RecursionError:  # nested deeper than the analysis follows
                continue
            if head is not None:
                heads[at] = head
    head_all: Decls = defaultdict(list)
    names: dict[str, set[str]] = defaultdict(set)
    for at, head in sorted(heads.items()):
        for qualname, entries in head.items():
            head_all[qualname] += entries
            for entry in entries:
                names[entry.name].add(f"{files[at].path}:{qualname}")
    head_bodies = {(e.name, e.text) for entries in head_all.values() for e in entries}
    for fc, qualname, old in gone:
        elsewhere = head_all.get(qualname)
        if (old.name, old.text) in head_bodies:
            continue  # the same code under another owner: its class or module was renamed
        path = fc.old_path or fc.path
        if not elsewhere:
            found.append(
                ChangedDecl(
                    old.name, qualname, path, old.line, "removed or renamed",
                    old_path=path, base_span=old.span, base_docstring=old.docstring,
                )
            )  # fmt: skip
        elif not _same([old], elsewhere):
            new = elsewhere[0]
            found.append(
                ChangedDecl(new.name, qualname, path, new.line, "moved and edited", old_path=path,
                            base_span=old.span, base_docstring=old.docstring)
            )  # fmt: skip
    return Declared(found, dict(names))


def _edited(fc: FileChange, qualname: str, old: Entry, new: Entry, how: str) -> ChangedDecl:
    return ChangedDecl(
        new.name, qualname, fc.path, new.line, how,
        old_path=fc.old_path, base_span=old.span, head_span=new.span,
        base_docstring=old.docstring, head_docstring=new.docstring,
    )  # fmt: skip


def _same(olds: list[Entry], news: list[Entry]) -> bool:
    """Equal code, or equal once each side's locals are renamed canonically."""
    if sorted(e.text for e in olds) == sorted(e.text for e in news):
        return True
    if len(olds) != len(news):
        return False
    return sorted(e.renamed() for e in olds) == sorted(e.renamed() for e in news)


def declarations(source: Source | None, path: str | None) -> Decls | None:
    """Qualified name -> entries (name, normalized text, spans); None if unparseable.

    The entries keep no tree: a run holds every changed file's entries until
    it has seen them all (a moved declaration is found in another file), and a
    tree each would undo the bound on parsed trees. ``Entry.renamed`` finds its
    declaration again, in a tree parsed anew if need be, when it is asked.
    """
    if source is None or path is None:
        return {}
    language = language_of(path)
    out: Decls = defaultdict(list)
    if language == "python":
        from tribunal.lang.python import decls as py_decls

        found = _python_decls(source)
        if found is None:
            return None
        for qualname, decl in found:
            doc = py_decls.docstring_node(decl.node) if decl.kind != "assignment" else None
            docspan = (doc.lineno, doc.end_lineno or doc.lineno) if doc is not None else None
            entry = Entry(
                decl.name,
                py_decls.normalized(decl),
                decl.first_line,
                (decl.first_line, decl.last_line),
                docspan,
                _renamed_later(source, language, qualname, len(out[qualname])),
            )
            out[qualname].append(entry)
    elif is_js_family(language) and language is not None:
        from tribunal.lang.js import decls as js_decls
        from tribunal.lang.trees import js_tree

        if js_tree(source, language).root_node.has_error:
            out[UNREADABLE] = []  # recovery may have lost declarations: none are "removed"
        for qualname, jd in _js_decls(source, language):
            text = UNREADABLE if jd.node.has_error else js_decls.normalized(jd, language)
            if text == UNREADABLE:
                renamed: Callable[[], str] = partial(str, UNREADABLE)
            else:
                renamed = _renamed_later(source, language, qualname, len(out[qualname]))
            span = (_js_first_line(jd), jd.last_line)
            out[qualname].append(Entry(jd.name, text, jd.first_line, span, None, renamed))
    return out


def _python_decls(source: Source) -> list[tuple[str, PyDecl]] | None:
    """(qualified name, declaration) in source order, class attributes left out."""
    from tribunal.lang.python import decls as py_decls
    from tribunal.lang.trees import python_tree

    tree = python_tree(source)
    if tree is None:
        return None
    return [
        (decl.qualname, decl)
        for decl in py_decls.python_decls(tree)
        if not (decl.kind == "assignment" and "." in decl.qualname)
    ]


def _js_decls(source: Source, language: str) -> list[tuple[str, JsDecl]]:
    """(qualified name, declaration) in source order, class fields left out."""
    from tribunal.lang.js import decls as js_decls

    return [
        (jd.qualname, jd)
        for jd in js_decls.declarations(source, language)
        if not (jd.kind == "variable" and "." in jd.qualname)
    ]


def _renamed_later(source: Source, language: str, qualname: str, ordinal: int) -> Callable[[], str]:
    """``normalized_up_to_locals`` of the ``ordinal``-th ``qualname``, holding only the bytes."""
    path, data, trees = source.path, source.data, source.trees

    def renamed() -> str:
        again = Source(path, data, trees)
        if language == "python":
            from tribunal.lang.python import decls as py_decls

            found = [d for q, d in _python_decls(again) or () if q == qualname]
            return py_decls.normalized_up_to_locals(found[ordinal])
        from tribunal.lang.js import decls as js_decls

        found_js = [d for q, d in _js_decls(again, language) if q == qualname]
        return js_decls.normalized_up_to_locals(found_js[ordinal], language)

    return renamed


def _js_first_line(jd: JsDecl) -> int:
    """Where a JS/TS declaration starts, its ``export`` and ``const`` keywords included."""
    node = jd.node
    while node.parent is not None and node.parent.type in _JS_WRAPPERS:
        node = node.parent
    return node.start_point[0] + 1


_JS_WRAPPERS = frozenset({"lexical_declaration", "variable_declaration", "export_statement"})


def _unreadable(entries: list[Entry]) -> bool:
    return any(e.text == UNREADABLE for e in entries)
