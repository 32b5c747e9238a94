"""The ``tsconfig.json`` / ``jsconfig.json`` that governs a file, as TypeScript reads it.

The nearest config above the file inside the repository wins (never one above
the repository root); ``extends`` chains are followed (relative paths, arrays,
and package names found in an in-repository workspace package or the user's
``node_modules``). ``baseUrl`` is relative to the config that sets it;
``paths`` to ``baseUrl`` when set, else to the config that sets ``paths``.
A link of the chain that cannot be read leaves the result ``uncertain``; a link
that a tool generates (a gitignored or generated ``extends`` target such as
SvelteKit's ``.svelte-kit/tsconfig.json`` or Nuxt's ``.nuxt/tsconfig.json``)
is listed in ``generated``: what it maps is unknown until the tool runs.
"""

from collections.abc import Callable
from typing import Any, NamedTuple

from tribunal.analyzers.hallucinated_symbol import jsonc
from tribunal.analyzers.hallucinated_symbol.tree import FileTree
from tribunal.lang.treepaths import join, parent_dir, resolve_path

_NAMES = ("tsconfig.json", "jsconfig.json")
_MAX_DEPTH = 12

#: Finds a package's directory by name: (tree, directory) or None.
PackageFinder = Callable[[str, str], tuple[FileTree, str] | None]
#: Why a tree path is generated or gitignored (built by a tool, never committed); None if not.
GeneratedCheck = Callable[[str], str | None]


class TsConfig(NamedTuple):
    """The options module resolution needs; ``paths`` substitutions are tree paths."""

    path: str | None = None
    base_url: str | None = None
    paths: tuple[tuple[str, tuple[str, ...]], ...] = ()
    module_resolution: str | None = None
    #: ``module`` (lower case): with ``node16`` / ``nodenext`` Node's rules decide a file's format.
    module: str | None = None
    allow_js: bool | None = None
    uncertain: str | None = None
    #: ``rootDirs``: directories merged into one virtual directory (tree paths).
    root_dirs: tuple[str, ...] = ()
    #: ``moduleSuffixes``: tried before each extension (``.ios`` -> ``./a`` finds ``a.ios.ts``).
    module_suffixes: tuple[str, ...] = ()
    #: ``extends`` targets that a tool generates (``.svelte-kit/tsconfig.json``) and what
    #: says so, as (target, "tsconfig.json extends <target> (<why>)").
    generated: tuple[tuple[str, str], ...] = ()

    @property
    def honours_exports(self) -> bool:
        """Whether ``package.json`` ``exports`` applies (node16, nodenext, bundler)."""
        return (self.module_resolution or "").lower() in ("node16", "nodenext", "bundler")


class _Options:
    """The options as a chain of ``extends`` folds them, nearest last."""

    __slots__ = (
        "allow_js",
        "base_url",
        "generated",
        "module",
        "module_resolution",
        "module_suffixes",
        "paths",
        "paths_dir",
        "root_dirs",
        "uncertain",
    )

    def __init__(self) -> None:
        self.base_url: str | None = None
        self.paths: dict[str, list[str]] | None = None
        self.paths_dir = ""
        self.module_resolution: str | None = None
        self.module: str | None = None
        self.allow_js: bool | None = None
        self.uncertain: list[str] = []
        self.root_dirs: list[str] = []
        self.module_suffixes: list[str] = []
        self.generated: list[tuple[str, str]] = []


