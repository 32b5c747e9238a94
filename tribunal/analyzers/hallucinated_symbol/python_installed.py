"""Names imported from the project's own installed environment.

Third-party code is judged against the environment found in the user's
checkout (never Tribunal's own), read from disk and never imported. Only a
pure-Python module whose names are certain is checked, and a name it lacks is
at most UNVERIFIED: the installed version need not be the one the project
will run with.
"""

from __future__ import annotations

from tribunal.analyzers.hallucinated_symbol.context import Run
from tribunal.analyzers.hallucinated_symbol.outcome import Outcome, passed
from tribunal.analyzers.hallucinated_symbol.python_imports import PyImport
from tribunal.analyzers.hallucinated_symbol.python_resolve import PyModule, Resolver
from tribunal.analyzers.hallucinated_symbol.tree import DiskTree
from tribunal.findings import Verdict

_WHY = "it was checked against the project's installed environment"


class InstalledPython:
    def __init__(self, run: Run) -> None:
        self.run = run
        self._sites: list[Resolver] | None = None

    def judge(self, imp: PyImport) -> list[Outcome] | None:
        """Outcomes for ``imp`` from the first site that has its module; None if none has."""
        for resolver in self._site_resolvers():
            found = [a for a in resolver.absolute(imp.module) if isinstance(a, PyModule)]
            if found:
                return [o.downgraded(_WHY) for o in self._names(resolver, imp, found[0])]
        return None

    def _names(self, resolver: Resolver, imp: PyImport, module: PyModule) -> list[Outcome]:
        outcomes = [passed(imp.line, imp.end_line, imp.label)]
        names = resolver.names(module)
        certain = not names.uncertain and not module.stub_only and not module.namespace
        for name in imp.names if imp.is_from else ():
            key = f"{imp.label}:{name.name}"
            if (
                name.name == "*"
                or not certain
                or name.name in names.names
                or _has_child_named(resolver, module, name.name)
            ):
                outcomes.append(passed(imp.line, imp.end_line, key))
                continue
            title = f"installed {module.name!r} has no name {name.name!r}"
            detail = f"`{imp.statement}`: {', '.join(module.files)} defines no {name.name!r}."
            outcomes.append(Outcome(Verdict.CONTRADICTED, name.line, name.line, key, title, detail))
        return outcomes

    def _site_resolvers(self) -> list[Resolver]:
        if self._sites is None:
            env = self.run.python_env
            dirs = env.site_dirs if env is not None else []
            self._sites = [Resolver(DiskTree(site), ("",)) for site in dirs]
        return self._sites


def _has_child_named(resolver: Resolver, module: PyModule, name: str) -> bool:
    """A submodule, or anything in the package directory named like one (a compiled one)."""
    if module.package_dir is None:
        return False
    if resolver.child(module.package_dir, name, name) is not None:
        return True
    return any(e.startswith(f"{name}.") for e in resolver.tree.children(module.package_dir))
