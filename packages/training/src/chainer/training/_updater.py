"""Chainer v7's module of the updater interface (``chainer.training._updater``).

:class:`Updater` is :class:`chainer.training.Updater` (defined in
:mod:`chainer.training.updater`).
"""

from chainer.training.updater import Updater

__all__ = ['Updater']
