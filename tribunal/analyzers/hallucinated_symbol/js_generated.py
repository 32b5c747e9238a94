"""Modules a framework's tooling generates or provides, which no tree listing shows.

A ``tsconfig.json`` that ``extends`` a generated config (SvelteKit's
``.svelte-kit/tsconfig.json``, Nuxt's ``.nuxt/tsconfig.json``: gitignored,
written by ``svelte-kit sync`` / ``nuxi prepare``) gets ``paths`` and
``rootDirs`` nobody can read before the tool runs: an import such a config may
resolve is at most UNVERIFIED. SvelteKit's generated config is known in shape
(``rootDirs`` adds ``.svelte-kit/types``, which holds only the ``$types`` and
``proxy+*`` files of each route; ``paths`` maps ``$lib`` and ``kit.alias``),
so there only those specifiers keep the doubt, unless ``svelte.config.*``
rewrites the generated config (``typescript.config``). SvelteKit's own
modules (``$app/*``, ``$env/*``, ``$service-worker``) exist where
``@sveltejs/kit`` is declared; ``$lib`` is ``src/lib`` by default.
"""

from __future__ import annotations

from tribunal.analyzers.hallucinated_symbol.tsconfig import TsConfig

KIT = "@sveltejs/kit"
#: The modules SvelteKit 1 and 2 declare (``@sveltejs/kit/types``, ``.svelte-kit/ambient.d.ts``).
KIT_MODULES = frozenset(
    {
        "$app/env", "$app/environment", "$app/forms", "$app/navigation", "$app/paths",
        "$app/server", "$app/state", "$app/stores", "$app/types", "$env/dynamic/private",
        "$env/dynamic/public", "$env/static/private", "$env/static/public", "$service-worker",
    }
)  # fmt: skip
_KIT_CONFIG = ".svelte-kit/tsconfig.json"
_KIT_ROUTE_FILES = ("$types", "proxy+")


def kit_module_kind(specifier: str) -> str | None:
    """``module`` for SvelteKit's own modules, ``unknown`` for other ``$app/`` / ``$env/``
    names, ``lib`` for ``$lib`` and below; None for anything else."""
    if specifier in KIT_MODULES:
        return "module"
    if specifier.startswith(("$app/", "$env/")):
        return "unknown"
    if specifier == "$lib" or specifier.startswith("$lib/"):
        return "lib"
    return None


def is_route_type_file(specifier: str) -> bool:
    """``./$types``, ``../$types.js``, ``./proxy+page``: files ``svelte-kit sync`` writes."""
    last = specifier.rstrip("/").rpartition("/")[2]
    return last.startswith(_KIT_ROUTE_FILES)


def generated_doubt(
    config: TsConfig, specifier: str, kit_config_hooked: bool, kit_declared: bool
) -> str | None:
    """Why a specifier that resolves to no file in the tree may resolve once tools ran."""
    relative = specifier.startswith(".")
    if relative and kit_declared and is_route_type_file(specifier):
        return f"{specifier!r} is a route type file that `svelte-kit sync` generates"
    if not config.generated:
        return None
    only_kit = all(target.endswith(_KIT_CONFIG) for target, _ in config.generated)
    if relative and only_kit and not kit_config_hooked:
        return None  # SvelteKit's rootDirs add only route type files (above)
    how = "rootDirs" if relative else "paths"
    return f"{config.generated[0][1]}: its {how} are unknown until the tool that writes it runs"
