"""Check the layout rules of DESIGN.md over ``packages/*/src``.

Usage: ``python tools/check_layout.py [ROOT]`` (ROOT defaults to the repository root).
Exits 1 and prints ``file:line: message`` for each problem.

Rules:

1. Ownership. Every module path (``chainer/x/y.py`` -> ``chainer.x.y``, a package ->
   its ``__init__``) belongs to exactly one distribution, and so does every folder
   except the shared top-level ``chainer`` folder.
2. Import DAG. A module may import ``chainer.<...>`` only from its own distribution or
   from one reachable through its declared ``[project] dependencies`` (the DAG of
   DESIGN.md). Imports anywhere count: module level, inside functions, in ``try``
   blocks. Importing a submodule also needs its parent packages' ``__init__``, except
   the shared top-level ``chainer/__init__.py``: a bare ``import chainer`` (or
   ``from chainer import Name``) needs the distribution that owns it (autograd-core),
   while ``import chainer.backend`` does not.

3. The declared dependencies themselves stay within the DAG of DESIGN.md
   (``DESIGN_DAG`` below): chainer-datasets may not declare chainer-links, for instance.
4. Private modules stay private. No module imports a private module of another
   distribution (a module path with a component starting with ``_``, other than
   ``__init__``: ``chainer._cpu_blas``, ``chainer.functions._util``) or a private name
   of one (``from chainer.variable import _helper``, ``chainer.functions._util.f``),
   lazily or not, marked optional or not. What another distribution needs is public, or
   in the provider's internal API (``chainer.internal`` for autograd-core).
5. A private module directly in the shared top-level ``chainer`` folder belongs to the
   distribution that owns ``chainer/__init__.py``; the others keep theirs in their own
   folders (``chainer/optimizers/_fused_update.py``).

Exceptions:

- An optional dependency is imported lazily and guarded: put the import inside a
  function or a ``try`` block and end its line with the comment
  ``# layout: optional[EXTRA]``, where EXTRA is an extra of the importing distribution
  (``[project.optional-dependencies]``) that declares the providing distribution (or
  one that depends on it). A marked import at module level outside ``try``, a mark
  without an extra on an import of a distribution of this repository, an extra that
  does not declare the provider, and a mark on an import of a declared dependency are
  reported. Third-party optional imports (CuPy, Pillow) may carry a bare
  ``# layout: optional``; this check reads only the ``chainer`` distributions.
- Imports under ``if TYPE_CHECKING:`` never run and are not checked.

docs/design/boundaries.md explains the rules.
"""

from __future__ import annotations

import ast
import re
import sys
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from workspace import Package, closure, load_packages, requirement_name

SHARED_TOP = "chainer"
# DESIGN.md: array-backend <- autograd-core <- links <- optimizers; array-backend <- datasets;
# autograd-core <- serializers; training <- links, optimizers, datasets, serializers;
# chainermn <- training; onnx-chainer <- links; chainerx depends on nothing of chainer (the
# meta-package installs it, as v7 programs import it).
DESIGN_DAG = {
    "chainerx": [],
    "chainer-array-backend": [],
    "chainer-autograd-core": ["chainer-array-backend"],
    "chainer-links": ["chainer-autograd-core"],
    "chainer-optimizers": ["chainer-links"],
    "chainer-datasets": ["chainer-array-backend"],
    "chainer-serializers": ["chainer-autograd-core"],
    "chainer-training": [
        "chainer-links", "chainer-optimizers", "chainer-datasets", "chainer-serializers"
    ],
    "chainermn": ["chainer-training"],
    "onnx-chainer": ["chainer-links"],
    "chainer": [
        "chainer-array-backend", "chainer-autograd-core", "chainer-links",
        "chainer-optimizers", "chainer-datasets", "chainer-serializers", "chainer-training",
        "chainerx",
    ],
}  # fmt: skip
OPTIONAL_MARK = re.compile(r"#\s*layout:\s*optional\b(?:\[([A-Za-z0-9._-]*)\])?")
IGNORED_DIRS = {"__pycache__"}


