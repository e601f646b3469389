"""Differentiable collective communication: all-gather, all-to-all, broadcast, gather,
scatter. Every process of the communicator must call the same function, and, later,
run backward through its result (which communicates too)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import chainer
from chainermn.functions import _utility

if TYPE_CHECKING:
    from chainer.types import GradInputs, GradOutputs, NdArray, VariableOrArray
    from chainermn.communicators.communicator_base import CommunicatorBase



class _Collective(chainer.FunctionNode):
    """A collective communication. Its last input is a delegate that requires a
    gradient, so that backward (a collective too) runs on every process even where the
    real inputs need no gradient, or where there are none."""

    def __init__(self, comm: CommunicatorBase, root: int = 0) -> None:
        self.comm = comm
        self.root = root

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        self._trigger = _utility.spec(inputs[-1])
        self._inputs = [_utility.spec(x) for x in inputs[:-1]]
        ys = tuple(self._communicate(inputs[:-1]))
        self._outputs = [_utility.spec(y) for y in ys]
        return ys

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        gxs = self._communicate_grads(_utility.fill_grads(grad_outputs, self._outputs))
        xp, shape, dtype = self._trigger
        return (*_utility.as_variables(gxs), chainer.Variable(xp.zeros(shape, dtype)))

    def _communicate(self, xs: tuple[Any, ...]) -> Any:
        raise NotImplementedError

    def _communicate_grads(self, gys: list[Any]) -> Any:
        raise NotImplementedError

    @property
    def _is_root(self) -> bool:
        return self.comm.rank == self.root

    def _sum(self, arrays: Any) -> Any:
        xp = self._inputs[0][0]
        total = _utility.to_xp(arrays[0], xp).copy()
        for a in arrays[1:]:
            total += _utility.to_xp(a, xp)
        return total


class AllGather(_Collective):
    """Gather the input of every process on every process; backward sums, for each
    process, the gradients all processes computed for its piece."""

    def _communicate(self, xs: tuple[Any, ...]) -> Any:
        return self.comm.allgather(xs[0])

    def _communicate_grads(self, gys: list[Any]) -> Any:
        return self._sum(self.comm.alltoall(gys)),


class AllToAll(_Collective):
    """Send the ``i``-th input to process ``i``; backward sends the gradients back."""

    def _communicate(self, xs: tuple[Any, ...]) -> Any:
        return self.comm.alltoall(xs)

    def _communicate_grads(self, gys: list[Any]) -> Any:
        return self.comm.alltoall(gys)


class Bcast(_Collective):
    """Broadcast the input of ``root`` (which alone has one); backward sums the gradients
    of all processes on ``root``."""

    def _communicate(self, xs: tuple[Any, ...]) -> Any:
        if self._is_root:
            return self.comm.bcast(xs[0], root=self.root).view(),
        return self.comm.bcast(None, root=self.root),

    def _communicate_grads(self, gys: list[Any]) -> Any:
        gathered = self.comm.gather(gys[0], root=self.root)
        return (self._sum(gathered),) if self._is_root else ()


class Gather(_Collective):
    """Gather the input of every process on ``root`` (the others output a delegate);
    backward scatters the gradients back from ``root``."""

    def _communicate(self, xs: tuple[Any, ...]) -> Any:
        ys = self.comm.gather(xs[0], root=self.root)
        return ys if self._is_root else (_utility.delegate_array(self._inputs[0][0]),)

    def _communicate_grads(self, gys: list[Any]) -> Any:
        gx = self.comm.scatter(gys if self._is_root else None, root=self.root)
        return _utility.to_xp(gx, self._inputs[0][0]),


class Scatter(_Collective):
    """Send the ``i``-th input of ``root`` (which alone has inputs) to process ``i``;
    backward gathers the gradients on ``root``."""

    def _communicate(self, xs: tuple[Any, ...]) -> Any:
        return self.comm.scatter(xs if self._is_root else None, root=self.root),

    def _communicate_grads(self, gys: list[Any]) -> Any:
        gathered = self.comm.gather(gys[0], root=self.root)
        if gathered is None:  # not the root
            return ()
        return [_utility.to_xp(g, xp) for g, (xp, _, _) in zip(gathered, self._inputs)]


def _check_root(comm: CommunicatorBase, root: Any) -> int:
    if not isinstance(root, int) or not 0 <= root < comm.size:
        raise ValueError(f'root must be a process rank in [0, {comm.size}), got {root!r}')
    return root


def _apply(node: _Collective, inputs: tuple[Any, ...]) -> tuple[chainer.Variable, ...]:
    trigger = _utility.dummy_input(_utility.xp_of(inputs))
    return node.apply((*inputs, trigger))


def allgather(comm: CommunicatorBase, x: VariableOrArray) -> tuple[chainer.Variable, ...]:
    """Differentiable all-gather: the ``x`` of every process, on every process.

    Args:
        comm: a ChainerMN communicator.
        x: this process's Variable or array (shapes may differ between processes).

    Returns:
        A tuple of Variables by rank. Backward gives ``x`` the sum of the gradients that
        all processes computed for it.
    """
    return _apply(AllGather(comm), (x,))


def alltoall(comm: CommunicatorBase,
             xs: Sequence[VariableOrArray]) -> tuple[chainer.Variable, ...]:
    """Differentiable all-to-all: ``xs[i]`` goes to process ``i``.

    Args:
        comm: a ChainerMN communicator.
        xs: one Variable (or array) per process.

    Returns:
        The Variables the processes sent here, by rank. Backward sends the gradients
        back, so no delegate variable is needed.

    Raises:
        ValueError: when ``len(xs)`` is not the communicator size.
    """
    if len(xs) != comm.size:
        raise ValueError(f'alltoall needs one variable per process ({comm.size}), '
                         f'got {len(xs)}')
    return _apply(AllToAll(comm), tuple(xs))


def bcast(comm: CommunicatorBase, x: VariableOrArray | None, root: int = 0) -> chainer.Variable:
    """Differentiable broadcast of the ``x`` of process ``root``.

    Args:
        comm: a ChainerMN communicator.
        x: on ``root``, the Variable (or array) to broadcast; ignored elsewhere.
        root: the broadcasting process.

    Returns:
        The broadcast Variable (on the current CUDA device when ``root``'s was on a
        GPU). Backward sums the gradients of all processes into ``x`` on ``root``.

    Raises:
        ValueError: when ``root`` gives None.
    """
    root = _check_root(comm, root)
    if comm.rank != root:
        return _apply(Bcast(comm, root), ())[0]
    if x is None:
        raise ValueError(f'bcast: the root process ({root}) must give the variable')
    return _apply(Bcast(comm, root), (x,))[0]


def gather(comm: CommunicatorBase, x: VariableOrArray,
           root: int = 0) -> tuple[chainer.Variable, ...] | chainer.Variable:
    """Differentiable gather of the ``x`` of every process on ``root``.

    Args:
        comm: a ChainerMN communicator.
        x: this process's Variable or array (shapes may differ between processes).
        root: the gathering process.

    Returns:
        On ``root``, a tuple of Variables by rank; elsewhere a delegate variable, from
        which backward receives the gradient of ``x`` (scattered by ``root``).
    """
    root = _check_root(comm, root)
    ys = _apply(Gather(comm, root), (x,))
    return ys if comm.rank == root else ys[0]


def scatter(comm: CommunicatorBase, xs: Sequence[VariableOrArray] | None,
            root: int = 0) -> chainer.Variable:
    """Differentiable scatter: ``xs[i]`` of process ``root`` goes to process ``i``.

    Args:
        comm: a ChainerMN communicator.
        xs: on ``root``, one Variable (or array) per process; ignored elsewhere.
        root: the scattering process.

    Returns:
        This process's Variable. Backward gathers the gradients on ``root``.

    Raises:
        ValueError: when ``root`` does not give one variable per process.
    """
    root = _check_root(comm, root)
    if comm.rank != root:
        return _apply(Scatter(comm, root), ())[0]
    if xs is None or len(xs) != comm.size:
        raise ValueError(f'scatter: the root process needs one variable per process '
                         f'({comm.size})')
    return _apply(Scatter(comm, root), tuple(xs))[0]
