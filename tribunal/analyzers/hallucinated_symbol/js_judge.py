"""Judge one JS/TS import against one side of the change.

A relative or path-mapped in-repository specifier that resolves to no file,
and a name missing from an in-repository module whose export set is certain,
are contradictions. Packages from ``node_modules`` are checked when their
exports can be enumerated, at most UNVERIFIED; a package that is not installed
is UNVERIFIED. An ERROR node in the statement, a loader or query part
(``raw-loader!./x``, ``./x?raw``), a ``require`` / ``import()`` whose failure
the code handles (a ``try``), or an ambient ``declare module`` that names the
specifier (``js_ambient``), caps its verdict at UNVERIFIED. Every import form
has its path judged; a default import its default export only where no
interop can synthesize one (``js_default``). A
script and its declaration file (``y.js`` + ``y.d.ts``) are one module.
"""

from __future__ import annotations

import bisect
from typing import TYPE_CHECKING

from tribunal.analyzers.hallucinated_symbol.context import Run
from tribunal.analyzers.hallucinated_symbol.grouped import not_installed_group
from tribunal.analyzers.hallucinated_symbol.js_ambient import AmbientModules
from tribunal.analyzers.hallucinated_symbol.js_default import certain_format
from tribunal.analyzers.hallucinated_symbol.js_exports import ExportSet, read_exports
from tribunal.analyzers.hallucinated_symbol.js_generated import KIT, generated_doubt
from tribunal.analyzers.hallucinated_symbol.js_imports import JsImport, JsName
from tribunal.analyzers.hallucinated_symbol.js_packages import Packages
from tribunal.analyzers.hallucinated_symbol.js_resolve import (
    EXTENSIONS,
    External,
    Resolved,
    ScriptResolver,
    Skipped,
    Unresolved,
    find_file,
    package_entry,
)
from tribunal.analyzers.hallucinated_symbol.outcome import Outcome, passed, suggestion
from tribunal.analyzers.hallucinated_symbol.tree import FileTree, Side
from tribunal.analyzers.hallucinated_symbol.tsconfig import TsConfigs
from tribunal.change.model import Source
from tribunal.findings import Verdict
from tribunal.lang.js import syntax as js
from tribunal.lang.paths import is_generated, language_of
from tribunal.lang.sfc import is_sfc
from tribunal.lang.treepaths import join, parent_dir, resolve_path

if TYPE_CHECKING:
    from tree_sitter import Tree

#: ``export *`` chains are followed this deep and through at most this many files.
MAX_STAR_DEPTH = 10
MAX_STAR_FILES = 1000
_PLATFORM_SUFFIXES = frozenset(
    {
        "ios", "android", "native", "web", "windows", "macos", "server", "client", "browser",
        "node", "electron"
    }
)  # fmt: skip


