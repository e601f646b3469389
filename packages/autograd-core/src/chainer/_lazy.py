"""Lazy resolution of names that other distributions provide.

``chainer.links`` and friends live in other distributions. Attribute access
(``chainer.Link``) and ``import chainer.links`` both work when the owner is
installed; when it is not, a ``ModuleNotFoundError`` names the package to
install.
"""

from __future__ import annotations

import importlib
import importlib.abc
import sys
from collections.abc import Callable
from typing import Any

# module path -> distribution providing it (top-level modules of other packages)
MODULE_OWNERS: dict[str, str] = {
    'chainer.link': 'chainer-links',
    'chainer.links': 'chainer-links',
    'chainer.link_hook': 'chainer-links',
    'chainer.link_hooks': 'chainer-links',
    'chainer.sequential': 'chainer-links',
    'chainer.optimizer': 'chainer-optimizers',
    'chainer.optimizers': 'chainer-optimizers',
    'chainer.optimizer_hooks': 'chainer-optimizers',
    'chainer.dataset': 'chainer-datasets',
    'chainer.datasets': 'chainer-datasets',
    'chainer.iterators': 'chainer-datasets',
    'chainer.serializers': 'chainer-serializers',
    'chainer.training': 'chainer-training',
    'chainer.backend': 'chainer-array-backend',
    'chainer.backends': 'chainer-array-backend',
}

# attribute of ``chainer`` -> (module, attribute or None for the module itself)
LAZY_ATTRS: dict[str, tuple[str, str | None]] = {
    'Link': ('chainer.link', 'Link'),
    'Chain': ('chainer.link', 'Chain'),
    'ChainList': ('chainer.link', 'ChainList'),
    'Sequential': ('chainer.sequential', 'Sequential'),
    'LinkHook': ('chainer.link_hook', 'LinkHook'),
    '_get_link_hooks': ('chainer.link_hook', 'get_link_hooks'),
    'Optimizer': ('chainer.optimizer', 'Optimizer'),
    'GradientMethod': ('chainer.optimizer', 'GradientMethod'),
    'UpdateRule': ('chainer.optimizer', 'UpdateRule'),
    'link': ('chainer.link', None),
    'links': ('chainer.links', None),
    'link_hooks': ('chainer.link_hooks', None),
    'sequential': ('chainer.sequential', None),
    'optimizer': ('chainer.optimizer', None),
    'optimizers': ('chainer.optimizers', None),
    'optimizer_hooks': ('chainer.optimizer_hooks', None),
    'dataset': ('chainer.dataset', None),
    'datasets': ('chainer.datasets', None),
    'iterators': ('chainer.iterators', None),
    'serializers': ('chainer.serializers', None),
    'training': ('chainer.training', None),
    # modules of autograd-core itself that ``import chainer`` does not load: v7 code
    # reaches them as attributes (``chainer._backend.Device``, ``chainer.types.NdArray``)
    '_backend': ('chainer._backend', None),
    '_backprop_utils': ('chainer._backprop_utils', None),
    '_environment_check': ('chainer._environment_check', None),
    '_version': ('chainer._version', None),
    'distributions': ('chainer.distributions', None),
    'memory_layouts': ('chainer.memory_layouts', None),
    'types': ('chainer.types', None),
}

# package -> its submodules imported on first attribute access, through the module
# ``__getattr__`` that :func:`submodule_getattr` makes (``chainer.utils.precision``)
LAZY_SUBMODULES: dict[str, tuple[str, ...]] = {
    'chainer.utils': ('conv_nd_kernel', 'precision'),
}


def missing_message(module: str) -> str:
    """The message for a module whose distribution is not installed."""
    owner = MODULE_OWNERS.get(module) or MODULE_OWNERS.get(module.rsplit('.', 1)[0], '')
    return f'{module} is provided by the {owner} package: pip install {owner}'


def _owner_of(fullname: str) -> str | None:
    parts = fullname.split('.')
    for i in range(len(parts), 1, -1):
        prefix = '.'.join(parts[:i])
        if prefix in MODULE_OWNERS:
            return prefix
    return None


class MissingDistributionFinder(importlib.abc.MetaPathFinder):
    """Last finder on ``sys.meta_path``: turns a missing owned module into a clear error."""

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> Any:
        top = _owner_of(fullname)
        if top is None or fullname != top:
            return None
        raise ModuleNotFoundError(missing_message(top), name=fullname)


def install_finder() -> None:
    """Append the finder once."""
    if not any(isinstance(f, MissingDistributionFinder) for f in sys.meta_path):
        sys.meta_path.append(MissingDistributionFinder())


def submodule_getattr(package: str) -> Callable[[str], Any]:
    """The module ``__getattr__`` of ``package`` importing its :data:`LAZY_SUBMODULES`.

    Usage, in the package's ``__init__``: ``__getattr__ = _lazy.submodule_getattr(__name__)``.
    """
    names = LAZY_SUBMODULES[package]

    def __getattr__(name: str) -> Any:
        if name in names:
            return importlib.import_module(f'{package}.{name}')
        raise AttributeError(f'module {package!r} has no attribute {name!r}')

    return __getattr__


def resolve(name: str) -> Any:
    """Import and return the lazily provided attribute ``chainer.<name>``."""
    module_name, attr = LAZY_ATTRS[name]
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as e:
        if e.name is not None and (e.name == module_name or module_name.startswith(
                e.name + '.')):
            raise ModuleNotFoundError(missing_message(module_name), name=module_name) from None
        raise
    return module if attr is None else getattr(module, attr)
