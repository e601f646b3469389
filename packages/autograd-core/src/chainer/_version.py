"""The version of the ``chainer`` package (``chainer._version.__version__``, as in v7).

The number itself is kept once, in ``chainer/__init__.py``.
"""

from chainer import __version__

__all__ = ['__version__']
