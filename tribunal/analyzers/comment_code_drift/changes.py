"""Which declarations the change edited or removed, in both languages.

Each declaration's normalized text (code only: no comments, layout or
docstring) is compared base vs head, so a body edit counts, not only a change
to the first line. A declaration that disappears from one file but appears,
unchanged, under the same qualified name in another changed file was moved,
not changed; so was one whose code reappears unchanged under a renamed class
or module. Class attributes and fields are not declarations here: they are
data named like ordinary words (``added``, ``status``), and comments use those
words without meaning the field.
"""

from __future__ import annotations

from collections import defaultdict
from typing import NamedTuple

from tribunal.change import Change, Source
from tribunal.diff.model import FileChange
from tribunal.paths import is_js_family, language_of


class Entry(NamedTuple):
    name: str
    text: str
    line: int


class ChangedDecl(NamedTuple):
    name: str  # the identifier a comment would use
    qualname: str
    path: str
    line: int
    how: str  # "edited" | "removed or renamed"


Decls = dict[str, list[Entry]]

#: Text of a declaration the parser could not read: never compared.
UNREADABLE = "\0unreadable"


def changed_decls(change: Change, files: list[FileChange]) -> list[ChangedDecl]:
    found: list[ChangedDecl] = []
    gone: list[tuple[str, str, Entry]] = []  # (base path, qualname, entry)
    head_all: Decls = defaultdict(list)
    for fc in files:
        base = declarations(change.base_source(fc), fc.old_path) if fc.old_path else {}
        head = declarations(change.head_source(fc), fc.path) if fc.has_head else {}
        if base is None or head is None:
            continue  # one side does not parse: nothing can be said about this file
        for qualname, entries in head.items():
            head_all[qualname] += entries
        for qualname, olds in base.items():
            news = head.get(qualname)
            if news is None:
                if UNREADABLE not in head:  # a head that parses in full lost it
                    gone += [(fc.old_path or fc.path, qualname, old) for old in olds]
            elif _unreadable(olds) or _unreadable(news):
                continue
            elif sorted(e.text for e in olds) != sorted(e.text for e in news):
                found.append(ChangedDecl(news[0].name, qualname, fc.path, news[0].line, "edited"))
    head_bodies = {(e.name, e.text) for entries in head_all.values() for e in entries}
    for path, qualname, old in gone:
        elsewhere = head_all.get(qualname)
        if (old.name, old.text) in head_bodies:
            continue  # the same code under another owner: its class or module was renamed
        if not elsewhere:
            found.append(ChangedDecl(old.name, qualname, path, old.line, "removed or renamed"))
        elif old.text not in {e.text for e in elsewhere}:
            new = elsewhere[0]
            found.append(ChangedDecl(new.name, qualname, path, new.line, "moved and edited"))
    return found


def declarations(source: Source | None, path: str | None) -> Decls | None:
    """Qualified name -> (name, normalized text, line) of each declaration; None if unparseable."""
    if source is None or path is None:
        return {}
    language = language_of(path)
    out: Decls = defaultdict(list)
    if language == "python":
        from tribunal.lang import py_decls
        from tribunal.lang.trees import python_tree

        tree = python_tree(source)
        if tree is None:
            return None
        for decl in py_decls.python_decls(tree):
            if decl.kind == "assignment" and "." in decl.qualname:
                continue  # class attributes: data fields named like ordinary words
            entry = Entry(decl.name, py_decls.normalized(decl), decl.first_line)
            out[decl.qualname].append(entry)
    elif is_js_family(language) and language is not None:
        from tribunal.lang import js_decls
        from tribunal.lang.trees import js_tree

        if js_tree(source, language).root_node.has_error:
            out[UNREADABLE] = []  # recovery may have lost declarations: none are "removed"
        for jd in js_decls.declarations(source, language):
            if jd.kind == "variable" and "." in jd.qualname:
                continue  # class fields, like Python class attributes
            text = UNREADABLE if jd.node.has_error else js_decls.normalized(jd, language)
            out[jd.qualname].append(Entry(jd.name, text, jd.first_line))
    return out


def _unreadable(entries: list[Entry]) -> bool:
    return any(e.text == UNREADABLE for e in entries)
