"""Connection functions (layers with weights passed as inputs)."""

from chainer.functions.connection.linear import linear

__all__ = ['linear']
