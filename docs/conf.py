"""Sphinx configuration of the documentation site (built by ``python3 -m nox -s docs``)."""

from __future__ import annotations

from typing import Any

project = "Chainer (rebuilt)"
author = "the project's contributors"
copyright = "2026, the project's contributors"

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "sphinx.ext.viewcode",
]

source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build", "compat/chainer-7-api.txt"]

html_theme = "furo"
html_title = "Chainer, rebuilt for today's Python"

# The docstrings are Google style.
napoleon_google_docstring = True
napoleon_numpy_docstring = False

autodoc_default_options = {"members": True, "show-inheritance": True}
autodoc_member_order = "bysource"
autodoc_typehints = "description"

# MyST: headings get anchors so that the compat pages' links into sections resolve.
myst_heading_anchors = 3

# Cross-references by short name ("Optimizer", "Device") find more than one target
# because a class is documented under the path a program imports it from and is also
# reachable under the module that defines it; Sphinx then picks the first, which is right
# for this site. Only that warning class (ambiguous Python references) is silenced.
suppress_warnings = ["ref.python"]

# The public modules the API pages document (docs/api/*.rst). A name re-exported by
# several of them is documented once, under the most specific one that contains the
# module defining it (``chainer.training.triggers.IntervalTrigger``, not also
# ``chainer.training.IntervalTrigger``); names from other projects (``typing.Any``)
# are not documented.
DOCUMENTED = [
    "chainer", "chainer.initializers", "chainer.distributions", "chainer.function_hooks",
    "chainer.utils", "chainer.testing", "chainer.functions", "chainer.backend",
    "chainer.backends", "chainer.backends.cuda", "chainer.link", "chainer.links",
    "chainer.link_hooks", "chainer.links.caffe", "chainer.optimizer", "chainer.optimizers",
    "chainer.optimizer_hooks", "chainer.dataset", "chainer.datasets", "chainer.iterators",
    "chainer.serializers", "chainer.training", "chainer.training.extensions",
    "chainer.training.triggers", "chainer.training.updaters", "chainermn",
    "chainermn.communicators", "chainermn.optimizers", "chainermn.datasets",
    "chainermn.iterators", "chainermn.extensions", "chainermn.functions", "chainermn.links",
    "chainer.gradient_check", "chainer.computational_graph", "chainer.exporters.caffe",
]  # fmt: skip


def _home(defined_in: str) -> str | None:
    """The most specific documented module containing module *defined_in*."""
    homes = [m for m in DOCUMENTED if defined_in == m or defined_in.startswith(m + ".")]
    return max(homes, key=len) if homes else None


def _skip_member(
    app: Any, what: str, name: str, obj: object, skip: bool, options: Any
) -> bool | None:
    """Document a module member only in its home module (see DOCUMENTED)."""
    if what != "module":
        return None
    current = app.env.temp_data.get("autodoc:module")
    defined_in = getattr(obj, "__module__", None)
    if not isinstance(defined_in, str) or current is None:
        return None
    if _home(defined_in) != current:
        return True
    return None


def setup(app: Any) -> None:
    """Connect the member filter."""
    app.connect("autodoc-skip-member", _skip_member)
