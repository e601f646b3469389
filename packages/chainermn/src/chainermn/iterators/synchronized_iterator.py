"""An iterator that shuffles in the same order on every process."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, TypeVar, cast

import numpy

from chainer.iterators import ShuffleOrderSampler

if TYPE_CHECKING:
    from chainer.dataset.iterator import Iterator
    from chainermn.communicators.communicator_base import CommunicatorBase

_I = TypeVar('_I', bound='Iterator')


class _Sampled(Protocol):
    """An iterator whose order a sampler decides (``SerialIterator``, ...)."""

    order_sampler: object

    def reset(self) -> None: ...


def create_synchronized_iterator(actual_iterator: _I, communicator: CommunicatorBase) -> _I:
    """Make ``actual_iterator`` shuffle in the same order on every process.

    Every process reads its own copy of the dataset, so nothing is sent per batch: a
    random seed is broadcast once, and the iterator's :class:`ShuffleOrderSampler` is
    replaced by one seeded with it (an iterator that does not shuffle is already in
    sync). Collective: every process calls it.

    Args:
        actual_iterator: an iterator with ``order_sampler`` and ``reset()`` (e.g.
            ``SerialIterator``), over the same dataset on every process.
        communicator: a ChainerMN communicator.

    Returns:
        ``actual_iterator``, reset.

    Raises:
        TypeError: when the iterator shuffles with a custom order sampler, which cannot
            be seeded.
    """
    seed = numpy.random.randint(0, 2**31 - 1) if communicator.rank == 0 else None
    seed = communicator.bcast_obj(seed, root=0)
    sampler = getattr(actual_iterator, 'order_sampler', None)
    if sampler is None:
        return actual_iterator
    if not isinstance(sampler, ShuffleOrderSampler):
        raise TypeError('create_synchronized_iterator can seed a ShuffleOrderSampler only, '
                        f'not {type(sampler).__name__}: give every process the same seeded '
                        'order sampler instead')
    sampled = cast(_Sampled, actual_iterator)
    sampled.order_sampler = ShuffleOrderSampler(numpy.random.RandomState(seed))
    sampled.reset()
    return actual_iterator
