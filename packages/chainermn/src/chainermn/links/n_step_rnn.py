"""An NStep RNN whose initial states come from, and final states go to, other processes."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import chainer
from chainermn.functions.point_to_point_communication import recv, send
from chainermn.functions.pseudo_connect import pseudo_connect

if TYPE_CHECKING:
    from chainermn.communicators.communicator_base import CommunicatorBase



def _n_cells(rnn: chainer.Link) -> int:
    n = getattr(rnn, 'n_cells', None)
    if n is not None:
        return int(n)
    return 2 if 'LSTM' in type(rnn).__name__ else 1


class MultiNodeNStepRNN(chainer.Chain):
    """Wraps an NStep RNN link (``NStepLSTM``, ``NStepGRU``, ...) for model parallelism.

    Its initial states (``hx``, and ``cx`` for an LSTM) are received from ``rank_in``
    (None: zeros), its final states are sent to ``rank_out`` (None: not sent).

    Args:
        link: the NStep RNN link.
        communicator: a ChainerMN communicator.
        rank_in: the process sending the initial states, or None.
        rank_out: the process receiving the final states, or None.
    """

    def __init__(self, link: chainer.Link, communicator: CommunicatorBase, rank_in: int | None,
                 rank_out: int | None) -> None:
        super().__init__()
        with self.init_scope():
            self.actual_rnn = link
        self.communicator = communicator
        self.rank_in = rank_in
        self.rank_out = rank_out
        self.n_cells = _n_cells(link)

    def forward(self, *inputs: Any) -> tuple[Any, ...]:
        """Run the RNN on ``inputs`` (the sequences, as the wrapped link takes them).

        Returns:
            The outputs of the wrapped link (final states, then the output sequences)
            followed by a delegate variable: that of the last send, or None when
            ``rank_out`` is None. Connect it to the loss with
            :func:`chainermn.functions.pseudo_connect`.
        """
        cells: list[Any] = [None] * self.n_cells
        if self.rank_in is not None:
            delegate = None
            for i in range(self.n_cells):
                cells[i] = recv(self.communicator, self.rank_in, delegate_variable=delegate)
                delegate = cells[i]
        outputs = self.actual_rnn(*cells, *inputs)
        delegate = None
        if self.rank_out is not None:
            for cell in outputs[:self.n_cells]:
                if delegate is not None:
                    cell, = pseudo_connect(delegate, cell)
                delegate = send(cell, self.communicator, self.rank_out)
        return (*outputs, delegate)


def create_multi_node_n_step_rnn(actual_link: chainer.Link, communicator: CommunicatorBase,
                                 rank_in: int | None = None,
                                 rank_out: int | None = None) -> MultiNodeNStepRNN:
    """Wrap an NStep RNN link as a :class:`MultiNodeNStepRNN`."""
    return MultiNodeNStepRNN(actual_link, communicator, rank_in, rank_out)
