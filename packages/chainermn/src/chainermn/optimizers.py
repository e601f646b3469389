"""Multi-node optimizers: average the gradients over the processes before each update."""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any

import chainer

if TYPE_CHECKING:
    from chainer.link import Link
    from chainer.serializer import AbstractSerializer
    from chainermn.communicators.communicator_base import CommunicatorBase


def _param_layout(target: Any) -> list[tuple[str, bool]]:
    """The parameter names of ``target`` and whether each is initialized."""
    return [(name, p.array is not None) for name, p in sorted(target.namedparams())]


class _MultiNodeOptimizer:
    """Wraps an optimizer: ``update`` averages the gradients over the processes first.

    Attribute reads and writes other than its own go to the wrapped optimizer, so it
    can stand for it (in an updater, in snapshots, ...).
    """

    def __init__(self, actual_optimizer: Any, communicator: CommunicatorBase,
                 zero_fill: bool) -> None:
        d = self.__dict__
        d['actual_optimizer'] = actual_optimizer
        d['communicator'] = communicator
        d['zero_fill'] = zero_fill
        d['_layout'] = None  # the parameters last broadcast; None: broadcast next

    def __getattr__(self, name: str) -> Any:
        try:
            actual = self.__dict__['actual_optimizer']
        except KeyError:  # not initialized (e.g. while being copied)
            raise AttributeError(name) from None
        return getattr(actual, name)

    def __setattr__(self, name: str, value: Any) -> None:
        setattr(self.actual_optimizer, name, value)

    def setup(self, link: Link) -> _MultiNodeOptimizer:
        """Set up the wrapped optimizer on ``link``; the next update broadcasts the
        parameters of rank 0 instead of updating. Returns this optimizer."""
        self.actual_optimizer.setup(link)
        self.__dict__['_layout'] = None
        return self

    def _needs_broadcast(self, target: Any) -> bool:
        """Whether the parameters changed since they were last in sync, on any process
        (the processes agree, so that they all broadcast or all update)."""
        from mpi4py import MPI

        layout = _param_layout(target)
        changed = layout != self.__dict__['_layout']
        self.__dict__['_layout'] = layout
        return bool(self.communicator.mpi_comm.allreduce(changed, op=MPI.LOR))

    def _skip_broadcast(self) -> None:
        """Take the current parameters as in sync (e.g. all processes loaded the same
        snapshot): the next update updates."""
        self.__dict__['_layout'] = _param_layout(self.actual_optimizer.target)

    def serialize(self, serializer: AbstractSerializer) -> None:
        """Save or load the wrapped optimizer. After a load the parameters are taken as
        in sync (every process loads the same snapshot), so the next update updates
        instead of broadcasting: a resumed run continues as the interrupted one would."""
        self.actual_optimizer.serialize(serializer)
        if isinstance(serializer, chainer.serializer.Deserializer) and \
                self.actual_optimizer.target is not None:
            self._skip_broadcast()

    def _backward(self, lossfun: Any, args: Any, kwds: Any) -> None:
        actual = self.actual_optimizer
        target = actual.target
        loss = lossfun(*args, **kwds)
        if getattr(actual, '_use_cleargrads', True):
            target.cleargrads()
        else:
            target.zerograds()
        loss.backward(loss_scale=actual._loss_scale)

    def update(self, lossfun: Any = None, *args: Any, **kwds: Any) -> None:
        """Compute the gradients (with ``lossfun``), average them over the processes and
        update.

        When the parameters changed since the last call (after :meth:`setup`, a new or
        a newly initialized parameter), the parameters of rank 0 are broadcast instead,
        without an update, so that every process starts from the same model.
        """
        if lossfun is not None:
            self._backward(lossfun, args, kwds)
        target = self.actual_optimizer.target
        if self._needs_broadcast(target):
            self.communicator.bcast_data(target)
            return
        self.communicator.multi_node_mean_grad(target, self.zero_fill)
        self.actual_optimizer.update(None)


