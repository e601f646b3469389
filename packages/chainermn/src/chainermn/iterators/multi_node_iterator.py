"""An iterator whose batches, read on one process, are broadcast to the others."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy

import chainer

if TYPE_CHECKING:
    from chainer.dataset.iterator import Iterator
    from chainer.serializer import AbstractSerializer
    from chainermn.communicators.communicator_base import CommunicatorBase

_FIELDS = ('stop', 'is_valid_data_type', 'is_paired_dataset', 'is_new_epoch',
           'current_position', 'epoch', 'epoch_detail', 'previous_epoch_detail')


def _build_ctrl_msg(stop: bool, is_valid_data_type: bool, is_paired_dataset: bool,
                    is_new_epoch: bool, current_position: int, epoch: int = 0,
                    epoch_detail: float = 0.0,
                    previous_epoch_detail: float | None = None) -> numpy.ndarray:
    """The control message the master broadcasts before each batch (float64 array).

    ``previous_epoch_detail`` None is sent as -1.
    """
    return numpy.array([stop, is_valid_data_type, is_paired_dataset, is_new_epoch,
                        current_position, epoch, epoch_detail,
                        -1.0 if previous_epoch_detail is None else previous_epoch_detail],
                       dtype=numpy.float64)


def _parse_ctrl_msg(msg: numpy.ndarray) -> tuple[Any, ...]:
    """The arguments of :func:`_build_ctrl_msg` that made ``msg``."""
    stop, valid, paired, new_epoch, position, epoch, detail, previous = msg.tolist()
    return (bool(stop), bool(valid), bool(paired), bool(new_epoch), int(position), int(epoch),
            detail, None if previous < 0 else previous)


def _fields(batch: list[Any]) -> tuple[list[numpy.ndarray], bool] | None:
    """The batch as stacked arrays (one per tuple field), and whether its examples are
    tuples; None when it cannot be broadcast as arrays."""
    if not batch:
        return None
    paired = isinstance(batch[0], tuple)
    columns = list(zip(*batch)) if paired else [batch]
    if paired and any(not isinstance(e, tuple) or len(e) != len(batch[0]) for e in batch):
        return None
    arrays = []
    for column in columns:
        try:
            stacked = numpy.asarray(column)
        except ValueError:  # ragged
            return None
        if stacked.dtype.kind not in 'biuf' or stacked.shape[0] != len(column):
            return None
        arrays.append(stacked)
    return arrays, paired


class _MultiNodeIteratorMaster:
    """The master side: reads batches from the wrapped iterator and broadcasts them."""

    def __init__(self, actual_iterator: Any, communicator: CommunicatorBase,
                 rank_master: int) -> None:
        self.__dict__.update(actual_iterator=actual_iterator, communicator=communicator,
                             rank_master=rank_master)

    def __getattr__(self, name: str) -> Any:
        try:
            actual = self.__dict__['actual_iterator']
        except KeyError:  # not initialized (e.g. while being copied)
            raise AttributeError(name) from None
        return getattr(actual, name)

    def __setattr__(self, name: str, value: Any) -> None:
        setattr(self.actual_iterator, name, value)

    def __iter__(self) -> _MultiNodeIteratorMaster:
        return self

    def __next__(self) -> list[Any]:
        it = self.actual_iterator
        try:
            batch = it.__next__()
        except StopIteration:
            self._bcast_ctrl(True, True, False)
            raise
        fields = _fields(batch)
        if fields is None:
            self._bcast_ctrl(False, False, False)
            raise TypeError('create_multi_node_iterator broadcasts batches of numbers or '
                            'numeric arrays (or tuples of them); this batch holds '
                            f'{type(batch[0]).__name__ if batch else "nothing"}')
        arrays, paired = fields
        self._bcast_ctrl(False, True, paired)
        self.communicator.bcast_obj(len(arrays), root=self.rank_master)
        for a in arrays:
            self.communicator.bcast(a, root=self.rank_master)
        return batch

    next = __next__

    def serialize(self, serializer: AbstractSerializer) -> None:
        """Save or load the wrapped iterator, then send its state to the other processes
        (collective: they serialize at the same time)."""
        self.actual_iterator.serialize(serializer)
        recorder = _Recorder()
        self.actual_iterator.serialize(recorder)
        self._bcast_ctrl(False, True, False)
        self.communicator.bcast_obj(recorder.store, root=self.rank_master)

    def _bcast_ctrl(self, stop: bool, valid: bool, paired: bool) -> None:
        it = self.actual_iterator
        msg = _build_ctrl_msg(stop, valid, paired, bool(it.is_new_epoch), it.current_position,
                              it.epoch, it.epoch_detail, it.previous_epoch_detail)
        self.communicator.bcast(msg, root=self.rank_master)


class _MultiNodeIteratorSlave:
    """The other processes: receive each batch and the master's iterator state."""

    def __init__(self, actual_iterator: Any, communicator: CommunicatorBase,
                 rank_master: int) -> None:
        self.actual_iterator = actual_iterator
        self.communicator = communicator
        self.rank_master = rank_master
        self.epoch = 0
        self.is_new_epoch = False
        self.current_position = 0
        self.epoch_detail = 0.0
        self.previous_epoch_detail = None

    def __getattr__(self, name: str) -> Any:
        try:
            actual = self.__dict__['actual_iterator']
        except KeyError:  # not initialized (e.g. while being copied)
            raise AttributeError(name) from None
        return getattr(actual, name)

    def __iter__(self) -> _MultiNodeIteratorSlave:
        return self

    def __next__(self) -> list[Any]:
        stop, valid, paired = self._receive_state()
        if stop:
            raise StopIteration
        if not valid:
            raise TypeError('create_multi_node_iterator broadcasts batches of numbers or '
                            'numeric arrays (or tuples of them); the master process read '
                            'another kind of batch')
        n = self.communicator.bcast_obj(None, root=self.rank_master)
        arrays = [self.communicator.bcast(None, root=self.rank_master) for _ in range(n)]
        return list(zip(*arrays)) if paired else list(arrays[0])

    next = __next__

    def _receive_state(self) -> tuple[bool, bool, bool]:
        msg = self.communicator.bcast(None, root=self.rank_master)
        (stop, valid, paired, self.is_new_epoch, self.current_position, self.epoch,
         self.epoch_detail, self.previous_epoch_detail) = _parse_ctrl_msg(msg)
        return stop, valid, paired

    def serialize(self, serializer: AbstractSerializer) -> None:
        """Save the master's iterator state, received from it (collective); when loading,
        the master's loaded state is taken instead of this process's."""
        self._receive_state()
        store = self.communicator.bcast_obj(None, root=self.rank_master)
        order = store.get('order')
        if order is not None:
            mine = self.__dict__.get('_order')
            if isinstance(mine, numpy.ndarray) and mine.shape == numpy.shape(order):
                mine[...] = order  # keep the object the serializer saw before
            else:
                self.__dict__['_order'] = numpy.array(order)
            store['order'] = self.__dict__['_order']
        for path, value in store.items():
            target = serializer
            *parents, key = path.split('/')
            for parent in parents:
                target = target[parent]
            target(key, value)


