"""Chainer v7's module of :func:`from_data` (``chainer.dataset.tabular.from_data``).

As in v7, ``chainer.dataset.tabular.from_data`` reads as the function (the package
imports it over the module's name); this module is reached through ``import`` or
``sys.modules``.
"""

from chainer.dataset.tabular._from_data import from_data

__all__ = ['from_data']
