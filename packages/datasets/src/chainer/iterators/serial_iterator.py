"""Iterator that reads minibatches from a dataset in the calling thread."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from chainer.dataset.iterator import Iterator
from chainer.iterators import _statemachine as _sm
from chainer.iterators.order_samplers import OrderSampler

if TYPE_CHECKING:
    from chainer.dataset.dataset_mixin import DatasetLike
    from chainer.serializer import AbstractSerializer



class SerialIterator(Iterator):
    """Dataset iterator that builds each minibatch serially.

    Every call of ``next`` returns a list of ``batch_size`` examples. With
    ``repeat=True`` the iterator goes on forever, wrapping around the
    dataset (a batch that crosses the end of an epoch is completed from the
    start of the next one); with ``repeat=False`` it stops after one sweep and
    the last batch may be shorter.

    Args:
        dataset: A dataset supporting ``len`` and indexing.
        batch_size: Number of examples per batch (positive).
        repeat: Whether to loop over the dataset indefinitely.
        shuffle: Whether to visit the examples in a new random order every
            epoch; ``None`` means ``True`` unless ``order_sampler`` is given.
        order_sampler: An :class:`~chainer.iterators.OrderSampler` deciding
            the order of every epoch; cannot be combined with ``shuffle``.

    Attributes:
        epoch (int): Number of completed sweeps over the dataset.
        is_new_epoch (bool): Whether the last batch completed an epoch.
        current_position (int): Position of the next batch in the epoch.

    Raises:
        ValueError: for a non-positive ``batch_size``, an empty dataset, or
            both ``shuffle`` and ``order_sampler`` given.

    Example:
        >>> from chainer.iterators import SerialIterator
        >>> it = SerialIterator(list(range(5)), batch_size=2, repeat=False, shuffle=False)
        >>> [batch for batch in it]
        [[0, 1], [2, 3], [4]]
        >>> it = SerialIterator(list(range(5)), batch_size=2, shuffle=False)
        >>> next(it), next(it), next(it)
        ([0, 1], [2, 3], [4, 0])
        >>> it.epoch, it.is_new_epoch
        (1, True)
    """

    batch_size: int
    epoch: int
    is_new_epoch: bool

    def __init__(
        self,
        dataset: DatasetLike,
        batch_size: int,
        repeat: bool = True,
        shuffle: bool | None = None,
        order_sampler: OrderSampler | None = None,
    ) -> None:
        batch_size = _sm.check_batch_size(batch_size)
        if len(dataset) == 0:
            raise ValueError('SerialIterator: the dataset is empty')
        sampler = _sm.resolve_order_sampler('SerialIterator', shuffle, order_sampler)
        self.dataset = dataset
        self.batch_size = int(batch_size)
        self._repeat = repeat
        self._shuffle = sampler is not None
        self.order_sampler = sampler
        self.reset()

    def reset(self) -> None:
        """Rewind to the beginning: epoch 0, position 0, a fresh order."""
        self._set_state(_sm.initial_state(self.order_sampler, len(self.dataset)))
        self._previous_epoch_detail = -1.0

    def _get_state(self) -> _sm.IteratorState:
        return _sm.IteratorState(self.current_position, self.epoch, self.is_new_epoch,
                                 self._order)

    def _set_state(self, state: _sm.IteratorState) -> None:
        self.current_position, self.epoch, self.is_new_epoch, self._order = state

    def __next__(self) -> list[Any]:
        """Return the next minibatch (a list of examples).

        Raises:
            StopIteration: with ``repeat=False``, once the sweep is complete.
            ValueError: the order sampler changed the length of the order.
        """
        # Updated before the stop check, as in Chainer v7: after StopIteration the
        # previous epoch detail equals the current one.
        self._previous_epoch_detail = self.epoch_detail
        state, indices = _sm.advance(self._get_state(), self.batch_size, self._repeat,
                                     self.order_sampler, len(self.dataset))
        if indices is None:
            raise StopIteration
        batch = _sm.fetch_examples(self.dataset, indices)
        self._set_state(state)
        return batch

    @property
    def _epoch_size(self) -> int:
        return len(self._order) if self._order is not None else len(self.dataset)

    @property
    def epoch_detail(self) -> float:
        """Epoch count as a float: ``epoch + current_position / epoch size``."""
        return self.epoch + self.current_position / self._epoch_size

    @property
    def previous_epoch_detail(self) -> float | None:
        """``epoch_detail`` before the last batch, or ``None`` before the first one."""
        if self._previous_epoch_detail < 0:
            return None
        return self._previous_epoch_detail

    @property
    def repeat(self) -> bool:
        """Whether the iterator loops over the dataset indefinitely."""
        return self._repeat

    def serialize(self, serializer: AbstractSerializer) -> None:
        """Save or restore position, epoch and order through ``serializer``.

        The keys are Chainer v7's, so snapshots move between this iterator,
        :class:`~chainer.iterators.MultiprocessIterator` and
        :class:`~chainer.iterators.MultithreadIterator`, and old snapshots (``_order``,
        no ``previous_epoch_detail``) load.
        """
        state, self._previous_epoch_detail = _sm.serialize_state(
            serializer, self._get_state(), self._previous_epoch_detail, self.batch_size,
            len(self.dataset))
        self._set_state(state)
