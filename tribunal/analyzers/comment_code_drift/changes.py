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

What it costs: each side of each file is parsed once (a file renamed with
its bytes unchanged, not at all unless it may declare a name that matters),
and a declaration is normalized only when its bytes differ and a comment could
be about it (its name is a word of an unchanged comment line,
``words.CommentWords``); given no words, every declaration is judged. What is
kept across files is compact (names, positions, and entries without trees for
the few declarations that matter); a file whose declarations turn out to
matter only once every comment is read is parsed again then.
"""

from collections import defaultdict
from typing import TYPE_CHECKING, Any, NamedTuple

from tribunal.analyzers.comment_code_drift.sides import (
    UNREADABLE,
    Entry,
    Side,
    Span,
    empty,
    read_side,
)
from tribunal.analyzers.comment_code_drift.spelled import Spelling
from tribunal.change.diff.model import FileChange
from tribunal.change.model import Change, Source
from tribunal.lang.paths import language_of

if TYPE_CHECKING:
    from tribunal.analyzers.comment_code_drift.words import CommentWords

_Entries = dict[str, list[Entry]]

__all__ = ["UNREADABLE", "ChangedDecl", "Declared", "Entry", "Span", "changed_decls"]


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


class Declared(NamedTuple):
    """The changed declarations a comment could be about, and the names declared twice."""

    changed: list[ChangedDecl]
    #: Names more than one qualified name declares at head (in the files read):
    #: a bare mention of one could mean either.
    declared_twice: frozenset[str]


class _Later(NamedTuple):
    """A declaration to judge once every comment is read: where it is, to read it again."""

    at: int  # position of its file in ``files``
    order: int  # position of its qualified name among the file's base declarations
    qualname: str
    name: str
    gone: bool


def changed_decls(
    change: Change, files: list[FileChange], words: "CommentWords | None" = None
) -> Declared:
    """The changed declarations among ``files`` whose name ``words`` mentions (all: None)."""
    return _Survey(change, files, words).run()


class _Survey:
    """One walk over the changed files, and what must be kept from one file to the next."""

    def __init__(
        self, change: Change, files: list[FileChange], words: "CommentWords | None"
    ) -> None:
        self.change = change
        self.files = files
        self.words = words
        self.edited: list[tuple[tuple[int, int], ChangedDecl]] = []
        self.gone: list[tuple[tuple[int, int], FileChange, str, list[Entry]]] = []
        self.later: list[_Later] = []
        self.read: set[int] = set()  # files whose head counts: both sides parsed
        self.unparsed: list[int] = []  # files the same on both sides, not parsed yet
        self.names = _Names()

    def run(self) -> Declared:
        for at, fc in enumerate(self.files):
            if fc.old_path is not None:
                self._compare(at, fc)
        if self.later:
            self._judge_later()
        lost = {entries[0].name for *_, entries in self.gone}
        wanted = {decl.name for _, decl in self.edited} | lost
        if wanted:
            self._unchanged_heads(wanted)
        heads = self._new_heads(wanted, lost) if wanted else {}
        found = [decl for _, decl in sorted(self.edited, key=lambda pair: pair[0])]
        if self.gone:
            found += self._gone(lost, heads)
        return Declared(found, frozenset(self.names.twice))

    def _mentioned(self, name: str) -> bool:
        return self.words is None or self.words.mentions(name)

    def _compare(self, at: int, fc: FileChange) -> None:
        old, new = self.change.base_source(fc), self.change.head_source(fc)
        if old is not None and new is not None and _same_file(old, new):
            self.unparsed.append(at)  # a pure rename: nothing changed, nothing to parse yet
            if self.words is not None:
                self.words.read_later(fc)
            return
        base = _side(old)
        head = _side(new) if fc.has_head and base is not None else empty()
        if base is None or head is None:  # one side does not parse: nothing said about it
            if self.words is not None:
                self.words.read_later(fc)
            return
        self.read.add(at)
        self.names.add(fc.path, head)
        comparable = base.comparable(head)
        pending: list[_Later] = []
        for order, (qualname, olds) in enumerate(base.by_qualname.items()):
            news = head.by_qualname.get(qualname)
            if news is None and not head.readable:
                continue  # recovery may have lost it: not "removed"
            if news is not None and comparable and base.raw(qualname) == head.raw(qualname):
                continue  # the same bytes: the same code
            pending.append(_Later(at, order, qualname, olds[0].name, news is None))
        if self.words is not None:
            if pending:  # read now, while the head's tree is cached: its own comments decide most
                self.words.read(fc)
            else:
                self.words.read_later(fc)
        for item in pending:
            if self._mentioned(item.name):
                self._judge(fc, item, base, head)
            else:
                self.later.append(item)

    def _judge(self, fc: FileChange, item: _Later, base: Side[Any], head: Side[Any]) -> None:
        key = (item.at, item.order)
        if item.gone:
            self.gone.append((key, fc, item.qualname, base.entries(item.qualname, lasting=True)))
            return
        olds = base.entries(item.qualname, lasting=False)
        news = head.entries(item.qualname, lasting=False)
        if _unreadable(olds) or _unreadable(news):
            return
        if not _same(olds, news):
            self.edited.append((key, _edited(fc, item.qualname, olds[0], news[0])))

    def _judge_later(self) -> None:
        """Judge the declarations a comment read after their file turned out to name."""
        if self.words is not None:
            self.words.settle({item.name for item in self.later})
        by_file: dict[int, list[_Later]] = defaultdict(list)
        for item in self.later:
            if self._mentioned(item.name):
                by_file[item.at].append(item)
        self.later = []
        for at, items in sorted(by_file.items()):
            fc = self.files[at]
            base = _side(self.change.base_source(fc))  # parsed before: parses again
            head: Side[Any] | None = empty()
            if fc.has_head and not all(item.gone for item in items):
                head = _side(self.change.head_source(fc))
            if base is None or head is None:  # only if nested right at the limit: as before
                continue
            for item in items:
                self._judge(fc, item, base, head)

    def _unchanged_heads(self, wanted: set[str]) -> None:
        """Count, in ``names``, the unchanged files that may declare a name of ``wanted``."""
        spelling = Spelling(wanted)
        for at in self.unparsed:
            source = self.change.head_source(self.files[at])
            if source is None or not spelling.could_be_in(source):
                continue
            head = _side(source)
            if head is not None:  # as if compared: its head counts
                self.read.add(at)
                self.names.add(self.files[at].path, head)

    def _new_heads(self, wanted: set[str], lost: set[str]) -> dict[int, _Entries]:
        """New files that may declare a name of ``wanted``: counted in ``names``.

        Returns their entries declaring a ``lost`` name (where a lost declaration may be now).
        """
        out: dict[int, _Entries] = {}
        spelling = Spelling(wanted)
        for at, fc in enumerate(self.files):
            if fc.old_path is not None or not fc.has_head:
                continue
            source = self.change.head_source(fc)
            if source is None or not spelling.could_be_in(source):
                continue
            head = _side(source)
            if head is not None:
                self.read.add(at)
                self.names.add(fc.path, head)
                out[at] = _declaring(head, lost)
        return out

    def _gone(self, lost: set[str], new_heads: dict[int, _Entries]) -> list[ChangedDecl]:
        """The declarations gone from their file that are not elsewhere unchanged."""
        head_all: dict[str, list[Entry]] = defaultdict(list)
        spelling = Spelling(lost)
        for at in sorted(self.read):
            declaring = new_heads[at] if at in new_heads else self._head(at, lost, spelling)
            for qualname, entries in declaring.items():
                head_all[qualname] += entries
        head_bodies = {(e.name, e.text) for entries in head_all.values() for e in entries}
        found = []
        for _, fc, qualname, olds in sorted(self.gone, key=lambda g: g[0]):
            for old in olds:
                decl = _gone_one(fc, qualname, old, head_all.get(qualname), head_bodies)
                if decl is not None:
                    found.append(decl)
        return found

    def _head(self, at: int, names: set[str], spelling: Spelling) -> _Entries:
        """Entries of changed file ``at``'s head declaring one of ``names``, read again."""
        fc = self.files[at]
        source = self.change.head_source(fc) if fc.has_head else None
        if source is None or not spelling.could_be_in(source):
            return {}
        head = _side(source)  # parsed before: parses again
        return _declaring(head, names) if head is not None else {}


