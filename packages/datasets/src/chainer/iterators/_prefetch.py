"""Common part of the iterators that read batches ahead of time (threads or processes).

The visible state (what ``epoch``, ``epoch_detail``, ``serialize`` see) is the state
after the last batch returned; batches planned ahead wait in a queue with the state that
follows each of them. Any change of the visible state from outside (``reset``, loading
a snapshot) drops the planned batches and plans again from there.
"""

from __future__ import annotations

import collections
import contextlib
import copy
from typing import Any

from chainer.dataset.iterator import Iterator
from chainer.iterators import _statemachine as _sm


class PrefetchIterator(Iterator):
    """Base of :class:`MultithreadIterator` and :class:`MultiprocessIterator`.

    Subclasses implement ``_start`` (create the workers), ``_submit(seq, indices)``,
    ``_collect(seq) -> list``, ``_cancel(seq)`` and ``_stop`` (release the workers).
    """

    batch_size: int

    _name = 'PrefetchIterator'

    def _setup(self, dataset: Any, batch_size: int, repeat: bool, shuffle: bool | None,
               order_sampler: Any, n_prefetch: int) -> None:
        self.batch_size = _sm.check_batch_size(batch_size)
        if len(dataset) == 0:
            raise ValueError(f'{self._name}: the dataset is empty')
        self.dataset = dataset
        self._repeat = bool(repeat)
        self.order_sampler = _sm.resolve_order_sampler(self._name, shuffle, order_sampler)
        self._shuffle = self.order_sampler is not None
        self._n_prefetch = n_prefetch
        self._inflight: collections.deque[tuple[int, Any]] = collections.deque()
        self._next_seq = 0
        self._started = False
        self._finalized = False
        self._reset_state()

    def _reset_state(self) -> None:
        self._state = _sm.initial_state(self.order_sampler, len(self.dataset))
        self._planned = self._state
        self._previous_epoch_detail = -1.0

    # -- what subclasses implement

    def _start(self) -> None:
        """Create the workers (on the first batch)."""
        raise NotImplementedError

    def _submit(self, seq: int, indices: Any) -> None:
        """Start reading the examples at ``indices`` as batch ``seq``."""
        raise NotImplementedError

    def _collect(self, seq: int) -> list[Any]:
        """The examples of batch ``seq`` (waiting for them); raises what reading raised."""
        raise NotImplementedError

    def _cancel(self, seq: int) -> None:
        """Forget batch ``seq`` (read ahead, no longer wanted)."""
        raise NotImplementedError

    def _stop(self) -> None:
        """Release the workers."""
        raise NotImplementedError

    # -- the pipeline

    def _plan(self) -> None:
        """Submit batches until ``n_prefetch`` are in flight (or the iteration ends)."""
        while len(self._inflight) < self._n_prefetch:
            if self._inflight and self._inflight[-1][0] < 0:
                return  # planning failed; the error is raised when its turn comes
            try:
                state, indices = _sm.advance(self._planned, self.batch_size, self._repeat,
                                             self.order_sampler, len(self.dataset))
            except Exception as exc:
                self._inflight.append((-1, exc))
                return
            if indices is None:
                return
            seq = self._next_seq
            self._next_seq += 1
            self._submit(seq, indices)
            self._inflight.append((seq, state))
            self._planned = state

    def _discard_planned(self) -> None:
        """Drop the batches read ahead; planning restarts from the visible state."""
        while self._inflight:
            seq, _ = self._inflight.popleft()
            if seq >= 0 and self._started:
                self._cancel(seq)
        self._planned = self._state

    def __next__(self) -> list[Any]:
        """Return the next minibatch (a list of examples).

        Raises:
            StopIteration: with ``repeat=False``, once the sweep is complete.
            RuntimeError: the iterator was finalized.
            Exception: what reading the dataset raised (the iterator stays usable: the
                next call reads the same batch again).
        """
        if self._finalized:
            raise RuntimeError(f'{self._name} was finalized; create a new one')
        previous = self.epoch_detail
        if not self._repeat and self._state.epoch > 0:
            self._previous_epoch_detail = previous
            raise StopIteration
        if not self._started:
            self._start()
            self._started = True
        self._plan()
        if not self._inflight:  # pragma: no cover - only after the end, handled above
            raise StopIteration
        seq, state = self._inflight.popleft()
        try:
            if seq < 0:
                raise state
            batch = self._collect(seq)
        except BaseException:
            self._discard_planned()
            raise
        self._state = state
        self._previous_epoch_detail = previous
        try:
            self._plan()  # keep the workers busy while the caller uses the batch
        except Exception as exc:
            # Raised by the next call instead: this batch is already consumed.
            self._discard_planned()
            self._inflight.append((-1, exc))
        return batch

    # -- state

    @property
    def current_position(self) -> int:
        """Position of the next batch in the epoch's order."""
        return self._state.current_position

    @property
    def epoch(self) -> int:
        """Number of completed epochs."""
        return self._state.epoch

    @property
    def is_new_epoch(self) -> bool:
        """Whether the last batch completed an epoch."""
        return self._state.is_new_epoch

    @property
    def _order(self) -> Any:
        return self._state.order

    @property
    def epoch_detail(self) -> float:
        """Epoch count as a float: ``epoch + current_position / epoch size``."""
        return self._state.epoch + self._state.current_position / _sm.epoch_size(
            self._state, len(self.dataset))

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

    @property
    def n_prefetch(self) -> int:
        """Number of batches read ahead."""
        return self._n_prefetch

    def reset(self) -> None:
        """Rewind to the beginning: epoch 0, position 0, a fresh order."""
        self._discard_planned()
        self._reset_state()

    def serialize(self, serializer: Any) -> None:
        """Save or restore position, epoch and order (v7's keys; see ``SerialIterator``)."""
        state, self._previous_epoch_detail = _sm.serialize_state(
            serializer, self._state, self._previous_epoch_detail, self.batch_size,
            len(self.dataset))
        if not _sm.same_state(state, self._state):
            self._discard_planned()
            self._state = state
            self._planned = state

    def finalize(self) -> None:
        """Stop the workers. Safe to call several times and from another thread."""
        if self._finalized:
            return
        self._finalized = True
        inflight, self._inflight = self._inflight, collections.deque()
        self._planned = self._state
        if self._started:
            self._started = False
            for seq, _ in inflight:
                if seq >= 0:
                    self._cancel(seq)
            self._stop()

    def __del__(self) -> None:
        # Interpreter shutdown may have torn modules down already.
        with contextlib.suppress(Exception):
            self.finalize()

    # -- copies and pickles: the same position, no workers

    _transient = ('_inflight', '_started', '_finalized', '_next_seq', '_planned')

    def __getstate__(self) -> dict[str, Any]:
        state = {k: v for k, v in self.__dict__.items()
                 if k not in self._transient and k not in self._worker_attributes}
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        for name in self._worker_attributes:
            setattr(self, name, None)
        self._inflight = collections.deque()
        self._started = False
        self._finalized = False
        self._next_seq = 0
        self._planned = self._state

    def __copy__(self) -> PrefetchIterator:
        new = type(self).__new__(type(self))
        new.__setstate__(copy.copy(self.__getstate__()))
        return new

    _worker_attributes: tuple[str, ...] = ()
