"""tools/check_layout.py's boundary rules: private modules and names stay inside their
distribution, private modules of the shared top level are its owner's, and optional
imports of other distributions name the extra that declares them."""

from __future__ import annotations

from pathlib import Path

import pytest
from check_layout import check_layout, is_private, main
from test_check_layout import EXTRAS, messages, with_changes, write_tree

ROOT = Path(__file__).resolve().parents[2]

# autograd-core's private helpers, its own users and its internal API re-exporting them
CORE_FILES = {
    "chainer/_cpu_blas.py": "def dot(a, b):\n    return a @ b\n",
    "chainer/functions/_util.py": "def helper():\n    return 1\n",
    "chainer/variable.py": "import chainer.backend\n_cache = {}\n\n\nclass Variable:\n    pass\n",
    "chainer/functions/linear.py": (
        "from chainer import _cpu_blas\nfrom chainer.functions._util import helper\n"
    ),
    "chainer/internal.py": (
        "from chainer._cpu_blas import dot as blas_dot\n"
        "from chainer.functions._util import helper\n\n"
        "__all__ = ['blas_dot', 'helper']\n"
    ),
}


def tree(tmp_path: Path, extras: dict[str, dict[str, list[str]]] | None = None,
         **changes: dict[str, str]) -> Path:
    """CLEAN plus CORE_FILES plus *changes*, written under *tmp_path*."""
    core = {**CORE_FILES, **changes.pop("autograd_core", {})}
    spec = with_changes(autograd_core=core, **changes)
    return write_tree(tmp_path, spec, extras)


def only(root: Path) -> str:
    (found,) = messages(root)
    return found


def test_is_private() -> None:
    assert is_private("chainer._cpu_blas")
    assert is_private("chainer.functions._util.helper")
    assert is_private("_x")
    assert not is_private("chainer.functions")
    assert not is_private("chainer.__init__")
    assert not is_private("chainer.__version__")


def test_fixture_with_internal_api_passes(tmp_path: Path) -> None:
    # autograd-core's own modules import its privates; links uses the internal API
    source = "from chainer import internal\nfrom chainer.internal import blas_dot\n"
    root = tree(tmp_path, links={"chainer/links/lstm.py": source})
    assert messages(root) == []


def test_private_module_of_another_distribution(tmp_path: Path) -> None:
    source = "from chainer import _cpu_blas\n"
    found = only(tree(tmp_path, links={"chainer/links/lstm.py": source}))
    assert found.startswith("packages/links/src/chainer/links/lstm.py:1: ")
    assert "chainer-links uses the private module chainer._cpu_blas" in found
    assert "private to chainer-autograd-core" in found


def test_private_submodule_imported_lazily(tmp_path: Path) -> None:
    source = "def f():\n    from chainer.functions._util import helper\n    return helper()\n"
    found = only(tree(tmp_path, links={"chainer/links/lstm.py": source}))
    assert ":2: chainer-links uses the private module chainer.functions._util" in found


def test_private_module_through_from_package_import(tmp_path: Path) -> None:
    source = "try:\n    from chainer.functions import _util\nexcept ImportError:\n    pass\n"
    found = only(tree(tmp_path, links={"chainer/links/lstm.py": source}))
    assert ":2: chainer-links uses the private module chainer.functions._util" in found


def test_private_import_is_refused_even_when_marked_optional(tmp_path: Path) -> None:
    source = "def f():\n    import chainer._cpu_blas  # layout: optional[config]\n"
    found = only(tree(tmp_path, datasets={"chainer/datasets/fast.py": source}))
    assert "chainer-datasets uses the private module chainer._cpu_blas" in found


def test_private_name_of_another_distribution(tmp_path: Path) -> None:
    source = "from chainer.variable import Variable, _cache\n"
    found = only(tree(tmp_path, links={"chainer/links/cache.py": source}))
    assert "chainer-links uses the private name _cache of chainer.variable" in found


def test_private_attribute_of_another_distribution(tmp_path: Path) -> None:
    source = "import chainer\n\n\ndef f(a):\n    return chainer._cpu_blas.dot(a, a)\n"
    found = only(tree(tmp_path, links={"chainer/links/lstm.py": source}))
    assert ":5: chainer-links uses the private module chainer._cpu_blas" in found
    source = "import chainer.variable\n\nx = chainer.variable._cache\n"
    found = only(tree(tmp_path / "b", links={"chainer/links/cache.py": source}))
    assert ":3: chainer-links uses the private name _cache of chainer.variable" in found


