"""Evaluation over the test data of all processes."""

from __future__ import annotations

import types
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

import numpy

import chainer
from chainer import backend
from chainer.dataset import convert
from chainer.training import extension

if TYPE_CHECKING:
    from chainer.dataset.iterator import Iterator
    from chainer.training.extensions.evaluator import Evaluator
    from chainer.training.trainer import Trainer
    from chainer.types import DeviceSpec
    from chainermn.communicators.communicator_base import CommunicatorBase

_E = TypeVar('_E', bound='Evaluator')


def _mean_over_processes(comm: CommunicatorBase, result: dict[str, Any]) -> dict[str, Any]:
    """Average each value of ``result`` over the processes (one allreduce).

    Raises:
        ValueError: when the processes report different keys.
    """
    keys = sorted(result)
    all_keys = comm.mpi_comm.allgather(keys)
    if any(k != keys for k in all_keys):
        raise ValueError('multi-node evaluator: the processes report different values: '
                         f'{sorted(set(map(tuple, all_keys)))}')
    local = numpy.array([float(_host(result[k])) for k in keys], dtype=numpy.float64)
    mean = comm.allreduce(local) / comm.size
    out = {}
    for k, m in zip(keys, mean):
        value = result[k]
        if isinstance(value, chainer.Variable):
            value = value.array
        if hasattr(value, 'dtype'):
            xp = backend.get_array_module(value)
            out[k] = xp.asarray(numpy.asarray(m, dtype=value.dtype))
        else:
            out[k] = type(value)(m) if isinstance(value, (int, float)) else m
    return out


def _host(value: Any) -> Any:
    if isinstance(value, chainer.Variable):
        value = value.array
    if hasattr(value, 'get') and not isinstance(value, numpy.ndarray):
        value = value.get()
    return value


def create_multi_node_evaluator(actual_evaluator: _E, communicator: CommunicatorBase) -> _E:
    """Make an evaluator report the mean of its results over all processes.

    The evaluator's ``evaluate`` is wrapped (on this instance): each process evaluates
    its own part of the test data (e.g. from :func:`chainermn.scatter_dataset`), then
    every value is averaged over the processes. Works for
    :class:`chainer.training.extensions.Evaluator` and its subclasses. Every process
    must evaluate together. The wrapped method and the communicator are kept in the
    attributes ``_mn_original_evaluate`` and ``_mn_communicator``.

    Args:
        actual_evaluator: the evaluator.
        communicator: a ChainerMN communicator.

    Returns:
        ``actual_evaluator``, patched.
    """
    def evaluate(self: Any) -> dict[str, Any]:
        return _mean_over_processes(self._mn_communicator, self._mn_original_evaluate())

    # set on this instance, not its class
    vars(actual_evaluator).update(_mn_original_evaluate=actual_evaluator.evaluate,
                                  _mn_communicator=communicator,
                                  evaluate=types.MethodType(evaluate, actual_evaluator))
    return actual_evaluator


class GenericMultiNodeEvaluator(extension.Extension):
    """Evaluation whose per-batch results are gathered on one process and aggregated
    there, for measures that are not plain means (or test data not split evenly).

    Each process runs :meth:`calc_local` on every batch of its iterator; the results of
    all processes are gathered on ``root`` (interleaved: batch 0 of each process, then
    batch 1, ...) and given to :meth:`aggregate`, whose return value is the result on
    ``root`` (None on the other processes). Override both methods; nothing is reported
    automatically.

    Args:
        comm: a ChainerMN communicator.
        iterator: a non-repeating iterator over this process's test data.
        target: the model (a callable), used by the default :meth:`calc_local`.
        device: where the converter sends the arrays.
        converter: batch converter (default ``concat_examples``).
        root: the aggregating process.
        progress_hook: a callable given the number of batches done (on ``root``).
    """

    trigger = (1, 'epoch')
    priority = extension.PRIORITY_WRITER

    def __init__(self, comm: CommunicatorBase, iterator: Iterator, target: Callable[..., Any],
                 device: DeviceSpec | None = None,
                 converter: Callable[..., Any] = convert.concat_examples, root: int = 0,
                 **kwargs: Any) -> None:
        progress_hook = kwargs.pop('progress_hook', None)
        if kwargs:
            raise TypeError(f'GenericMultiNodeEvaluator got unexpected keyword arguments: '
                            f'{sorted(kwargs)}')
        self.comm = comm
        self.iterator = iterator
        self.target = target
        self.device = device
        self.converter = converter
        self.root = root
        self.progress_hook = progress_hook

    def __call__(self, trainer: Trainer | None = None) -> Any:
        """Evaluate (collective); returns the aggregate on ``root``, None elsewhere."""
        if hasattr(self.iterator, 'reset'):
            self.iterator.reset()
        results = []
        with chainer.no_backprop_mode(), chainer.using_config('train', False):
            for batch in self.iterator:
                arrays = self.converter(batch, self.device)
                if isinstance(arrays, tuple):
                    result = self.calc_local(*arrays)
                elif isinstance(arrays, dict):
                    result = self.calc_local(**arrays)
                else:
                    result = self.calc_local(arrays)
                results.append(result)
                if self.progress_hook is not None and self.comm.rank == self.root:
                    self.progress_hook(len(results))
        gathered = self.comm.gather_obj(results, root=self.root)
        if self.comm.rank != self.root:
            return None
        longest = max(len(r) for r in gathered)
        merged = [r[i] for i in range(longest) for r in gathered if i < len(r)]
        return self.aggregate(merged)

    def calc_local(self, *args: Any, **kwargs: Any) -> Any:
        """The result of one batch (default: ``target(*args, **kwargs)``); must not be
        None."""
        return self.target(*args, **kwargs)

    def aggregate(self, results: list[Any]) -> Any:
        """The result of the evaluation from the per-batch results of all processes
        (default: ``results`` itself); runs on ``root`` only."""
        return results
