"""Tests of tools/check_layout.py on small fake ``packages/`` trees."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from check_layout import check_layout, main, module_name

# Distribution folder -> (declared local dependencies, {path under src: source}).
CLEAN: dict[str, tuple[list[str], dict[str, str]]] = {
    "array-backend": (
        [],
        {
            "chainer/backend.py": "import numpy\n",
            "chainer/backends/__init__.py": "from chainer.backends import cuda\n",
            "chainer/backends/cuda.py": "from .. import backend\n",
        },
    ),
    "autograd-core": (
        ["array-backend"],
        {
            "chainer/__init__.py": "from chainer import backend\nfrom . import variable\n",
            "chainer/variable.py": "import chainer.backend\nfrom chainer.backends import cuda\n",
            "chainer/functions/__init__.py": "from chainer.functions.relu import relu\n",
            "chainer/functions/relu.py": "from ..variable import Variable\n",
        },
    ),
    "links": (
        ["autograd-core"],
        {
            "chainer/links/__init__.py": "import chainer\nfrom chainer import Variable\n",
            "chainer/links/model/classifier.py": (
                "import chainer.functions as F\nfrom ...variable import Variable\n"
            ),
        },
    ),
    "optimizers": (
        ["links"],
        {
            # chainer.variable is reached through links -> autograd-core.
            "chainer/optimizers/__init__.py": (
                "from chainer import variable\nimport chainer.links.model.classifier\n"
            ),
        },
    ),
    "datasets": (
        ["array-backend"],
        {
            "chainer/datasets/__init__.py": textwrap.dedent(
                """\
                from typing import TYPE_CHECKING

                import chainer.backend
                from chainer.backends import cuda

                if TYPE_CHECKING:
                    from chainer.variable import Variable


                def to_variable(x):
                    import chainer  # layout: optional[config]
                    return chainer.Variable(x)


                try:
                    from PIL import Image
                except ImportError:
                    Image = None
                """
            ),
            "chainer/datasets/data/mushrooms.csv": "a,b\n",
        },
    ),
}


# Distribution folder -> {extra: distribution folders it declares} (optional dependencies).
EXTRAS: dict[str, dict[str, list[str]]] = {"datasets": {"config": ["autograd-core"]}}


def write_tree(
    root: Path,
    spec: dict[str, tuple[list[str], dict[str, str]]],
    extras: dict[str, dict[str, list[str]]] | None = None,
) -> Path:
    """Write a fake repository with one pyproject and its sources per distribution.

    *extras* (default :data:`EXTRAS`) gives each distribution's optional dependencies.
    """
    extras = EXTRAS if extras is None else extras
    for folder, (deps, files) in spec.items():
        package = root / "packages" / folder
        package.mkdir(parents=True)
        requires = ", ".join(f'"chainer-{d}>=0.1"' for d in deps)
        optional = "".join(
            f"{name} = [{', '.join(f'{chr(34)}chainer-{d}>=0.1{chr(34)}' for d in dists)}]\n"
            for name, dists in extras.get(folder, {}).items()
        )
        (package / "pyproject.toml").write_text(
            f'[project]\nname = "chainer-{folder}"\nversion = "0.1.0"\n'
            f'dependencies = ["numpy>=1.26", {requires}]\n'
            + (f"[project.optional-dependencies]\n{optional}" if optional else "")
        )
        for relative, source in files.items():
            path = package / "src" / relative
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(source)
    return root


def with_changes(**changes: dict[str, str]) -> dict[str, tuple[list[str], dict[str, str]]]:
    """CLEAN with extra or replaced files in the named distributions (``_`` for ``-``)."""
    spec = {k: (list(d), dict(f)) for k, (d, f) in CLEAN.items()}
    for key, files in changes.items():
        spec[key.replace("_", "-")][1].update(files)
    return spec


def messages(root: Path) -> list[str]:
    return [str(p) for p in check_layout(root)]


def test_module_name() -> None:
    assert module_name(Path("chainer/x/y.py")) == "chainer.x.y"
    assert module_name(Path("chainer/links/__init__.py")) == "chainer.links"
    assert module_name(Path("chainer/__init__.py")) == "chainer"


def test_clean_tree_passes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = write_tree(tmp_path, CLEAN)
    assert messages(root) == []
    assert main([str(root)]) == 0
    assert "OK" in capsys.readouterr().out


def test_duplicate_module(tmp_path: Path) -> None:
    root = write_tree(tmp_path, with_changes(links={"chainer/variable.py": "x = 1\n"}))
    (found,) = messages(root)
    assert "module chainer.variable is owned by two distributions" in found
    assert "chainer-links" in found and "chainer-autograd-core" in found


def test_second_chainer_init(tmp_path: Path) -> None:
    root = write_tree(tmp_path, with_changes(datasets={"chainer/__init__.py": ""}))
    found = messages(root)
    assert any("module chainer is owned by two distributions" in m for m in found)


def test_split_folder(tmp_path: Path) -> None:
    root = write_tree(tmp_path, with_changes(links={"chainer/functions/extra.py": "y = 2\n"}))
    (found,) = messages(root)
    assert "folder chainer/functions/ is split between distributions" in found


def test_split_data_folder(tmp_path: Path) -> None:
    spec = with_changes(links={"chainer/datasets/data/more.csv": "c\n"})
    root = write_tree(tmp_path, spec)
    found = messages(root)
    assert any("folder chainer/datasets/data/ is split" in m for m in found)
    assert any("folder chainer/datasets/ is split" in m for m in found)


def test_import_across_dag_in_function(tmp_path: Path) -> None:
    source = "def f():\n    from chainer.links import model\n    return model\n"
    root = write_tree(tmp_path, with_changes(datasets={"chainer/datasets/bad.py": source}))
    (found,) = messages(root)
    assert found.startswith("packages/datasets/src/chainer/datasets/bad.py:2: ")
    assert "chainer-datasets imports chainer.links (owned by chainer-links)" in found


def test_import_across_dag_in_try(tmp_path: Path) -> None:
    source = "try:\n    import chainer.optimizers\nexcept ImportError:\n    pass\n"
    root = write_tree(tmp_path, with_changes(links={"chainer/links/opt.py": source}))
    (found,) = messages(root)
    assert ":2: chainer-links imports chainer.optimizers" in found


def test_relative_import_across_dag(tmp_path: Path) -> None:
    source = "from ..links import model\n"
    root = write_tree(tmp_path, with_changes(datasets={"chainer/datasets/rel.py": source}))
    (found,) = messages(root)
    assert "imports chainer.links (owned by chainer-links)" in found


def test_bare_chainer_needs_autograd_core(tmp_path: Path) -> None:
    source = "import chainer\n"
    root = write_tree(tmp_path, with_changes(datasets={"chainer/datasets/top.py": source}))
    (found,) = messages(root)
    assert "imports chainer (owned by chainer-autograd-core)" in found


def test_from_chainer_import_name_needs_autograd_core(tmp_path: Path) -> None:
    source = "from chainer import backend, Variable\n"
    root = write_tree(tmp_path, with_changes(array_backend={"chainer/extra.py": source}))
    (found,) = messages(root)
    assert "chainer-array-backend imports chainer (owned by chainer-autograd-core)" in found


def test_optional_mark_needs_lazy_or_guarded(tmp_path: Path) -> None:
    source = "import chainer.links  # layout: optional[config]\n"
    root = write_tree(tmp_path, with_changes(datasets={"chainer/datasets/eager.py": source}))
    (found,) = messages(root)
    assert ":1: optional import of chainer.links must be lazy" in found


def test_unknown_module(tmp_path: Path) -> None:
    source = "import chainer.nowhere\n"
    root = write_tree(tmp_path, with_changes(links={"chainer/links/typo.py": source}))
    (found,) = messages(root)
    assert "imports chainer.nowhere, which no distribution under packages/ provides" in found


def test_dependency_cycle(tmp_path: Path) -> None:
    spec = with_changes()
    spec["array-backend"] = (["datasets"], spec["array-backend"][1])
    root = write_tree(tmp_path, spec)
    assert any("dependency cycle between distributions" in m for m in messages(root))


def test_cli_reports_and_fails(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = "import chainer.training\n"
    spec = with_changes(links={"chainer/links/t.py": source})
    spec["training"] = (["links"], {"chainer/training/__init__.py": ""})
    root = write_tree(tmp_path, spec)
    assert main([str(root)]) == 1
    out = capsys.readouterr().out
    assert "packages/links/src/chainer/links/t.py:1: chainer-links imports chainer.training" in out
    assert "1 problem(s)" in out


def test_declared_dependency_against_design_dag(tmp_path: Path) -> None:
    # (an __init__ without CLEAN's optional import of chainer, which declaring links would
    # make a declared dependency, its mark needless)
    spec = with_changes(datasets={"chainer/datasets/l.py": "import chainer.links\n",
                                  "chainer/datasets/__init__.py": ""})
    spec["datasets"] = (["array-backend", "links"], spec["datasets"][1])
    root = write_tree(tmp_path, spec)
    (found,) = messages(root)
    assert found == (
        "packages/datasets/pyproject.toml:1: chainer-datasets declares chainer-links, "
        "against the dependency DAG of DESIGN.md"
    )
