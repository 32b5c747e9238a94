"""Resolve a JS/TS module specifier to a file the way the analyzed repository does.

Relative specifiers, ``tsconfig`` ``paths`` and ``baseUrl``, ``package.json``
``imports`` (``#internal``) and in-repository workspace packages resolve to
files of the tree: with the usual extensions, ``index.*`` files, ESM-style
``.js`` specifiers that name ``.ts`` sources (and ``.ts`` ones their
``.d.ts``), ``moduleSuffixes`` and ``rootDirs``. Anything else is a package,
found (or not) in the user's ``node_modules``. Non-code files (``./logo.svg``)
resolve as files with their own extension.
"""

from typing import Any, NamedTuple

from tribunal.analyzers.hallucinated_symbol.js_generated import KIT, kit_module_kind
from tribunal.analyzers.hallucinated_symbol.js_packages import (
    Packages,
    exports_map,
    is_builtin,
    match_map,
    read_manifest,
    split_package,
)
from tribunal.analyzers.hallucinated_symbol.tree import FileTree
from tribunal.analyzers.hallucinated_symbol.tsconfig import TsConfig, TsConfigs, match_paths
from tribunal.lang.treepaths import join, parent_dir, resolve_path

EXTENSIONS = (".ts", ".tsx", ".d.ts", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts", ".json")
_ESM_TWINS = {
    ".js": (".ts", ".tsx", ".d.ts", ".jsx"),
    ".jsx": (".tsx",),
    ".mjs": (".mts", ".d.mts"),
    ".cjs": (".cts", ".d.cts"),
    # ``allowImportingTsExtensions`` sources, and the declarations built from them:
    # TypeScript reads ``./types.ts`` in a published ``.d.ts`` as ``./types.d.ts``.
    ".ts": (".d.ts",),
    ".tsx": (".d.ts",),
    ".mts": (".d.mts",),
    ".cts": (".d.cts",),
}
_ENTRY_FIELDS = ("types", "typings", "module", "main")
_BUNDLER_CONFIGS = tuple(
    f"{stem}.config.{ext}"
    for stem in ("vite", "vitest", "webpack", "rollup", "rspack", "next", "nuxt", "svelte", "astro")
    for ext in ("js", "mjs", "cjs", "ts", "mts")
)
_URL_SCHEMES = ("http:", "https:", "data:", "file:", "jsr:", "npm:", "bun:", "virtual:")


class Resolved(NamedTuple):
    tree: FileTree
    path: str
    in_repo: bool
    #: Why the file found may not be the one the project's tools resolve (``$lib``).
    doubt: str | None = None
    #: Other files the same ``exports`` entry names under other conditions (``types`` ->
    #: ``index.d.ts``, ``import`` -> ``index.mjs``): a name any of them has exists for someone.
    alternates: tuple[str, ...] = ()


class Unresolved(NamedTuple):
    """An in-repository specifier that names no file; ``tried`` are the bases looked for."""

    tried: tuple[str, ...]
    how: str
    doubt: str | None = None


class External(NamedTuple):
    """A package from outside the repository."""

    package: str
    subpath: str
    installed: str | None
    declared: bool


class Skipped(NamedTuple):
    reason: str


Resolution = Resolved | Unresolved | External | Skipped


def find_file(tree: FileTree, base: str) -> str | None:
    """The file ``base`` names: as written, with TS twins of ``.js``, extensions, index."""
    if tree.is_file(base):
        return base
    dot = base.rfind(".")
    if dot > base.rfind("/"):
        for twin in _ESM_TWINS.get(base[dot:], ()):
            if tree.is_file(base[:dot] + twin):
                return base[:dot] + twin
    for ext in EXTENSIONS:
        if tree.is_file(base + ext):
            return base + ext
    if tree.is_dir(base):
        return _directory_entry(tree, base)
    return None


def _directory_entry(tree: FileTree, directory: str) -> str | None:
    manifest = read_manifest(tree, join(directory, "package.json")) or {}
    for name in _ENTRY_FIELDS:
        value = manifest.get(name)
        target = resolve_path(directory, value) if isinstance(value, str) else None
        if target is not None and target != directory:
            found = find_file(tree, target)
            if found is not None:
                return found
    for ext in EXTENSIONS:
        if tree.is_file(join(directory, "index" + ext)):
            return join(directory, "index" + ext)
    return None


def package_entry(
    tree: FileTree, directory: str, subpath: str, config: TsConfig, in_repo: bool
) -> Resolved | Unresolved:
    """A package's file for ``subpath`` through ``exports``, else its entry fields or path."""
    manifest = read_manifest(tree, join(directory, "package.json")) or {}
    exports = exports_map(manifest)
    if exports is not None:
        targets = match_map(exports, f"./{subpath}" if subpath else ".")
        if targets:
            return _first(tree, [resolve_path(directory, t) for t in targets], in_repo, "exports")
        if config.honours_exports:
            why = f"{'./' + subpath if subpath else '.'} is not in the package's exports"
            return Unresolved((join(directory, subpath),), "exports", why)
    base = join(directory, subpath) if subpath else directory
    return _first(tree, [base], in_repo, "package")


def _first(
    tree: FileTree, bases: list[str | None], in_repo: bool, how: str
) -> Resolved | Unresolved:
    tried = tuple(b for b in bases if b is not None)
    found = [f for f in (find_file(tree, base) for base in tried) if f is not None]
    if found:
        others = tuple(dict.fromkeys(f for f in found[1:] if f != found[0]))
        return Resolved(tree, found[0], in_repo, alternates=others)
    return Unresolved(tried, how)


def _through_root_dirs(root_dirs: tuple[str, ...], directory: str, specifier: str) -> list[str]:
    """``specifier`` read from the same place in every other ``rootDirs`` directory."""
    for root in root_dirs:
        if directory == root or directory.startswith(f"{root}/") or not root:
            offset = directory[len(root) :].lstrip("/")
            out = []
            for other in root_dirs:
                start = join(other, offset) if offset else other
                target = resolve_path(start, specifier) if other != root else None
                if target is not None:
                    out.append(target)
            return out
    return []


class ScriptResolver:
    """Specifier resolution for the files of one tree, cached for the run."""

    def __init__(self, tree: FileTree, packages: Packages, configs: TsConfigs) -> None:
        self.tree = tree
        self.packages = packages
        self.configs = configs
        self._cache: dict[tuple[str, str], Resolution] = {}

    def resolve(self, importer: str, specifier: str) -> Resolution:
        key = (parent_dir(importer), specifier)
        if key not in self._cache:
            self._cache[key] = self._resolve(importer, specifier)
        return self._cache[key]

    def _resolve(self, importer: str, specifier: str) -> Resolution:
        if is_builtin(specifier) or specifier.startswith(_URL_SCHEMES):
            return Skipped("a Node built-in or URL")
        if "!" in specifier:
            return Skipped("a loader-prefixed specifier")
        directory = parent_dir(importer)
        config = self.configs.for_file(importer)
        if specifier.startswith(("./", "../")) or specifier in (".", ".."):
            base = resolve_path(directory, specifier)
            if base is None:
                return Skipped("it points outside the repository")
            bases = [base, *_through_root_dirs(config.root_dirs, directory, specifier)]
            found = self._in_tree(bases, "relative", config=config)
            if isinstance(found, Unresolved) and self._kit_route_types(directory, specifier):
                return Skipped("a route type file `svelte-kit sync` writes")
            return found
        if specifier.startswith("/") or not specifier:
            return Skipped("an absolute path")
        kit = kit_module_kind(specifier)
        if kit is not None and self.packages.declared(KIT, directory):
            return self._kit(directory, specifier, kit, config)
        mapped = match_paths(config, specifier)
        if mapped is not None:
            literal, targets = mapped
            found = self._in_tree(targets, "path-mapped", config.uncertain, config)
            if isinstance(found, Resolved):
                return found
            package = self._package(directory, specifier, config)
            if not literal or not targets or not isinstance(package, External):
                return package  # a catch-all pattern ("*") proves nothing by failing
            if package.installed or not isinstance(found, Unresolved):
                return package
            if package.declared:  # TypeScript falls back to node_modules, not installed here
                why = f"{package.package!r} is also a declared dependency (not installed here)"
                return Unresolved(found.tried, found.how, found.doubt or why)
            return found
        if specifier.startswith("#"):
            return self._internal(directory, specifier)
        if config.base_url is not None:
            found_path = find_file(self.tree, join(config.base_url, specifier))
            if found_path is not None:
                return Resolved(self.tree, found_path, True)
        return self._package(directory, specifier, config)

    def _not_exported(
        self, directory: str, name: str, workspace: str, found: Unresolved
    ) -> Unresolved:
        """A subpath a workspace package's ``exports`` lacks: certain only when the importer
        is linked to that package (``workspace:`` protocol) and no bundler alias may rewrite
        the specifier; ``found.doubt`` says what is missing."""
        spec = self.packages.declared_spec(name, directory)
        what = found.doubt or "the subpath is not in the package's exports"
        if spec is None or not spec.startswith("workspace:"):
            how = f"declared as {spec!r}" if spec else "not declared"
            why = f"{what}, but {name} is {how}: it may resolve to a published version"
            return Unresolved(found.tried, "exports", why)
        alias = self._bundler_alias(directory)
        if alias is not None:
            return Unresolved(found.tried, "exports", f"{what}, but {alias} may alias it")
        linked = f"{what} of {join(workspace, 'package.json')}, linked as {spec!r}"
        return Unresolved(found.tried, "exports-linked", linked)

    def _bundler_alias(self, directory: str) -> str | None:
        """A bundler config above ``directory`` that declares aliases (vite, webpack...)."""
        while True:
            for name in _BUNDLER_CONFIGS:
                text = self.tree.text(join(directory, name))
                if text is not None and "alias" in text:
                    return join(directory, name)
            if not directory:
                return None
            directory = parent_dir(directory)

    def _kit_route_types(self, directory: str, specifier: str) -> bool:
        """``./$types`` from a SvelteKit route directory (one holding ``+page``, ``+layout``,
        ``+server`` files under ``src/routes``), where ``svelte-kit sync`` generates it."""
        if specifier not in ("./$types", "./$types.js"):
            return False
        if not self.packages.declared(KIT, directory):
            return False
        nearest = self.packages.nearest_manifest(directory)
        routes = join(nearest[0] if nearest is not None else "", "src/routes")
        if directory != routes and not directory.startswith(f"{routes}/"):
            return False
        return any(name.startswith("+") for name in self.tree.children(directory))

    def _kit(self, directory: str, specifier: str, kind: str, config: TsConfig) -> Resolution:
        """SvelteKit's modules: its own exist, ``$lib`` is ``src/lib`` unless mapped."""
        if kind == "module":
            return Skipped("a module SvelteKit provides")
        if kind == "unknown":
            why = "SvelteKit provides $app/ and $env/ modules; this one is not among those known"
            return Unresolved((specifier,), "sveltekit", why)
        mapped = match_paths(config, specifier)
        if mapped is not None and mapped[1]:
            return self._in_tree(mapped[1], "path-mapped", config.uncertain, config)
        nearest = self.packages.nearest_manifest(directory)
        root = nearest[0] if nearest is not None else ""
        base = join(root, "src/lib" + specifier[len("$lib") :])
        why = "$lib is mapped by the generated .svelte-kit/tsconfig.json (src/lib by default)"
        found = self._in_tree([base], "sveltekit", why, config)
        if isinstance(found, Resolved):
            return Resolved(found.tree, found.path, True, why)
        return found

    def _in_tree(
        self, bases: list[str], how: str, doubt: str | None = None, config: TsConfig | None = None
    ) -> Resolution:
        suffixes = [s for s in (config.module_suffixes if config else ()) if s]
        for base in bases:
            found = find_file(self.tree, base) or self._through_link(base)
            for suffix in suffixes if found is None else ():
                found = found or find_file(self.tree, base + suffix)
            if found is not None:
                return Resolved(self.tree, found, True)
        return Unresolved(tuple(bases), how, doubt)

    def _through_link(self, base: str) -> str | None:
        """``base`` reached through a symlinked directory of the tree."""
        parts = base.split("/")
        for size in range(1, len(parts)):
            prefix = "/".join(parts[:size])
            if self.tree.is_file(prefix):
                target = self.tree.link_target(prefix)
                if target is None or target == prefix:
                    return None
                return find_file(self.tree, "/".join([target, *parts[size:]]))
        return None

    def _internal(self, directory: str, specifier: str) -> Resolution:
        """``#name`` through the nearest ``package.json`` ``imports``."""
        nearest = self.packages.nearest_manifest(directory)
        imports: Any = nearest[1].get("imports") if nearest else None
        if nearest is None or not isinstance(imports, dict):
            return Skipped("no package.json imports map")
        targets = match_map(imports, specifier)
        if targets is None:
            return Unresolved((specifier,), "imports", "no entry of the package.json imports")
        local = [resolve_path(nearest[0], t) for t in targets if t.startswith("./")]
        bases = [b for b in local if b is not None]
        if len(bases) < len(targets):
            return Skipped("the imports map points at a package")
        return self._in_tree(bases, "imports")

    def _package(self, directory: str, specifier: str, config: TsConfig) -> Resolution:
        name, subpath = split_package(specifier)
        workspace = self.packages.workspace(name)
        if workspace is not None:
            found = package_entry(self.tree, workspace, subpath, config, in_repo=True)
            if isinstance(found, Unresolved) and found.how == "exports":
                return self._not_exported(directory, name, workspace, found)
            if isinstance(found, Unresolved):
                return Unresolved(found.tried, "workspace", found.doubt)
            return found
        installed = self.packages.installed(name, directory)
        return External(name, subpath, installed, self.packages.declared(name, directory))