def _side(source: Source | None) -> Side[Any] | None:
    """``read_side``; None too for code nested deeper than the analysis follows."""
    try:
        return read_side(source)
    except RecursionError:  # as if unparsable: nothing is said about the file
        return None


def _same_file(base: Source, head: Source) -> bool:
    """The same bytes read in the same language: every declaration is the same."""
    return base.data == head.data and language_of(base.path) == language_of(head.path)


def _declaring(side: Side[Any], names: set[str]) -> _Entries:
    """Tree-free entries of ``side`` for its declarations named one of ``names``."""
    return {
        qualname: side.entries(qualname, lasting=True)
        for qualname, decls in side.by_qualname.items()
        if decls[0].name in names
    }


class _Names:
    """Which names more than one qualified name declares, without keeping every declaration."""

    def __init__(self) -> None:
        self.first: dict[str, str] = {}  # name -> the first "path:qualname" declaring it
        self.twice: set[str] = set()

    def add(self, path: str, side: Side[Any]) -> None:
        for qualname, decls in side.by_qualname.items():
            key = f"{path}:{qualname}"
            for decl in decls:
                if self.first.setdefault(decl.name, key) != key:
                    self.twice.add(decl.name)


def _gone_one(
    fc: FileChange,
    qualname: str,
    old: Entry,
    elsewhere: list[Entry] | None,
    head_bodies: set[tuple[str, str]],
) -> ChangedDecl | None:
    if (old.name, old.text) in head_bodies:
        return None  # the same code under another owner: its class or module was renamed
    path = fc.old_path or fc.path
    if not elsewhere:
        return ChangedDecl(
            old.name, qualname, path, old.line, "removed or renamed",
            old_path=path, base_span=old.span, base_docstring=old.docstring,
        )  # fmt: skip
    if _same([old], elsewhere):
        return None
    new = elsewhere[0]
    return ChangedDecl(
        new.name, qualname, path, new.line, "moved and edited", old_path=path,
        base_span=old.span, base_docstring=old.docstring,
    )  # fmt: skip


def _edited(fc: FileChange, qualname: str, old: Entry, new: Entry) -> ChangedDecl:
    return ChangedDecl(
        new.name, qualname, fc.path, new.line, "edited",
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


def _unreadable(entries: list[Entry]) -> bool:
    return any(e.text == UNREADABLE for e in entries)