class ScriptSide:
    """JS/TS import resolution on one side (base or head), cached for the run."""

    def __init__(self, run: Run, side: Side) -> None:
        self.run = run
        self.side = side
        self.tree = run.tree(side)
        self.packages = Packages(self.tree, lambda: self.tree.paths, run.change.root)
        self.configs = TsConfigs(self.tree, self._find_package, self._generated_file)
        self.resolver = ScriptResolver(self.tree, self.packages, self.configs)
        self.ambient = AmbientModules(run)
        self._exports: dict[tuple[int, str], ExportSet] = {}
        self._folded: dict[str, list[tuple[str, str]]] = {}
        self._suggested: dict[tuple[str, str], str] = {}

    def _find_package(self, name: str, directory: str) -> tuple[FileTree, str] | None:
        return self.packages.find(name, directory)

    def _generated_file(self, path: str) -> str | None:
        """Why ``path`` is a file a tool writes: a generated-path pattern or ``.gitignore``."""
        if is_generated(path, self.run.change.config.generated_paths):
            return "a generated path"
        if self.side == "head" and self.run.ignore.any_ignored([path]):
            return "covered by .gitignore"
        return None

    def judge(self, path: str, imp: JsImport) -> list[Outcome]:
        if not self.tree.known:
            return []
        loader, specifier, query = _split_specifier(imp.specifier)
        found = self.resolver.resolve(path, specifier)
        if (query or loader) and isinstance(found, Resolved):
            found = Skipped("a bundler query or loader transforms the module")
        if isinstance(found, Skipped):
            outcomes = self._all_pass(imp)
        elif isinstance(found, Unresolved):
            outcomes = [self._missing_file(imp, found, path)]
        elif isinstance(found, External):
            outcomes = self._external(path, imp, found)
        else:
            outcomes = self._resolved(imp, found, path)
        doubts = [
            found.doubt if isinstance(found, Resolved) else None,
            "the statement has a syntax error" if imp.broken else None,
            imp.guarded,
            f"a bundler {'loader' if loader else 'query'} handles {imp.specifier!r}"
            if loader or query
            else None,
        ]
        for doubt in doubts:
            outcomes = [o.downgraded(doubt) for o in outcomes] if doubt else outcomes
        if self.side == "head" and any(o.verdict is Verdict.CONTRADICTED for o in outcomes):
            doubt = self.ambient.doubt(imp.specifier) or self.ambient.doubt(specifier)
            if doubt is None and isinstance(found, Resolved):
                doubt = self.ambient.augmented(found.path, self._in_repo_path)
            outcomes = [o.downgraded(doubt) for o in outcomes] if doubt else outcomes
        return outcomes

    def _in_repo_path(self, importer: str, specifier: str) -> str | None:
        found = self.resolver.resolve(importer, specifier)
        return found.path if isinstance(found, Resolved) else None

    # -- in the repository -------------------------------------------------------------

    def _resolved(self, imp: JsImport, target: Resolved, importer: str) -> list[Outcome]:
        outcomes = [passed(imp.line, imp.end_line, imp.specifier)]
        if is_sfc(target.path):
            component = self.exports(target.tree, target.path)  # the default always exists
            return outcomes + [self._judge_name(imp, n, target, component) for n in imp.names]
        if language_of(target.path) is None:
            return self._all_pass(imp)  # a non-code file: it exists, its names are the bundler's
        exports = self._with_twins(target.tree, target.path)
        for other in target.alternates:  # the same entry under other conditions
            more = self._with_twins(target.tree, other)
            uncertain = exports.uncertain or more.uncertain
            typescript_only = exports.typescript_only or more.typescript_only
            exports = ExportSet(exports.names | more.names, (), uncertain, typescript_only)
        typescript = language_of(importer) in ("typescript", "tsx")
        if exports.typescript_only and not typescript:
            why = "its `export =` names are certain only for TypeScript importers"
            exports = ExportSet(exports.names, exports.stars, exports.uncertain or why)
        for name in imp.names:
            outcomes.append(self._judge_name(imp, name, target, exports))
        if imp.default:
            outcomes.append(self._judge_default(imp, target, importer))
        return outcomes

    def _judge_default(self, imp: JsImport, target: Resolved, importer: str) -> Outcome:
        """A missing default export, CONTRADICTED only where no interop can make one
        (``js_default``); everywhere else a default import is not judged (seed 001)."""
        key = f"{imp.specifier}:default"
        twins = [t for t in twin_paths(target.path) if t != target.path]
        if not target.in_repo or any(target.tree.is_file(t) for t in twins):
            return passed(imp.line, imp.end_line, key)
        config = self.configs.for_file(importer)
        why = certain_format(importer, target.path, config, self.packages.nearest_manifest)
        own = self._own_exports(target.tree, target.path)
        if why is None or own is None or own.uncertain or "default" in own.names:
            return passed(imp.line, imp.end_line, key)
        title = f"{imp.specifier!r} has no default export"
        detail = (
            f"`{imp.statement}`: {target.path} has no `export default`, no "
            f"`export {{ ... as default }}` and no `export =` in "
            f"{self.run.side_label(self.side)}, and {why}, so no interop can supply one."
        )
        return Outcome(Verdict.CONTRADICTED, imp.line, imp.end_line, key, title, detail)

    def _own_exports(
        self,
        tree: FileTree,
        path: str,
        declaration: bool = False,
        commonjs: bool = True,
        language: str | None = None,
    ) -> ExportSet | None:
        """What the file itself exports (``export *`` never carries a default).

        Noted by the import reader for the side's own changed files (``Run.own_exports``,
        always with their CommonJS set); anything else is parsed here.
        """
        key = (self.side, path, declaration)
        own_file = tree is self.tree and commonjs
        if own_file and key in self.run.own_exports:
            return self.run.own_exports[key]
        parsed = self._parse(tree, path)
        language = language or language_of(path)
        if parsed is None or not language:
            return None
        own = read_exports(parsed, language, declaration, commonjs=commonjs)
        if own_file:
            self.run.own_exports[key] = own
        return own

    def _with_twins(self, tree: FileTree, path: str) -> ExportSet:
        """Exports of ``path`` and of its twins (``y.js`` + ``y.d.ts``): the type checker reads
        the declarations, the runtime the script, and a name either has is there."""
        own = self.exports(tree, path)
        twins = [t for t in twin_paths(path) if t != path and tree.is_file(t)]
        if not twins:
            return own
        names, uncertain, typescript_only = set(own.names), own.uncertain, own.typescript_only
        for twin in twins:
            other = self.exports(tree, twin)
            names |= other.names
            uncertain = uncertain or other.uncertain
            typescript_only = typescript_only or other.typescript_only
        return ExportSet(frozenset(names), own.stars, uncertain, typescript_only)

    def _judge_name(
        self, imp: JsImport, name: JsName, target: Resolved, exports: ExportSet
    ) -> Outcome:
        key = f"{imp.specifier}:{name.name}"
        if name.name in exports.names:
            return passed(name.line, name.line, key)
        where = target.path if target.in_repo else f"installed {target.path}"
        title = f"{imp.specifier!r} has no export named {name.name!r}"
        detail = (
            f"`{imp.statement}`: {where} does not export {name.name!r} in "
            f"{self.run.side_label(self.side)}.{suggestion(name.name, exports.names)}"
        )
        outcome = Outcome(Verdict.CONTRADICTED, name.line, name.line, key, title, detail)
        if not target.in_repo:
            if exports.uncertain:
                return passed(name.line, name.line, key)  # an installed package: silent
            return outcome.downgraded("it was checked against the installed node_modules")
        if exports.uncertain:
            return outcome.downgraded(f"its exports cannot all be listed: {exports.uncertain}")
        return outcome

    def _missing_file(self, imp: JsImport, missing: Unresolved, importer: str) -> Outcome:
        if missing.how in ("exports", "exports-linked"):
            return self._not_exported(imp, missing)
        shown = ", ".join(missing.tried[:3]) or imp.specifier
        title = f"{imp.specifier!r} resolves to no file"
        detail = (
            f"`{imp.statement}`: nothing at {shown} (with the extensions "
            f"{' '.join(EXTENSIONS)} or an index file) in {self.run.side_label(self.side)}."
            f"{self._file_suggestion(missing)}"
        )
        outcome = Outcome(
            Verdict.CONTRADICTED, imp.line, imp.end_line, imp.specifier, title, detail
        )
        doubt = missing.doubt
        if missing.how == "workspace":
            doubt = doubt or "a workspace package's entry may be build output"
        doubt = doubt or self._generated_doubt(importer, imp.specifier)
        doubt = doubt or self._missing_doubt(missing.tried)
        suffixes = [s for s in self.configs.for_file(importer).module_suffixes if s]
        if doubt is None and suffixes:
            listed = ", ".join(suffixes)
            doubt = f"moduleSuffixes ({listed}) is set: the bundler may try other suffixes"
        return outcome.downgraded(doubt) if doubt else outcome

    def _not_exported(self, imp: JsImport, missing: Unresolved) -> Outcome:
        """A workspace package's ``exports`` map has no entry for the subpath."""
        title = f"{imp.specifier!r} is not in its workspace package's exports"
        reason = missing.doubt or "the subpath is not in the package's exports"
        outcome = Outcome(
            Verdict.CONTRADICTED,
            imp.line,
            imp.end_line,
            imp.specifier,
            title,
            f"`{imp.statement}`: {reason}, and the governing tsconfig's moduleResolution "
            "honours exports.",
        )
        if missing.how == "exports-linked":
            return outcome
        return outcome._replace(detail=f"`{imp.statement}`").downgraded(reason)

    def _generated_doubt(self, importer: str, specifier: str) -> str | None:
        """A generated config (``.svelte-kit/tsconfig.json``) or route type file may hold it."""
        directory = parent_dir(importer)
        kit = self.packages.declared(KIT, directory)
        hooked = kit and self._kit_config_hooked(directory)
        return generated_doubt(self.configs.for_file(importer), specifier, hooked, kit)

    def _kit_config_hooked(self, directory: str) -> bool:
        """Whether the nearest ``svelte.config.*`` may rewrite the generated tsconfig."""
        while True:
            for name in ("svelte.config.js", "svelte.config.mjs", "svelte.config.ts"):
                text = self.tree.text(join(directory, name))
                if text is not None:
                    return "typescript" in text
            if not directory:
                return False
            directory = parent_dir(directory)

    def _file_suggestion(self, missing: Unresolved) -> str:
        """A close name in the directory; once per directory and name (one import of many)."""
        if not missing.tried:
            return ""
        base = missing.tried[0]
        key = (parent_dir(base), base.rpartition("/")[2].split(".", 1)[0])
        if key not in self._suggested:
            stems = {e.split(".", 1)[0] for e in self.tree.children(key[0])}
            self._suggested[key] = suggestion(key[1], stems)
        return self._suggested[key]

    def _missing_doubt(self, tried: tuple[str, ...]) -> str | None:
        """Why a file the tree lacks may still be there when the code is built."""
        for base in tried:
            directory, _, name = base.rpartition("/")
            for entry in self._name_variants(directory, name):
                reason = _sibling_doubt(name, entry)
                if reason:
                    return f"{join(directory, entry)} {reason}"
            candidates = [base, *(base + ext for ext in (".js", ".ts", ".tsx"))]
            extra = self.run.change.config.generated_paths
            if any(is_generated(c, extra) for c in candidates):
                return f"{base} matches a generated-path pattern"
            if self._through_file(base):
                return "a directory on its path is a link or file this analyzer cannot follow"
            if self.tree.is_file(join(base, "package.json")):
                return f"{join(base, 'package.json')} points its entry at a file the build makes"
        probes = [b + ext for b in tried for ext in ("", ".js", ".ts", "/index.js", "/index.ts")]
        return self.run.ignore.doubt(probes)

    def _name_variants(self, directory: str, name: str) -> list[str]:
        """Entries of ``directory`` that begin with ``name`` in any case, sorted.

        Only those can be a sibling ``_sibling_doubt`` names; found by bisection
        so that a thousand missing imports in a large directory stay linear.
        """
        folded = self._folded.get(directory)
        if folded is None:
            folded = sorted((entry.lower(), entry) for entry in self.tree.children(directory))
            self._folded[directory] = folded
        prefix = name.lower()
        found = []
        for lowered, entry in folded[bisect.bisect_left(folded, (prefix, "")) :]:
            if not lowered.startswith(prefix):
                break
            found.append(entry)
        return sorted(found)

    def _through_file(self, base: str) -> bool:
        parts = base.split("/")
        return any(self.tree.is_file("/".join(parts[:i])) for i in range(1, len(parts)))

    # -- packages ------------------------------------------------------------------------

    def _external(self, path: str, imp: JsImport, package: External) -> list[Outcome]:
        if package.installed is None:
            return [self._not_installed(imp, package)]
        disk = self.packages.disk
        if disk is None:
            return self._all_pass(imp)
        config = self.configs.for_file(path)
        entry = package_entry(disk, package.installed, package.subpath, config, in_repo=False)
        if not isinstance(entry, Resolved) or language_of(entry.path) is None:
            return self._all_pass(imp)
        return self._resolved(imp, entry, path)

    def _not_installed(self, imp: JsImport, package: External) -> Outcome:
        """Said once per package per run (``grouped``), listing every import of it."""
        declared = "declared in package.json" if package.declared else "not declared"
        title = f"package {package.package!r} is not installed"
        note = f"`{imp.statement}` ({declared})"
        group = not_installed_group("js", package.package)
        return Outcome(
            Verdict.UNVERIFIED, imp.line, imp.end_line, imp.specifier, title, note, group
        )

    # -- export sets -----------------------------------------------------------------------

    def exports(self, tree: FileTree, path: str) -> ExportSet:
        """The module's exports with ``export *`` followed (bounded, cycle-safe)."""
        key = (id(tree), path)
        if key not in self._exports:
            self._exports[key] = ExportSet(frozenset(), uncertain="its export * chain loops")
            self._exports[key] = self._collect(tree, path, 0)
        return self._exports[key]

    def _collect(self, tree: FileTree, path: str, depth: int) -> ExportSet:
        if is_sfc(path):
            return self._component(tree, path)
        own = self._own_exports(
            tree,
            path,
            is_declaration(path),
            commonjs=tree is self.tree,
            language=language_of(path) or "javascript",
        )
        if own is None:
            return ExportSet(frozenset(), uncertain=f"{path} cannot be read")
        names = set(own.names)
        uncertain = own.uncertain
        for star in own.stars:
            if depth >= MAX_STAR_DEPTH or len(self._exports) > MAX_STAR_FILES:
                uncertain = uncertain or "its export * chain is too long to follow"
                break
            target = self._star_target(tree, path, star)
            if target is None:
                uncertain = uncertain or f"it re-exports everything of {star!r}"
                continue
            sub = self._with_twins(tree, target)  # ``./api.js`` is also ``./api.d.ts``
            names |= sub.names - {"default"}
            uncertain = uncertain or sub.uncertain
            if sub.typescript_only:
                uncertain = uncertain or f"{star!r} uses `export =`, which `export *` skips"
        return ExportSet(frozenset(names), own.stars, uncertain, own.typescript_only)

    def _component(self, tree: FileTree, path: str) -> ExportSet:
        from tribunal.analyzers.hallucinated_symbol.js_sfc import component_exports

        source = tree.read(path)
        if source is None:
            return ExportSet(frozenset({"default"}), uncertain=f"{path} cannot be read")
        return component_exports(source, path)

    def _star_target(self, tree: FileTree, path: str, star: str) -> str | None:
        if tree is self.tree:
            found = self.resolver.resolve(path, star)
            return found.path if isinstance(found, Resolved) and found.tree is tree else None
        base = resolve_path(parent_dir(path), star) if star.startswith(".") else None
        return find_file(tree, base) if base is not None else None

    def _parse(self, tree: FileTree, path: str) -> Tree | None:
        """The file's tree (from the run's bounded cache; only export sets are kept here)."""
        language = language_of(path)
        text = tree.text(path) if tree is not self.tree else None
        source = self.tree.read(path) if tree is self.tree else None
        if source is None and text is not None:
            source = Source(path, text.encode("utf-8"))
        return _parse(source, language) if source and language else None

    def _all_pass(self, imp: JsImport) -> list[Outcome]:
        keys = [imp.specifier, *(f"{imp.specifier}:{n.name}" for n in imp.names)]
        return [passed(imp.line, imp.end_line, key) for key in keys]


