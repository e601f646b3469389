"""A model whose parts run on several processes, connected by send/recv."""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import chainer
from chainermn.functions.point_to_point_communication import recv, send
from chainermn.functions.pseudo_connect import pseudo_connect

if TYPE_CHECKING:
    from chainermn.communicators.communicator_base import CommunicatorBase



def _ranks(value: Any, name: str, size: int) -> list[int] | None:
    if value is None:
        return None
    ranks = [value] if isinstance(value, int) else list(value)
    for r in ranks:
        if not isinstance(r, int) or not 0 <= r < size:
            raise ValueError(f'{name} must be None, a rank in [0, {size}) or a list of '
                             f'ranks, got {value!r}')
    return ranks


def _first_variable(x: Any) -> Any:
    return x[0] if isinstance(x, tuple) else x


class MultiNodeChainList(chainer.ChainList):
    """A chain of components, each receiving its input from the model input or from other
    processes, and giving its output as the model output or to other processes.

    Components run in the order they were added (:meth:`add_link`). A component with
    ``rank_in`` receives one input from each listed process (its own rank: the output
    this process sent to itself earlier, first in first out) and is called with them;
    otherwise it is called with the model's inputs. Its output is sent to each process
    of ``rank_out`` (its own rank: kept for a later component), or, when ``rank_out`` is
    None, is the model output (one component at most).

    Every communication is chained to the previous one, so that backward, started from
    the returned variable, communicates in the reverse order of the forward pass on
    every process. Calling the model returns the model output connected to that chain
    or, when no component gives the model output, the delegate variable of the last
    communication (call ``backward()`` on it).

    Args:
        comm: a ChainerMN communicator.
    """

    def __init__(self, comm: CommunicatorBase) -> None:
        super().__init__()
        self._comm = comm
        self._rank_inouts: list[tuple[list[int] | None, list[int] | None]] = []

    def add_link(self, link: chainer.Link, rank_in: int | Sequence[int] | None = None,
                 rank_out: int | Sequence[int] | None = None) -> None:
        """Add a component.

        Args:
            link: the component (a Link, usually a Chain).
            rank_in: None (takes the model inputs), a rank or a list of ranks to
                receive its inputs from.
            rank_out: None (gives the model output), a rank or a list of ranks to send
                its output to.

        Raises:
            ValueError: for a bad rank, or a second component giving the model output.
        """
        size = self._comm.size
        ins, outs = _ranks(rank_in, 'rank_in', size), _ranks(rank_out, 'rank_out', size)
        if outs is None and any(o is None for _, o in self._rank_inouts):
            raise ValueError('MultiNodeChainList: only one component can give the model '
                             'output (rank_out=None)')
        super().add_link(link)
        self._rank_inouts.append((ins, outs))

    def forward(self, *inputs: Any) -> Any:
        """Run the components in order; returns the model output or a delegate variable."""
        rank = self._comm.rank
        chain = None  # the delegate of the latest communication
        mailbox: deque[Any] = deque()  # outputs this process sent to itself
        output = None
        for link, (ins, outs) in zip(self, self._rank_inouts):
            if ins is None:
                y = link(*inputs)
            else:
                xs = []
                for r in ins:
                    if r == rank:
                        xs.append(mailbox.popleft())
                    else:
                        x = recv(self._comm, r, delegate_variable=chain)
                        chain = _first_variable(x)
                        xs.append(x)
                y = link(*xs)
            if outs is None:
                output = y
                continue
            for r in outs:
                if r == rank:
                    mailbox.append(y)
                    continue
                if chain is not None:
                    y = _connect(chain, y)
                chain = send(y, self._comm, r)
        if output is None:
            return chain
        return output if chain is None else _connect(chain, output)


def _connect(delegate: Any, y: Any) -> Any:
    """``y`` (a variable or a tuple of them) tied to ``delegate`` in the graph."""
    if isinstance(y, tuple):
        return pseudo_connect(delegate, *y)
    return pseudo_connect(delegate, y)[0]
