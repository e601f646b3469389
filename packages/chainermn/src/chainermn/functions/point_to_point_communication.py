"""Differentiable point-to-point communication: ``send`` and ``recv``.

A ``send`` returns a delegate variable; backward from it receives the gradients of
what was sent from the peer. A ``recv`` returns what was sent; backward through it sends
the gradients back. Each communication takes the delegate of the previous one as an
input (``delegate_variable``), so that backward runs them in the reverse order of the
forward pass, on every process, and no process waits forever.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

import chainer
from chainermn.functions import _utility

if TYPE_CHECKING:
    from chainer.types import GradInputs, GradOutputs, NdArray, VariableOrArray
    from chainermn.communicators.communicator_base import CommunicatorBase



def _check_peer(communicator: CommunicatorBase, rank: Any) -> int:
    if not isinstance(rank, int) or not 0 <= rank < communicator.size:
        raise ValueError(f'rank must be a process rank in [0, {communicator.size}), '
                         f'got {rank!r}')
    if rank == communicator.rank:
        raise ValueError(f'process {rank} cannot send to or receive from itself')
    return rank


class Send(chainer.FunctionNode):
    """Send the inputs to ``peer_rank``; output a delegate variable. Backward receives
    the inputs' gradients from the peer."""

    def __init__(self, comm: CommunicatorBase, peer_rank: int, peer_tag: int, n_sent: int,
                 as_tuple: bool) -> None:
        self.comm = comm
        self.peer_rank = peer_rank
        self.peer_tag = peer_tag
        self._n_sent = n_sent
        self._as_tuple = as_tuple

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray]:
        sent = inputs[:self._n_sent]
        self.comm.send(tuple(sent) if self._as_tuple else sent[0], self.peer_rank,
                       self.peer_tag)
        self._sent = [_utility.spec(x) for x in sent]
        self._extra = [_utility.spec(x) for x in inputs[self._n_sent:]]
        return _utility.delegate_array(_utility.xp_of(inputs)),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        grads = self.comm.recv(self.peer_rank, self.peer_tag)
        if not isinstance(grads, tuple):
            grads = (grads,)
        gxs = [chainer.Variable(_utility.to_xp(g, xp).astype(dtype, copy=False))
               for g, (xp, _, dtype) in zip(grads, self._sent)]
        gxs += [chainer.Variable(xp.zeros(shape, dtype)) for xp, shape, dtype in self._extra]
        return tuple(gxs)


class Recv(chainer.FunctionNode):
    """Receive arrays from ``peer_rank`` (the input is a delegate variable); backward
    sends the outputs' gradients back to the peer."""

    def __init__(self, comm: CommunicatorBase, peer_rank: int, peer_tag: int) -> None:
        self.comm = comm
        self.peer_rank = peer_rank
        self.peer_tag = peer_tag

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        data = self.comm.recv(self.peer_rank, self.peer_tag)
        self._as_tuple = isinstance(data, tuple)
        outputs = data if self._as_tuple else (data,)
        self._specs = [_utility.spec(y) for y in outputs]
        self._delegate = _utility.spec(inputs[0])
        return tuple(outputs)

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        grads = _utility.fill_grads(grad_outputs, self._specs)
        self.comm.send(tuple(grads) if self._as_tuple else grads[0], self.peer_rank,
                       self.peer_tag)
        xp, shape, dtype = self._delegate
        return chainer.Variable(xp.zeros(shape, dtype)),


def send(x: VariableOrArray | Sequence[VariableOrArray], communicator: CommunicatorBase,
         rank: int, tag: int = 0) -> chainer.Variable:
    """Send ``x`` to process ``rank``, differentiably.

    Args:
        x: a Variable or array, or a list/tuple of them (received as a tuple).
        communicator: a ChainerMN communicator.
        rank: the receiving process, which calls :func:`recv`.
        tag: the message tag.

    Returns:
        A delegate variable (a 0-dim zero) that holds the graph: backward from it (or
        from a variable it is connected to, see :func:`recv` and
        :func:`pseudo_connect`) receives the gradients of ``x`` from ``rank``.

    Raises:
        ValueError: for a ``rank`` that is not another process of the communicator.
    """
    rank = _check_peer(communicator, rank)
    as_tuple = isinstance(x, (list, tuple))
    inputs = list(x) if isinstance(x, (list, tuple)) else [cast('VariableOrArray', x)]
    if not inputs:
        raise ValueError('send needs at least one variable to send')
    n_sent = len(inputs)
    if not any(isinstance(v, chainer.Variable) and v.requires_grad for v in inputs):
        # nothing sent needs a gradient: still make backward reach this send, since the
        # peer will send gradients
        inputs.append(_utility.dummy_input(_utility.xp_of(inputs)))
    delegate, = Send(communicator, rank, tag, n_sent, as_tuple).apply(inputs)
    delegate.name = 'delegate_variable'
    return delegate


def recv(communicator: CommunicatorBase, rank: int,
         delegate_variable: chainer.Variable | None = None, tag: int = 0,
         force_tuple: bool = False) -> Any:
    """Receive what process ``rank`` sent with :func:`send`, differentiably.

    Args:
        communicator: a ChainerMN communicator.
        rank: the sending process.
        delegate_variable: the delegate of the previous communication of this process
            (e.g. the return value of its last ``send``), which keeps the graph
            connected so that backward runs that communication after this one.
        tag: the message tag.
        force_tuple: return a tuple even for a single received variable.

    Returns:
        The received Variable (on the current CUDA device when the sender's was on a
        GPU), or a tuple of them. Backward through them sends their gradients to
        ``rank``.

    Raises:
        ValueError: for a ``rank`` that is not another process of the communicator.
    """
    rank = _check_peer(communicator, rank)
    if delegate_variable is None:
        delegate_variable = _utility.dummy_input()
    ys = Recv(communicator, rank, tag).apply((delegate_variable,))
    if len(ys) == 1 and not force_tuple:
        return ys[0]
    return ys