class TsConfigs:
    """Configs of one tree, loaded once per directory and run."""

    def __init__(
        self,
        tree: FileTree,
        find_package: PackageFinder,
        generated: GeneratedCheck = lambda _path: None,
    ) -> None:
        self.tree = tree
        self.find_package = find_package
        self.generated = generated
        self._nearest: dict[str, str | None] = {}
        self._loaded: dict[str, TsConfig] = {}

    def for_file(self, path: str) -> TsConfig:
        config = self._nearest_config(parent_dir(path))
        if config is None:
            return TsConfig()
        if config not in self._loaded:
            self._loaded[config] = self._build(config)
        return self._loaded[config]

    def _nearest_config(self, directory: str) -> str | None:
        if directory not in self._nearest:
            found = next(
                (join(directory, n) for n in _NAMES if self.tree.is_file(join(directory, n))),
                None,
            )
            if found is None and directory:
                found = self._nearest_config(parent_dir(directory))
            self._nearest[directory] = found
        return self._nearest[directory]

    def _build(self, path: str) -> TsConfig:
        options = _Options()
        self._apply(self.tree, path, options, set())
        paths: list[tuple[str, tuple[str, ...]]] = []
        origin = options.base_url if options.base_url is not None else options.paths_dir
        for pattern, targets in (options.paths or {}).items():
            resolved = (resolve_path(origin, t) for t in targets if isinstance(t, str))
            paths.append((pattern, tuple(t for t in resolved if t is not None)))
        return TsConfig(
            path=path,
            base_url=options.base_url,
            paths=tuple(paths),
            module_resolution=options.module_resolution,
            module=options.module,
            allow_js=options.allow_js,
            uncertain="; ".join(options.uncertain) or None,
            root_dirs=tuple(options.root_dirs),
            module_suffixes=tuple(options.module_suffixes),
            generated=tuple(options.generated),
        )

    def _apply(self, tree: FileTree, path: str, options: _Options, seen: set[str]) -> None:
        """Fold ``path`` (after what it extends) into ``options``."""
        key = f"{id(tree)}:{path}"
        if key in seen or len(seen) > _MAX_DEPTH:
            options.uncertain.append(f"{path} extends itself or too deeply")
            return
        seen.add(key)
        raw = jsonc.load_object(tree.text(path))
        if raw is None:
            options.uncertain.append(f"{path} cannot be read as JSON")
            return
        extends = raw.get("extends")
        for parent in [extends] if isinstance(extends, str) else extends or []:
            located = self._locate_extends(tree, path, parent) if isinstance(parent, str) else None
            made = self._generated_target(tree, path, parent, located)
            if made is not None:
                options.generated.append(made)
            if located is None:
                options.uncertain.append(f"{path} extends {parent!r}, which cannot be found")
                continue
            self._apply(located[0], located[1], options, seen)
        compiler = raw.get("compilerOptions")
        if isinstance(compiler, dict):
            _fold(compiler, parent_dir(path), tree is self.tree, options)

    def _generated_target(
        self, tree: FileTree, path: str, parent: object, located: tuple[FileTree, str] | None
    ) -> tuple[str, str] | None:
        """X and ``path extends X (why)`` when X is a file a tool writes (in this tree)."""
        if tree is not self.tree or not isinstance(parent, str) or not parent.startswith("."):
            return None
        target = located[1] if located is not None else resolve_path(parent_dir(path), parent)
        if target is None:
            return None
        candidates = [target] if located else [target, f"{target}.json"]
        for candidate in candidates:
            why = self.generated(candidate)
            if why is not None:
                return candidate, f"{path} extends {candidate} ({why})"
        return None

    def _locate_extends(
        self, tree: FileTree, path: str, target: str
    ) -> tuple[FileTree, str] | None:
        if target.startswith("."):
            found = resolve_path(parent_dir(path), target)
            if found is None:
                return None
            for candidate in (found, f"{found}.json", join(found, "tsconfig.json")):
                if tree.is_file(candidate):
                    return tree, candidate
            return None
        return self._package_config(target)

    def _package_config(self, target: str) -> tuple[FileTree, str] | None:
        """``@scope/name[/sub/path.json]`` through the package finder."""
        parts = target.split("/")
        size = 2 if target.startswith("@") else 1
        located = self.find_package("/".join(parts[:size]), "")
        if located is None:
            return None
        tree, directory = located
        sub = "/".join(parts[size:]) or "tsconfig.json"
        for candidate in (join(directory, sub), join(directory, f"{sub}.json")):
            if tree.is_file(candidate):
                return tree, candidate
        return None


def _fold(compiler: dict[str, Any], directory: str, in_tree: bool, options: _Options) -> None:
    base_url = compiler.get("baseUrl")
    paths = compiler.get("paths")
    if not in_tree and (isinstance(base_url, str) or isinstance(paths, dict)):
        options.uncertain.append("baseUrl or paths come from a config outside the repository")
    elif isinstance(base_url, str):
        options.base_url = resolve_path(directory, base_url)
        if options.base_url is None:
            options.uncertain.append(f"baseUrl {base_url!r} leaves the repository")
    if in_tree and isinstance(paths, dict):
        options.paths = {k: v if isinstance(v, list) else [] for k, v in paths.items()}
        options.paths_dir = directory
    resolution = compiler.get("moduleResolution")
    if isinstance(resolution, str):
        options.module_resolution = resolution.lower()
    module = compiler.get("module")
    if isinstance(module, str):
        options.module = module.lower()
    allow_js = compiler.get("allowJs")
    if isinstance(allow_js, bool):
        options.allow_js = allow_js
    root_dirs = compiler.get("rootDirs")
    if isinstance(root_dirs, list):
        resolved = (resolve_path(directory, d) for d in root_dirs if isinstance(d, str))
        options.root_dirs = [d for d in resolved if d is not None]
        if len(options.root_dirs) < len(root_dirs) or not in_tree:
            options.uncertain.append("rootDirs reach outside the repository")
    suffixes = compiler.get("moduleSuffixes")
    if isinstance(suffixes, list):
        options.module_suffixes = [x for x in suffixes if isinstance(x, str)]


def match_paths(config: TsConfig, specifier: str) -> tuple[bool, list[str]] | None:
    """Substituted tree paths for ``specifier`` by the longest matching ``paths`` pattern.

    The flag says whether the pattern has a literal prefix (``@/*``, ``~lib``):
    only such a pattern claims the specifier for the repository.
    """
    best: tuple[int, list[str]] | None = None
    for pattern, targets in config.paths:
        star = pattern.find("*")
        if star < 0:
            if pattern == specifier:
                return True, list(targets)
            continue
        prefix, suffix = pattern[:star], pattern[star + 1 :]
        fits = specifier.startswith(prefix) and specifier.endswith(suffix)
        if not fits or len(specifier) < len(prefix) + len(suffix):
            continue
        middle = specifier[len(prefix) : len(specifier) - len(suffix)]
        if best is None or len(prefix) > best[0]:
            best = (len(prefix), [t.replace("*", middle, 1) for t in targets])
    return None if best is None else (best[0] > 0, best[1])
