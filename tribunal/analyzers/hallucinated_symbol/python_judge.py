"""Judge one Python import against one side of the change.

Where a module comes from decides how sure a verdict can be: the repository's
module roots and relative imports give certainties; a package found only next
to the importing file, or deeper in the tree, gives at most UNVERIFIED; the
standard library and declared packages are trusted; the project's installed
environment is consulted but never grounds for CONTRADICTED.
"""

from __future__ import annotations

from tribunal.analyzers.hallucinated_symbol import pydeps
from tribunal.analyzers.hallucinated_symbol import python_doubts as doubts_of
from tribunal.analyzers.hallucinated_symbol.context import Run
from tribunal.analyzers.hallucinated_symbol.grouped import not_installed_group
from tribunal.analyzers.hallucinated_symbol.outcome import Outcome, passed, suggestion
from tribunal.analyzers.hallucinated_symbol.packages import STDLIB, declared_imports
from tribunal.analyzers.hallucinated_symbol.python_builds import builds_extensions
from tribunal.analyzers.hallucinated_symbol.python_imports import ImportedName, PyImport
from tribunal.analyzers.hallucinated_symbol.python_installed import InstalledPython
from tribunal.analyzers.hallucinated_symbol.python_resolve import (
    Missing,
    PyModule,
    Resolver,
)
from tribunal.analyzers.hallucinated_symbol.python_roots import python_roots
from tribunal.analyzers.hallucinated_symbol.tree import Side
from tribunal.findings import Verdict
from tribunal.git.treegrep import grep_files
from tribunal.lang.paths import is_generated
from tribunal.lang.treepaths import join, parent_dir, relative_base

Answer = PyModule | Missing
_BUILD_FILES = ("pyproject.toml", "setup.py", "setup.cfg", "hatch.toml")
#: Files beside a missing module that a build turns into it (Cython, C, C++, Rust, Fortran)
#: or that are the compiled module itself.
_NATIVE_SOURCES = frozenset(
    {"pyx", "pxd", "c", "cc", "cpp", "cxx", "rs", "f", "f90", "so", "pyd", "pyc", "dylib"}
)


