"""Read the distributions under ``packages/``: names, versions, local dependencies, extras.

Shared by ``noxfile.py``, ``tools/check_layout.py`` and ``tools/bench``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

_NAME = re.compile(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)")


def normalize(name: str) -> str:
    """Return the PEP 503 normalized form of a distribution name."""
    return re.sub(r"[-_.]+", "-", name).lower()


def requirement_name(requirement: str) -> str:
    """Return the normalized distribution name at the start of a requirement string."""
    match = _NAME.match(requirement)
    if match is None:
        raise ValueError(f"cannot read a distribution name from {requirement!r}")
    return normalize(match.group(1))


@dataclass
class Package:
    """One distribution of the repository."""

    folder: Path
    name: str
    version: str
    requires: list[str]
    extras: dict[str, list[str]]
    local_deps: list[str] = field(default_factory=list)
    test_requires: list[str] = field(default_factory=list)
    """Test-only requirements: the ``test`` group of ``[dependency-groups]`` (PEP 735)."""

    @property
    def key(self) -> str:
        """The folder name, e.g. ``autograd-core``; nox session ids use it."""
        return self.folder.name

    @property
    def src(self) -> Path:
        return self.folder / "src"

    @property
    def tests(self) -> Path:
        return self.folder / "tests"

    @property
    def wheel_stem(self) -> str:
        """The file name prefix of this distribution's wheel (``name-version``)."""
        return f"{self.name.replace('-', '_')}-{self.version}"


def load_packages(root: Path) -> dict[str, Package]:
    """Read every ``packages/*/pyproject.toml`` under *root*, keyed by distribution name."""
    packages: dict[str, Package] = {}
    for pyproject in sorted((Path(root) / "packages").glob("*/pyproject.toml")):
        with pyproject.open("rb") as f:
            data = tomllib.load(f)
        project = data.get("project", {})
        name = normalize(project.get("name", pyproject.parent.name))
        if name in packages:
            raise ValueError(
                f"{pyproject}: distribution {name} is also defined in {packages[name].folder}"
            )
        packages[name] = Package(
            folder=pyproject.parent,
            name=name,
            version=str(project.get("version", "0")),
            requires=list(project.get("dependencies", [])),
            extras={k: list(v) for k, v in project.get("optional-dependencies", {}).items()},
            test_requires=[r for r in data.get("dependency-groups", {}).get("test", [])
                           if isinstance(r, str)],
        )
    for package in packages.values():
        names = (requirement_name(r) for r in package.requires)
        package.local_deps = [n for n in names if n in packages]
    return packages


def closure(packages: dict[str, Package], names: list[str]) -> list[str]:
    """Return *names* plus every local distribution they reach through declared dependencies.

    Raises ValueError when the declared dependencies contain a cycle.
    """
    order: list[str] = []
    state: dict[str, str] = {}

    def visit(name: str, path: tuple[str, ...]) -> None:
        if state.get(name) == "done":
            return
        if state.get(name) == "active":
            cycle = " -> ".join((*path[path.index(name) :], name))
            raise ValueError(f"dependency cycle between distributions: {cycle}")
        state[name] = "active"
        for dep in packages[name].local_deps:
            visit(dep, (*path, name))
        state[name] = "done"
        order.append(name)

    for name in names:
        visit(name, ())
    return order


def by_folder(packages: dict[str, Package]) -> dict[str, Package]:
    """Key the packages by folder name instead of distribution name."""
    return {p.key: p for p in packages.values()}
