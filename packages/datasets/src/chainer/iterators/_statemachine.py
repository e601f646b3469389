"""The position bookkeeping shared by the iterators: which indices form the next batch.

An iterator's state is ``(current_position, epoch, is_new_epoch, order)``; :func:`advance`
plans one batch from a state without reading any data, so that the serial, multithread
and multiprocess iterators walk a dataset identically (and their snapshots are
interchangeable).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

import numpy

from chainer.backends.numbers import to_int
from chainer.iterators.order_samplers import ShuffleOrderSampler

OrderSamplerLike = Callable[[numpy.ndarray, int], Any]


class IteratorState(NamedTuple):
    """Where an iterator stands.

    Attributes:
        current_position: index (in the epoch's order) of the next example to read.
        epoch: number of completed epochs.
        is_new_epoch: whether the last batch completed an epoch.
        order: the order of the current epoch (indices into the dataset), or ``None``
            for the natural order.
    """

    current_position: int
    epoch: int
    is_new_epoch: bool
    order: numpy.ndarray | None


def check_batch_size(batch_size: Any) -> int:
    """Validate a batch size and return it as an ``int``.

    Raises:
        TypeError: not an integer.
        ValueError: not positive.
    """
    n = to_int(batch_size)
    if n is None:
        raise TypeError(f'batch_size must be an int, got {type(batch_size).__name__}')
    if n <= 0:
        raise ValueError(f'batch_size must be positive, got {n}')
    return n


def resolve_order_sampler(owner: str, shuffle: bool | None,
                          order_sampler: OrderSamplerLike | None) -> OrderSamplerLike | None:
    """The order sampler an iterator uses, from its ``shuffle`` and ``order_sampler``.

    ``shuffle=None`` means shuffling unless a custom sampler is given.

    Raises:
        ValueError: both ``shuffle`` and ``order_sampler`` are given.
    """
    if shuffle is not None and order_sampler is not None:
        raise ValueError(
            f'{owner}: shuffle is set together with a custom order_sampler; leave shuffle '
            f'as None to use the order sampler')
    if order_sampler is None and shuffle in (None, True):
        return ShuffleOrderSampler()
    return order_sampler


def epoch_size(state: IteratorState, dataset_len: int) -> int:
    """Number of examples in one epoch: the order's length, else the dataset's."""
    return dataset_len if state.order is None else len(state.order)


def initial_state(order_sampler: OrderSamplerLike | None, dataset_len: int) -> IteratorState:
    """The state at the very beginning: epoch 0, position 0, a first order when sampling."""
    order = None
    if order_sampler is not None:
        order = numpy.asarray(order_sampler(numpy.arange(dataset_len), 0))
    return IteratorState(0, 0, False, order)


def _renew(order_sampler: OrderSamplerLike | None, order: numpy.ndarray | None,
           position: int) -> numpy.ndarray | None:
    if order is None or order_sampler is None:
        return order
    new = numpy.asarray(order_sampler(order, position))
    if len(new) != len(order):
        raise ValueError(
            f'the order sampler returned an order of length {len(new)}; the previous order '
            f'had length {len(order)} and the length of an order must not change')
    return new


def _span(order: numpy.ndarray | None, start: int, stop: int) -> numpy.ndarray:
    if order is None:
        return numpy.arange(start, stop)
    return numpy.asarray(order[start:stop])


def advance(state: IteratorState, batch_size: int, repeat: bool,
            order_sampler: OrderSamplerLike | None,
            dataset_len: int) -> tuple[IteratorState, numpy.ndarray | None]:
    """Plan the next batch.

    A batch that crosses the end of an epoch is completed from the next epoch (with a
    fresh order from ``order_sampler``) when ``repeat``; without ``repeat`` it is cut
    short and the iteration ends.

    Args:
        state: the current state.
        batch_size: examples per batch.
        repeat: whether the iteration goes on after the first epoch.
        order_sampler: called as ``order_sampler(order, position)`` at each new epoch.
        dataset_len: ``len(dataset)``.

    Returns:
        ``(state after the batch, dataset indices of the batch)``; the indices are
        ``None`` when a non-repeating iteration is over.

    Raises:
        ValueError: the order sampler changed the length of the order.
    """
    if not repeat and state.epoch > 0:
        return state, None
    order = state.order
    size = epoch_size(state, dataset_len)
    start = state.current_position
    stop = start + batch_size
    if stop < size:
        return IteratorState(stop, state.epoch, False, order), _span(order, start, stop)
    parts = [_span(order, start, size)]
    epoch = state.epoch + 1
    if not repeat:
        return IteratorState(0, epoch, True, order), parts[0]
    order = _renew(order_sampler, order, start)
    needed = stop - size
    while needed >= size > 0:
        # A batch larger than an epoch spans whole extra epochs.
        parts.append(_span(order, 0, size))
        needed -= size
        epoch += 1
        order = _renew(order_sampler, order, 0)
    parts.append(_span(order, 0, needed))
    return IteratorState(needed, epoch, True, order), numpy.concatenate(parts)


# v7's name of the same step: iterator_statemachine(state, batch_size, repeat,
# order_sampler, dataset_len) -> (new state, indices or None at the end).
iterator_statemachine = advance


def fetch_examples(dataset: Any, indices: numpy.ndarray) -> list[Any]:
    """Read ``[dataset[i] for i in indices]``, in one call where the dataset allows it.

    Datasets of this package read a whole batch through ``_get_examples``; arrays are
    read with one fancy index; lists and tuples are sliced when the indices are
    consecutive.
    """
    getter = getattr(dataset, '_get_examples', None)
    if getter is not None:
        return getter(indices)
    if isinstance(dataset, numpy.ndarray):
        return list(dataset[indices])  # one fancy index: rows of a fresh array
    n = len(indices)
    if n and isinstance(dataset, (list, tuple)) \
            and indices[-1] - indices[0] == n - 1 and _consecutive(indices):
        return list(dataset[int(indices[0]):int(indices[-1]) + 1])
    return [dataset[i] for i in indices.tolist()]


def _consecutive(indices: numpy.ndarray) -> bool:
    return len(indices) < 3 or bool((numpy.diff(indices) == 1).all())


def previous_detail_guess(state: IteratorState, batch_size: int, dataset_len: int) -> float:
    """``previous_epoch_detail`` for a snapshot that lacks it (written before v2)."""
    size = epoch_size(state, dataset_len)
    detail = state.epoch + state.current_position / size
    if detail <= 0:
        return -1.0
    return max(state.epoch + (state.current_position - batch_size) / size, 0.0)


def serialize_state(serializer: Any, state: IteratorState, previous_epoch_detail: float,
                    batch_size: int, dataset_len: int) -> tuple[IteratorState, float]:
    """Save or load an iterator state through ``serializer`` under v7's keys.

    Keys: ``current_position``, ``epoch``, ``is_new_epoch``, ``order`` (only when the
    iterator has an order; ``_order`` in old snapshots) and ``previous_epoch_detail``
    (guessed from the position when an old snapshot lacks it).

    Returns:
        The state and previous epoch detail after the call: unchanged when writing,
        the loaded ones when reading.
    """
    position = int(serializer('current_position', state.current_position))
    epoch = int(serializer('epoch', state.epoch))
    is_new_epoch = bool(serializer('is_new_epoch', state.is_new_epoch))
    order = state.order
    if order is not None:
        given = order.copy()  # a deserializer may fill the array it is given in place
        try:
            loaded = serializer('order', given)
        except KeyError:
            loaded = serializer('_order', given)
        order = numpy.asarray(given if loaded is None else loaded)
    new_state = IteratorState(position, epoch, is_new_epoch, order)
    try:
        previous = float(serializer('previous_epoch_detail', previous_epoch_detail))
    except KeyError:
        previous = previous_detail_guess(new_state, batch_size, dataset_len)
    return new_state, previous


def same_state(a: IteratorState, b: IteratorState) -> bool:
    """Whether two states are equal (orders compared by value)."""
    if a[:3] != b[:3]:
        return False
    if a.order is None or b.order is None:
        return a.order is b.order
    return a.order.shape == b.order.shape and bool((a.order == b.order).all())