@dataclass(frozen=True)
class Problem:
    """One violation, located at ``path:line``."""

    path: Path
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.message}"


@dataclass(frozen=True)
class Module:
    name: str
    dist: str
    path: Path
    is_package: bool


def module_name(relative: Path) -> str:
    """Map a path under ``src/`` to its dotted module name."""
    parts = list(relative.with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _files(src: Path) -> list[Path]:
    return sorted(
        p
        for p in src.rglob("*")
        if p.is_file()
        and not IGNORED_DIRS.intersection(p.relative_to(src).parts)
        and p.suffix != ".pyc"
    )


def collect_modules(
    packages: dict[str, Package], root: Path
) -> tuple[dict[str, Module], dict[str, str], list[Problem]]:
    """Map module paths and folders to their owners; report those owned twice.

    Returns ``(modules, folder owners by dotted name, problems)``.
    """
    modules: dict[str, Module] = {}
    folders: dict[str, dict[str, Path]] = defaultdict(dict)
    problems: list[Problem] = []
    for package in packages.values():
        if not package.src.is_dir():
            continue
        for path in _files(package.src):
            relative = path.relative_to(package.src)
            for i in range(1, len(relative.parts)):
                folder = "/".join(relative.parts[:i])
                if folder != SHARED_TOP:
                    folders[folder].setdefault(package.name, path)
            if path.suffix != ".py":
                continue
            name = module_name(relative)
            module = Module(name, package.name, path, path.name == "__init__.py")
            other = modules.get(name)
            if other is not None:
                problems.append(
                    Problem(
                        _rel(path, root),
                        1,
                        f"module {name} is owned by two distributions: {package.name} "
                        f"and {other.dist} ({_rel(other.path, root)})",
                    )
                )
                continue
            modules[name] = module
    for folder, owners in sorted(folders.items()):
        if len(owners) > 1:
            listed = ", ".join(f"{d} ({_rel(p, root)})" for d, p in sorted(owners.items()))
            first = next(iter(sorted(owners.values())))
            problems.append(
                Problem(
                    _rel(first, root),
                    1,
                    f"folder {folder}/ is split between distributions: {listed}; "
                    f"only the top-level {SHARED_TOP}/ folder may be shared",
                )
            )
    folder_owners = {
        folder.replace("/", "."): next(iter(owners)) for folder, owners in folders.items()
    }
    return modules, folder_owners, problems


def _rel(path: Path, root: Path) -> Path:
    try:
        return path.relative_to(root)
    except ValueError:
        return path


def _is_type_checking(test: ast.expr) -> bool:
    if isinstance(test, ast.Name):
        return test.id == "TYPE_CHECKING"
    return isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"


@dataclass(frozen=True)
class ImportSite:
    """One imported module path with where and how it is imported."""

    target: str
    names: tuple[str, ...]
    line: int
    end_line: int
    lazy: bool
    guarded: bool


class _ImportFinder(ast.NodeVisitor):
    """Collect every import, remembering whether it sits in a function or ``try``."""

    def __init__(self, module: Module) -> None:
        self.module = module
        self.sites: list[ImportSite] = []
        self.attributes: list[tuple[int, tuple[str, ...]]] = []
        """Attribute chains rooted at the name ``chainer`` (``chainer.x._y``), with lines."""
        self._functions = 0
        self._tries = 0

    def _nested(self, node: ast.AST, counter: str) -> None:
        setattr(self, counter, getattr(self, counter) + 1)
        self.generic_visit(node)
        setattr(self, counter, getattr(self, counter) - 1)

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        self._nested(node, "_functions")

    def visit_AsyncFunctionDef(self, node: ast.AsyncFunctionDef) -> None:
        self._nested(node, "_functions")

    def visit_Lambda(self, node: ast.Lambda) -> None:
        self._nested(node, "_functions")

    def visit_Try(self, node: ast.Try) -> None:
        self._nested(node, "_tries")

    def visit_TryStar(self, node: ast.AST) -> None:
        self._nested(node, "_tries")

    def visit_If(self, node: ast.If) -> None:
        if _is_type_checking(node.test):
            for child in node.orelse:
                self.visit(child)
            return
        self.generic_visit(node)

    def _add(self, node: ast.stmt, target: str, names: tuple[str, ...]) -> None:
        self.sites.append(
            ImportSite(
                target=target,
                names=names,
                line=node.lineno,
                end_line=node.end_lineno or node.lineno,
                lazy=self._functions > 0,
                guarded=self._tries > 0,
            )
        )

    def visit_Attribute(self, node: ast.Attribute) -> None:
        parts = [node.attr]
        value = node.value
        while isinstance(value, ast.Attribute):
            parts.append(value.attr)
            value = value.value
        if isinstance(value, ast.Name) and value.id == SHARED_TOP:
            self.attributes.append((node.lineno, (SHARED_TOP, *reversed(parts))))
        self.generic_visit(node)

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            self._add(node, alias.name, ())

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        names = tuple(a.name for a in node.names)
        if node.level == 0:
            self._add(node, node.module or "", names)
            return
        package = self.module.name.split(".")
        if not self.module.is_package:
            package = package[:-1]
        if node.level - 1 > len(package):
            return  # beyond the top level: Python itself reports it
        base = package[: len(package) - (node.level - 1)]
        if node.module:
            base.extend(node.module.split("."))
        self._add(node, ".".join(base), names)


def is_private(name: str) -> bool:
    """Whether a dotted name has a private component (``_x``; dunders such as
    ``__init__`` are not private)."""
    return any(
        part.startswith("_") and not (part.startswith("__") and part.endswith("__"))
        for part in name.split(".")
    )


def _owner(
    name: str, modules: dict[str, Module], folder_owners: dict[str, str]
) -> str | None:
    if name in modules:
        return modules[name].dist
    return folder_owners.get(name)


def _private_problem(
    module: Module, site: ImportSite, modules: dict[str, Module], folder_owners: dict[str, str]
) -> str | None:
    """Rule 4 for one import: no private module or name of another distribution."""
    for needed in _needed_modules(site, modules):
        owner = _owner(needed, modules, folder_owners)
        if owner is not None and owner != module.dist and is_private(needed):
            return _private_message(module.dist, f"the private module {needed}", owner)
    owner = _owner(site.target, modules, folder_owners)
    if owner is None or owner == module.dist:
        return None
    for name in site.names:
        if is_private(name) and f"{site.target}.{name}" not in modules:
            return _private_message(module.dist, f"the private name {name} of {site.target}",
                                    owner)
    return None


def _private_attribute_problem(
    dist: str, parts: tuple[str, ...], modules: dict[str, Module], folder_owners: dict[str, str]
) -> str | None:
    """Rule 4 for an attribute chain ``chainer.a.b...``: the first private module or name
    of another distribution it reaches, if any."""
    owner = _owner(parts[0], modules, folder_owners)
    for i in range(1, len(parts)):
        name = ".".join(parts[: i + 1])
        inner = _owner(name, modules, folder_owners)
        if inner is not None:
            owner = inner
            if owner != dist and is_private(name):
                return _private_message(dist, f"the private module {name}", owner)
            continue
        if owner is not None and owner != dist and is_private(parts[i]):
            prefix = ".".join(parts[:i])
            return _private_message(dist, f"the private name {parts[i]} of {prefix}", owner)
        return None
    return None


def _private_message(dist: str, what: str, owner: str) -> str:
    return (
        f"{dist} uses {what}, which is private to {owner}; use {owner}'s public modules "
        "or its internal API (docs/design/boundaries.md)"
    )


def _needed_modules(site: ImportSite, modules: dict[str, Module]) -> list[str]:
    """Module paths whose owners an import needs (parents included, shared top excluded)."""
    targets = [site.target]
    if site.names:
        # ``from pkg import sub`` imports the submodule when there is one.
        subs = [f"{site.target}.{n}" for n in site.names if f"{site.target}.{n}" in modules]
        if subs:
            targets = subs + ([site.target] if len(subs) < len(site.names) else [])
    needed: list[str] = []
    for target in targets:
        parts = target.split(".")
        if len(parts) == 1:
            needed.append(target)  # the bare top level: its __init__ runs the imported names
            continue
        for i in range(2, len(parts) + 1):
            needed.append(".".join(parts[:i]))
    return list(dict.fromkeys(needed))


def _allowed(
    packages: dict[str, Package], root: Path
) -> tuple[dict[str, set[str]], list[Problem]]:
    allowed: dict[str, set[str]] = {}
    problems: list[Problem] = []
    for name, package in packages.items():
        try:
            allowed[name] = set(closure(packages, [name]))
        except ValueError as exc:
            problems.append(Problem(_rel(package.folder / "pyproject.toml", root), 1, str(exc)))
            allowed[name] = {name}
    return allowed, problems


def check_imports(
    packages: dict[str, Package],
    modules: dict[str, Module],
    folder_owners: dict[str, str],
    root: Path,
) -> list[Problem]:
    """Report imports that cross the dependency DAG."""
    allowed, problems = _allowed(packages, root)
    tops = {name.split(".")[0] for name in modules} | {f.split(".")[0] for f in folder_owners}
    for module in sorted(modules.values(), key=lambda m: str(m.path)):
        where = _rel(module.path, root)
        source = module.path.read_text(encoding="utf-8")
        try:
            tree = ast.parse(source, filename=str(module.path))
        except SyntaxError as exc:
            problems.append(Problem(where, exc.lineno or 1, f"cannot parse: {exc.msg}"))
            continue
        lines = source.splitlines()
        finder = _ImportFinder(module)
        finder.visit(tree)
        for site in finder.sites:
            if site.target.split(".")[0] not in tops:
                continue
            message = _private_problem(module, site, modules, folder_owners)
            marks = (OPTIONAL_MARK.search(line) for line in lines[site.line - 1 : site.end_line])
            mark = next((m for m in marks if m), None)
            if message is None and mark is not None:
                message = _optional_problem(
                    module, site, mark.group(1), packages, modules, folder_owners, allowed
                )
            elif message is None:
                message = _import_problem(module, site, modules, folder_owners, allowed)
            if message:
                problems.append(Problem(where, site.line, message))
        reported: set[tuple[int, str]] = set()
        for line, parts in finder.attributes:
            message = _private_attribute_problem(module.dist, parts, modules, folder_owners)
            if message and (line, message) not in reported:
                reported.add((line, message))
                problems.append(Problem(where, line, message))
    return problems


def _optional_problem(
    module: Module,
    site: ImportSite,
    extra: str | None,
    packages: dict[str, Package],
    modules: dict[str, Module],
    folder_owners: dict[str, str],
    allowed: dict[str, set[str]],
) -> str | None:
    """The problem of an import marked ``# layout: optional[extra]``, if any."""
    if not (site.lazy or site.guarded):
        return (
            f"optional import of {site.target} must be lazy (inside a function) "
            "or guarded (inside try)"
        )
    owners: list[str] = []
    for needed in _needed_modules(site, modules):
        owner = _owner(needed, modules, folder_owners)
        if owner is None and "." in needed:
            return f"imports {needed}, which no distribution under packages/ provides"
        if owner is not None and owner not in allowed[module.dist] and owner not in owners:
            owners.append(owner)
    if not owners:
        return (
            f"{site.target} is a declared dependency of {module.dist}, not an optional "
            "one: remove the '# layout: optional' mark"
        )
    listed = ", ".join(owners)
    if not extra:
        return (
            f"optional import of {site.target} ({listed}): name the extra of "
            f"{module.dist} that declares it, '# layout: optional[EXTRA]'"
        )
    package = packages[module.dist]
    if extra not in package.extras:
        return f"the mark names the extra {extra!r}, which {module.dist} does not have"
    local = [requirement_name(r) for r in package.extras[extra]]
    try:
        reach = set(closure(packages, [n for n in local if n in packages]))
    except ValueError as exc:
        return str(exc)
    missing = [o for o in owners if o not in reach]
    if missing:
        return (
            f"{module.dist} imports {site.target} (owned by {', '.join(missing)}) as "
            f"optional, but its extra {extra!r} does not declare {', '.join(missing)}"
        )
    return None


def _import_problem(
    module: Module,
    site: ImportSite,
    modules: dict[str, Module],
    folder_owners: dict[str, str],
    allowed: dict[str, set[str]],
) -> str | None:
    for needed in _needed_modules(site, modules):
        if needed in modules:
            owner = modules[needed].dist
        elif needed in folder_owners:
            owner = folder_owners[needed]
        elif "." not in needed:
            continue  # the shared top level without __init__.py here: a namespace package
        else:
            return f"imports {needed}, which no distribution under packages/ provides"
        if owner not in allowed[module.dist]:
            return (
                f"{module.dist} imports {needed} (owned by {owner}), which is not among its "
                f"declared dependencies; declare {owner} in the pyproject.toml of "
                f"{module.dist}, or declare it in an extra, make the import lazy or "
                "guarded and mark it '# layout: optional[EXTRA]'"
            )
    return None


def _design_reach(name: str) -> set[str]:
    reach: set[str] = set()
    todo = list(DESIGN_DAG.get(name, []))
    while todo:
        dep = todo.pop()
        if dep not in reach:
            reach.add(dep)
            todo.extend(DESIGN_DAG.get(dep, []))
    return reach


def check_declared(packages: dict[str, Package], root: Path) -> list[Problem]:
    """Report declared dependencies between distributions that DESIGN_DAG does not allow."""
    problems = []
    for name, package in packages.items():
        if name not in DESIGN_DAG:
            continue
        for dep in package.local_deps:
            if dep not in _design_reach(name):
                where = _rel(package.folder / "pyproject.toml", root)
                message = f"{name} declares {dep}, against the dependency DAG of DESIGN.md"
                problems.append(Problem(where, 1, message))
    return problems


def check_private_top(modules: dict[str, Module], root: Path) -> list[Problem]:
    """Report private modules in the shared top-level folder not owned by its ``__init__``'s
    distribution (rule 5)."""
    top = modules.get(SHARED_TOP)
    if top is None:
        return []
    problems: list[Problem] = []
    for module in sorted(modules.values(), key=lambda m: m.name):
        parts = module.name.split(".")
        top_level = len(parts) == 2 and parts[0] == SHARED_TOP
        if top_level and is_private(parts[1]) and module.dist != top.dist:
            message = (
                f"private module {module.name} of {module.dist} sits in the shared "
                f"top-level {SHARED_TOP}/ folder, which is {top.dist}'s: move it into "
                f"a folder of {module.dist}"
            )
            problems.append(Problem(_rel(module.path, root), 1, message))
    return problems


def check_layout(root: Path | str) -> list[Problem]:
    """Return every ownership, import-DAG and privacy problem of the repository at *root*."""
    root = Path(root).resolve()
    packages = load_packages(root)
    modules, folder_owners, problems = collect_modules(packages, root)
    problems += check_private_top(modules, root)
    problems += check_declared(packages, root)
    return problems + check_imports(packages, modules, folder_owners, root)


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point; returns the exit status."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) > 1 or (args and args[0] in {"-h", "--help"}):
        print(__doc__)
        return 0 if args and args[0] in {"-h", "--help"} else 2
    root = Path(args[0]) if args else Path(__file__).resolve().parent.parent
    if not (root / "packages").is_dir():
        print(f"check_layout: no packages/ folder under {root}", file=sys.stderr)
        return 2
    problems = check_layout(root)
    for problem in problems:
        print(problem)
    dists = len(load_packages(root))
    if problems:
        print(f"check_layout: {len(problems)} problem(s) in {dists} distributions")
        return 1
    print(f"check_layout: {dists} distributions, ownership, import DAG and private modules OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
