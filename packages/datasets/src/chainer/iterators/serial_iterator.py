"""Iterator that reads minibatches from a dataset in the calling thread."""

from __future__ import annotations

from typing import Any

import numpy

from chainer.dataset.iterator import Iterator
from chainer.iterators.order_samplers import OrderSampler, ShuffleOrderSampler


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
    """

    def __init__(
        self,
        dataset: Any,
        batch_size: int,
        repeat: bool = True,
        shuffle: bool | None = None,
        order_sampler: OrderSampler | None = None,
    ) -> None:
        if isinstance(batch_size, bool) or not isinstance(batch_size, (int, numpy.integer)):
            raise TypeError(f'batch_size must be an int, got {type(batch_size).__name__}')
        if batch_size <= 0:
            raise ValueError(f'batch_size must be positive, got {batch_size}')
        if len(dataset) == 0:
            raise ValueError('SerialIterator: the dataset is empty')
        if shuffle is not None and order_sampler is not None:
            raise ValueError(
                'SerialIterator: shuffle is set together with a custom order_sampler; '
                'leave shuffle as None to use the order sampler'
            )
        if shuffle is None:
            shuffle = True
        if shuffle and order_sampler is None:
            order_sampler = ShuffleOrderSampler()
        self.dataset = dataset
        self.batch_size = int(batch_size)
        self._repeat = repeat
        self._shuffle = shuffle
        self.order_sampler = order_sampler
        self.reset()

    def reset(self) -> None:
        """Rewind to the beginning: epoch 0, position 0, a fresh order."""
        self.current_position = 0
        self.epoch = 0
        self.is_new_epoch = False
        self._previous_epoch_detail = -1.0
        if self.order_sampler is not None:
            self._order = self._next_order(numpy.arange(len(self.dataset)), 0)
        else:
            self._order = None

    def _next_order(self, current: numpy.ndarray, position: int) -> numpy.ndarray:
        order = numpy.asarray(self.order_sampler(current, position))
        if len(order) != len(current):
            raise ValueError(
                f'order_sampler returned an order of length {len(order)}, '
                f'expected {len(current)}'
            )
        return order

    def _renew_order(self, position: int) -> None:
        if self._order is not None:
            self._order = self._next_order(self._order, position)

    def _read(self, start: int, stop: int) -> list[Any]:
        # Datasets of this package fetch a whole batch at once through _get_examples.
        fetch = getattr(self.dataset, '_get_examples', None)
        if self._order is None:
            if fetch is not None:
                return fetch(numpy.arange(start, min(stop, self._epoch_size)))
            return list(self.dataset[start:stop])
        indices = self._order[start:stop]
        if fetch is not None:
            return fetch(indices)
        return [self.dataset[index] for index in indices]

    def __next__(self) -> list[Any]:
        """Return the next minibatch (a list of examples).

        Raises:
            StopIteration: with ``repeat=False``, once the sweep is complete.
        """
        # Updated before the stop check, as in Chainer v7: after StopIteration the
        # previous epoch detail equals the current one.
        self._previous_epoch_detail = self.epoch_detail
        if not self._repeat and self.epoch > 0:
            raise StopIteration
        size = self._epoch_size
        start = self.current_position
        stop = start + self.batch_size
        batch = self._read(start, stop)
        if stop < size:
            self.is_new_epoch = False
            self.current_position = stop
            return batch
        self.epoch += 1
        self.is_new_epoch = True
        if not self._repeat:
            self.current_position = 0
            return batch
        self._renew_order(start)
        needed = stop - size
        while needed >= size:
            # A batch larger than the dataset spans whole extra epochs.
            batch.extend(self._read(0, size))
            needed -= size
            self.epoch += 1
            self._renew_order(0)
        batch.extend(self._read(0, needed))
        self.current_position = needed
        return batch

    @property
    def _epoch_size(self) -> int:
        return len(self._order) if self._order is not None else len(self.dataset)

    @property
    def epoch_detail(self) -> float:
        """Epoch count as a float: ``epoch + current_position / len(dataset)``."""
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

    def serialize(self, serializer: Any) -> None:
        """Save or restore position, epoch and order through ``serializer``."""
        self.current_position = serializer('current_position', self.current_position)
        self.epoch = serializer('epoch', self.epoch)
        self.is_new_epoch = serializer('is_new_epoch', self.is_new_epoch)
        if self._order is not None:
            loaded = serializer('order', self._order)
            if loaded is not None and loaded is not self._order:
                self._order = numpy.asarray(loaded)
        try:
            self._previous_epoch_detail = serializer(
                'previous_epoch_detail', self._previous_epoch_detail
            )
        except KeyError:
            # Snapshot without the value: reconstruct it from the position.
            guess = self.epoch + (self.current_position - self.batch_size) / self._epoch_size
            self._previous_epoch_detail = max(guess, 0.0) if self.epoch_detail > 0 else -1.0