class PySide:
    """Python import resolution on one side (base or head), cached for the run."""

    def __init__(self, run: Run, side: Side) -> None:
        self.run = run
        self.side = side
        self.tree = run.tree(side)
        self.roots = python_roots(self.tree, run.change.config.python_roots)
        self.resolver = Resolver(self.tree, self.roots)
        self._declared: dict[str, frozenset[str]] = {}
        self._elsewhere: dict[str, tuple[str, ...]] = {}
        self._aliases: dict[str, str | None] = {}
        self.installed = InstalledPython(run)

    def judge(self, path: str, imp: PyImport) -> list[Outcome]:
        """One outcome for the module and one per imported name (PASS included)."""
        if not self.tree.known:
            return []
        outcomes = self._relative(path, imp) if imp.level else self._absolute(path, imp)
        if imp.optional:
            why = (
                "its failure is handled or expected (a try catching ImportError, "
                "suppress() or raises(ImportError), or an xfail / skip mark)"
            )
            outcomes = [o.downgraded(why) for o in outcomes]
        return outcomes

    # -- where the module comes from -------------------------------------------------

    def _relative(self, path: str, imp: PyImport) -> list[Outcome]:
        directory = relative_base(path, imp.level)
        if directory is None:
            return [self._unverified(imp, "reaches above the repository root")]
        answer: Answer
        if imp.module:
            answer = self.resolver.locate(directory, imp.module.split("."), "." * imp.level)
        else:
            answer = self.resolver.package_at(directory, imp.label)
        return self._judge(imp, [answer], None)

    def _absolute(self, path: str, imp: PyImport) -> list[Outcome]:
        top = imp.module.split(".")[0]
        if top == "__future__":
            return self._all_pass(imp)
        answers = self.resolver.absolute(imp.module)
        parts = imp.module.split(".")
        regular = bool(answers) and not self._namespace_only(top)
        external = None if regular else self._external(path, top)
        if regular and top in STDLIB:
            external = "stdlib"
        if answers and (regular or external is None):
            local = self._script_dirs(path, top)
            answers += [self.resolver.locate(root, parts) for root in local]
            weak = None
            if local:
                weak = f"{top!r} also exists under {local[0]}/, which may come first on sys.path"
            elif external == "stdlib":
                weak = f"the repository's {top!r} shadows a standard module"
            return self._judge(imp, answers, weak)
        if external == "installed":
            return self.installed.judge(imp) or self._all_pass(imp)
        if external is not None:
            return self._all_pass(imp)
        roots = self._script_dirs(path, top)
        roots += [d for d in self._found_elsewhere(top) if d not in roots]
        if roots:
            found = [self.resolver.locate(root, parts) for root in roots]
            where = ", ".join(f"{r}/" for r in roots[:3])
            return self._judge(imp, found, f"{top!r} was found only under {where}, not a root")
        if imp.optional:
            return self._all_pass(imp)
        return [self._not_declared(imp, top)]

    def _external(self, path: str, top: str) -> str | None:
        if top in STDLIB:
            return "stdlib"
        env = self.run.python_env
        if env is not None and top.lower() in env.top_level:
            return "installed"
        return "declared" if top.lower() in self._declared_names(parent_dir(path)) else None

    def _declared_names(self, directory: str) -> frozenset[str]:
        """Import names declared by the manifests in ``directory`` and every parent."""
        if directory not in self._declared:
            own = declared_imports(pydeps.declared_in(self.tree, directory))
            above = self._declared_names(parent_dir(directory)) if directory else frozenset()
            self._declared[directory] = own | above
        return self._declared[directory]

    def _namespace_only(self, top: str) -> bool:
        tops = [self.resolver.child(root, top, top) for root in self.roots]
        return all(m is None or m.namespace for m in tops)

    def _script_dirs(self, path: str, top: str) -> list[str]:
        """Directories above the importer that hold ``top`` and could be on ``sys.path``.

        Only a directory that is not itself inside a package can be (a
        script's directory, pytest's rootdir insertion).
        """
        roots: list[str] = []
        directory = parent_dir(path)
        while directory:
            if self._could_be_root(directory, top):
                roots.append(directory)
            directory = parent_dir(directory)
        return roots

    def _could_be_root(self, directory: str, top: str) -> bool:
        module = self.resolver.child(directory, top, top)
        return (
            module is not None
            and not module.namespace
            and directory not in self.roots
            and not self.tree.is_file(f"{directory}/__init__.py")
        )

    def _found_elsewhere(self, top: str) -> tuple[str, ...]:
        if top not in self._elsewhere:
            ends = (f"/{top}/__init__.py", f"/{top}.py", f"/{top}/__init__.pyi", f"/{top}.pyi")
            found = {p[: p.rindex(f"/{top}")] for p in self.tree.paths if p.endswith(ends)}
            roots = (d for d in sorted(found) if self._could_be_root(d, top))
            self._elsewhere[top] = tuple(roots)
        return self._elsewhere[top]

    # -- judging what was found ------------------------------------------------------

    def _judge(self, imp: PyImport, answers: list[Answer], weak: str | None) -> list[Outcome]:
        found = [a for a in answers if isinstance(a, PyModule)]
        if not found:
            misses = [a for a in answers if isinstance(a, Missing)]
            outcome = self._missing_module(imp, max(misses, key=_progress))
            return [outcome.downgraded(weak) if weak else outcome]
        outcomes = [passed(imp.line, imp.end_line, imp.label)]
        for name in imp.names if imp.is_from else ():
            outcome = self._judge_name(imp, name, found)
            outcomes.append(outcome.downgraded(weak) if weak else outcome)
        return outcomes

    def _judge_name(self, imp: PyImport, name: ImportedName, found: list[PyModule]) -> Outcome:
        key = f"{imp.label}:{name.name}"
        if name.name == "*":
            return passed(imp.line, imp.end_line, key)
        pool: set[str] = set()
        reasons: list[str] = []
        for module in found:
            names = self.resolver.names(module)
            if name.name in names.names or self._submodule(module, name.name):
                return passed(imp.line, imp.end_line, key)
            pool |= names.names | self.resolver.submodules(module)
            reasons += self._name_doubts(module, name.name, names.uncertain)
        module = found[0]
        where = ", ".join(module.files) or _namespace_label(module.package_dir or "")
        title = f"{module.name!r} has no name {name.name!r}"
        detail = (
            f"`{imp.statement}`: {where} defines no {name.name!r}"
            f"{' and has no submodule of that name' if module.is_package else ''} "
            f"in {self.run.side_label(self.side)}.{suggestion(name.name, pool)}"
        )
        outcome = Outcome(Verdict.CONTRADICTED, name.line, name.line, key, title, detail)
        return outcome.downgraded("; ".join(reasons)) if reasons else outcome

    def _submodule(self, module: PyModule, name: str) -> bool:
        return module.package_dir is not None and (
            self.resolver.child(module.package_dir, name, name) is not None
        )

    def _name_doubts(self, module: PyModule, name: str, uncertain: str | None) -> list[str]:
        doubts = [f"{module.name!r} may define more names: {uncertain}"] if uncertain else []
        if module.stub_only:
            doubts.append(f"only a stub describes {module.name!r}; the compiled module may differ")
        if module.package_dir is not None:
            absent = (
                self._absent_reason(module.package_dir, name)
                or self._extends_path(module)
                or self._runtime_doubt(module.package_dir)
            )
            doubts += [absent] if absent else []
        elsewhere = self._mentions(name)
        if elsewhere is None:
            return [*doubts, "git could not search the tree for files that set the name"]
        assigned = doubts_of.assigned_doubt(self.tree, module.files, name, elsewhere)
        return doubts + ([assigned] if assigned else [])

    def _mentions(self, name: str) -> list[str] | None:
        """Head Python files that mention ``name`` (any may set it on the module); the base
        side is judged only to know what the change broke, so it needs no search."""
        if self.side != "head":
            return []
        return grep_files(self.run.change, (name,), ("*.py",), whole_words=True)

    def _missing_module(self, imp: PyImport, miss: Missing) -> Outcome:
        parent = miss.parent
        if miss.not_a_package and parent is not None:
            title = f"{parent.name!r} is a module, not a package"
            detail = f"`{imp.statement}`: {', '.join(parent.files)} is a plain module."
            doubt = self.resolver.names(parent).uncertain or self._alias_doubt(miss)
        else:
            where = join(miss.directory, miss.part)
            title = f"{imp.label!r} resolves to no module"
            siblings = self.resolver.submodules(parent) if parent else self._root_modules()
            detail = (
                f"`{imp.statement}`: neither {where}.py nor {where}/ exists in "
                f"{self.run.side_label(self.side)}.{suggestion(miss.part, siblings)}"
            )
            doubt = self._absent_reason(miss.directory, miss.part)
            if doubt is None and parent is not None:
                doubt = self._extends_path(parent) or self._runtime_doubt(miss.directory)
            doubt = doubt or self._alias_doubt(miss)
        outcome = Outcome(Verdict.CONTRADICTED, imp.line, imp.end_line, imp.label, title, detail)
        return outcome.downgraded(doubt) if doubt else outcome

    def _runtime_doubt(self, directory: str) -> str | None:
        """A package that registers modules at run time, or a namespace open to other portions."""
        return doubts_of.registry_doubt(self.tree, directory) or doubts_of.namespace_doubt(
            self.tree, directory, self.roots
        )

    def _alias_doubt(self, miss: Missing) -> str | None:
        if self.side != "head":
            return None  # only the head tree can be searched; base answers only feed PASS keys
        dotted = doubts_of.dotted_name(join(miss.directory, miss.part), self.roots)
        if dotted not in self._aliases:  # one search per module name and run
            self._aliases[dotted] = doubts_of.alias_doubt(self.run, dotted)
        return self._aliases[dotted]

    def _root_modules(self) -> set[str]:
        out: set[str] = set()
        for root in self.roots:
            out |= {e.removesuffix(".py") for e in self.tree.children(root)}
        return out

    def _absent_reason(self, directory: str, part: str) -> str | None:
        """Why a module the tree lacks may still exist when the code runs (generated, built)."""
        base = join(directory, part)
        built = sorted(
            e
            for e in self.tree.children(directory)
            if e.startswith(f"{part}.") and e.rpartition(".")[2] in _NATIVE_SOURCES
        )
        if built:
            return f"{join(directory, built[0])} may build a compiled {part!r} module"
        if self.tree.is_file(base):
            return f"{base} exists but is no module this analyzer can follow (a link?)"
        if is_generated(f"{base}.py", self.run.change.config.generated_paths):
            return f"{base}.py matches a generated-path pattern"
        for name in _BUILD_FILES:
            text = self.tree.text(name)
            if text is not None and f"{part}.py" in text:
                return f"{name} mentions {part}.py, which the build may write"
        generated = self.run.ignore.doubt([f"{base}.py", f"{base}/__init__.py"])
        if generated is not None:
            return generated
        residue = self.run.ignore.doubt([f"{base}.so", f"{base}.pyd", f"{base}.pyc"])
        if residue is None or not residue.startswith(".gitignore"):
            return residue
        evidence = builds_extensions(self.tree, directory)
        return f"{residue}; {evidence}" if evidence else None

    def _extends_path(self, module: PyModule) -> str | None:
        for path in module.files:
            if "__path__" in (self.tree.text(path) or ""):
                return f"{path} changes __path__, so submodules may live elsewhere"
        return None

    # -- small outcomes ----------------------------------------------------------------

    def _all_pass(self, imp: PyImport) -> list[Outcome]:
        keys = [imp.label, *(f"{imp.label}:{n.name}" for n in imp.names)]
        return [passed(imp.line, imp.end_line, key) for key in keys]

    def _unverified(self, imp: PyImport, why: str) -> Outcome:
        title = f"{imp.label!r} cannot be resolved"
        return Outcome(Verdict.UNVERIFIED, imp.line, imp.end_line, imp.label, title, f"It {why}.")

    def _not_declared(self, imp: PyImport, top: str) -> Outcome:
        """Said once per package per run (``grouped``), listing every import of it."""
        title = f"{top!r} is not a declared or installed package"
        group = not_installed_group("python", top)
        note = f"`{imp.statement}`"
        return Outcome(Verdict.UNVERIFIED, imp.line, imp.end_line, imp.label, title, note, group)


def _namespace_label(directory: str) -> str:
    return f"namespace package {directory}/" if directory else "the repository root"


def _progress(miss: Missing) -> int:
    return len(miss.parent.name) if miss.parent else 0