def is_declaration(path: str) -> bool:
    """A TypeScript declaration file, whose declarations may be exported implicitly."""
    return path.endswith((".d.ts", ".d.mts", ".d.cts"))


def _parse(source: Source, language: str) -> Tree:
    from tribunal.lang.trees import js_tree

    return (
        js_tree(source, language)
        if language in js.GRAMMARS
        else js.parse(source.data, "javascript")
    )


_FAMILIES = (
    (".d.ts", ".ts", ".tsx", ".js", ".jsx"),
    (".d.mts", ".mts", ".mjs"),
    (".d.cts", ".cts", ".cjs"),
)


def twin_paths(path: str) -> list[str]:
    """The same module's other files: ``a.js`` -> ``a.d.ts``, ``a.ts``, ``a.tsx``, ``a.jsx``."""
    for family in _FAMILIES:
        for ext in family:
            if path.endswith(ext):
                stem = path[: -len(ext)]
                return [stem + other for other in family]
    return []


def _split_specifier(specifier: str) -> tuple[str, str, str]:
    """``raw-loader!./a.svg?react`` -> (``raw-loader!``, ``./a.svg``, ``?react``): a bundler
    resolves the file, then runs the loaders and the query's transform on it."""
    loader, bang, rest = specifier.rpartition("!")
    loader += bang
    cut = min((i for i in (rest.find("?"), rest.find("#", 1)) if i > 0), default=-1)
    return (loader, rest, "") if cut < 0 else (loader, rest[:cut], rest[cut:])


def _sibling_doubt(name: str, entry: str) -> str | None:
    """A file next to the missing one that a configured resolver could mean instead."""
    folded = entry.lower() == name.lower() or entry.lower().startswith(f"{name.lower()}.")
    if folded and not entry.startswith(name):
        return "differs only in case (case-insensitive file systems resolve it)"
    if not entry.startswith(f"{name}."):
        return None
    rest = entry[len(name) + 1 :].split(".")
    if len(rest) == 1 and f".{rest[0]}" not in EXTENSIONS:
        return f"exists: an extension ({'.' + rest[0]}) the project's bundler may resolve"
    if len(rest) == 2 and rest[0] in _PLATFORM_SUFFIXES:
        return f"exists: a platform-specific module ({'.' + rest[0]})"
    return None