def test_own_private_modules_and_public_attributes_pass(tmp_path: Path) -> None:
    links = {
        "chainer/links/_state.py": "x = 1\n",
        "chainer/links/gru.py": "from chainer.links import _state\nimport chainer\n"
        "y = chainer.links._state.x\nz = chainer.variable.Variable\nv = chainer.__version__\n",
    }
    assert messages(tree(tmp_path, links=links)) == []


def test_private_module_at_the_shared_top_level(tmp_path: Path) -> None:
    files = {"chainer/_fused_update.py": "x = 1\n"}
    found = only(tree(tmp_path, optimizers=files))
    assert found.startswith("packages/optimizers/src/chainer/_fused_update.py:1: ")
    assert ("private module chainer._fused_update of chainer-optimizers sits in the shared "
            "top-level chainer/ folder, which is chainer-autograd-core's") in found
    moved = {"chainer/optimizers/_fused_update.py": "x = 1\n"}
    assert messages(tree(tmp_path / "moved", optimizers=moved)) == []


def test_optional_mark_must_name_an_extra(tmp_path: Path) -> None:
    source = "def f():\n    from chainer import variable  # layout: optional\n"
    found = only(tree(tmp_path, datasets={"chainer/datasets/v.py": source}))
    assert ":2: optional import of chainer (chainer-autograd-core): name the extra" in found


def test_optional_mark_with_an_unknown_extra(tmp_path: Path) -> None:
    source = "def f():\n    import chainer.variable  # layout: optional[nope]\n"
    found = only(tree(tmp_path, datasets={"chainer/datasets/v.py": source}))
    assert "names the extra 'nope', which chainer-datasets does not have" in found


def test_optional_extra_must_declare_the_provider(tmp_path: Path) -> None:
    source = "def f():\n    import chainer.links  # layout: optional[config]\n"
    found = only(tree(tmp_path, datasets={"chainer/datasets/l.py": source}))
    assert ("chainer-datasets imports chainer.links (owned by chainer-links) as optional, "
            "but its extra 'config' does not declare chainer-links") in found


def test_optional_extra_reaching_the_provider_through_its_dependencies(tmp_path: Path
                                                                       ) -> None:
    # autograd-core's testing extra names optimizers, which depends on links
    extras = {**EXTRAS, "autograd-core": {"testing": ["optimizers"]}}
    source = ("def f():\n"
              "    from chainer.links.model import classifier  # layout: optional[testing]\n")
    files = {"chainer/testing.py": source}
    assert messages(tree(tmp_path, extras, autograd_core=files)) == []


def test_optional_mark_on_a_declared_dependency(tmp_path: Path) -> None:
    source = "def f():\n    import chainer.variable  # layout: optional[config]\n"
    found = only(tree(tmp_path, links={"chainer/links/v.py": source}))
    assert "chainer.variable is a declared dependency of chainer-links, not an optional" in found


def test_lazy_import_of_an_undeclared_distribution_without_mark(tmp_path: Path) -> None:
    source = "def f():\n    from chainer import serializers\n"
    extras = {**EXTRAS, "links": {"pretrained": ["serializers"]}}
    spec = with_changes(links={"chainer/links/pre.py": source})
    spec["serializers"] = (["autograd-core"], {"chainer/serializers/__init__.py": ""})
    root = write_tree(tmp_path, spec, extras)
    found = only(root)
    assert "chainer-links imports chainer.serializers (owned by chainer-serializers)" in found
    marked = source.replace("serializers\n", "serializers  # layout: optional[pretrained]\n")
    spec = with_changes(links={"chainer/links/pre.py": marked})
    spec["serializers"] = (["autograd-core"], {"chainer/serializers/__init__.py": ""})
    assert messages(write_tree(tmp_path / "marked", spec, extras)) == []


def test_bare_mark_on_a_third_party_import_passes(tmp_path: Path) -> None:
    source = "try:\n    from PIL import Image  # layout: optional\nexcept ImportError:\n    pass\n"
    assert messages(tree(tmp_path, links={"chainer/links/img.py": source})) == []


def test_cli_fails_on_a_private_import(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                       ) -> None:
    root = tree(tmp_path, links={"chainer/links/lstm.py": "from chainer import _cpu_blas\n"})
    assert main([str(root)]) == 1
    assert "1 problem(s)" in capsys.readouterr().out


def test_the_repository_passes() -> None:
    assert [str(p) for p in check_layout(ROOT)] == []

