"""Dataset iterators and order samplers."""

from chainer.iterators.order_samplers import OrderSampler, ShuffleOrderSampler
from chainer.iterators.serial_iterator import SerialIterator

__all__ = ['OrderSampler', 'SerialIterator', 'ShuffleOrderSampler']