class _DoubleBufferingOptimizer(_MultiNodeOptimizer):
    """A multi-node optimizer that averages the gradients of step ``t`` while step
    ``t + 1`` computes: each update uses the gradients averaged one step before.

    The averaging runs on :attr:`communicated_target`, a copy of the target that holds
    the gradients in flight; :meth:`wait` waits for it.
    """

    def __init__(self, actual_optimizer: Any, communicator: CommunicatorBase,
                 zero_fill: bool) -> None:
        super().__init__(actual_optimizer, communicator, zero_fill)
        self.__dict__['communicated_target'] = None
        self.__dict__['_pending'] = None  # the averaging in flight
        self.__dict__['_has_mean'] = False

    def setup(self, link: Link) -> _DoubleBufferingOptimizer:
        """Set up on ``link`` (see :meth:`_MultiNodeOptimizer.setup`)."""
        super().setup(link)
        self.__dict__['communicated_target'] = copy.deepcopy(link)
        self.__dict__['_pending'] = None
        self.__dict__['_has_mean'] = False
        return self

    def wait(self) -> None:
        """Wait until the gradients in flight are averaged."""
        pending = self.__dict__['_pending']
        if pending is not None:
            pending.wait()
            self.__dict__['_pending'] = None
            self.__dict__['_has_mean'] = True

    def update(self, lossfun: Any = None, *args: Any, **kwds: Any) -> None:
        """Compute the gradients (with ``lossfun``), start averaging them and update
        with those averaged at the previous call (no update at the first call)."""
        if lossfun is not None:
            self._backward(lossfun, args, kwds)
        target = self.actual_optimizer.target
        if self._needs_broadcast(target):
            self.wait()
            self.communicator.bcast_data(target)
            self.__dict__['communicated_target'] = copy.deepcopy(target)
            self.__dict__['_has_mean'] = False
            return
        self.wait()
        if _param_layout(self.communicated_target) != _param_layout(target):
            self.__dict__['communicated_target'] = copy.deepcopy(target)
            self.__dict__['_has_mean'] = False
        params = dict(target.namedparams())
        shadow = dict(self.communicated_target.namedparams())
        local = {name: p.grad for name, p in params.items()}
        if self.__dict__['_has_mean']:
            for name, p in params.items():
                p.grad = None if shadow[name].grad is None else shadow[name].grad.copy()
            self.actual_optimizer.update(None)
        for name, p in shadow.items():
            p.grad = None if local[name] is None else local[name].copy()
        self.__dict__['_pending'] = self.communicator._mean_grad_async(
            self.communicated_target, self.zero_fill)


def create_multi_node_optimizer(actual_optimizer: chainer.Optimizer,
                                communicator: CommunicatorBase, double_buffering: bool = False,
                                zero_fill: bool = True) -> Any:
    """Wrap an optimizer for data-parallel training.

    Each ``update`` computes this process's gradients, replaces them by their mean over
    the processes (``communicator.multi_node_mean_grad``) and lets ``actual_optimizer``
    update: every process keeps the same parameters. The first update after ``setup``
    (and after parameters were added or initialized) broadcasts rank 0's parameters
    instead of updating.

    Args:
        actual_optimizer: a Chainer optimizer (e.g. ``chainer.optimizers.Adam()``).
        communicator: a ChainerMN communicator.
        double_buffering: average the gradients of one step during the next step's
            computation, each update using the gradients of the step before (faster
            with NCCL; may change the accuracy).
        zero_fill: unused parameters (no gradient) take part with zero gradients; when
            False they are skipped, and must then be unused on every process.

    Returns:
        The multi-node optimizer, which stands for ``actual_optimizer``.
    """
    cls = _DoubleBufferingOptimizer if double_buffering else _MultiNodeOptimizer
    return cls(actual_optimizer, communicator, zero_fill)