class _Recorder(chainer.serializer.Serializer):
    """A serializer that records the saved values by path (``a/b/key``)."""

    def __init__(self, store: dict[str, Any] | None = None, prefix: str = '') -> None:
        self.store = {} if store is None else store
        self._prefix = prefix

    def __getitem__(self, key: str) -> _Recorder:
        return _Recorder(self.store, f'{self._prefix}{key}/')

    def __call__(self, key: str, value: Any) -> Any:
        self.store[self._prefix + key] = value
        return value


def create_multi_node_iterator(actual_iterator: Iterator, communicator: CommunicatorBase,
                               rank_master: int = 0) -> Any:
    """An iterator that gives every process the same batches, read on ``rank_master``.

    Each ``next()`` of the master reads a batch from ``actual_iterator`` and broadcasts
    it with the iterator state (epoch, position, ...), so every process sees the same
    batches and epochs. Every process must call ``next()`` (and ``serialize``) together.

    Args:
        actual_iterator: a Chainer iterator (e.g. ``SerialIterator``); on the other
            processes it only serves for attributes such as ``batch_size``.
        communicator: a ChainerMN communicator.
        rank_master: the process that reads the data.

    Returns:
        The iterator. Examples must be numbers or numeric arrays, or tuples of them (the
        batch is broadcast as arrays, keeping their dtypes); for another kind of batch
        ``next()`` raises TypeError on every process.
    """
    if communicator.rank == rank_master:
        return _MultiNodeIteratorMaster(actual_iterator, communicator, rank_master)
    return _MultiNodeIteratorSlave(actual_iterator, communicator, rank_master)
