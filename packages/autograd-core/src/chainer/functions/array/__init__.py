"""Array manipulation functions."""

from chainer.functions.array.broadcast import broadcast_to
from chainer.functions.array.get_item import get_item
from chainer.functions.array.reshape import reshape
from chainer.functions.array.transpose import transpose

__all__ = ['broadcast_to', 'get_item', 'reshape', 'transpose']
