"""The version of the ``chainer`` package (``chainer._version.__version__``, as in v7)."""

__version__ = '8.0.0'
